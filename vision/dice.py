"""The die reader at run time: the face up and whether the die is cocked, from a crop.

Two small CNNs (trained on rendered dice and real dice photos,
:mod:`gammoneye.datasets.train_dice`) run by ONNX Runtime (:mod:`.onnxnet`). Input: square
crops around dice (1.6 times the die's box), any size (resized to 48 x 48); output
per crop: a probability for each value 1..6 and the probability that the die is
cocked.

- ``vision/models/dice.onnx`` is trained on every quarter turn of its crops and read
  at four turns averaged: it cannot tell the top from the faces turned to a low
  camera, but is rarely sure of what is no die.
- ``vision/models/dice_upright.onnx`` is trained on crops as the camera saw them
  (``train dice --no-turns``) and read at one view: the top of a die lies above the
  faces turned to the camera, and it reads the top better (s38 clip 3303, the camera
  51 degrees above the table), but it reads a pad or a checker as surely as a die.

The face is the two averaged; whether a box is a die at all (how sure its face is
read: :func:`~gammoneye.vision.read.keep_die`, the cube among dice) and whether it is
cocked are the turned network's, on which those thresholds were chosen.

>>> reader = DiceReader.load()
>>> values, cocked = reader.read(np.zeros((1, 48, 48, 3), np.uint8))
>>> values.shape, bool(np.isclose(values.sum(), 1.0)), cocked.shape
((1, 6), True, (1,))
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .classifier import ModelError, OnnxClassifier, check_views, model_path
from .crops import square_crop, zoom_box

SIZE = 48
MODEL = "dice.onnx"
UPRIGHT_MODEL = "dice_upright.onnx"

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]
__all__ = ["DiceConfidence", "DiceRead", "DiceReader", "ModelError", "evaluate_dice"]


#: Quarter turns of each crop read by default; their probabilities are averaged.
#: A die seen from above means the same turned any way, and the net, trained on all
#: four turns, errs differently on each (see ``gammoneye eval dice --views``). The
#: cube reader does the same (:mod:`.cube`).
VIEWS = 4
#: The reader's cocked probability is moved by this many logits before anyone reads
#: it (:meth:`DiceReader.read`), so that 0.5, where vision and the referee call a die
#: cocked, is the operating point with the most cocked dice found at no more than 1 %
#: of flat dice called cocked: issue 4's and issue 5's false-alarm bound. Chosen with
#: ``bench/cocked_threshold.py renders/val`` on stills that are neither trained on
#: nor held out (``vision/models/README.md``).
COCKED_LOGIT_SHIFT = 1.25
#: A die boxed in a picture under ``ZOOM_UNDER_PX`` pixels (the box's larger side) is
#: read again from crops cut round its box made ``ZOOMS`` times larger, and the reads
#: of all its crops combined (:meth:`DiceReader.read_boxes`). The reader is trained on
#: boxes 0.85 to 1.35 times the die (``datasets.train_dice.BOX_ZOOM``) and errs
#: differently at each. On the still frames of the dev clips (s53, s54, s56, s57;
#: ``python bench/clip_dice.py CLIPS --every 10``, 3,673 dice found) reading the small
#: dice read under 0.97 again took the faces read right from 98.18 to 98.42 %, the
#: mean probability of the true face 0.947 -> 0.949; the gain is on dice under 16 px.
#: Since session 59 every small die is read again, a sure one too: a small die may be
#: read surely as a face it does not show from one crop and unsurely from the others
#: (s88 clip 8503 at 261.5 s: an orange 5 about 12 px wide on a cream board read as a
#: 3 at 0.98; from the crops 0.85 and 1.15 times its box 0.54 and 0.89, the 5 0.42
#: and 0.10; its legal play flagged as no play of 63). On the 12 clips of s87-s89,
#: every frame (``bench/referee_cached.py``), plays 1,039 -> 1,040 of 1,040 and that
#: false flag gone, nothing else changed; a read of 8503's frames (all its dice under
#: 12 px) p50 48 -> 52 ms (``bench/read_time.py``).
ZOOMS = (0.85, 1.15)
#: ... a die boxed under this many pixels: on larger dice the zoomed crops gained
#: nothing on the dev clips' frames (16-20 px: 99.26 -> 99.07 % right) and took a sure
#: read down (s53 clip 4801 at 116 s: a 5 boxed 20 x 33 px read at 0.93, at 0.83 with
#: them; the referee then took a 6 played for a 5 for a misread 66, not an illegal
#: play).
ZOOM_UNDER_PX = 18.0


@dataclass(frozen=True)
class DiceRead:
    """What the die reader says of N crops: ``values`` (N, 6), the faces 1..6 (the
    two networks averaged); ``cocked`` (N,); ``turned`` (N, 6), the faces as the
    turned network alone reads them, for deciding whether a box is a die at all."""

    values: F32
    cocked: F32
    turned: F32


class DiceReader:
    """The loaded die reader; not thread-safe (one per worker). ``views``: how many
    quarter turns of each crop the turned network reads (1..4); ``upright``: the
    network reading crops as they lie, or ``None`` to read with the turned one alone;
    ``zooms``: the box sizes an unsure die is read again at (:meth:`read_boxes`;
    default ``ZOOMS``; empty: not read again)."""

    def __init__(
        self,
        classifier: OnnxClassifier,
        views: int = VIEWS,
        upright: OnnxClassifier | None = None,
        zooms: tuple[float, ...] | None = None,
    ) -> None:
        self.classifier = classifier
        self.views = check_views(views)
        self.upright = upright
        self.zooms = ZOOMS if zooms is None else tuple(zooms)
        if any(not 0.5 <= z <= 2.0 for z in self.zooms):
            raise ValueError(f"zooms must lie in 0.5..2.0, not {self.zooms}")

    @classmethod
    def load(
        cls, path: Path | None = None, views: int = VIEWS, upright: Path | None = None
    ) -> DiceReader:
        """The shipped pair with no ``path``; else the network at ``path`` (read alone
        unless ``upright`` names its upright partner)."""
        if path is None and upright is None:
            upright = model_path(UPRIGHT_MODEL)
        return cls(
            OnnxClassifier(path or model_path(MODEL), SIZE, SIZE),
            views,
            OnnxClassifier(upright, SIZE, SIZE) if upright is not None else None,
        )

    def read(self, crops: U8) -> tuple[F32, F32]:
        """(N, 6) value probabilities (faces 1..6) and (N,) cocked probabilities."""
        r = self.read_all(crops)
        return r.values, r.cocked

    def read_turned(self, crops: U8) -> tuple[F32, F32]:
        """The turned network alone: (N, 6) faces and (N,) cocked probabilities."""
        p = self.classifier.probs(crops, self.views)  # class = value - 1 + 6 * cocked
        return p[:, :6] + p[:, 6:], shift_probability(p[:, 6:].sum(axis=1), -COCKED_LOGIT_SHIFT)

    def read_all(self, crops: U8) -> DiceRead:
        """The faces, the cocked probabilities and the turned network's faces."""
        turned, cocked = self.read_turned(crops)
        if self.upright is None or not len(crops):
            return DiceRead(turned, cocked, turned)
        q = self.upright.probs(crops)
        values = ((turned + q[:, :6] + q[:, 6:]) / 2).astype(np.float32)
        return DiceRead(values, cocked, turned)

    def read_boxes(
        self, image: U8, boxes: list[tuple[float, float, float, float]]
    ) -> tuple[DiceRead, U8]:
        """The dice boxed in ``image``: each die's crop (:func:`.crops.square_crop`)
        read as :meth:`read_all` does; a die boxed under ``ZOOM_UNDER_PX`` is read
        again from crops round its box made ``zooms`` times larger, its faces the
        geometric mean of all its crops' (:func:`geometric_mean`).
        The cocked probability and the turned network's faces stay its first crop's,
        on which the thresholds using them were chosen. Returns the read and the first
        crops (N, 64, 64, 3); no boxes, no dice."""
        if not boxes:
            none = np.zeros((0, 6), np.float32)
            return DiceRead(none, np.zeros(0, np.float32), none), np.zeros((0, 64, 64, 3), np.uint8)
        crops = np.stack([square_crop(image, b) for b in boxes])
        r = self.read_all(crops)
        small = [i for i, b in enumerate(boxes) if max(b[2] - b[0], b[3] - b[1]) < ZOOM_UNDER_PX]
        if not small or not self.zooms:
            return r, crops
        more = np.stack(
            [square_crop(image, zoom_box(boxes[i], z)) for i in small for z in self.zooms]
        )
        faces = self.read_all(more).values.reshape(len(small), len(self.zooms), 6)
        values = r.values.copy()
        values[small] = geometric_mean(np.concatenate([values[small, None], faces], axis=1))
        return DiceRead(values, r.cocked, r.turned), crops


