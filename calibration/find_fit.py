"""The field's short sides from its points: fit the 48 triangle edges to line segments,
then decide which cells of the fitted lattice hold the points.

Work in the field's own coordinates ``(u, v)``: ``u`` in point widths along a long side
(0 to ``12 + bar``), ``v`` across it in the same unit (0 to the field's depth ``D``).
Point ``k`` of a side is the triangle with base ``[c, c + 1]`` on the side and tip at
``c + 1/2``, ``TIP_DEPTH * D`` in, where ``c = k`` in the first half and ``k + bar`` in
the second.

*Fit* (:func:`fit_edges`). From a rough field, a few rounds of: each line segment goes
to the edge it lies along (near it, in its direction, within its length); then the
homography from the field to the image and the bar's width are solved for together so
that the segments' ends lie on their edges (Gauss-Newton on the distances in the image,
long residuals down-weighted). The reach narrows each round, from under half a point
width (a point's neighbour has its edges in the same direction a whole point width
away) to a sixth of one. The edges run nearly across the field, so they fix the lattice
along it (the short sides, the bar, and the frame's skew) to a small part of a point
width; across it they say less (an edge seen a little inside the painted one moves the
fitted base a long way), so the long sides are left to colour
(:func:`~gammoneye.calibration.find.find_field`).

*Cells* (:func:`choose_cells`). A half of the lattice may sit one or two cells off: an
end point covered by a stack of five checkers has no edges to see, nor has the rail
beyond it. Per cell the evidence is the share of its edges seen, how busy its colour is
across the field (points and checkers are, rails and the bar are plain), and, at each
end of a half, a straight line right across the field (a rail's or the bar's edge);
each half goes where the sum is largest, a bar wider than two point widths costing.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]

FIT_ROUNDS = (0.4, 0.3, 0.2, 0.15)  # reach per round, in point widths
FIT_STEPS = 2  # Gauss-Newton steps per round
FIT_ANGLE = np.cos(np.radians(5.0))  # a segment runs along its edge within this
MIN_EDGES = 12  # edges with segments along a third of them, below which: no fit
N_PARAMS = 9  # 8 of the homography, the bar
CELL_WEIGHTS = (2.0, 0.5, 0.5)  # per cell: edges seen, colour busy; lines across at the ends
MAX_BAR = 2.0  # point widths; each point width of bar beyond costs 1 in choose_cells


def fit_edges(seg: F64, corners: F64, bar: float, tip: float) -> tuple[F64, float, int] | None:
    """Refine a field: ``corners`` in the image, the first side a long one, ``bar`` the
    bar's width in point widths, ``tip`` the points' length as a share of the field's
    depth. Returns (corners, bar, edges seen), or None when too few edges are seen."""
    corners = np.asarray(corners, np.float64)
    seg = segments_near(seg, corners, 0.15)
    length, across = _sides(corners)
    span = 12 + bar
    depth = span * across / max(length, 1e-6)
    # image coordinates normalised about the field's centre; a point width is about 1/12
    centre = corners.mean(0)
    size = float(np.linalg.norm(corners - centre, axis=1).mean())
    field = np.array([[0, 0], [span, 0], [span, depth], [0, depth]], np.float64)
    h0 = _homography(field, (corners - centre) / size)  # field -> normalised image
    p0 = (seg[:, :2] - centre) / size
    p1 = (seg[:, 2:] - centre) / size
    theta = np.zeros(N_PARAMS)
    theta[8] = bar
    tips = np.array([tip * depth, tip * depth])
    pw = 1.0 / span * length / size  # a point width in normalised image units
    seen = 0
    for reach in FIT_ROUNDS:
        h = _h(h0, theta)
        model = _edges(theta[8], depth, tips)
        g = np.asarray(np.linalg.inv(h), np.float64)
        which, weight, seen = _assign(_apply(g, p0), _apply(g, p1), model, reach)
        if seen < MIN_EDGES:
            return None
        idx = np.nonzero(which >= 0)[0]
        pts = np.concatenate([p0[idx], p1[idx]])
        edge = np.concatenate([which[idx], which[idx]])
        wt = np.sqrt(np.concatenate([weight[idx], weight[idx]]))
        for _ in range(FIT_STEPS):
            theta = _gauss_newton(h0, theta, depth, tips, pts, edge, wt, 0.1 * pw)
    h = _h(h0, theta)
    bar = float(theta[8])
    span = 12 + bar
    out = _apply(h, np.array([[0, 0], [span, 0], [span, depth], [0, depth]], np.float64))
    return out * size + centre, bar, seen


def _sides(c: F64) -> tuple[float, float]:
    """The mean length of a quadrilateral's first and third sides, and of the others."""
    first = float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3]))
    second = float(np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1]))
    return first / 2, second / 2


