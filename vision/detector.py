"""The dice and cube detector: boxes around every die (flat or cocked) and the cube.

A small YOLO network (ultralytics, trained on renders and real dice photos by
:mod:`gammoneye.datasets.train_detector`) exported to ONNX and run by ONNX Runtime or
OpenCV's DNN (:mod:`.onnxnet`): no torch at run time. It looks at one fixed-size
*canvas*, ``CANVAS_W`` x ``CANVAS_H``:

- with a board found, the canvas is the field seen from above with a margin of
  ``MARGIN`` of its width all round (:func:`canvas_homography`), so a die is about
  the same number of pixels whatever the camera's distance, and dice rolled off the
  field are still in view;
- with no board (a photo of dice, the dice tray), the whole image, scaled to fit
  (:func:`letterbox`).

Boxes come back in the image's pixels either way.

>>> h = canvas_homography(np.array([(0, 800), (1000, 800), (1000, 0), (0, 0)], float))
>>> np.round(cv2.perspectiveTransform(np.array([[[500.0, 400.0]]]), h)).tolist()
[[[256.0, 216.0]]]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

from gammoneye.calibration.boardspace import canonical_corners

from .classifier import ModelError, model_path
from .onnxnet import OnnxNet

CANVAS_W, CANVAS_H = 512, 432
#: Margin round the field on the canvas, as a share of the field's width.
MARGIN = 0.12
CLASSES = ("die", "cocked_die", "cube")
MODEL = "dicecube.onnx"
#: Whether a board's dice are looked for on its canvas turned round too: the network
#: finds some small dice one way up and not the other.
BOTH_WAYS = True
#: Whether each of those canvases is read mirrored too (left and right swapped): the
#: network, trained on canvases never mirrored, errs differently on a die and its
#: mirror image. Off: on ``renders/val`` (``gammoneye eval vision renders/val
#: --calibrated``) it found more dice (missed 114 -> 94, flat dice read right 75.06 ->
#: 76.33 %, cocked recall 28.44 -> 32.11 %, cube value 74.49 -> 76.52 %, extra
#: detections 25 -> 35), but through the referee the boxes of four canvases split
#: one die in two or called a die leaning on a die a cube, and the development
#: clips lost more than they gained (``docs/vision-benchmarks.md``, session 22).
MIRRORED = False
#: How a die's cocked probability weighs the detector's view with the die reader's
#: (:meth:`Detection.cocked_probability`): the reader's log-odds plus
#: ``COCKED_SHARE_WEIGHT`` times the log-odds of the detector's cocked share (its
#: cocked-die class score over its two dice classes' at the box, whichever class won)
#: plus ``COCKED_SHARE_BIAS``. The detector sees the die on the board canvas, the board
#: from straight above, where a flat die's top is square whatever the camera; the
#: reader sees the picture's crop. Each errs on other dice: together they find more
#: cocked dice at the same false alarms. Chosen on ``renders/val`` (neither trained on
#: nor held out) as the best recall with at most 1 % of flat dice called cocked, by
#: ``python bench/cocked_share.py renders/val``; held out in ``docs/vision-benchmarks.md``.
COCKED_SHARE_WEIGHT = 2.0
COCKED_SHARE_BIAS = 4.76
#: The least score of a box kept by :meth:`DiceCubeDetector.detect_anywhere` (dice with
#: no board: photos, the dice tray), below the board's ``min_score``: there a missed
#: die is lost, where on a board the referee sees the roll again in the next frames.
#: Chosen on the real photos' ``Train/`` split (``python bench/photo_threshold.py``) as
#: the score with the most dice found less extra boxes: of 951 dice, 0.3 found 915
#: with 7 extra boxes, 0.25 941 with 13, 0.2 944 with 18 (``docs/vision-benchmarks.md``,
#: session 29).
ANYWHERE_MIN_SCORE = 0.25

#: A board's dice and cube are not looked for again in a picture that shows its canvas
#: as the picture they were last looked for in did: the same field, and no cell of
#: ``STILL_CELL`` x ``STILL_CELL`` canvas pixels (grey) changed by ``STILL_LEVEL``
#: grey levels or more on average (:func:`canvas_unchanged`). The boxes found then are
#: its boxes; the die and cube readers still read them in the new picture (and
#: :class:`~gammoneye.vision.read.BoardReader` keeps the points read there too). The
#: referee reads a still board twice before it believes it, and the detector's two
#: passes were most of a read (``bench/read_time.py``). A die rolling or rocking
#: moves a whole edge of its own across cells (at about 12 canvas pixels a side and
#: 100 grey levels of contrast, a shift of one pixel changes a cell by about 25); a
#: camera's noise, averaged over 16 pixels, changes a cell by a fraction of its own (a
#: noise of 10 grey levels a pixel: about 3.5). On rendered clip 4401, of 40 pairs of
#: frames the motion gate calls still, three quarters differ by 3.2 or less in every
#: cell (nothing moved) and the rest by 88 or more somewhere.
STILL_CELL = 4
STILL_LEVEL = 12.0

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
__all__ = [
    "Detection",
    "DiceCubeDetector",
    "ModelError",
    "board_canvas",
    "canvas_homography",
    "canvas_unchanged",
    "letterbox",
]


def field_rect() -> F64:
    """The field's corners c0..c3 on the canvas (bottom-left, bottom-right, top-right,
    top-left): the field keeps the board-space aspect 1000 x 800, centred."""
    fw = CANVAS_W / (1 + 2 * MARGIN)
    fh = fw * 0.8
    x0, y0 = (CANVAS_W - fw) / 2, (CANVAS_H - fh) / 2
    return np.array([(x0, y0 + fh), (x0 + fw, y0 + fh), (x0 + fw, y0), (x0, y0)])


def canvas_homography(
    corners_px: F64, image_size: tuple[int, int] | None = None, *, ordered: bool = False
) -> F64:
    """Image -> canvas, from the field's four corners (put in canonical order unless
    ``ordered``)."""
    src = np.asarray(corners_px, np.float64)
    if not ordered:
        src = canonical_corners(src, image_size)
    return cv2.getPerspectiveTransform(  # type: ignore[no-any-return]
        src.astype(np.float32), field_rect().astype(np.float32)
    )


def letterbox(image_size: tuple[int, int]) -> F64:
    """Image -> canvas for a whole image (w, h): scaled to fit, centred."""
    w, h = image_size
    s = min(CANVAS_W / w, CANVAS_H / h)
    return np.array(
        [[s, 0, (CANVAS_W - s * w) / 2], [0, s, (CANVAS_H - s * h) / 2], [0, 0, 1]], np.float64
    )


def to_canvas(image: U8, homography: F64) -> U8:
    return cv2.warpPerspective(  # type: ignore[no-any-return]
        image,
        homography,
        (CANVAS_W, CANVAS_H),
        flags=cv2.INTER_AREA if homography[0, 0] < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(114, 114, 114),
    )


def upright_corners(corners_px: F64) -> F64:
    """A board's field corners (canonical order) turned so that the picture's lower
    long side comes first."""
    c = np.asarray(corners_px, np.float64)
    if c[0, 1] + c[1, 1] < c[2, 1] + c[3, 1]:
        c = np.roll(c, 2, axis=0)
    return c


def board_canvas(image: U8, corners_px: F64) -> U8:
    """The canvas :meth:`DiceCubeDetector.detect_on_board` looks at first: the board
    the way up the picture shows it."""
    return to_canvas(image, canvas_homography(upright_corners(corners_px), ordered=True))


def canvas_unchanged(grey: U8, before: U8) -> bool:
    """Whether two grey canvases show the same (``STILL_LEVEL``): no cell of
    ``STILL_CELL`` pixels square differs by that much on average.

    >>> a = np.full((CANVAS_H, CANVAS_W), 100, np.uint8)
    >>> noisy = (a + np.random.default_rng(0).normal(0, 8, a.shape)).astype(np.uint8)
    >>> canvas_unchanged(noisy, a)
    True
    >>> rolled = noisy.copy()
    >>> rolled[200:212, 300:312] = 220  # a die of 12 pixels come to rest
    >>> canvas_unchanged(rolled, a)
    False
    """
    if grey.shape != before.shape:
        return False
    diff = grey.astype(np.float32) - before.astype(np.float32)
    h, w = diff.shape
    cells = cv2.resize(diff, (w // STILL_CELL, h // STILL_CELL), interpolation=cv2.INTER_AREA)
    return bool(np.abs(cells).max() < STILL_LEVEL)


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Kept(Generic[T]):
    """What was made from a picture of a board (``value``), with what says which
    picture: ``key``, all else it was made from (the field, ...), and the grey board
    canvas (:func:`board_canvas`)."""

    key: object
    grey: U8
    value: T
    #: Whether ``value`` may be given again as it is (:meth:`DiceCubeDetector.detect_on_board`
    #: keeps faint boxes only once a second picture found them too).
    settled: bool = True

    def still(self, key: object, grey: U8) -> bool:
        """Whether a picture of ``key`` and grey canvas ``grey`` shows what this was
        made from (:func:`canvas_unchanged`)."""
        return key == self.key and canvas_unchanged(grey, self.grey)


def box_through(box: F64, homography: F64) -> F64:
    """The axis-aligned box round the image of a box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    pts = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float64)
    out = cv2.perspectiveTransform(pts, homography)[0]
    return np.array([*out.min(axis=0), *out.max(axis=0)])


