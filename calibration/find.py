"""Find a backgammon board's playing field in a photo: no markers, any board style.

What every board has, and all this relies on: a rectangular playing field inside raised
rails, split into two halves by a bar, with six triangles of alternating colour on each
long side of each half, bases on the long side, tips pointing across the field.

Method (classical, CPU only; worked on at most 640 pixels wide, the sides on the image):

1. *Windows* (:mod:`.find_lines`): LSD segments on the three Lab channels merged into
   lines; the union of the well covered quadrilaterals of each board frame; and the
   windows the points alone give (the sharp Vs of their edges: their axes run across
   the field, their apices in rows along it).
2. *The field in a window*, warped to a rectangle (both ways round unless colour clearly
   changes faster along one pair of sides: the triangles' edges run across the field).
   Depth: walking out from the quiet gap between the tip rows, the rows where colour
   changes fast along the long side (the triangles) up to the rails. Along it, each half
   is six cells of one width, found on a grid by how well three colours (even triangles,
   odd triangles, the field between) explain bands across the triangles, the worst cell
   left out (a hand, a tall stack). Which cells of that lattice are the points: where
   triangle edges, extended to the long side, meet it, and where the plain rails and
   bar begin. A window that yields nothing is tried again twice as long (it may have
   held one half).
3. *Choice.* A field must match a 24-triangle template (per quarter, the colour variance
   even triangles, odd triangles and the field explain) and have line segments along a
   share of its 48 triangle edges: random texture does neither (no field in 396 real
   photos of dice on tables); their geometric mean is the score. The RESCORED best
   (different) fields are refined (:mod:`.find_fit`: the 48 edges fitted, which puts
   the short sides and the bar to a small part of a point width and straightens a
   skewed frame; each half moved to the cells that hold the points) and scored again;
   the best wins. A field smaller than SMALL of the working image (or none, where
   points were seen) is looked for again in a crop around it at up to the picture's
   own resolution: in the field found before as a window and, unless that scores SURE,
   in the windows the points give; the better find counts.
4. *Long sides*, on the full image: each moves to where, walking outwards, colour stops
   alternating along it (the triangles' bases end at the rail); then both are centred
   on the gap between the tip rows, which lie on the field itself, as a rail hides the
   near edge at oblique views and checkers by the far rail stand over its foot.

Assumptions: the whole field is in the picture and is a few percent of it or more; the
camera looks from straight above to about 45 degrees; the points reach TIP_DEPTH of the
field's depth (only the centring of the long sides leans on it being the same on both
sides). Which long side is whose is not decided here (the opening layout tells later).

>>> import numpy as np
>>> find_field(np.zeros((360, 640, 3), np.uint8)) is None
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from .find_fit import refine_ends, segments_near
from .find_lines import board_windows, point_windows, segment_length, segments

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

WORK_SIDE = 640  # long side of the working image
MIN_SCORE = 0.15  # template match or share of triangle edges seen below which: no board
TIP_DEPTH = 0.43  # the triangles' length as a fraction of the field's depth
SEARCH_W, SEARCH_H = 256, 80  # a candidate warped with its margins
MARGIN_U, MARGIN_V = 0.15, 0.1  # how far the field may reach beyond a candidate
WIDENED = 2  # windows tried twice as long when nothing was found
SMALL = 0.35  # a field found smaller than this share of the working image: looked at closer
SURE = 0.5  # a field found closer that scores this needs no other window
RESCORED = 2  # the best fields found (and not the same) refined and scored again
SHIFTS = 4  # cells a half may move after the lattice is found
CANON_W, CANON_H = 96, 64  # the field warped for the template score
BAR_FRACTIONS = np.linspace(0.03, 0.15, 9)  # bar width / field width


Found = tuple[float, F64, float]  # a field found: score, corners, bar width in point widths


@dataclass(frozen=True)
class FieldFind:
    """The playing field's outer corners in image pixels, clockwise (y down), the side
    ``corners_px[0] -> corners_px[1]`` running along a long side (12 points and the
    bar); ``score`` 0..1 says how sure the finder is."""

    corners_px: F64
    score: float
    elapsed_ms: float


def find_field(image: U8) -> FieldFind | None:
    """The playing field of the board in a BGR image, or None when no board is found."""
    start = time.perf_counter()
    if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 32:
        return None
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    found, seg, focus = _search(small)
    best: Found | None = None
    at = (scale, np.zeros(2))  # the working image's scale and origin in the picture
    if found:
        focus = np.concatenate([found[0][1].min(0), found[0][1].max(0)])
    if focus is not None and (not found or max(focus[2:] - focus[:2]) < SMALL * WORK_SIDE):
        # a small board (or none, but points were seen): look again closer, at up to the
        # picture's own resolution, around it
        centre = (focus[:2] + focus[2:]) / 2 / scale
        half = np.maximum((focus[2:] - focus[:2]) / scale * 0.8, 0.1 * max(h, w))
        x0, y0 = np.maximum(np.round(centre - half), 0).astype(int)
        x1, y1 = np.minimum(np.round(centre + half), [w, h]).astype(int)
        closer = min(1.0, WORK_SIDE / max(x1 - x0, y1 - y0))
        if closer > 1.3 * scale:
            size = (round((x1 - x0) * closer), round((y1 - y0) * closer))
            near = cv2.resize(image[y0:y1, x0:x1], size, interpolation=cv2.INTER_AREA)
            hint = (found[0][1] / scale - [x0, y0]) * closer if found else None
            near_found, near_seg, _ = _search(near, hint)
            best = _best(near, near_seg, near_found)
            if best is not None:
                at = (closer, np.array([x0, y0], np.float64))
            if best is not None and found and best[0] < found[0][0]:
                # in doubt: the first look, refined, may score better still
                first = _best(small, seg, found)
                if first is not None and first[0] > best[0]:
                    best, at = first, (scale, np.zeros(2))
    if best is None:
        best = _best(small, seg, found)
    if best is None:
        return None
    field, bar = best[1] / at[0] + at[1], best[2]
    v0, v1 = _long_sides(image, field, bar)
    mid = _midline(image, field, bar)
    if mid is not None and abs(mid - (v0 + v1) / 2) < 0.05:
        v0, v1 = v0 + mid - (v0 + v1) / 2, v1 + mid - (v0 + v1) / 2
    corners = _project(_square_to(field), np.array([[0, v0], [1, v0], [1, v1], [0, v1]]))
    x, y = corners[:, 0], corners[:, 1]
    if float((x * np.roll(y, -1) - np.roll(x, -1) * y).sum()) < 0:
        corners = corners[[1, 0, 3, 2]]  # clockwise on the picture, a long side first
    return FieldFind(corners, best[0], (time.perf_counter() - start) * 1000)


def _search(small: U8, hint: F64 | None = None) -> tuple[list[Found], F64, F64 | None]:
    """The fields found in the working image, best scored first (score, corners, bar
    width in point widths); its segments; and where points were seen (x0, y0, x1, y1), or
    None. Searched: the windows of :func:`.find_lines.board_windows`; or, when ``hint``
    (a field found before) is given, it, and unless that scores SURE the windows the
    points give."""
    seg = segments(small)
    if hint is not None:
        found = _look(small, seg, _oriented(small, [hint]))
        if not found or max(f[0] for f in found) < SURE:
            found += _look(small, seg, _oriented(small, point_windows(seg, small.shape)))
        return sorted(found, key=lambda f: -f[0]), seg, None
    quads, focus = board_windows(seg, small.shape)
    windows = _oriented(small, quads)
    found = _look(small, seg, windows)
    if not found:
        # a window may have held one half of the board only; try the first ones twice as
        # long, the other half on either side
        found = _look(
            small, seg, [_widened(w, side) for w in windows[:WIDENED] for side in (-1, 1)]
        )
    return sorted(found, key=lambda f: -f[0]), seg, focus


def _oriented(small: U8, quads: list[F64]) -> list[F64]:
    """Each window with its first side along the field, either way round unless colour
    says which (see :func:`_turns`)."""
    return [np.roll(q, -turn, axis=0) for q in quads for turn in _turns(small, q)]


def _look(small: U8, seg: F64, windows: list[F64]) -> list[Found]:
    """The fields found in windows that pass both scores."""
    found: list[Found] = []
    for window in windows:
        field = _search_field(small, window, seg)
        if field is not None:
            template = _pattern_score(small, field[0])
            edges = _edges_seen(seg, field[0], field[1]) if template >= MIN_SCORE else 0.0
            if min(template, edges) >= MIN_SCORE:
                found.append((float(np.sqrt(template * edges)), field[0], field[1]))
    return found


def _best(small: U8, seg: F64, found: list[Found]) -> Found | None:
    """Of the RESCORED best fields found (not the same), refined
    (:func:`.find_fit.refine_ends`), the one that then scores best: a window skewed or
    shifted may score well before, and less well after."""
    best: Found | None = None
    kept: list[F64] = []
    for _, field, bar in found:
        if len(kept) == RESCORED:
            break
        size = float(np.linalg.norm(field[2] - field[0]))
        if any(np.abs(field[:, None] - k[None]).sum(2).min(1).max() < 0.05 * size for k in kept):
            continue
        kept.append(field)
        field, bar = refine_ends(small, seg, field, bar, TIP_DEPTH)
        score = float(np.sqrt(_pattern_score(small, field) * _edges_seen(seg, field, bar)))
        if best is None or score > best[0]:
            best = (score, field, bar)
    return best


# --- the field inside a candidate -----------------------------------------------------------------


def _widened(quad: F64, side: int) -> F64:
    """``quad`` twice as long along its first side, grown on the ``side`` (-1 or 1) end."""
    lo, hi = (-1.0, 1.0) if side < 0 else (0.0, 2.0)
    return _project(_square_to(quad), np.array([[lo, 0], [hi, 0], [hi, 1], [lo, 1]]))


def _turns(img: U8, quad: F64) -> tuple[int, ...]:
    """Which sides of a candidate may be the long ones: colour changes faster along the
    long sides (the triangles' edges run across the field); both when it is close."""
    dst = np.array([[0, 0], [64, 0], [64, 64], [0, 64]], np.float32)
    hmg = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    sq = cv2.warpPerspective(img, hmg, (64, 64))[6:58, 6:58].astype(np.float32)
    along = float(np.abs(np.diff(sq, axis=1)).mean())
    across = float(np.abs(np.diff(sq, axis=0)).mean())
    if along > 1.2 * across:
        return (0,)
    return (1,) if across > 1.2 * along else (0, 1)


class _Strip:
    """A candidate warped to SEARCH_W x SEARCH_H, with column sums of bands across the
    triangles of each long side (at 8, 20 and 32 % of the field's depth)."""

    DEPTHS = (0.08, 0.2, 0.32)

    def __init__(self, canon: NDArray[np.float32], y0: float, y1: float) -> None:
        px = np.concatenate(
            [canon, (canon**2).sum(2, keepdims=True), np.ones_like(canon[..., :1])], 2
        )
        pre = []
        for depth in self.DEPTHS:
            for r in (y0 + depth * (y1 - y0), y1 - depth * (y1 - y0)):
                band = px[int(r) - 1 : int(r) + 2].sum(0)
                pre.append(np.concatenate([np.zeros((1, 5)), np.cumsum(band, 0)]))
        self.prefix = np.stack(pre).astype(np.float32)  # (band * side, W + 1, 5)
        self.flat = self.prefix.reshape(-1, 5)
        self.half_width = np.repeat(0.5 * (1 - np.array(self.DEPTHS) / TIP_DEPTH), 2)

    def r2(self, start: F64, pw: F64) -> F64:
        """How well six cells of width ``pw`` from ``start`` (both (h,)) look like a half of
        the field: per long side the share of colour variance three colours explain (even
        triangles, odd triangles, the field between), leaving out the worst cell (a hand,
        a tall stack); the mean of both sides."""
        left = start[:, None] + np.arange(6) * pw[:, None]
        hw = self.half_width[:, None, None] * pw[None, :, None]
        mid = left + 0.5 * pw[:, None]
        bounds = np.stack([left + 0 * hw, mid - hw, mid + hw, left + pw[:, None] + 0 * hw], -1)
        width = self.prefix.shape[1]
        idx = np.clip(np.round(bounds).astype(np.int64), 0, width - 1)
        idx += (np.arange(6) * width)[:, None, None, None]
        at = np.take(self.flat, idx, axis=0).reshape(3, 2, -1, 6, 4, 5)
        tri = (at[..., 2, :] - at[..., 1, :]).sum(0)  # side, h, cell, 5 (bands summed)
        bg = (at[..., 3, :] - at[..., 0, :]).sum(0) - tri
        t_cls = tri.reshape(2, -1, 3, 2, 5).sum(2)  # side, h, parity, 5
        mu_t = (t_cls[..., :3] / np.maximum(t_cls[..., 4:], 1))[:, :, [0, 1, 0, 1, 0, 1]]
        b_cls = bg.sum(2)
        mu_b = (b_cls[..., :3] / np.maximum(b_cls[..., 4:], 1))[:, :, None]

        def sse(sums: F64, mu: F64) -> F64:
            return np.asarray(
                sums[..., 3] - 2 * (sums[..., :3] * mu).sum(-1) + sums[..., 4] * (mu * mu).sum(-1)
            )

        cell = sse(tri, mu_t) + sse(bg, mu_b)  # side, h, cell
        tot = tri + bg
        mu = tot.sum(2)[..., :3] / np.maximum(tot.sum(2)[..., 4:], 1)
        spread = sse(tot, mu[:, :, None])  # about the half-side's mean colour, per cell
        # the worst-explained cell (a hand, a tall stack) is left out of both sums; what
        # is explained counts only where there is colour to explain (not a plain tray)
        worst = np.argmax(cell, -1)[..., None]
        sse_kept = cell.sum(-1) - np.take_along_axis(cell, worst, -1)[..., 0]
        sst_kept = spread.sum(-1) - np.take_along_axis(spread, worst, -1)[..., 0]
        r2 = (sst_kept - sse_kept) / np.maximum(sst_kept, 30.0 * tot[..., 4].sum(-1))
        return np.asarray(r2.mean(0))


def _rise(energy: F64, start: int, step: int, thr: float) -> int:
    """From ``start`` (between the tip rows) walk outwards past the low gap and the
    triangles; the last index before ``energy`` falls below ``thr`` again."""
    k, n = start, len(energy)
    while 0 <= k < n and energy[k] < thr:
        k += step
    while 0 <= k < n and energy[k] >= thr:
        k += step
    return k - step


def _search_field(img: U8, quad: F64, seg: F64) -> tuple[F64, float] | None:
    """The field as an axis-aligned rectangle in the canonical frame of a board-aligned
    quad (its first side taken as a long side): (field corners in the image, bar width /
    point width), or None when nothing there has the triangles' rhythm."""
    su, sv = SEARCH_W / (1 + 2 * MARGIN_U), SEARCH_H / (1 + 2 * MARGIN_V)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    dst = (unit + np.array([MARGIN_U, MARGIN_V])) * np.array([su, sv])
    hmg = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32))
    canon = cv2.warpPerspective(img, hmg, (SEARCH_W, SEARCH_H)).astype(np.float32)
    # depth: the triangles make colour change fast along the long side
    gx = np.abs(np.diff(canon, axis=1)).sum(2)
    energy = gx[:, round((MARGIN_U + 0.1) * su) : round((MARGIN_U + 0.9) * su)].mean(1)
    energy = np.convolve(energy, np.ones(3) / 3, mode="same")
    thr = 0.4 * float(energy[round(MARGIN_V * sv) : round((MARGIN_V + 1) * sv)].max())
    # start from the quietest row near the middle: the gap between the tip rows
    lo, hi = round((MARGIN_V + 0.3) * sv), round((MARGIN_V + 0.7) * sv)
    mid = lo + int(np.argmin(energy[lo:hi]))
    y0, y1 = float(_rise(energy, mid, -1, thr)), float(_rise(energy, mid, 1, thr) + 1)
    if y1 - y0 < 0.4 * sv or thr <= 0:
        return None
    strip = _Strip(canon, y0, y1)
    # the line segments in this frame, each on the side of the middle it lies in
    ends_c = cv2.perspectiveTransform(seg.reshape(-1, 1, 2), hmg).reshape(-1, 2, 2)
    side_b = ends_c[:, :, 1].mean(1) > (y0 + y1) / 2
    half = np.where(side_b, ends_c[:, :, 1].min(1), -ends_c[:, :, 1].max(1))
    d = ends_c[:, 1] - ends_c[:, 0]
    length = np.hypot(d[:, 0], d[:, 1] * su / sv) * (half > np.where(side_b, 1, -1) * (y0 + y1) / 2)
    # along: each half on a grid of positions and point widths, then finer
    pws = su * np.geomspace(0.034, 0.105, 20)
    u = (np.arange(-0.12, 0.42, 0.04) + MARGIN_U) * su
    x0, x1, pw = _halves(strip, u, u + 0.7 * su, pws)
    if pw <= 0:
        return None
    step = 0.04 * su
    x0, x1, pw = _halves(
        strip,
        np.linspace(x0 - step, x0 + step, 9),
        np.linspace(x1 - step, x1 + step, 9),
        pw * np.geomspace(0.95, 1.05, 9),
    )
    moves = _which_cells(canon, ends_c, length, side_b, (x0, x1, y0, y1, pw))
    if moves is None:
        return None
    m0, m1 = moves
    x0, x1 = x0 + m0 * pw, x1 - m1 * pw
    field = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    back = cv2.perspectiveTransform(field.reshape(-1, 1, 2), np.linalg.inv(hmg)).reshape(4, 2)
    return np.asarray(back, np.float64), float((x1 - x0) / pw - 12)


