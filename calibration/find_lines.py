"""Where a board may be in a photo: windows to search for its playing field in.

The first step of :func:`~gammoneye.calibration.find.find_field`. The line segment
detector (LSD) runs on the three Lab channels (grey alone misses a red field in a
mahogany frame); collinear segments are merged into lines. Windows come two ways:

* *Frames of lines.* Two pairs of roughly opposite lines make a quadrilateral; the best
  covered ones are grouped by frame (the board's outline, rails, trays and halves are
  rectangles of one plane: axis-aligned in one another's rectified frame), and the
  union of each frame's quadrilaterals is a window.
* *The points.* The triangles' edges meet in sharp Vs, at a tip or at the base between
  two neighbours, whose axes all run across the field: they meet where the field's
  short sides do. Where its long sides meet: the board's long lines (its rails), or the
  rows the apices make (tips in two rows, bases along the sides). Rectified by those two
  vanishing points, the Vs span the field. This holds where the board's outline is lost
  (little contrast, a small board, an arm across it) and the points' edges would crowd
  the outline out of the lines kept for quadrilaterals.

>>> import numpy as np
>>> segments(np.zeros((64, 64, 3), np.uint8)).shape
(0, 4)
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

MIN_LINE_SEGMENT = 10.0  # px: shorter segments do not make lines
MAX_LINES = 32
MAX_SEGMENTS = 400  # longest segments merged into lines
TOP_QUADS = 4  # board frames searched
ALIGN = 0.1  # how far from a rectangle, in its frame, a quad of the same board may be
MIN_VEES = 8  # V-shaped pairs of edges (points) needed to say where points are


def board_windows(seg: F64, shape: tuple[int, ...]) -> tuple[list[F64], F64 | None]:
    """Windows to search for the field in, from the segments of an image of ``shape``; and
    where the points' V-shaped pairs of edges are (x0, y0, x1, y1; None for too few)."""
    seg = seg[segment_length(seg) >= MIN_LINE_SEGMENT]
    lines = Lines(seg)
    out = candidate_quads(lines, shape)
    for window in _point_windows(lines, shape):
        if not any(_same(window, o) for o in out):
            out.append(window)
    focus = None
    if len(lines.vees) >= MIN_VEES:
        apex = lines.vees[:, 0]
        focus = np.concatenate([np.percentile(apex, 10, axis=0), np.percentile(apex, 90, axis=0)])
    return out, focus


def point_windows(seg: F64, shape: tuple[int, ...]) -> list[F64]:
    """The windows that the points alone give (see :func:`_point_windows`)."""
    return _point_windows(Lines(seg[segment_length(seg) >= MIN_LINE_SEGMENT]), shape)


def segment_length(seg: F64) -> F64:
    return np.asarray(np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]))