#: How many of the dice read lately :class:`DiceConfidence` weighs, and how many it
#: needs before it says anything.
CONFIDENCE_WINDOW = 240
CONFIDENCE_LEAST = 40
#: Under this mean probability of the face read, a match's dice are read unsurely
#: (:meth:`DiceConfidence.unsure`). The dice the referee's eyes were given in every
#: picture they read (``gammoneye eval referee CLIP``, which prints the mean and in how
#: many pictures the notice was up), by the window's mean after each picture: on the
#: three looks the die reader reads worst (s164 16101, blue dice with white pips at
#: 8-12 px, 45 % of them read right by ``bench/clip_dice.py``; s168 16503, white dice
#: on a white board, 84 %; s172 16903, amber dice of 10 px, 91 %; the clips where the
#: referee missed most plays in sessions 78-80) under 0.85 in 94.8, 79.0 and 92.1 % of
#: the pictures; on s173 17002 (98.8 % right, its dice read at 0.90 on average) in 0.5
#: % (0.84: none; 0.86: 1.6 %), on s174 17101 in none. A window of 120 dice: 0.5 and
#: 0 %, the worst looks 94.3, 66.8 and 85.8 %.
UNSURE_MEAN = 0.85


class DiceConfidence:
    """How surely the die reader reads one match's dice: the mean probability of the
    face read over the last ``CONFIDENCE_WINDOW`` dice read (a die read in several
    pictures counts each time). A reader unsure of most dice on a board misreads
    many, some surely: dice too small in the picture, of little contrast with their
    pips or the board, or badly lit. The referee then takes plays of misread rolls
    for illegal ones; the players should hear of it early (:meth:`notice`).

    >>> c = DiceConfidence()
    >>> c.add([0.99, 1.0] * 30); (round(c.mean, 3), c.unsure())
    (0.995, False)
    >>> c.add([0.6, 0.7] * 120); (round(c.mean, 3), c.unsure(), round(c.overall, 3))
    (0.65, True, 0.719)
    """

    def __init__(self, window: int | None = None, least: int | None = None) -> None:
        window = CONFIDENCE_WINDOW if window is None else window
        least = CONFIDENCE_LEAST if least is None else least
        if not 0 < least <= window:
            raise ValueError(f"least must lie in 1..window ({window}), not {least}")
        self._best: deque[float] = deque(maxlen=window)
        self.least = least
        #: every die weighed so far: how many, and the sum of their probabilities
        self.seen = 0
        self._sum = 0.0

    def add(self, best: Iterable[float]) -> None:
        """The probability of the face read, for each die of a reading."""
        for p in best:
            if not 0.0 <= p <= 1.0:
                raise ValueError(f"a probability lies in 0..1, not {p}")
            self._best.append(float(p))
            self.seen += 1
            self._sum += float(p)

    @property
    def count(self) -> int:
        return len(self._best)

    @property
    def mean(self) -> float | None:
        """The mean over the dice weighed; None before ``least`` of them."""
        if len(self._best) < self.least:
            return None
        return float(np.mean(self._best))

    @property
    def overall(self) -> float | None:
        """The mean over every die weighed so far (None before any)."""
        return self._sum / self.seen if self.seen else None

    def unsure(self) -> bool:
        """Whether the dice lately read were read unsurely (``UNSURE_MEAN``)."""
        mean = self.mean
        return mean is not None and mean < UNSURE_MEAN

    def notice(self) -> str | None:
        """What to tell the players while the dice are read unsurely, else None."""
        if not self.unsure():
            return None
        return (
            f"the dice are read unsurely (mean {self.mean:.2f} over the last "
            f"{self.count} dice read; {UNSURE_MEAN:.2f} or more is usual): rolls will be "
            "misread and legal plays may be flagged. Bring the camera nearer the board "
            "or give it more pixels, light the table evenly, or use dice whose pips "
            "stand out from them and from the board"
        )