def jacobian(homography: F64, x: float, y: float) -> F64:
    """The 2 x 2 derivative of the homography at image point (x, y): how a small
    step there moves on the canvas."""
    h = homography
    u, v, w = h @ np.array([x, y, 1.0])
    return np.array([h[0, :2] * w - u * h[2, :2], h[1, :2] * w - v * h[2, :2]]) / w**2


def box_back(box: F64, homography: F64) -> F64:
    """The image box (x0, y0, x1, y1) of a canvas box, ``homography`` being image ->
    canvas.

    The detector learned canvas boxes that are the axis-aligned bounds of warped image
    boxes (:func:`box_through`): a square die of side s seen through a local map J
    spans s * (|J11| + |J12|) by s * (|J21| + |J22|) on the canvas. Bounding the warped
    canvas box again on the way back would inflate the box twice (by 1.6 on held-out
    renders, where boards lie at an angle); instead the canvas box's centre is mapped
    back and its sides divided by the mean spread of the map's local derivative: exact
    for a pure scaling (a whole photo on the canvas) or a turn, near for a board seen
    at an angle (detected side / labelled side on held-out renders: median 1.03, and
    1.01 to 1.05 at every die size, ``bench/detector_boxes.py``).
    """
    x0, y0, x1, y1 = box
    back = np.linalg.inv(homography)
    centre = cv2.perspectiveTransform(np.array([[[(x0 + x1) / 2, (y0 + y1) / 2]]]), back)[0, 0]
    # canvas sides = |J| @ image sides; solving that for both sides reads worse on
    # held-out renders (74.5 % against 75.6 %: it amplifies the box's noise, and |J| is
    # singular for a board turned 45 degrees), so each side is divided by the mean
    spread = float(np.abs(jacobian(homography, *centre)).sum()) / 2
    half_w, half_h = (x1 - x0) / spread / 2, (y1 - y0) / spread / 2
    return np.array(
        [centre[0] - half_w, centre[1] - half_h, centre[0] + half_w, centre[1] + half_h]
    )


