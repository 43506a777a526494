"""In the shoe, the band below the index: a court's picture or an ace's paper
(``vision.in_shoe_body``; docs/vision.md, nineteenth pass, sixth change).

Frames come from the simulator's in-shoe renderer over the built-in deck,
whose courts print a picture right below the index (``builtin.py``:
``_draw_court``) and whose aces print one pip in the card's middle and
nothing else there; the expected verdicts follow from that layout."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from hardware_sim.camera.in_shoe import InShoeRenderer
from vision.in_shoe import LONE_PIP, NO_PICTURE, SIDE_PIPS, InShoeReader, PassFusion
from vision.in_shoe_body import (
    BAND,
    COURTS,
    LONE_PIP_RULES_OUT,
    band_holds_a_lone_pip,
    band_holds_pips_at_its_sides,
    band_ink,
    band_is_blank,
)
from vision.in_shoe_pose import Pose, find_pose
from vision.index import CARD_H, CARD_W

Image = npt.NDArray[np.uint8]
T = TypeVar("T")
Window = tuple[float, float, float, float]
#: what the band says of a frame (None: the band not wholly in view)
BandVerdict = Callable[[Image, npt.NDArray[np.float32], Window], bool | None]


@pytest.fixture(scope="module")
def reader() -> InShoeReader:
    return InShoeReader()


@pytest.fixture(scope="module")
def renderer() -> InShoeRenderer:
    return InShoeRenderer("builtin", preset="normal", seed=5)


def _pass(renderer: InShoeRenderer, code: str, k: int) -> list[Image]:
    rng = np.random.default_rng(k)
    plan = renderer.plan(code, rng, lead="top" if k % 2 else "bottom")
    return [f.image for f in renderer.render_pass(plan, rng)]


def _verdicts(reader: InShoeReader, frames: list[Image],
              verdict: Callable[[Image, npt.NDArray[np.float32], Window], T | None]) -> list[T]:
    """``verdict`` of every frame that shows the whole band."""
    out: list[T] = []
    for f in frames:
        pose = find_pose(f)
        if isinstance(pose, Pose):
            said = verdict(f, pose.quad, reader._window(f))
            if said is not None:
                out.append(said)
    return out


@pytest.mark.parametrize("code", ["AS", "AH"])
def test_an_aces_band_is_blank_paper(
        reader: InShoeReader, renderer: InShoeRenderer, code: str) -> None:
    for k in range(2):
        seen = _verdicts(reader, _pass(renderer, code, k), band_is_blank)
        assert len(seen) >= 2 and all(seen), seen


@pytest.mark.parametrize("code", ["QS", "KD", "JH", "4C", "9H"])
def test_a_court_or_number_cards_band_is_never_blank(
        reader: InShoeReader, renderer: InShoeRenderer, code: str) -> None:
    for k in range(2):
        seen = _verdicts(reader, _pass(renderer, code, k), band_is_blank)
        assert seen and not any(seen), seen


def test_a_band_not_wholly_in_view_says_nothing(reader: InShoeReader) -> None:
    """The card's end just inside the window: the band lies outside it."""
    renderer = InShoeRenderer("builtin", preset="normal", seed=5)
    rng = np.random.default_rng(3)
    plan = renderer.plan("AS", rng, lead="bottom", rotation_deg=0.0, play_mm=0.0)
    early = renderer.render(plan, 12.0, 500.0, rng).image
    pose = find_pose(early)
    assert isinstance(pose, Pose)
    assert band_ink(early, pose.quad, reader._window(early)) is None


def _paper_over_band(frame: Image, quad: npt.NDArray[np.float32]) -> Image:
    """``frame`` with the band painted the colour of the card's paper: a
    queen whose picture is not where a court's is."""
    canon = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    h = cv2.getPerspectiveTransform(canon, quad)
    x0, y0, x1, y1 = BAND
    pts = cv2.perspectiveTransform(
        np.array([[[x0 - 4, y0 - 4], [x1 + 4, y0 - 4], [x1 + 4, y1 + 4], [x0 - 4, y1 + 4]]],
                 np.float32), h)[0]
    grey = frame.min(axis=2)
    paper = frame[grey >= np.percentile(grey, 97)].mean(axis=0)
    out = frame.copy()
    cv2.fillConvexPoly(out, np.round(pts).astype(np.int32), tuple(float(v) for v in paper))
    return out


def _frames_seeing_band(reader: InShoeReader, renderer: InShoeRenderer,
                        code: str) -> list[tuple[Image, npt.NDArray[np.float32]]]:
    """The frames of two passes of ``code`` that show the whole band, with
    the card's outline in each."""
    out = []
    for f in _pass(renderer, code, 0) + _pass(renderer, code, 1):
        pose = find_pose(f)
        if isinstance(pose, Pose) and band_ink(f, pose.quad, reader._window(f)) is not None:
            out.append((f, pose.quad))
    return out


