"""Train the convolutional rank reader offline and export it as ONNX.

    python3 -m venv /tmp/train && /tmp/train/bin/pip install -e '.[train]'
    /tmp/train/bin/python benchmarks/train_glyph_cnn.py --out /tmp/rank_cnn.onnx  # ~15 min

Why a second reader: the perceptron of ``vision/glyph_model.py`` sees a glyph
through a fixed histogram of gradients; on a typeface it never saw, a low rank
blurred by the overhead camera (a "3" against a "5", a "2" against an "8")
leaves it unsure or, rarely, wrong, and no fusion of frames can fix one
degraded shot (docs/vision.md, "Sixteenth pass").  A small convolutional
network learns its own strokes from the same glyphs; averaged with the
perceptron (``vision.glyph_cnn``), it reads the shot from a second point of
view.

It trains on the rank glyphs the shipped perceptrons trained on (the
``-more2`` glyph cache of ``build_generic_profile.py --extra-rank-fonts``:
training designs and fonts only) and, since the eighteenth pass, those of the
faces of the held-out font groups already read (``--glyphs`` with the files of
``build_generic_profile.py --read-font-glyphs``), each glyph as ``square_glyph`` makes it,
plus ``--copies`` damaged copies (``vision.glyph_damage.augment``, the
perceptrons' damage), with classes weighted as ``train_mlp`` weights them.
PyTorch is needed here only (the ``train`` extra); the table runs the exported
file with OpenCV's DNN module.  Seeded (weights, batch order, dropout, damaged
copies); PyTorch's multi-threaded sums on the CPU may still add in another
order, so a rerun gives a network that reads alike, not necessarily the same
bytes (not checked byte for byte).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

import torch  # noqa: E402
from build_generic_profile import CACHE, VAL_GROUPS, _unpack  # noqa: E402
from torch import nn  # noqa: E402

from vision.glyph_cnn import CHANNELS, HIDDEN  # noqa: E402
from vision.glyph_damage import augment  # noqa: E402
from vision.glyph_model import RANK_CLASSES, SIDE, SUIT_CLASSES, square_glyph  # noqa: E402

GLYPHS = CACHE.with_name(f"{CACHE.stem}-styles6-more2.npz")


def network(classes: int) -> nn.Sequential:
    """Three 3x3 convolutions (each with batch norm, ReLU and 2x2 max pooling:
    32 -> 16 -> 8 -> 4 pixels), one hidden layer, the class logits."""
    c1, c2, c3 = CHANNELS
    layers: list[nn.Module] = []
    for cin, cout in ((1, c1), (c1, c2), (c2, c3)):
        layers += [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
                   nn.ReLU(), nn.MaxPool2d(2)]
    side = SIDE // 8
    layers += [nn.Flatten(), nn.Dropout(0.2), nn.Linear(c3 * side * side, HIDDEN), nn.ReLU(),
               nn.Linear(HIDDEN, classes)]
    return nn.Sequential(*layers)


def squares(packed: np.ndarray, labels: np.ndarray, rng: np.random.Generator, copies: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """Each crop's square and ``copies`` damaged squares, as uint8 (n, SIDE, SIDE)."""
    out = np.empty((len(packed) * (1 + copies), SIDE, SIDE), np.uint8)
    ys = np.empty(len(out), np.int64)
    i = 0
    for a, y in zip(packed, labels, strict=True):
        ink = _unpack(a)
        for k in range(1 + copies):
            sq = square_glyph(ink if k == 0 else augment(ink, rng))
            out[i] = np.round(sq * 255).astype(np.uint8)
            ys[i] = y
            i += 1
    return out, ys