def geometric_mean(faces: F32) -> F32:
    """(N, K, 6) -> (N, 6): each die's K reads of its faces combined as the
    normalised geometric mean, which keeps a face the reads agree on as sure as they
    are, where their plain mean would take a sure read down by any one unsure read
    (s54 clip 4902 at 61 s: a 4 read at 0.88, 0.80 as the plain mean of its three
    crops; the referee then took the roll for a misread 31 and an illegal play of the
    43 for a legal 31).

    >>> reads = np.array([[[0.9, 0.1, 0, 0, 0, 0], [0.6, 0.4, 0, 0, 0, 0]]], np.float32)
    >>> [round(float(p), 3) for p in geometric_mean(reads)[0]]
    [0.786, 0.214, 0.0, 0.0, 0.0, 0.0]
    """
    g = np.exp(np.log(np.clip(faces.astype(np.float64), 1e-6, 1.0)).mean(axis=1))
    return (g / g.sum(axis=1, keepdims=True)).astype(np.float32)


def shift_probability(p: F32, logits: float) -> F32:
    """``p`` moved by ``logits`` on the log-odds scale (positive: more likely)."""
    q = np.clip(p.astype(np.float64), 1e-7, 1 - 1e-7)
    z = np.log(q / (1 - q)) + logits
    return (1 / (1 + np.exp(-z))).astype(np.float32)