def test_a_frame_naming_a_court_over_paper_is_unsure(
        reader: InShoeReader, renderer: InShoeRenderer) -> None:
    """A frame that names QS alone, its band then painted paper: unsure, with
    the reason; and a pass of such frames names no court (the veto)."""
    painted = []
    named = 0
    for f, quad in _frames_seeing_band(reader, renderer, "QS"):
        p = _paper_over_band(f, quad)
        assert band_is_blank(p, quad, reader._window(p))
        painted.append(p)
        if reader.read(f).card == "QS":
            named += 1
            reading = reader.read(p)
            assert reading.card is None and reading.reason == NO_PICTURE
            assert reading.code == "pips_disagree"
            assert reading.ruled_out >= COURTS
    assert named >= 1
    result = reader.read_pass(painted)
    assert result.card is None and result.code == "pips_disagree", result


@pytest.mark.parametrize("code", ["QS", "KD"])
def test_the_table_decides_a_court_only_after_two_frames_showed_its_band(
        reader: InShoeReader, renderer: InShoeRenderer, code: str) -> None:
    """Read stopping once decided (as the live path did until the twentieth
    pass; ``PassFusion.ready``): a court is named, and not before two frames
    have shown the band below an index."""
    for k in range(2):
        fusion = reader.fusion()
        for f in _pass(renderer, code, k):
            fusion.push(f)
            if fusion.ready():
                break
        assert fusion.result().card == code
        assert fusion.bands_seen >= 2


def _lone_pips(reader: InShoeReader, frames: list[Image]) -> list[bool]:
    return _verdicts(reader, frames, band_holds_a_lone_pip)


@pytest.mark.parametrize("code", ["2H", "2S", "3C", "3D"])
def test_a_two_or_threes_band_holds_its_top_pip_alone(
        reader: InShoeReader, renderer: InShoeRenderer, code: str) -> None:
    """The built-in 2s and 3s print their top pip on the card's axis, in the
    band (docs/vision.md, twenty-sixth pass): most frames that see the band
    see that pip alone, and their readings veto every court and every number
    card from 4 to 10 (twenty-seventh pass), never an ace, a 2 or a 3 (before
    the twenty-sixth pass nothing was vetoed, before the twenty-seventh only
    the courts)."""
    _most_frames_veto(reader, renderer, code, band_holds_a_lone_pip,
                      COURTS | LONE_PIP_RULES_OUT, spared="A23")


def _most_frames_veto(reader: InShoeReader, renderer: InShoeRenderer, code: str,
                      verdict: BandVerdict, vetoed: frozenset[str], spared: str) -> None:
    """Over two passes of ``code``: ``verdict`` holds in at least half the
    frames that see the band (three at least), at least half as many frames
    rule out all of ``vetoed``, and none rules out a card of a rank in
    ``spared``."""
    for k in range(2):
        frames = _pass(renderer, code, k)
        seen = _verdicts(reader, frames, verdict)
        assert len(seen) >= 3 and sum(seen) >= len(seen) / 2, seen
        ruled = [reader.read(f).ruled_out for f in frames]
        assert sum(r >= vetoed for r in ruled) >= sum(seen) / 2
        assert not any(c[0] in spared for r in ruled for c in r)


@pytest.mark.parametrize("code", ["QS", "KD", "JH", "AS", "4C", "9H", "TD"])
def test_no_other_card_shows_a_lone_pip_in_its_band(
        reader: InShoeReader, renderer: InShoeRenderer, code: str) -> None:
    """Courts print their picture there, aces nothing, and the other number
    cards' pips stand beside the axis or below the band."""
    for k in range(2):
        seen = _lone_pips(reader, _pass(renderer, code, k))
        assert seen and not any(seen), seen