def segments_near(seg: F64, quad: F64, margin: float) -> F64:
    """The segments with both ends in the box around ``quad`` grown by ``margin`` of its
    size on every side."""
    lo, hi = quad.min(0), quad.max(0)
    pad = margin * (hi - lo).max()
    lo, hi = lo - pad, hi + pad
    inside = (seg[:, :2] >= lo).all(1) & (seg[:, :2] <= hi).all(1)
    inside &= (seg[:, 2:] >= lo).all(1) & (seg[:, 2:] <= hi).all(1)
    return seg[inside]


def _h(h0: F64, theta: F64) -> F64:
    """The homography ``h0`` corrected by the first eight parameters."""
    d = np.append(theta[:8], 0.0).reshape(3, 3)
    return np.asarray(h0 @ (np.eye(3) + d), np.float64)


def _apply(h: F64, p: F64) -> F64:
    q = p @ h[:, :2].T + h[:, 2]
    return np.asarray(q[:, :2] / q[:, 2:])


def _apply_many(hs: F64, p: F64) -> F64:
    """Homographies ``hs`` (k, 3, 3) applied to points ``p`` (k, m, 2)."""
    q = p[..., :1] * hs[:, None, :, 0] + p[..., 1:] * hs[:, None, :, 1] + hs[:, None, :, 2]
    return np.asarray(q[..., :2] / q[..., 2:])