def segments(img: U8) -> F64:
    """LSD segments (x0, y0, x1, y1) of 6 pixels or more in the three Lab channels."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2Lab)
    lsd = cv2.createLineSegmentDetector()
    found = [lsd.detect(np.ascontiguousarray(lab[..., c]))[0] for c in range(3)]
    seg = np.concatenate([f.reshape(-1, 4) for f in found if f is not None] + [np.zeros((0, 4))])
    seg = seg.astype(np.float64)
    return seg[segment_length(seg) >= 6]


class Lines:
    """Collinear segments merged, longest first, into lines; the MAX_LINES best covered
    kept: unit direction ``u``, normal ``n`` with ``n . p = rho``, and ``cover[i, t]`` the
    number of pixels of line ``i`` covered by its segments up to ``u . p = t - off``. Of
    all the lines, ``every`` holds (u, n, rho, pixels covered, whether in a V) and
    ``vees`` the V-shaped pairs (see :func:`_vees`)."""

    def __init__(self, seg: F64) -> None:
        seg = seg[np.argsort(-segment_length(seg))][:MAX_SEGMENTS]
        n_seg = len(seg)
        dirs, cents = np.zeros((n_seg, 2)), np.zeros((n_seg, 2))
        moments = np.zeros((n_seg, 6))
        owner = np.zeros(n_seg, np.int64)  # the line each segment went to
        n = 0
        cos3 = np.cos(np.radians(3.0))
        for k in range(n_seg):
            p0, p1 = seg[k, :2], seg[k, 2:]
            ln = float(np.hypot(*(p1 - p0)))
            d = (p1 - p0) / ln
            mid = (p0 + p1) / 2
            m = ln * np.array(
                [
                    1.0,
                    mid[0],
                    mid[1],
                    d[0] * d[0] * ln * ln / 12 + mid[0] * mid[0],
                    d[0] * d[1] * ln * ln / 12 + mid[0] * mid[1],
                    d[1] * d[1] * ln * ln / 12 + mid[1] * mid[1],
                ]
            )
            u, c = dirs[:n], cents[:n]
            close = (
                (np.abs(u @ d) > cos3)
                & (np.abs((p0[0] - c[:, 0]) * -u[:, 1] + (p0[1] - c[:, 1]) * u[:, 0]) < 2.5)
                & (np.abs((p1[0] - c[:, 0]) * -u[:, 1] + (p1[1] - c[:, 1]) * u[:, 0]) < 2.5)
            )
            i = int(np.argmax(close)) if n else 0
            if n and close[i]:
                moments[i] += m
                w, cx, cy, sxx, sxy, syy = moments[i]
                cx, cy = cx / w, cy / w
                # the principal direction of the merged segments' spread
                angle = 0.5 * np.arctan2(
                    2 * (sxy / w - cx * cy), sxx / w - cx * cx - (syy / w - cy * cy)
                )
                dirs[i] = np.cos(angle), np.sin(angle)
                cents[i] = cx, cy
            else:
                i = n
                moments[i], dirs[i], cents[i] = m, d, mid
                n += 1
            owner[k] = i
        dirs, cents = dirs[:n], cents[:n]
        self.off = float(np.abs(seg).max(initial=1.0)) * 2
        size = int(2 * self.off) + 2
        # pixels of each line covered by its segments: +1 where a segment starts, -1 past
        # where it ends, summed along the line
        t0 = (seg[:, :2] * dirs[owner]).sum(1) + self.off
        t1 = (seg[:, 2:] * dirs[owner]).sum(1) + self.off
        lo = np.minimum(t0, t1).astype(np.int64)
        hi = np.maximum(t0, t1).astype(np.int64) + 1
        steps = np.zeros((n, size + 1), np.int32)
        np.add.at(steps, (owner, lo), 1)
        np.add.at(steps, (owner, hi), -1)
        covers = np.zeros((n, size + 1))
        covers[:, 1:] = np.cumsum(np.cumsum(steps[:, :size], axis=1) > 0, axis=1)
        in_v, self.vees = _vees(dirs, cents, covers, self.off)
        # all the lines, for the long sides' vanishing point (the best are often points)
        nrm = np.stack([-dirs[:, 1], dirs[:, 0]], axis=1)
        self.every = (dirs, nrm, (cents * nrm).sum(1), covers[:, -1], in_v)
        keep = np.argsort(-covers[:, -1])[:MAX_LINES]
        self.u, self.cover = dirs[keep], covers[keep]
        self.n = np.stack([-self.u[:, 1], self.u[:, 0]], axis=1)
        self.rho = (cents[keep] * self.n).sum(1)

    def coverage(self, line: NDArray[np.int64], a: F64, b: F64) -> F64:
        """Fraction of the stretch from point ``a`` to ``b`` of ``line`` covered."""
        ta = (a * self.u[line]).sum(1) + self.off
        tb = (b * self.u[line]).sum(1) + self.off
        lo = np.clip(np.minimum(ta, tb), 0, self.cover.shape[1] - 1).astype(np.int64)
        hi = np.clip(np.maximum(ta, tb), 0, self.cover.shape[1] - 1).astype(np.int64)
        return np.asarray((self.cover[line, hi] - self.cover[line, lo]) / np.maximum(hi - lo, 1))

    def meet(self, p: NDArray[np.int64], q: NDArray[np.int64]) -> F64:
        n1, n2, r1, r2 = self.n[p], self.n[q], self.rho[p], self.rho[q]
        det = n1[:, 0] * n2[:, 1] - n1[:, 1] * n2[:, 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.stack(
                [(r1 * n2[:, 1] - n1[:, 1] * r2) / det, (n1[:, 0] * r2 - r1 * n2[:, 0]) / det], 1
            )


def _vees(dirs: F64, cents: F64, covers: F64, off: float) -> tuple[NDArray[np.bool_], F64]:
    """Lines that end where another ends too, at a sharp angle (3 to 30 degrees): a
    triangle's two edges at its tip, or two neighbours' at the base between them. Returns
    which lines are in such a V (they are points, not a long line of the board), and the
    Vs shaped like a point's (5 to 25 degrees, both lines of about one length): per V
    its apex and the two lines' other ends, ``(m, 3, 2)``."""
    n = len(dirs)
    if n < 2:
        return np.zeros(n, bool), np.zeros((0, 3, 2))
    grew = np.diff(covers, axis=1) > 0
    first = np.argmax(grew, axis=1).astype(np.float64)
    last = (covers.shape[1] - 2 - np.argmax(grew[:, ::-1], axis=1)).astype(np.float64)
    along = (cents * dirs).sum(1)
    ends = np.stack(
        [cents + (t - off - along)[:, None] * dirs for t in (first, last)], 1
    )  # line, end, xy
    length = last - first
    i, j = np.triu_indices(n, 1)
    cos = np.abs((dirs[i] * dirs[j]).sum(1))
    sharp = (cos > np.cos(np.radians(30))) & (cos < np.cos(np.radians(3)))
    i, j = i[sharp], j[sharp]
    vee = (cos[sharp] > np.cos(np.radians(25))) & (cos[sharp] < np.cos(np.radians(5)))
    vee &= np.minimum(length[i], length[j]) > 0.5 * np.maximum(length[i], length[j])
    gap = np.linalg.norm(ends[i][:, :, None] - ends[j][:, None, :], axis=-1).reshape(-1, 4)
    k = np.argmin(gap, axis=1)
    tol = np.maximum(4.0, 0.15 * np.minimum(length[i], length[j]))
    hit = gap[np.arange(len(k)), k] < tol
    out = np.zeros(n, bool)
    out[i[hit]] = True
    out[j[hit]] = True
    hit &= vee  # like a triangle: 5 to 25 degrees, its edges of about one length
    i, j, k = i[hit], j[hit], k[hit]
    ei, ej = k // 2, k % 2
    apex = 0.5 * (ends[i, ei] + ends[j, ej])
    vees = np.stack([apex, ends[i, 1 - ei], ends[j, 1 - ej]], 1)
    return out, vees