def test_a_mark_off_the_axis_or_too_wide_is_no_lone_pip(reader: InShoeReader) -> None:
    """By hand: a builtin 2H frame whose top pip is painted over with paper
    and a mark drawn in the band off the axis, then a bar across the band."""
    renderer = InShoeRenderer("builtin", preset="clean", seed=5)
    rng = np.random.default_rng(4)
    plan = renderer.plan("2H", rng, lead="top", rotation_deg=0.0, play_mm=0.0)
    frames = [f.image for f in renderer.render_pass(plan, rng)]
    for f in frames:
        pose = find_pose(f)
        if isinstance(pose, Pose) and band_holds_a_lone_pip(f, pose.quad, reader._window(f)):
            break
    else:
        pytest.fail("no frame of the clean 2H showed its top pip alone in the band")
    blank = _paper_over_band(f, pose.quad)
    canon = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    h = cv2.getPerspectiveTransform(canon, pose.quad)
    x0, y0, x1, y1 = BAND

    def mark(img: Image, box: tuple[float, float, float, float]) -> Image:
        a, b, c, d = box
        pts = cv2.perspectiveTransform(
            np.array([[[a, b], [c, b], [c, d], [a, d]]], np.float32), h)[0]
        out = img.copy()
        cv2.fillConvexPoly(out, np.round(pts).astype(np.int32), (20, 20, 20))
        return out

    cy = (y0 + y1) / 2
    off_axis = mark(blank, (x0 + 4, cy - 8, x0 + 20, cy + 8))
    across = mark(blank, (x0 - 2, cy - 4, x1 + 2, cy + 4))
    on_axis = mark(blank, (CARD_W / 2 - 8, cy - 8, CARD_W / 2 + 8, cy + 8))
    window = reader._window(f)
    assert band_holds_a_lone_pip(on_axis, pose.quad, window) is True
    assert band_holds_a_lone_pip(off_axis, pose.quad, window) is False
    assert band_holds_a_lone_pip(across, pose.quad, window) is False


def test_a_frame_naming_a_seven_over_a_lone_pip_is_unsure(
        reader: InShoeReader, renderer: InShoeRenderer) -> None:
    """By hand: frames of the built-in 7H whose index reads 7H (no frame
    margin asked), their band painted paper with one pip-sized mark on the
    card's axis (a 2's or a 3's top pip): unsure, with the reason, and a
    pass of them names no card (the old code vetoed only the courts there,
    and read the 7)."""
    raw = InShoeReader(frame_margin=0.0)
    painted = []
    named = 0
    for f, quad in _frames_seeing_band(reader, renderer, "7H"):
        canon = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
        h = cv2.getPerspectiveTransform(canon, quad)
        cy = (BAND[1] + BAND[3]) / 2
        pts = cv2.perspectiveTransform(np.array(
            [[[CARD_W / 2 - 8, cy - 8], [CARD_W / 2 + 8, cy - 8], [CARD_W / 2 + 8, cy + 8],
              [CARD_W / 2 - 8, cy + 8]]], np.float32), h)[0]
        p = _paper_over_band(f, quad)
        cv2.fillConvexPoly(p, np.round(pts).astype(np.int32), (40, 40, 200))
        assert band_holds_a_lone_pip(p, quad, reader._window(p)) is True
        painted.append(p)
        if raw.read(f).card == "7H":
            named += 1
            reading = raw.read(p)
            assert reading.card is None and reading.reason == LONE_PIP
            assert reading.code == "pips_disagree" and reading.guess == "7H"
            assert "7H" in reading.ruled_out and "2H" not in reading.ruled_out
    assert named >= 1
    result = reader.read_pass(painted)
    assert result.card is None, result


@pytest.mark.parametrize("design", ["builtin", "anglo"])
def test_a_court_under_the_glare_fault_is_never_named_another_card(
        reader: InShoeReader, design: str) -> None:
    """The shoe's glare fault (``InShoeRenderer.fault("glare")``: a flood of
    stray light over the window) washes a court's picture out of the band,
    which then reads blank and rules the court's own card out (noticed in
    the twenty-seventh pass).  The index is washed out too, so few frames
    read it.  What must hold is that such a pass names no other card: the
    few index frames lean to the court, the veto forbids it, and no other
    card has the two witnesses a pass needs, so the pass is unsure, and
    says why."""
    renderer = InShoeRenderer(design, preset="normal", seed=5)
    vetoed = 0
    for code in ("QS", "KD", "JH"):
        rng = np.random.default_rng(100)
        plan = renderer.plan(code, rng, lead="bottom")
        frames = [renderer.fault("glare", f, rng).image for f in renderer.render_pass(plan, rng)]
        fusion = PassFusion(reader)
        for f in frames:
            fusion.push(f)
        res = fusion.result()
        assert res.card in (None, code), (design, code, res)
        assert res.card is not None or res.reason, (design, code)
        vetoed += res.reason.startswith(f"the card's pips rule out: {code}")
    # the case this test is about happened: glare's blank band vetoed a court
    # whose index frames were read (builtin: all three courts; anglo: two)
    assert vetoed >= 2, design


def _side_pips(reader: InShoeReader, frames: list[Image]) -> list[bool]:
    return _verdicts(reader, frames, band_holds_pips_at_its_sides)