@dataclass(frozen=True, slots=True)
class Detection:
    kind: str  # "die", "cocked_die" or "cube"
    score: float
    box: tuple[float, float, float, float]  # image pixels x0, y0, x1, y1
    #: The detector's cocked-die class score over the sum of its two dice classes'
    #: at this box (whichever won); None where unknown (a box not the detector's own).
    cocked_share: float | None = None
    #: A die's cube class score at its box: how nearly the detector called it the cube
    #: (None for a cube, or a box not the detector's own).
    cube_score: float | None = None

    def cocked_probability(self, read: float) -> float:
        """The die reader's cocked probability ``read`` weighed with the detector's
        cocked share (``COCKED_SHARE_WEIGHT``), then raised to the detector's score
        where the detector calls the die cocked.

        >>> flat = Detection("die", 0.9, (0, 0, 10, 10), cocked_share=0.02)
        >>> leaning = Detection("die", 0.9, (0, 0, 10, 10), cocked_share=0.4)
        >>> round(flat.cocked_probability(0.3), 3), round(leaning.cocked_probability(0.3), 3)
        (0.02, 0.957)
        >>> Detection("die", 0.9, (0, 0, 10, 10)).cocked_probability(0.3)
        0.3
        """
        p = float(read)
        if self.cocked_share is not None:
            p = _sigmoid(
                _logit(p) + COCKED_SHARE_WEIGHT * _logit(self.cocked_share) + COCKED_SHARE_BIAS
            )
        return min(1.0, p if self.kind != "cocked_die" else max(p, self.score))

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