def candidate_quads(lines: Lines, shape: tuple[int, ...]) -> list[F64]:
    """Windows to search: convex quadrilaterals of two pairs of roughly opposite lines,
    best covered first, grouped by frame; the union of each of the TOP_QUADS frames with
    the most quadrilaterals."""
    h, w = shape[:2]
    i, j = np.triu_indices(len(lines.rho), 1)
    same = np.abs((lines.u[i] * lines.u[j]).sum(1)) > np.cos(np.radians(40))
    pi, pj = i[same], j[same]
    a, b = np.triu_indices(len(pi), 1)
    sides = np.stack([pi[a], pi[b], pj[a], pj[b]], 1)  # side order around the quad
    distinct = (sides[:, :, None] != sides[:, None, :]).sum((1, 2)) == 12
    across = np.abs((lines.u[pi[a]] * lines.u[pi[b]]).sum(1)) < np.cos(np.radians(35))
    sides = sides[distinct & across] if len(sides) else sides
    corners = np.stack([lines.meet(sides[:, s], sides[:, (s + 1) % 4]) for s in range(4)], 1)
    margin = 0.05 * max(w, h)
    with np.errstate(invalid="ignore"):
        inside = ((corners > -margin) & (corners < np.array([w, h]) + margin)).all(axis=(1, 2))
    edge = np.roll(corners, -1, axis=1) - corners
    turn = edge[..., 0] * np.roll(edge, -1, 1)[..., 1] - edge[..., 1] * np.roll(edge, -1, 1)[..., 0]
    x, y = corners[..., 0], corners[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, 1) - np.roll(x, -1, 1) * y).sum(1))
    ok = inside & ((turn > 0).all(1) | (turn < 0).all(1)) & (area > 0.02 * w * h)
    corners, sides = corners[ok], sides[ok]
    cover = np.stack(
        [lines.coverage(sides[:, s], corners[:, s - 1], corners[:, s]) for s in range(4)], 1
    )
    ranked = corners[np.argsort(-(cover.mean(1) * np.sqrt(cover.min(1) + 0.05)))][:40]
    # quads of the same board share its frame (its two vanishing points): its outline,
    # rails, trays and halves are axis-aligned rectangles in one another's frame; each
    # frame is searched once, over the union of its quads
    frames: list[tuple[F64, list[F64]]] = []
    for q in ranked:
        for ref, members in frames:
            c = cv2.perspectiveTransform(q.reshape(-1, 1, 2), ref).reshape(4, 2)
            if _aligned(c):
                members.append(c)
                break
        else:
            unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
            ref = cv2.getPerspectiveTransform(q.astype(np.float32), unit)
            frames.append((ref, [unit.astype(np.float64)]))
    out: list[F64] = []
    for ref, members in sorted(frames, key=lambda f: -len(f[1]))[:TOP_QUADS]:
        pts = np.concatenate(members)
        (u0, v0), (u1, v1) = pts.min(0), pts.max(0)
        box = np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]])
        out.append(
            cv2.perspectiveTransform(box.reshape(-1, 1, 2), np.linalg.inv(ref)).reshape(4, 2)
        )
    return out