@dataclass(frozen=True)
class DiceReport:
    name: str
    n: int
    value_accuracy: float
    cocked_truth: int
    cocked_found: int
    flat_alarms: int
    flat: int
    latency_ms: float  # per crop, batches of 4

    def line(self) -> str:
        out = f"{self.name}: {self.n} dice, value accuracy {self.value_accuracy * 100:.2f} %"
        if self.cocked_truth:
            out += (
                f"; cocked recall {self.cocked_found}/{self.cocked_truth} "
                f"({self.cocked_found / self.cocked_truth * 100:.1f} %)"
            )
        if self.flat:
            out += (
                f"; false cocked {self.flat_alarms}/{self.flat} "
                f"({self.flat_alarms / self.flat * 100:.2f} %)"
            )
        return out + f"; {self.latency_ms:.2f} ms per die"


def evaluate_dice(
    reader: DiceReader, name: str, crops: U8, classes: NDArray[np.int64]
) -> DiceReport:
    """Measure the reader on crops labelled with classes ``value - 1 + 6 * cocked``."""
    start = time.perf_counter()
    values, cocked = [], []
    for i in range(0, len(crops), 4):
        v, c = reader.read(crops[i : i + 4])
        values.append(v)
        cocked.append(c)
    per_die = (time.perf_counter() - start) * 1000 / max(len(crops), 1)
    v_all, c_all = np.concatenate(values), np.concatenate(cocked)
    true_value, true_cocked = classes % 6, classes >= 6
    said_cocked = c_all >= 0.5
    return DiceReport(
        name,
        len(crops),
        float((v_all.argmax(1) == true_value).mean()),
        int(true_cocked.sum()),
        int((said_cocked & true_cocked).sum()),
        int((said_cocked & ~true_cocked).sum()),
        int((~true_cocked).sum()),
        per_die,
    )