def _logit(p: float) -> float:
    q = min(max(p, 1e-6), 1 - 1e-6)
    return float(np.log(q / (1 - q)))


def _sigmoid(z: float) -> float:
    return float(1 / (1 + np.exp(-z)))


def box_iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Intersection over union of two boxes (x0, y0, x1, y1)."""
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _iou_xywh(a: NDArray[np.float32], b: NDArray[np.float32]) -> float:
    """:func:`box_iou` of two boxes given as (x, y, width, height)."""
    return box_iou((a[0], a[1], a[0] + a[2], a[1] + a[3]), (b[0], b[1], b[0] + b[2], b[1] + b[3]))


def same_box(a: tuple[float, ...], b: tuple[float, ...], iou: float) -> bool:
    """Whether two boxes (x0, y0, x1, y1) are one object: overlapping by ``iou`` or
    more, or with their centres within half the largest side (a die of 10 pixels
    seen 3 pixels apart overlaps itself by less than half; two dice side by side
    stand a whole side apart)."""
    if box_iou(a, b) >= iou:
        return True
    side = max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1])
    dx, dy = (a[0] + a[2] - b[0] - b[2]) / 2, (a[1] + a[3] - b[1] - b[3]) / 2
    return bool(np.hypot(dx, dy) < side / 2)


#: A box scored under this, found on a board, is given again for the pictures after it
#: that show the board unchanged only where the next of them finds it too: the
#: detector's faint boxes flicker from frame to frame, and one kept from a single
#: picture stood for a die for as long as the board stayed still (s68 clip 6402 at
#: 166.2 s: the frame's corner boxed as a cocked die at 0.20 in one frame of thirteen,
#: read as a 3 at 0.99, then given again for 11 s; a play was misread and eight were
#: lost after it). Of the faint boxes of s60 5603's still dice (its camera 2 m above,
#: dice 11 px wide), 9 of 10 were found again in the next frame. The reader keeps a
#: box under its ``FAINT_DIE_SCORE`` (the same 0.3) only where it reads it surely.
CONFIRM_BELOW = 0.3


class DiceCubeDetector:
    """The loaded detector; not thread-safe (one per worker)."""

    #: Whether :meth:`detect_on_board` gives a still board's last boxes again
    #: (``STILL_LEVEL``), and how often it did.
    reuse_still = True
    reused = 0
    #: The last boxes found on a board, keyed by the field's corners and the passes.
    _last_board: Kept[list[Detection]] | None = None

    def __init__(self, path: Path, min_score: float = 0.3, iou: float = 0.5) -> None:
        self.net = OnnxNet(path)
        self.min_score, self.iou = min_score, iou

    @classmethod
    def load(cls, path: Path | None = None, min_score: float = 0.3) -> DiceCubeDetector:
        return cls(path or model_path(MODEL), min_score)

    def detect_canvas(self, canvas: U8, min_score: float | None = None) -> list[Detection]:
        """Detections in canvas pixels, of ``min_score`` or more (default: the
        detector's)."""
        min_score = self.min_score if min_score is None else min_score
        blob = canvas.astype(np.float32)[None, :, :, ::-1].transpose(0, 3, 1, 2) / 255.0
        out = self.net.forward(blob)[0]  # (4 + classes, anchors): cx, cy, w, h, scores
        scores = out[4:]
        cls = scores.argmax(axis=0)
        best = scores[cls, np.arange(scores.shape[1])]
        keep = best >= min_score
        if not keep.any():
            return []
        cx, cy, w, h = out[:4, keep]
        boxes = np.stack([cx - w / 2, cy - h / 2, w, h], axis=1)
        conf, kinds = best[keep], cls[keep]
        flat, cocked, cube = scores[0, keep], scores[1, keep], scores[2, keep]
        share = cocked / np.maximum(flat + cocked, 1e-6)
        # one NMS over all classes: a die is flat or cocked, never both
        chosen = cv2.dnn.NMSBoxes(boxes.tolist(), conf.tolist(), min_score, self.iou)
        as_cube = np.flatnonzero(kinds == CLASSES.index("cube"))
        found = []
        for i in np.asarray(chosen, np.int64).reshape(-1):
            x, y, bw, bh = boxes[i]
            kind = CLASSES[int(kinds[i])]
            if kind == "cube":
                found.append(Detection(kind, float(conf[i]), (x, y, x + bw, y + bh)))
                continue
            # how nearly a die is the cube: its own cube score, or the best of the cube
            # boxes the NMS let it put out
            near = [conf[j] for j in as_cube if _iou_xywh(boxes[i], boxes[j]) >= self.iou]
            found.append(
                Detection(
                    kind,
                    float(conf[i]),
                    (x, y, x + bw, y + bh),
                    float(share[i]),
                    max([float(cube[i]), *map(float, near)]),
                )
            )
        return found

    def detect(
        self, image: U8, homography: F64 | None = None, min_score: float | None = None
    ) -> list[Detection]:
        """Dice and cube in ``image``: through the board canvas when ``homography``
        (image -> canvas, :func:`canvas_homography`) is given, else on the whole
        image; boxes in image pixels, best first; ``min_score`` as in
        :meth:`detect_canvas`."""
        if image.ndim != 3 or image.shape[2] != 3:
            raise ValueError(f"expected a BGR image (H, W, 3), got shape {image.shape}")
        h = homography if homography is not None else letterbox((image.shape[1], image.shape[0]))
        return self._detect_through(image, to_canvas(image, h), h, min_score)

    def _detect_through(
        self, image: U8, canvas: U8, h: F64, min_score: float | None = None
    ) -> list[Detection]:
        """:meth:`detect` on ``canvas``, ``image`` seen through ``h``."""
        found = []
        size = [image.shape[1], image.shape[0]] * 2
        for d in self.detect_canvas(canvas, min_score):
            box = np.clip(box_back(np.array(d.box, np.float64), h), 0, size)
            x0, y0, x1, y1 = (float(v) for v in box)
            found.append(replace(d, box=(x0, y0, x1, y1)))
        return sorted(found, key=lambda d: -d.score)

    def detect_on_board(
        self,
        image: U8,
        corners_px: F64,
        *,
        both_ways: bool = BOTH_WAYS,
        mirrored: bool = MIRRORED,
        canvas: U8 | None = None,
    ) -> list[Detection]:
        """Dice and cube on and around a board whose field has the corners
        ``corners_px`` (canonical order): through the canvas that shows the board the
        way up the picture does (the side lower in the picture at the canvas' foot)
        and, with ``both_ways``, through the canvas turned round too; with
        ``mirrored``, through each of those mirrored as well; duplicates merged (see
        ``BOTH_WAYS``, ``MIRRORED``). A picture whose canvas is unchanged since the
        last board's boxes were found gets those boxes (``STILL_LEVEL``), less any
        scored under ``CONFIRM_BELOW`` that the first such picture, looked at again,
        does not show. ``canvas``: :func:`board_canvas` of the picture, where already
        made."""
        c = upright_corners(corners_px)
        canvases = [canvas_homography(c, ordered=True)]
        if both_ways:
            canvases.append(canvas_homography(np.roll(c, 2, axis=0), ordered=True))
        if mirrored:
            mirror = np.array([[-1.0, 0.0, CANVAS_W], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
            canvases += [mirror @ h for h in canvases]
        if image.ndim != 3 or image.shape[2] != 3:
            raise ValueError(f"expected a BGR image (H, W, 3), got shape {image.shape}")
        first = to_canvas(image, canvases[0]) if canvas is None else canvas
        grey = cv2.cvtColor(first, cv2.COLOR_BGR2GRAY)
        key = np.array([*c.ravel(), both_ways, mirrored], np.float64).tobytes()
        last = self._last_board
        if self.reuse_still and last is not None and last.still(key, grey):
            if last.settled:
                self.reused += 1
                return list(last.value)
            # faint boxes of one picture: kept where this one shows them too
            again = self._detect_all(image, first, canvases)
            kept = [
                d
                for d in last.value
                if d.score >= CONFIRM_BELOW or any(same_box(d.box, e.box, self.iou) for e in again)
            ]
            self._last_board = Kept(key, last.grey, kept)
            return list(kept)
        found = self._detect_all(image, first, canvases)
        # the reference stays the picture the boxes were found in (not each later one
        # like it): a board changing slowly is looked at again once it has changed
        faint = any(d.score < CONFIRM_BELOW for d in found)
        self._last_board = Kept(key, grey, found, settled=not faint)
        return list(found)

    def _detect_all(self, image: U8, first: U8, canvases: list[F64]) -> list[Detection]:
        """The boxes found through every canvas of :meth:`detect_on_board`, merged."""
        found = self._detect_through(image, first, canvases[0])
        if len(canvases) > 1:
            found = self._merged(found + [d for h in canvases[1:] for d in self.detect(image, h)])
        return found

    def _merged(self, found: list[Detection]) -> list[Detection]:
        """One detection per object among those of several canvases: the surest. Two
        boxes are one object when they overlap by ``iou`` or more, or when their
        centres lie within half a side of each other (a die of 10 pixels seen 3
        pixels apart overlaps itself by less than half; two dice side by side stand
        a whole side apart). A die kept over a cube box of the same object keeps that
        box's score as its ``cube_score`` (s52 clip 4702 at 199.7 s: a small offered
        cube boxed as a die at 0.32 through one canvas and as the cube at 0.31
        through the other)."""
        kept: list[Detection] = []
        for d in sorted(found, key=lambda d: -d.score):
            same = next((i for i, k in enumerate(kept) if same_box(d.box, k.box, self.iou)), None)
            if same is None:
                kept.append(d)
            elif d.kind == "cube" and kept[same].kind != "cube":  # a die here was nearly the cube
                k = kept[same]
                kept[same] = replace(k, cube_score=max(k.cube_score or 0.0, d.score))
        return kept

    def detect_anywhere(
        self, image: U8, tile_scale: float = 1.25, min_score: float | None = None
    ) -> list[Detection]:
        """Every die and cube in an image with no board to go by: the whole image
        scaled onto the canvas, and, when that shrinks it by more than 1.5, also
        overlapping tiles of ``tile_scale`` canvases at nearly full resolution (small
        dice in a large picture); boxes scored ``min_score`` or more (default
        ``ANYWHERE_MIN_SCORE``); duplicates merged."""
        min_score = ANYWHERE_MIN_SCORE if min_score is None else min_score
        found = self.detect(image, min_score=min_score)
        h, w = image.shape[:2]
        if max(w / CANVAS_W, h / CANVAS_H) > 1.5:
            tw, th = min(w, round(CANVAS_W * tile_scale)), min(h, round(CANVAS_H * tile_scale))
            xs = np.linspace(0, w - tw, int(np.ceil((w - tw) / (tw * 0.7))) + 1)
            ys = np.linspace(0, h - th, int(np.ceil((h - th) / (th * 0.7))) + 1)
            s = 1.0 / tile_scale
            for y in ys:
                for x in xs:
                    tile = np.array([[s, 0, -x * s], [0, s, -y * s], [0, 0, 1]], np.float64)
                    found += self.detect(image, tile, min_score)
        return self._merged(found)