def _aligned(c: F64) -> bool:
    """Whether four corners, in some cyclic order, form an axis-aligned rectangle (to
    ALIGN of the unit square) that is not tiny."""
    for k in range(4):
        r = np.roll(c, -k, axis=0)
        if (
            abs(r[0, 1] - r[1, 1]) < ALIGN
            and abs(r[2, 1] - r[3, 1]) < ALIGN
            and abs(r[1, 0] - r[2, 0]) < ALIGN
            and abs(r[0, 0] - r[3, 0]) < ALIGN
            and abs(r[1, 0] - r[0, 0]) > 0.2
            and abs(r[3, 1] - r[0, 1]) > 0.2
        ):
            return True
    return False


def _same(a: F64, b: F64) -> bool:
    """Whether two quadrilaterals have the same corners, in any order, to a few pixels."""
    d = np.linalg.norm(a[:, None] - b[None], axis=2)
    return bool(d.min(1).max() < 0.03 * np.linalg.norm(a.max(0) - a.min(0)))


def _point_windows(lines: Lines, shape: tuple[int, ...]) -> list[F64]:
    """Windows from the points alone: the Vs whose axes meet (the field's short sides'
    vanishing point), rectified with the long sides' vanishing point from the board's
    long lines, and again from the rows of apices; each the box the Vs span."""
    vees = lines.vees
    if len(vees) < MIN_VEES:
        return []
    h, w = shape[:2]
    centre, size = np.array([w / 2, h / 2]), max(w, h) / 2
    v = (vees - centre) / size
    arms = v[:, 1:] - v[:, :1]
    arms /= np.maximum(np.linalg.norm(arms, axis=2, keepdims=True), 1e-12)
    axis = arms.sum(1)
    axis /= np.maximum(np.linalg.norm(axis, axis=1, keepdims=True), 1e-12)
    across = _vanishing(v[:, 0], axis, np.ones(len(v)))
    if across is None:
        return []
    # only the Vs whose axes pass the vanishing point (within 3 degrees) span the field
    to = across[None, :2] - v[:, 0] * across[2]
    to /= np.maximum(np.linalg.norm(to, axis=1, keepdims=True), 1e-12)
    good = np.abs(to[:, 0] * axis[:, 1] - to[:, 1] * axis[:, 0]) < np.sin(np.radians(3.0))
    v, axis, to = v[good], axis[good], to[good]
    if len(v) < 6:
        return []
    # the long sides' vanishing point: where the rows of apices meet (tips in two rows
    # between the sides, bases along them), else where the board's long lines meet
    mean_axis = np.linalg.svd(to)[2][0]
    out = []
    for along in (
        _long_lines(lines, v[:, 0], mean_axis, centre, size),
        _rows(v[:, 0], np.sign((axis * to).sum(1)), mean_axis),
    ):
        if along is not None:
            box = _span(v, across, along)
            if box is not None:
                out.append(box * size + centre)
    return out


def _span(v: F64, across: F64, along: F64) -> F64 | None:
    """The box, rectified by the two vanishing points, that the Vs (apex and ends, in
    normalised image coordinates) span; its corners in the image, or None."""
    # rectify: lines through ``across`` are constant x, through ``along`` constant y
    o = np.append(np.median(v[:, 0], axis=0), 1.0)
    rect = np.stack([np.cross(across, o), np.cross(along, o), np.cross(across, along)])
    if abs(rect[2] @ o) < 1e-9:
        return None
    pts = np.c_[v.reshape(-1, 2), np.ones(v.shape[0] * 3)] @ rect.T
    if np.any(np.sign(pts[:, 2]) != np.sign(rect[2] @ o)):
        return None  # the horizon runs through the points
    xy = pts[:, :2] / pts[:, 2:]
    lo, hi = np.percentile(xy, 3, axis=0), np.percentile(xy, 97, axis=0)
    pad = 0.03 * (hi - lo)
    (x0, y0), (x1, y1) = lo - pad, hi + pad
    box = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]])
    back = box @ np.linalg.inv(rect).T
    corners = back[:, :2] / back[:, 2:]
    if not np.all(np.isfinite(corners)):
        return None
    return np.asarray(corners, np.float64)