def _gauss_newton(
    h0: F64,
    theta: F64,
    depth: float,
    tips: F64,
    pts: F64,
    edge: NDArray[np.int64],
    wt: F64,
    soft: float,
) -> F64:
    """One damped Gauss-Newton step; residuals over ``soft`` count less (Huber)."""
    model = _edges(theta[8], depth, tips)
    base, tip = model["base"][edge], model["tip"][edge]
    # the residuals and their finite differences, all at once: the eight homography
    # entries, then the bar (which moves the second half's edges along the side)
    steps = np.concatenate([np.eye(8) * 1e-6, np.zeros((2, 8))])
    hs = np.stack([_h(h0, theta + np.append(s, 0.0)) for s in steps])  # (10, 3, 3)
    shift = np.zeros((10, len(edge), 2))
    shift[9, :, 0] = ((edge % 24) // 2 >= 6) * 1e-4
    b = _apply_many(hs, base[None] + shift)
    d = _apply_many(hs, tip[None] + shift) - b
    rs = d[..., 0] * (pts[None, :, 1] - b[..., 1]) - d[..., 1] * (pts[None, :, 0] - b[..., 0])
    rs /= np.linalg.norm(d, axis=2)
    r = rs[8]
    jac = np.concatenate([(rs[:8] - r) / 1e-6, (rs[9:] - r) / 1e-4]).T
    w = wt * np.sqrt(np.minimum(1.0, soft / np.maximum(np.abs(r), 1e-12)))
    a = jac * w[:, None]
    hess = a.T @ a
    hess += 1e-6 * np.diag(np.diag(hess) + 1e-9)
    delta = np.linalg.solve(hess, -a.T @ (r * w))
    new = theta + delta
    if not 0.0 <= new[8] <= 4.0:
        return theta
    return np.asarray(new)


def _homography(src: F64, dst: F64) -> F64:
    """The homography taking four points ``src`` to ``dst`` (DLT)."""
    rows = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    h = np.linalg.svd(np.array(rows))[2][-1].reshape(3, 3)
    return np.asarray(h / h[2, 2], np.float64)


def _edges(bar: float, depth: float, tips: F64) -> dict[str, F64]:
    """The 48 edges of the field's points (see :func:`_cell_edges`)."""
    k = np.arange(12, dtype=np.float64)
    return _cell_edges(k + bar * (k >= 6), depth, tips)


def _cell_edges(starts: F64, depth: float, tips: F64) -> dict[str, F64]:
    """The edges of points in cells starting at ``starts`` on both sides, in field
    coordinates (side ``v = 0`` first; per cell its left edge, then its right): base and
    tip points, unit direction, and the line ``(a, b, c)`` with ``a u + b v + c = 0`` and
    ``(a, b)`` a unit normal. ``tips``: how far in the tips are on each side."""
    n = len(starts)
    side = np.repeat([0, 1], 2 * n)
    right = np.tile([0.0, 1.0], 2 * n)
    c = np.tile(np.repeat(starts, 2), 2)
    base = np.stack([c + right, np.where(side == 0, 0.0, depth)], 1)
    top = np.stack([c + 0.5, np.where(side == 0, tips[0], depth - tips[1])], 1)
    d = top - base
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    nrm = np.stack([-d[:, 1], d[:, 0]], 1)
    line = np.concatenate([nrm, -(nrm * base).sum(1, keepdims=True)], 1)
    return {"base": base, "tip": top, "dir": d, "line": line}


def _assign(
    p0: F64, p1: F64, model: dict[str, F64], reach: float
) -> tuple[NDArray[np.int64], F64, int]:
    """For each segment (ends ``p0``, ``p1`` in field coordinates) the edge it lies along
    (-1 for none): both ends within ``reach`` of the edge's line, its direction the edge's,
    and it overlapping the edge; with a weight (its length along the edge) and the number
    of edges covered along a third of their length or more."""
    base, d, line = model["base"], model["dir"], model["line"]
    span = np.linalg.norm(model["tip"] - base, axis=1)
    # products by hand: numpy's BLAS may start threads for them, which cost when busy
    dist0 = np.abs(p0[:, :1] * line[:, 0] + p0[:, 1:] * line[:, 1] + line[:, 2])
    dist1 = np.abs(p1[:, :1] * line[:, 0] + p1[:, 1:] * line[:, 1] + line[:, 2])
    t0 = ((p0[:, None, :] - base) * d).sum(-1) / span
    t1 = ((p1[:, None, :] - base) * d).sum(-1) / span
    sd = p1 - p0
    seg_len = np.linalg.norm(sd, axis=1)
    cos = np.abs(sd[:, :1] * d[:, 0] + sd[:, 1:] * d[:, 1]) / np.maximum(seg_len, 1e-9)[:, None]
    lo, hi = np.clip(np.minimum(t0, t1), 0, 1), np.clip(np.maximum(t0, t1), 0, 1)
    ok = (np.maximum(dist0, dist1) < reach) & (cos > FIT_ANGLE) & (hi - lo > 0.05)
    cost = np.where(ok, dist0 + dist1, np.inf)
    which = np.argmin(cost, axis=1)
    rows = np.arange(len(p0))
    has = np.isfinite(cost[rows, which])
    covered = np.zeros(len(base))
    cov = (hi - lo)[rows, which]
    np.add.at(covered, which[has], cov[has])
    weight = np.where(has, cov * span[which], 0.0)
    return np.where(has, which, -1), weight, int((covered > 1 / 3).sum())


def cell_evidence(
    img: NDArray[np.uint8], seg: F64, corners: F64, bar: float, tip: float, reach: int = 3
) -> dict[str, F64]:
    """Evidence, in the frame of a fitted field, for which cells of its lattice are the
    points: per cell from ``reach`` cells before each half to ``reach`` after it, the
    share of its four edges along which segments lie (``edges``) and how much colour
    changes across the field in it (``busy``: points and checkers do, rails and the bar
    are plain); per cell boundary, the share of the field's depth along which a line
    runs straight across (``across``: rails' and bar's edges)."""
    seg = segments_near(seg, corners, 0.4)
    span = 12 + bar
    length, across_px = _sides(corners)
    depth = span * across_px / max(length, 1e-6)
    field = np.array([[0, 0], [span, 0], [span, depth], [0, depth]], np.float64)
    h = _homography(corners, field)  # image -> field
    # cell starts: the first half's from -reach, the second's to 12 + reach
    first = np.arange(-reach, 6 + reach, dtype=np.float64)
    second = np.arange(6 - reach, 12 + reach, dtype=np.float64) + bar
    starts = np.concatenate([first, second])
    # the edges of every cell, both sides: the share of each along which segments lie
    n = len(starts)
    model = _cell_edges(starts, depth, np.full(2, tip * depth))
    p0, p1 = _apply(h, seg[:, :2]), _apply(h, seg[:, 2:])
    which, weight, _ = _assign(p0, p1, model, 0.15)
    span_e = np.linalg.norm(model["tip"] - model["base"], axis=1)
    covered = np.zeros(2 * 2 * n)
    has = which >= 0
    np.add.at(covered, which[has], weight[has] / span_e[which[has]])
    edges = np.minimum(covered, 1.0).reshape(2, n, 2).mean((0, 2))
    # straight lines across the field at each cell boundary
    bounds = np.concatenate([first, [first[-1] + 1], second, [second[-1] + 1]])
    sd = p1 - p0
    ln = np.maximum(np.linalg.norm(sd, axis=1), 1e-9)
    upright = np.abs(sd[:, 1]) / ln > np.cos(np.radians(3.0))
    grid = np.linspace(0.15, 0.85, 29) * depth
    lo, hi = np.minimum(p0[:, 1], p1[:, 1]), np.maximum(p0[:, 1], p1[:, 1])
    inside = (grid[None] >= lo[:, None]) & (grid[None] <= hi[:, None])  # seg, grid
    near = (
        upright[None]
        & (np.abs(p0[None, :, 0] - bounds[:, None]) < 0.2)
        & (np.abs(p1[None, :, 0] - bounds[:, None]) < 0.2)
    )  # bound, seg
    line = (near[:, :, None] & inside[None]).any(1).mean(1)
    # colour busy across the field, per cell
    ppw = 8
    lo_u, hi_u = float(starts.min()), float(starts.max() + 1)
    w_px = round((hi_u - lo_u) * ppw)
    h_px = round(depth * ppw)
    dst = np.array(
        [
            [(0 - lo_u) * ppw, 0],
            [(span - lo_u) * ppw, 0],
            [(span - lo_u) * ppw, h_px],
            [(0 - lo_u) * ppw, h_px],
        ],
        np.float32,
    )
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    canon = cv2.warpPerspective(img, warp, (w_px, h_px)).astype(np.float32)
    rows = canon[round(0.05 * h_px) : round(0.95 * h_px)]
    col = np.abs(rows - np.median(rows, axis=0)).sum(2).mean(0)
    busy = np.array(
        [col[round((s - lo_u) * ppw) + 1 : round((s + 1 - lo_u) * ppw) - 1].mean() for s in starts]
    )
    return {"edges": edges, "busy": busy, "across": line}


def choose_cells(ev: dict[str, F64], bar: float, reach: int = 3) -> tuple[int, int]:
    """How many cells (up to 2 either way) to move the first and the second half by,
    from the evidence of :func:`cell_evidence` (the bar stays 0.3 to 2.6 point widths)."""
    e, b, a = ev["edges"], ev["busy"], ev["across"]
    n = len(e) // 2
    now = np.r_[np.arange(reach, reach + 6), n + np.arange(reach, reach + 6)]
    busy = np.minimum(b / (np.median(b[now]) + 1e-6), 1.5)
    w_e, w_b, w_a = CELL_WEIGHTS
    score = []
    for half in (0, 1):
        s = []
        for m in range(-2, 3):
            cells = half * n + np.arange(reach + m, reach + m + 6)
            ends = half * (n + 1) + np.array([reach + m, reach + m + 6])
            s.append(w_e * e[cells].sum() + w_b * busy[cells].sum() + w_a * a[ends].sum())
        score.append(s)
    best = (-np.inf, 0, 0)
    for m0 in range(-2, 3):
        for m1 in range(-2, 3):
            width = bar - m0 + m1
            if not 0.3 <= width <= 2.6:
                continue
            sc = score[0][m0 + 2] + score[1][m1 + 2] - max(0.0, width - MAX_BAR)
            sc -= 0.01 * (abs(m0) + abs(m1))
            if sc > best[0]:
                best = (sc, m0, m1)
    return best[1], best[2]


def refine_ends(
    img: NDArray[np.uint8], seg: F64, quad: F64, bar: float, tip: float
) -> tuple[F64, float]:
    """The field ``quad`` (first side a long one) with its short sides where the fitted
    lattice of points puts them, the halves moved to the cells the evidence says hold the
    points; its long sides are kept. Unchanged when the points do not fit."""
    fit = fit_edges(seg, quad, bar, tip)
    if fit is None:
        return quad, bar
    fq, bar = fit[0], fit[1]
    m0, m1 = choose_cells(cell_evidence(img, seg, fq, bar, tip), bar)
    if m0 or m1:
        span = 12 + bar
        h = _homography(np.array([[0, 0], [span, 0], [span, 1], [0, 1]], np.float64), fq)
        fq = _apply(h, np.array([[m0, 0], [span + m1, 0], [span + m1, 1], [m0, 1]], np.float64))
        bar = bar - m0 + m1
        again = fit_edges(seg, fq, bar, tip)
        if again is not None:
            fq, bar = again[0], again[1]

    def line(p: F64, q: F64) -> F64:
        return np.cross(np.append(p, 1.0), np.append(q, 1.0))

    def meet(a: F64, b: F64) -> F64:
        x = np.cross(a, b)
        return np.asarray(x[:2] / x[2])

    top, bottom = line(quad[0], quad[1]), line(quad[3], quad[2])
    left, right = line(fq[0], fq[3]), line(fq[1], fq[2])
    out = np.array([meet(top, left), meet(top, right), meet(bottom, right), meet(bottom, left)])
    return out, bar