@pytest.mark.parametrize("code", ["4C", "5H", "7S", "8D", "TD"])
def test_a_number_cards_top_row_shows_a_pip_at_each_side_of_the_band(
        reader: InShoeReader, renderer: InShoeRenderer, code: str) -> None:
    """The built-in 4s to 10s print their top row's two pips where the band's
    sides cut them (docs/vision.md, thirtieth pass): most frames that see
    the band see them with paper between, and their readings veto the
    courts, and only the courts (before the thirtieth pass such a band
    vetoed nothing)."""
    _most_frames_veto(reader, renderer, code, band_holds_pips_at_its_sides, COURTS,
                      spared="A23456789T")


@pytest.mark.parametrize("code", ["QS", "KD", "JH", "AS", "2H", "3C"])
def test_no_court_ace_two_or_three_shows_pips_at_the_bands_sides(
        reader: InShoeReader, renderer: InShoeRenderer, code: str) -> None:
    """A court's picture spans the card's axis, an ace's band is paper, a
    2's or a 3's top pip stands on the axis alone."""
    for k in range(2):
        seen = _side_pips(reader, _pass(renderer, code, k))
        assert seen and not any(seen), seen


def _box(img: Image, quad: npt.NDArray[np.float32],
         box: tuple[float, float, float, float]) -> Image:
    """``img`` with ``box`` (card units) painted near-black."""
    canon = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    h = cv2.getPerspectiveTransform(canon, quad)
    a, b, c, d = box
    pts = cv2.perspectiveTransform(np.array([[[a, b], [c, b], [c, d], [a, d]]], np.float32), h)[0]
    out = img.copy()
    cv2.fillConvexPoly(out, np.round(pts).astype(np.int32), (20, 20, 20))
    return out


def _with_side_pips(frame: Image, quad: npt.NDArray[np.float32]) -> Image:
    """``frame``'s band painted paper, then a pip-sized mark across each of
    its sides, as a 4's to a 10's top row stands (by hand)."""
    x0, y0, x1, y1 = BAND
    cy = (y0 + y1) / 2
    out = _box(_paper_over_band(frame, quad), quad, (x0 - 12, cy - 9, x0 + 12, cy + 9))
    return _box(out, quad, (x1 - 12, cy - 9, x1 + 12, cy + 9))


def test_marks_between_the_side_pips_decide_by_where_they_stand(
        reader: InShoeReader, renderer: InShoeRenderer) -> None:
    """By hand, on frames of the built-in JH: two side marks alone are a
    number card's top row; a mark between them in the band's lower half (a
    7's or an 8's middle pip) still is; one in its upper half, or a bar
    joining the sides (a picture's frame), is not."""
    x0, y0, x1, y1 = BAND
    frames = _frames_seeing_band(reader, renderer, "JH")
    assert frames
    for f, quad in frames[:4]:
        window = reader._window(f)
        sides = _with_side_pips(f, quad)
        mid = CARD_W / 2
        low = _box(sides, quad, (mid - 8, y1 - 14, mid + 8, y1 + 2))
        high = _box(sides, quad, (mid - 8, y0 + 1, mid + 8, y0 + 14))
        bar = _box(sides, quad, (x0 - 2, y0 + 10, x1 + 2, y0 + 14))
        assert band_holds_pips_at_its_sides(sides, quad, window) is True
        assert band_holds_pips_at_its_sides(low, quad, window) is True
        assert band_holds_pips_at_its_sides(high, quad, window) is False
        assert band_holds_pips_at_its_sides(bar, quad, window) is False
        assert band_holds_a_lone_pip(sides, quad, window) is False


def test_a_frame_naming_a_jack_over_side_pips_is_unsure(
        reader: InShoeReader, renderer: InShoeRenderer) -> None:
    """By hand: frames of the built-in JH that name it, their band painted
    as a number card's top row: unsure, with the reason, only the courts
    ruled out; a pass of them names no card (the old code saw no picture
    missing there and read the jack)."""
    raw = InShoeReader(frame_margin=0.0)
    painted = []
    named = 0
    for f, quad in _frames_seeing_band(reader, renderer, "JH"):
        p = _with_side_pips(f, quad)
        painted.append(p)
        if raw.read(f).card == "JH":
            named += 1
            reading = raw.read(p)
            assert reading.card is None and reading.reason == SIDE_PIPS, reading.reason
            assert reading.code == "pips_disagree" and reading.guess == "JH"
            assert reading.ruled_out >= COURTS and "7H" not in reading.ruled_out
    assert named >= 1
    result = reader.read_pass(painted)
    assert result.card is None and result.code == "pips_disagree", result