def _rows(apex: F64, facing: F64, across: F64) -> F64 | None:
    """Where rows of apices meet (homogeneous): up to four lines, each through four or more
    apices of Vs facing one way, found one after the other (each the line through two of
    them that most pass within 1 % of the Vs' spread; well across the axes)."""
    spread = float(np.linalg.norm(apex.max(0) - apex.min(0)))
    tol = 0.01 * spread
    free = np.ones(len(apex), bool)
    rows, weights = [], []
    for _ in range(4):
        idx = np.nonzero(free)[0]
        i, j = np.triu_indices(len(idx), 1)
        i, j = idx[i], idx[j]
        d = apex[j] - apex[i]
        dist = np.linalg.norm(d, axis=1)
        ok = (facing[i] == facing[j]) & (dist > 0.2 * spread)
        ok &= np.abs(d @ across) < np.cos(np.radians(50)) * dist
        i, j = i[ok], j[ok]
        if len(i) == 0:
            break
        lines = np.cross(np.c_[apex[i], np.ones(len(i))], np.c_[apex[j], np.ones(len(j))])
        lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
        near = np.abs(lines[:, :1] * apex[:, 0] + lines[:, 1:2] * apex[:, 1] + lines[:, 2:]) < tol
        near &= free[None] & (facing[None] == facing[i][:, None])
        best = int(np.argmax(near.sum(1)))
        members = near[best]
        if members.sum() < 4:
            break
        # the line through the members by total least squares
        pts = apex[members]
        c = pts.mean(0)
        normal = np.linalg.svd(pts - c)[2][1]
        rows.append(np.array([normal[0], normal[1], -normal @ c]))
        weights.append(np.sqrt(members.sum()))
        free &= ~members
    if len(rows) < 2:
        return None
    return np.asarray(np.linalg.svd(np.array(rows) * np.array(weights)[:, None])[2][-1])


def _long_lines(lines: Lines, apex: F64, across: F64, centre: F64, size: float) -> F64 | None:
    """Where the board's long lines meet (homogeneous): lines not in a V, well away from
    the axes' direction (``across``), passing by the apices."""
    u, nrm, rho, cover, in_v = lines.every
    anchor = (nrm * rho[:, None] - centre) / size  # the point of each line nearest the origin
    lo, hi = apex.min(0), apex.max(0)
    mid, reach = (lo + hi) / 2, float(np.linalg.norm(hi - lo))
    near = np.abs(((mid - anchor) * nrm).sum(1)) < 0.6 * reach
    keep = ~in_v & (np.abs(u @ across) < np.cos(np.radians(50))) & near & (cover >= 20)
    return _vanishing(anchor[keep], u[keep], np.sqrt(cover[keep]))


def _vanishing(p: F64, d: F64, w: F64) -> F64 | None:
    """The point (homogeneous, in normalised image coordinates) where most of the lines
    through ``p`` along ``d`` (weights ``w``) meet: of the meeting points of pairs of
    them, the one most (by weight) pass within 3 degrees of; then refined by least
    squares over those."""
    n = len(p)
    if n < 4:
        return None
    lines = np.cross(np.c_[p, np.ones(n)], np.c_[p + d, np.ones(n)])
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)

    def misses(vp: F64) -> F64:
        to = vp[:, None, :2] - p[None] * vp[:, None, 2:]
        to /= np.maximum(np.linalg.norm(to, axis=2, keepdims=True), 1e-12)
        return np.asarray(np.abs(to[..., 0] * d[None, :, 1] - to[..., 1] * d[None, :, 0]))

    i, j = np.triu_indices(n, 1)
    if len(i) > 600:
        pick = np.random.default_rng(0).choice(len(i), 600, replace=False)
        i, j = i[pick], j[pick]
    cand = np.cross(lines[i], lines[j])
    cand /= np.maximum(np.linalg.norm(cand, axis=1, keepdims=True), 1e-12)
    support = ((misses(cand) < np.sin(np.radians(3.0))) * w).sum(1)
    vp = cand[int(np.argmax(support))]
    for _ in range(2):
        keep = misses(vp[None])[0] < np.sin(np.radians(3.0))
        if keep.sum() < 4:
            return None
        vp = np.linalg.svd(lines[keep] * w[keep, None])[2][-1]
    return np.asarray(vp, np.float64)