def _which_cells(
    canon: NDArray[np.float32],
    ends_c: F64,
    length: F64,
    side_b: NDArray[np.bool_],
    lattice_of: tuple[float, float, float, float, float],
) -> tuple[int, int] | None:
    """Which cells of the lattice found are the points: how many cells (up to SHIFTS)
    the left half moves right and the right half left, or None when no bar fits.

    Three witnesses step down at a half's ends: triangle edges (extended to the long side
    a left edge meets it where its cell starts, a right edge where it ends; a stack may
    hide an end point's edges), colour busy across the field (the rails and the bar are
    plain; a die or the cube may sit on the bar)."""
    x0, x1, y0, y1, pw = lattice_of
    d = ends_c[:, 1] - ends_c[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.nan_to_num(d[:, 0] / d[:, 1], nan=0.0, posinf=0.0, neginf=0.0)
    meet = ends_c[:, 0, 0] + slope * (np.where(side_b, y1, y0) - ends_c[:, 0, 1])
    rising = np.where(side_b, -slope, slope) > 0
    want = pw / (2 * TIP_DEPTH * (y1 - y0))
    weight = length * (np.abs(np.abs(slope) - want) < 0.5 * want)
    rows = canon[int(y0) : int(y1) + 1]
    plain = np.abs(rows - np.median(rows, axis=0)).sum(2).mean(0)  # per column
    plain = np.concatenate([[0.0], np.cumsum(plain)])
    score = []
    for first, sign in ((x0, 1), (x1, -1)):
        lattice = first + sign * np.arange(-SHIFTS - 1, 8 + SHIFTS) * pw
        hit = np.abs(meet[None] - lattice[:, None]) < 0.2 * pw
        opening = (hit * weight * (rising if sign > 0 else ~rising)).sum(1)
        closing = (hit * weight * (~rising if sign > 0 else rising)).sum(1)
        seen = opening[:-1] + closing[1:]  # cells from this end inwards, the first -SHIFTS-1
        ends = np.clip(np.round(np.sort(np.stack([lattice[:-1], lattice[1:]]), 0)), 0, SEARCH_W)
        busy = (plain[ends[1].astype(int)] - plain[ends[0].astype(int)]) / pw
        both = seen / (np.median(np.sort(seen)[-6:]) + 1e-6) + busy / (
            np.median(np.sort(busy)[-6:]) + 1e-6
        )
        score.append(both[1:-6] - both[:-7] + both[6:-1] - both[7:])  # per move, -SHIFTS first
    bar = (x1 - x0) / pw - 12
    shifts = range(-SHIFTS, SHIFTS + 1)
    options = [
        (float(score[0][m0 + SHIFTS] + score[1][m1 + SHIFTS]), -abs(m0) - abs(m1), m0, m1)
        for m0 in shifts
        for m1 in shifts
        if 0.3 <= bar - m0 - m1 <= 2.6
    ]
    if not options:
        return None
    _, _, m0, m1 = max(options)
    return m0, m1


def _halves(strip: _Strip, starts: F64, ends: F64, pws: F64) -> tuple[float, float, float]:
    """Best (start of the left half, end of the right half, point width) on a grid, with
    a bar of 0.3 to 2.6 point widths between the halves; each half is scored alone."""
    n = len(pws)
    left = strip.r2(np.repeat(starts, n), np.tile(pws, len(starts))).reshape(-1, 1, n)
    right = strip.r2(np.repeat(ends, n) - 6 * np.tile(pws, len(ends)), np.tile(pws, len(ends)))
    bar = (ends[None, :, None] - starts[:, None, None]) / pws - 12
    total = np.where((bar >= 0.3) & (bar <= 2.6), left + right.reshape(1, -1, n), -np.inf)
    i, j, k = np.unravel_index(int(np.argmax(total)), total.shape)
    if not np.isfinite(total[i, j, k]):
        return 0.0, 0.0, 0.0
    return float(starts[i]), float(ends[j]), float(pws[k])


# --- the template score ---------------------------------------------------------------------------


def _templates() -> NDArray[np.float32]:
    """For every bar fraction a (12, CANON_H * CANON_W) one-hot matrix: per quarter of
    the field, its even triangles, its odd triangles and the field around them."""
    ys, xs = np.mgrid[0:CANON_H, 0:CANON_W] + 0.5
    out = np.zeros((len(BAR_FRACTIONS), 12, CANON_H * CANON_W), np.float32)
    for bi, bar in enumerate(BAR_FRACTIONS):
        pw = (1 - bar) / 12 * CANON_W
        right = xs > CANON_W * (1 + bar) / 2
        bottom = ys > CANON_H / 2
        depth = np.where(bottom, CANON_H - ys, ys) / CANON_H
        point = np.floor(np.where(right, xs - CANON_W * (1 + bar) / 2, xs) / pw)
        off = np.where(right, xs - CANON_W * (1 + bar) / 2, xs) / pw - point - 0.5
        cls = np.where(np.abs(off) < 0.5 * (1 - depth / TIP_DEPTH), point % 2, 2)
        group = (2 * bottom + right) * 3 + cls
        valid = (right | (xs < CANON_W * (1 - bar) / 2)) & (point < 6)
        for g in range(12):
            out[bi, g] = ((group == g) & valid).ravel()
    return out.reshape(-1, CANON_H * CANON_W)


_TEMPLATES = _templates()


def _pattern_score(img: U8, quad: F64) -> float:
    """How well the quad, warped with its first side on top, is explained by 24
    triangles: per quarter, the share of colour variance that three colours (even
    triangles, odd triangles, the field) explain; the best bar width is kept, the worst
    quarter (a hand) left out."""
    dst = np.array([[0, 0], [CANON_W, 0], [CANON_W, CANON_H], [0, CANON_H]], np.float32)
    hmg = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    x = cv2.warpPerspective(img, hmg, (CANON_W, CANON_H)).reshape(-1, 3).astype(np.float32)
    data = np.concatenate([x, (x * x).sum(1, keepdims=True), np.ones((len(x), 1), np.float32)], 1)
    # OpenCV's product: numpy's BLAS may start threads for it, which cost on a busy machine
    sums = cv2.gemm(_TEMPLATES, data, 1.0, None, 0.0).reshape(len(BAR_FRACTIONS), 4, 3, 5)
    s1, s2, n = sums[..., :3], sums[..., 3], np.maximum(sums[..., 4], 1.0)
    sse = (s2 - (s1 * s1).sum(-1) / n).sum(-1)
    tot1, tot2, totn = s1.sum(2), s2.sum(2), n.sum(2)
    sst = tot2 - (tot1 * tot1).sum(-1) / totn
    r2 = (sst - sse) / np.maximum(sst, 25.0 * totn)
    return float(max(0.0, np.sort(r2, axis=1)[:, 1:].mean(1).max()))


# --- refinement: the long sides ------------------------------------------------------------------


def _square_to(c: F64) -> F64:
    """Homography taking the unit square's corners (0,0), (1,0), (1,1), (0,1) to ``c``."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = c
    dx1, dx2, dy1, dy2 = x1 - x2, x3 - x2, y1 - y2, y3 - y2
    sx, sy = x0 - x1 + x2 - x3, y0 - y1 + y2 - y3
    den = dx1 * dy2 - dx2 * dy1
    g, h = (sx * dy2 - dx2 * sy) / den, (dx1 * sy - sx * dy1) / den
    return np.array(
        [
            [x1 - x0 + g * x1, x3 - x0 + h * x3, x0],
            [y1 - y0 + g * y1, y3 - y0 + h * y3, y0],
            [g, h, 1],
        ]
    )


def _project(hmg: F64, uv: F64) -> F64:
    q = uv @ hmg[:, :2].T + hmg[:, 2]
    return np.asarray(q[..., :2] / q[..., 2:])


def _long_sides(image: U8, quad: F64, bar: float) -> tuple[float, float]:
    """Where the field's long sides are, as ``v`` in the frame of ``quad`` (image
    pixels; its first side a long one). Along a long side the triangles' bases alternate
    in colour, the rail beside them does not: the side is where, walking outwards, the
    colour's spread along it drops from the bases' level to the rail's. Kept as found
    when no clear drop is seen (a board whose rail matches both point colours)."""
    hmg = _square_to(quad)
    cells = np.arange(12) + bar * (np.arange(12) >= 6)
    us = (cells[:, None] + np.array([0.2, 0.4, 0.6, 0.8])).ravel() / (12 + bar)
    offsets = np.linspace(-0.08, 0.08, 81)  # inwards
    out = []
    for side, inward in ((0.0, 1.0), (1.0, -1.0)):
        grid = np.stack(np.meshgrid(us, side + inward * offsets, indexing="ij"), -1)
        at = _project(hmg, grid).astype(np.float32)
        prof = cv2.remap(image, at[..., 0], at[..., 1], cv2.INTER_LINEAR).astype(np.float32)
        spread = np.abs(prof - np.median(prof, axis=0)).sum(2).mean(0)  # per offset
        inner = float(np.median(spread[offsets > 0.03]))
        outer = float(np.median(spread[offsets < -0.05]))
        found = 0.0
        if inner > 1.5 * outer:
            thr = (inner + outer) / 2
            k = int(np.searchsorted(offsets, 0.03))
            while k > 0 and spread[k] >= thr:
                k -= 1
            a, b = spread[k], spread[k + 1]
            found = float(offsets[k] + (thr - a) / max(b - a, 1e-6) * (offsets[k + 1] - offsets[k]))
            found = min(max(found, offsets[0]), offsets[-1])
        out.append(side + inward * found)
    return out[0], out[1]


def _midline(image: U8, quad: F64, bar: float) -> float | None:
    """Where, as ``v`` in the frame of ``quad``, the middle of the field is: halfway
    between the two rows of tips, which lie on the field itself (a rail can hide the
    field's edge on the near side, checkers standing by the far rail can hide its foot).
    Per row, the median over the 12 point columns of how fast colour changes along the
    row (dice, the cube, a hand cover a few); the gap between the tips is the quiet band
    about the middle. None when it is not clear."""
    cols = (np.arange(12) + bar * (np.arange(12) >= 6))[:, None] + np.linspace(0.05, 0.95, 10)
    vs = np.linspace(0.2, 0.8, 121)
    grid = np.stack(np.meshgrid(cols.ravel() / (12 + bar), vs, indexing="ij"), -1)
    at = _project(_square_to(quad), grid).astype(np.float32)
    prof = cv2.remap(image, at[..., 0], at[..., 1], cv2.INTER_LINEAR).astype(np.float32)
    change = np.abs(np.diff(prof.reshape(12, 10, len(vs), 3), axis=1)).sum(3).mean(1)
    level = np.median(change, axis=0)  # per row
    mid = int(np.argmin(level[40:81])) + 40
    quiet, busy = float(level[mid]), float(np.median(level[np.r_[0:20, 101:121]]))
    if busy < 2 * quiet + 4:
        return None
    thr = (quiet + busy) / 2
    lo, hi = mid, mid
    while lo > 0 and level[lo] < thr:
        lo -= 1
    while hi < len(vs) - 1 and level[hi] < thr:
        hi += 1
    if lo == 0 or hi == len(vs) - 1:
        return None
    return float((vs[lo] + vs[hi]) / 2)


def _edges_seen(seg: F64, quad: F64, bar: float) -> float:
    """The share of the 48 triangle edges of the field ``quad`` (image pixels, first side
    a long one) along which line segments lie over at least a third of their length."""
    seg = segments_near(seg, quad, 0.05)
    k = np.arange(12) + bar * (np.arange(12) >= 6)
    base = np.concatenate([k, k + 1])
    tips = np.concatenate([k, k]) + 0.5
    xy = [
        np.stack([base, np.full(24, y), tips, np.full(24, tip)], 1)
        for y, tip in ((0.0, TIP_DEPTH), (1.0, 1 - TIP_DEPTH))
    ]
    ends = _project(_square_to(quad), np.concatenate(xy).reshape(48, 2, 2) / (12 + bar, 1))
    b, d = ends[:, 0], ends[:, 1] - ends[:, 0]
    length = np.linalg.norm(d, axis=1)
    u = d / length[:, None]
    n = np.stack([-u[:, 1], u[:, 0]], 1)
    pw = np.tile(np.linalg.norm(ends[:12, 0] - ends[12:24, 0], axis=1), 4)
    s0, s1 = seg[:, None, :2] - b, seg[:, None, 2:] - b
    dist = np.maximum(np.abs((s0 * n).sum(-1)), np.abs((s1 * n).sum(-1)))
    t0, t1 = (s0 * u).sum(-1) / length, (s1 * u).sum(-1) / length
    along = (seg[:, 2:] - seg[:, :2]) / segment_length(seg)[:, None]
    cos = along[:, :1] * u[:, 0] + along[:, 1:] * u[:, 1]
    near = (dist < 0.15 * pw) & (np.abs(cos) > np.cos(np.radians(6)))
    covered = np.clip(np.maximum(t0, t1), 0, 1) - np.clip(np.minimum(t0, t1), 0, 1)
    return float(((near * covered).sum(0) > 1 / 3).mean())