def train(x: np.ndarray, y: np.ndarray, classes: str, *, epochs: int, seed: int,
          batch: int = 256) -> nn.Sequential:
    """Cross-entropy with label smoothing, class weights, AdamW, a one-cycle schedule."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    c = len(classes)
    counts = np.bincount(y, minlength=c).astype(np.float32)
    weights = torch.tensor((counts.sum() / np.maximum(counts, 1) / c) ** 0.5)
    model = network(c)
    steps = epochs * ((len(y) + batch - 1) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss(weight=weights, label_smoothing=0.03)
    xt = torch.from_numpy(x)
    yt = torch.from_numpy(y)
    for epoch in range(epochs):
        model.train()
        order = torch.from_numpy(rng.permutation(len(y)))
        total, t = 0.0, time.perf_counter()
        for s in range(0, len(y), batch):
            idx = order[s : s + batch]
            xb = xt[idx].unsqueeze(1).float() / 255
            loss = loss_fn(model(xb), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        print(f"  epoch {epoch + 1}: loss {total / len(y):.4f}  "
              f"{time.perf_counter() - t:.0f} s", flush=True)
    model.eval()
    return model


#: glyphs per forward pass when reporting accuracy: the whole set in one pass
#: held every layer's activations at once (about 24 GB for 192,098 glyphs,
#: which the kernel's OOM killer took, both networks with it, in the
#: twenty-ninth pass)
REPORT_BATCH = 4096


def accuracy(model: nn.Sequential, x: np.ndarray, y: np.ndarray, classes: str) -> str:
    with torch.no_grad():
        logits = torch.cat([model(torch.from_numpy(x[s : s + REPORT_BATCH]).unsqueeze(1).float()
                                  / 255) for s in range(0, len(x), REPORT_BATCH)])
    p = torch.softmax(logits, 1)
    conf, best = p.max(1)
    yt = torch.from_numpy(y)
    q = len(classes) - 1
    std = yt != q
    lines = [f"top-1 {float((best == yt).float().mean()):.4f} on {len(y)} glyphs"]
    for thr in (0.7, 0.85, 0.95):
        ans = (best != q) & (conf >= thr)
        right = float((ans & (best == yt))[std].float().mean())
        wrong = float((ans & (best != yt))[std].float().mean())
        lines.append(f"p>={thr}: standard answered {right:.4f} wrong {wrong:.4f}")
    return "\n    ".join(lines)


def read_glyphs(paths: list[Path], task: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One task's packed crops, labels and groups from every file, in order."""
    parts = []
    for path in paths:
        with np.load(path) as z:
            parts.append((z[f"{task}_x"], z[f"{task}_y"], z[f"{task}_g"]))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--glyphs", type=Path, nargs="+", default=[GLYPHS],
                    help="glyph files, read as one set: the cache of "
                    "build_generic_profile.py --extra-rank-fonts, and since the eighteenth "
                    "pass the files of its --read-font-glyphs too")
    ap.add_argument("--task", choices=("rank", "suit"), default="rank",
                    help="the rank reader, or the suit reader (seventeenth pass, second "
                    "candidate: docs/vision.md)")
    ap.add_argument("--copies", type=int, default=6, help="damaged copies per glyph")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--validate", action="store_true",
                    help="hold out build_generic_profile.VAL_GROUPS and report on them")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    classes = RANK_CLASSES if args.task == "rank" else SUIT_CLASSES
    packed, labels, groups = read_glyphs(args.glyphs, args.task)
    y = np.array([classes.index(str(s)) for s in labels])
    val = np.isin(groups, VAL_GROUPS) if args.validate else np.zeros(len(y), bool)
    print(f"{args.task}: {len(y)} glyphs ({int(val.sum())} held out), "
          f"per class {dict(Counter(str(s) for s in labels))}", flush=True)
    rng = np.random.default_rng(args.seed)
    t = time.perf_counter()
    x_train, y_train = squares(packed[~val], y[~val], rng, args.copies)
    print(f"  {len(y_train)} squares in {time.perf_counter() - t:.0f} s", flush=True)
    model = train(x_train, y_train, classes, epochs=args.epochs, seed=args.seed)
    # written before anything is reported, so an hour of training is never
    # lost to the report
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (torch.zeros(1, 1, SIDE, SIDE),), str(args.out),
                      input_names=["glyph"], output_names=["logits"],
                      dynamic_axes={"glyph": {0: "n"}, "logits": {0: "n"}}, dynamo=False)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)", flush=True)
    print(f"  training glyphs: {accuracy(model, x_train[:: 1 + args.copies], y[~val], classes)}")
    if args.validate:
        x_val, y_val = squares(packed[val], y[val], rng, 0)
        print(f"  held-out groups: {accuracy(model, x_val, y_val, classes)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
