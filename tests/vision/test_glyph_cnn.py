"""The convolutional rank reader (``vision.glyph_cnn``) and how a model file
mixes it with the perceptron (``GlyphModel.rank_probs``).

The reference for OpenCV's output is an independent interpreter: plain NumPy
loops over the ONNX graph's nodes (convolution written as a sum of shifted
products, max pooling as a maximum of four views), not OpenCV and not the
training framework.
"""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from vision.glyph_cnn import GlyphCnn
from vision.glyph_model import (
    RANK_CLASSES,
    SIDE,
    SUIT_CLASSES,
    GlyphModelError,
    features,
    glyph_model,
    load_glyph_model,
    square_glyph,
)


def _random_network(seed: int, channels: tuple[int, int] = (4, 6), hidden: int = 10,
                    classes: str = RANK_CLASSES, favour: int | None = None) -> bytes:
    """A network of the shipped shape (conv+BN-folded bias, ReLU, 2x2 max pool, twice;
    flatten; two dense layers) with random weights, built node by node."""
    rng = np.random.default_rng(seed)
    c1, c2 = channels
    flat = c2 * (SIDE // 4) ** 2
    weights = {
        "w1": rng.normal(0, 0.5, (c1, 1, 3, 3)), "b1": rng.normal(0, 0.1, c1),
        "w2": rng.normal(0, 0.3, (c2, c1, 3, 3)), "b2": rng.normal(0, 0.1, c2),
        "w3": rng.normal(0, 0.1, (hidden, flat)), "b3": rng.normal(0, 0.1, hidden),
        "w4": rng.normal(0, 0.3, (len(classes), hidden)),
        "b4": rng.normal(0, 0.1, len(classes)),
    }
    if favour is not None:  # this class wins whatever the glyph
        weights["b4"][favour] += 100.0
    inits = [numpy_helper.from_array(v.astype(np.float32), k) for k, v in weights.items()]
    conv = {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}
    pool = {"kernel_shape": [2, 2], "strides": [2, 2]}
    nodes = [
        helper.make_node("Conv", ["glyph", "w1", "b1"], ["c1"], **conv),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], **pool),
        helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], **conv),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("MaxPool", ["r2"], ["p2"], **pool),
        helper.make_node("Flatten", ["p2"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "w3", "b3"], ["g3"], transB=1),
        helper.make_node("Relu", ["g3"], ["r3"]),
        helper.make_node("Gemm", ["r3", "w4", "b4"], ["logits"], transB=1),
    ]
    graph = helper.make_graph(
        nodes, "rank",
        [helper.make_tensor_value_info("glyph", TensorProto.FLOAT, ["n", 1, SIDE, SIDE])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                       ["n", len(classes)])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def _reference(onnx_bytes: bytes, x: np.ndarray) -> np.ndarray:
    """The graph evaluated node by node in float64 NumPy."""
    model = onnx.load_from_string(onnx_bytes)
    env = {t.name: numpy_helper.to_array(t).astype(np.float64)
           for t in model.graph.initializer}
    env[model.graph.input[0].name] = x.astype(np.float64)
    for node in model.graph.node:
        a = [env[i] for i in node.input]
        attrs = {at.name: helper.get_attribute_value(at) for at in node.attribute}
        if node.op_type == "Conv":
            v, w = a[0], a[1]
            n, _, h, wd = v.shape
            pad = np.pad(v, ((0, 0), (0, 0), (1, 1), (1, 1)))
            out = np.zeros((n, w.shape[0], h, wd))
            for dy in range(3):
                for dx in range(3):
                    out += np.einsum("nchw,oc->nohw", pad[:, :, dy:dy + h, dx:dx + wd],
                                     w[:, :, dy, dx])
            res = out + (a[2][None, :, None, None] if len(a) > 2 else 0)
        elif node.op_type == "Relu":
            res = np.maximum(a[0], 0)
        elif node.op_type == "MaxPool":
            v = a[0]
            res = np.maximum.reduce([v[:, :, i::2, j::2] for i in (0, 1) for j in (0, 1)])
        elif node.op_type == "Flatten":
            res = a[0].reshape(len(a[0]), -1)
        elif node.op_type == "Gemm":
            w = a[1].T if attrs.get("transB", 0) else a[1]
            res = a[0] @ w + a[2]
        else:  # pragma: no cover - the graphs here use only these
            raise AssertionError(f"no reference for {node.op_type}")
        env[node.output[0]] = res
    out: np.ndarray = env[model.graph.output[0].name]
    return out


def test_opencv_runs_the_network_as_the_reference_does() -> None:
    net = _random_network(1)
    squares = np.random.default_rng(2).random((5, SIDE, SIDE)).astype(np.float32)
    got = GlyphCnn(net, RANK_CLASSES).logits(squares)
    assert got.shape == (5, len(RANK_CLASSES))
    np.testing.assert_allclose(got, _reference(net, squares[:, None]), rtol=1e-4, atol=1e-4)
    # one glyph at a time gives the same rows (the recogniser reads corner by corner)
    one = GlyphCnn(net, RANK_CLASSES).logits(squares[3:4])
    np.testing.assert_allclose(one[0], got[3], rtol=1e-5, atol=1e-5)
    # members trained apart: the mean of their logits
    other = _random_network(10)
    pair = GlyphCnn([net, other], RANK_CLASSES).logits(squares)
    want = (_reference(net, squares[:, None]) + _reference(other, squares[:, None])) / 2
    np.testing.assert_allclose(pair, want, rtol=1e-4, atol=1e-4)
    # a copy sent to a worker process rebuilds its network
    copy = pickle.loads(pickle.dumps(GlyphCnn(net, RANK_CLASSES)))
    np.testing.assert_array_equal(copy.logits(squares), got)


def test_rank_probs_mix_the_two_readers_logits_at_the_weight(tmp_path: Path) -> None:
    base = glyph_model().perceptrons()
    ink = np.zeros((20, 12), np.float32)
    ink[2:18, 4:8] = 1.0  # a bar, as a "1" or a "T" stem
    f = features(ink)
    cnn = GlyphCnn(_random_network(3), RANK_CLASSES)
    mlp = base.rank.logits(f).astype(np.float64)
    conv = _reference(cnn.members[0], square_glyph(ink)[None, None])[0]
    for weight in (0.25, 1.0):
        mixed = replace(base, rank_cnn=cnn, cnn_weight=weight)
        e = (1 - weight) * mlp + weight * conv
        want = np.exp(e - e.max()) / np.exp(e - e.max()).sum()
        np.testing.assert_allclose(mixed.rank_probs(f, ink), want, rtol=1e-3, atol=1e-5)
    # without a network, the perceptron's probabilities unchanged
    np.testing.assert_array_equal(replace(base, rank_cnn=None).rank_probs(f, ink),
                                  base.rank.probs(f))
    # the suit likewise, with its own network and weight, the rank untouched
    suit_cnn = GlyphCnn(_random_network(6, classes=SUIT_CLASSES), SUIT_CLASSES)
    suit_mixed = replace(base, suit_cnn=suit_cnn, suit_cnn_weight=0.6)
    e = 0.4 * base.suit.logits(f).astype(np.float64) + 0.6 * _reference(
        suit_cnn.members[0], square_glyph(ink)[None, None])[0]
    np.testing.assert_allclose(suit_mixed.suit_probs(f, ink), np.exp(e) / np.exp(e).sum(),
                               rtol=1e-3, atol=1e-5)
    np.testing.assert_array_equal(suit_mixed.rank_probs(f, ink), base.rank.probs(f))


def test_a_model_file_keeps_its_network_and_weight(tmp_path: Path) -> None:
    net, suit_net = _random_network(4), _random_network(7, classes=SUIT_CLASSES)
    net2 = _random_network(9, classes=SUIT_CLASSES)
    mixed = replace(glyph_model(), rank_cnn=GlyphCnn(net, RANK_CLASSES), cnn_weight=0.4,
                    suit_cnn=GlyphCnn([suit_net, net2], SUIT_CLASSES), suit_cnn_weight=0.7,
                    cnn_agree=True)
    path = tmp_path / "m.npz"
    mixed.save(path)
    back = load_glyph_model(path)
    assert back.rank_cnn is not None and back.rank_cnn.members == (net,)
    assert back.cnn_weight == pytest.approx(0.4)
    assert back.suit_cnn is not None and back.suit_cnn.members == (suit_net, net2)
    assert back.suit_cnn.classes == SUIT_CLASSES
    assert back.suit_cnn_weight == pytest.approx(0.7)
    assert back.cnn_agree
    # a file without a network loads with none, whatever weight its metadata says
    plain = tmp_path / "plain.npz"
    replace(mixed, rank_cnn=None, suit_cnn=None).save(plain)
    assert load_glyph_model(plain).rank_cnn is None
    assert load_glyph_model(plain).cnn_weight == 0.0
    assert load_glyph_model(plain).suit_cnn is None
    assert load_glyph_model(plain).suit_cnn_weight == 0.0


def test_a_file_with_a_broken_network_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.npz"
    replace(glyph_model(), rank_cnn=GlyphCnn(_random_network(5), RANK_CLASSES),
            cnn_weight=0.5).save(path)
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["rank_cnn_onnx"] = arrays["rank_cnn_onnx"][:200]  # cut short
    broken = tmp_path / "broken.npz"
    np.savez(broken, **arrays)  # type: ignore[arg-type]
    with pytest.raises(GlyphModelError, match="not a glyph model"):
        load_glyph_model(broken)


def test_agreeing_networks_only_make_the_perceptron_surer() -> None:
    """With ``cnn_agree``, a network that names another class changes nothing;
    one that names the perceptron's class is mixed in at its weight."""
    base = glyph_model().perceptrons()
    ink = np.zeros((20, 12), np.float32)
    ink[2:18, 4:8] = 1.0
    f = features(ink)
    mlp = base.rank.logits(f).astype(np.float64)
    top = int(np.argmax(mlp))
    for favour, agrees in (((top + 1) % len(RANK_CLASSES), False), (top, True)):
        cnn = GlyphCnn(_random_network(8, favour=favour), RANK_CLASSES)
        model = replace(base, rank_cnn=cnn, cnn_weight=0.5, cnn_agree=True)
        conv = _reference(cnn.members[0], square_glyph(ink)[None, None])[0]
        e = 0.5 * mlp + 0.5 * conv if agrees else mlp
        want = np.exp(e - e.max()) / np.exp(e - e.max()).sum()
        np.testing.assert_allclose(model.rank_probs(f, ink), want, rtol=1e-3, atol=1e-5)
        # without agreement, the network would have its way
        assert int(np.argmax(replace(model, cnn_agree=False).rank_probs(f, ink))) == favour


def test_a_deck_with_a_profile_reads_without_the_networks(
    monkeypatch: pytest.MonkeyPatch, builtin_deck) -> None:  # type: ignore[no-untyped-def]
    """The networks read only where the typeface is unknown: a Recognizer with
    a profile keeps the perceptrons alone, one without keeps the networks."""
    import vision.glyph_model as gm
    from vision import Recognizer
    from vision.calibrate import calibrate_images

    cnn = GlyphCnn(_random_network(11), RANK_CLASSES)
    suit = GlyphCnn(_random_network(12, classes=SUIT_CLASSES), SUIT_CLASSES)
    with_networks = replace(glyph_model(), rank_cnn=cnn, cnn_weight=1.0, suit_cnn=suit,
                            suit_cnn_weight=0.5, cnn_agree=True)
    monkeypatch.setattr(gm, "_model", with_networks)
    assert Recognizer().model is with_networks
    from hardware_sim.cards import CARD_CODES

    profile = calibrate_images({c: builtin_deck.face(c) for c in CARD_CODES}, name="builtin")
    profiled = Recognizer(profile).model
    assert profiled.rank_cnn is None and profiled.suit_cnn is None
    assert profiled.cnn_weight == 0.0 and profiled.suit_cnn_weight == 0.0
    assert not profiled.cnn_agree
    assert profiled.rank is with_networks.rank and profiled.suit is with_networks.suit