@dataclass(frozen=True)
class FoundReport:
    """Dice found and read in whole photos (``vision dice``), against their labels.

    The real photos' labels box a face's pips, not the die: a one is labelled by a
    box round its single pip, a two by the pair's narrow diagonal box. A detector
    boxing the whole top face then overlaps a one's label by less than half though it
    found that very die. So a labelled die is *found* where a detection is the same
    die: overlapping it by half (IoU >= 0.5), or with the two centres within half the
    larger box's side (the rule that merges one die's boxes,
    :func:`.detector.same_box`); ``found_iou`` counts the strict overlaps alone."""

    photos: int
    dice: int
    found: int  # labelled dice matched by a detection of the same die
    found_iou: int  # of those, matched with IoU >= 0.5
    read_right: int  # of the labelled dice: found and read right
    extra: int  # detections matching no labelled die
    latency_ms: list[float]

    def line(self) -> str:
        lat = np.array(self.latency_ms) if self.latency_ms else np.zeros(1)
        n = max(self.dice, 1)
        return (
            f"{self.photos} photos, {self.dice} dice: found {self.found} "
            f"({self.found / n * 100:.2f} %; at IoU >= 0.5 {self.found_iou}, "
            f"{self.found_iou / n * 100:.2f} %), value right (missed = wrong) "
            f"{self.read_right / n * 100:.2f} %, extra detections {self.extra}; "
            f"per photo p50 {np.percentile(lat, 50):.0f} ms, p95 {np.percentile(lat, 95):.0f} ms"
        )


Box = tuple[float, float, float, float]


def yolo_boxes(text: str, width: int, height: int) -> list[tuple[int, Box]]:
    """The objects of a YOLO label file's ``text`` (a ``CLASS CX CY W H`` line each,
    normalised to the picture) as (class, box in pixels ``x0, y0, x1, y1``) of a
    ``width`` x ``height`` picture; lines of other shapes are skipped."""
    boxes = []
    for row in text.splitlines():
        parts = row.split()
        if len(parts) != 5:
            continue
        c, cx, cy, bw, bh = int(parts[0]), *(float(v) for v in parts[1:])
        box = (
            (cx - bw / 2) * width,
            (cy - bh / 2) * height,
            (cx + bw / 2) * width,
            (cy + bh / 2) * height,
        )
        boxes.append((c, box))
    return boxes


def labelled_photos(folder: Path) -> Iterator[tuple[Path, U8, list[tuple[int, Box]]]]:
    """Each photo of ``folder`` with YOLO labels (``NAME.jpg`` + ``NAME.txt``, in
    name order) that can be read: its path, the picture and its labelled boxes
    (:func:`yolo_boxes`). A label with no picture, or none that reads, is skipped."""
    import cv2

    for txt in sorted(folder.glob("*.txt")):
        jpg = txt.with_suffix(".jpg")
        image = cv2.imread(str(jpg), cv2.IMREAD_COLOR) if jpg.exists() else None
        if image is not None:
            h, w = image.shape[:2]
            yield jpg, image, yolo_boxes(txt.read_text(), w, h)


def evaluate_found(
    detector: Any, reader: DiceReader, folder: Path, min_score: float | None = None
) -> FoundReport:
    """Find and read the dice of every labelled photo in ``folder`` (``NAME.jpg`` +
    YOLO ``NAME.txt``, class = face - 1) the way ``vision dice`` does (with
    ``min_score``: the detector's boxes scored that or more instead of
    ``detect_anywhere``'s default)."""

    from .detector import box_iou, same_box

    photos = dice = found = found_iou = right = extra = 0
    latency = []
    for _, image, boxes in labelled_photos(folder):
        truth = [(c + 1, box) for c, box in boxes]
        start = time.perf_counter()
        dets = [d for d in detector.detect_anywhere(image, min_score=min_score) if d.kind != "cube"]
        values = reader.read_boxes(image, [d.box for d in dets])[0].values  # none: (0, 6)
        latency.append((time.perf_counter() - start) * 1000)
        photos += 1
        dice += len(truth)
        used: set[int] = set()
        for value, box in truth:
            same = [k for k, d in enumerate(dets) if k not in used and same_box(box, d.box, 0.5)]
            if not same:
                continue
            best = max(same, key=lambda k: box_iou(box, dets[k].box))
            used.add(best)
            found += 1
            found_iou += box_iou(box, dets[best].box) >= 0.5
            right += int(values[best].argmax()) + 1 == value
        extra += len(dets) - len(used)
    return FoundReport(photos, dice, found, found_iou, right, extra, latency)
