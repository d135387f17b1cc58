"""The motion gate: a cheap test on every frame of whether the board is still.

Full recognition costs tens of milliseconds; the gate costs about one. It shrinks
each frame to a small grey thumbnail (optionally only the board's area, given as a
quadrilateral), compares it with the previous one and calls the picture *settled*
once ``settle_frames`` frames in a row changed in less than ``still_share`` of their
pixels. A hand reaching in, dice tumbling or a checker being carried all move many
pixels; sensor noise and a flickering light do not (the thumbnail averages them
away, and the threshold is above them). A small die's last turns move few: once the
field is known, a second gate watches the board closely (:meth:`MotionGate.on_board`).

>>> gate = MotionGate(settle_frames=2)
>>> frame = np.full((720, 1280, 3), 90, np.uint8)
>>> [gate.update(frame).settled for _ in range(3)]
[False, False, True]
>>> frame[200:500, 300:700] = 250  # a hand
>>> gate.update(frame).settled, round(gate.update(frame).motion, 3)
(False, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
__all__ = ["GateState", "MotionGate", "ReachWatch"]


@dataclass(frozen=True, slots=True)
class GateState:
    motion: float  # share of thumbnail pixels that changed since the last frame
    still_frames: int  # frames in a row below the threshold (this one included)
    settled: bool


class MotionGate:
    """Frame-to-frame change on a grey thumbnail; not thread-safe."""

    def __init__(
        self,
        size: tuple[int, int] = (160, 96),
        threshold: int = 14,
        still_share: float = 0.002,
        settle_frames: int = 3,
        region_px: F64 | None = None,
        speck_px: int = 1,
    ) -> None:
        if settle_frames < 1 or not 0.0 <= still_share < 1.0 or speck_px < 1:
            raise ValueError("settle_frames >= 1, 0 <= still_share < 1 and speck_px >= 1")
        self.size, self.threshold = size, threshold
        self.still_share, self.settle_frames = still_share, settle_frames
        self.region = None if region_px is None else np.asarray(region_px, np.float32)
        #: Changed pixels count only in patches at least this many pixels across (an
        #: erosion by a square of this side): a lone pixel of noise is no motion.
        self._speck = None if speck_px == 1 else np.ones((speck_px, speck_px), np.uint8)
        self._previous: U8 | None = None
        self._still = 0

    @classmethod
    def on_board(
        cls,
        field_px: Any,
        *,
        width: int = 480,
        margin: float = 0.3,
        still_px: int = 5,
        speck_px: int = 2,
        settle_frames: int = 1,
    ) -> MotionGate:
        """A gate that watches the board closely enough to see a die still rolling.

        A gate on the whole picture shrinks a die of 12 pixels to one and a half: the
        last turns of a roll change a thousandth of its pixels, under any threshold
        that sensor noise keeps clear of (on 11 rendered clips, 79 % of the frames of
        dice tumbling without a hand in view passed as still). This one looks at the
        field's corners ``field_px`` grown by ``margin`` of their distance from the
        middle (the frame and trays, a die just off the field), shrunk to ``width``
        pixels across, and calls a frame moving when more than ``still_px`` pixels
        changed in patches ``speck_px`` wide or more (``bench/gate_rolling.py``).

        >>> field = [[400, 200], [880, 200], [880, 520], [400, 520]]
        >>> gate = MotionGate.on_board(field)
        >>> table = np.full((720, 1280, 3), 90, np.uint8)
        >>> gate.update(table).settled, gate.update(table).settled
        (False, True)
        >>> die = table.copy(); die[300:312, 500:512] = 240
        >>> rolled = table.copy(); rolled[303:315, 503:515] = 240  # 3 pixels on
        >>> gate.update(die).settled, gate.update(rolled).settled, gate.update(rolled).settled
        (False, False, True)
        >>> whole = MotionGate(settle_frames=1)  # the whole picture's gate misses it
        >>> [whole.update(f).settled for f in (table, die, rolled)]
        [False, True, True]
        """
        corners = _field_corners(field_px)
        middle = corners.mean(axis=0)
        region = middle + (corners - middle) * (1.0 + margin)
        span = region.max(axis=0) - region.min(axis=0)
        size = (int(width), max(8, round(width * span[1] / max(span[0], 1.0))))
        return cls(
            size=size,
            still_share=still_px / (size[0] * size[1]),
            settle_frames=settle_frames,
            region_px=region,
            speck_px=speck_px,
        )

    def thumbnail(self, frame: U8) -> U8:
        """The grey thumbnail of the watched area (the region's bounding box, or the
        whole frame)."""
        if self.region is not None:
            x0, y0 = np.floor(self.region.min(axis=0)).astype(int).clip(0)
            x1, y1 = np.ceil(self.region.max(axis=0)).astype(int)
            frame = frame[y0 : y1 + 1, x0 : x1 + 1]
        small = cv2.resize(frame, self.size, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        return cv2.GaussianBlur(grey, (3, 3), 0)  # type: ignore[no-any-return]

    def update(self, frame: U8) -> GateState:
        thumb = self.thumbnail(frame)
        if self._previous is None or self._previous.shape != thumb.shape:
            motion = 1.0  # nothing to compare with yet: not known to be still
        else:
            changed = (cv2.absdiff(thumb, self._previous) > self.threshold).view(np.uint8)
            if self._speck is not None:
                changed = cv2.erode(changed, self._speck)
            motion = float(np.count_nonzero(changed)) / changed.size
        self._previous = thumb
        self._still = self._still + 1 if motion <= self.still_share else 0
        return GateState(motion, self._still, self._still >= self.settle_frames)

    def reset(self) -> None:
        self._previous, self._still = None, 0


#: The most of a piece taken for a hand over the field whose pixels may change
#: between two still stretches for it to be the board's own (:meth:`ReachWatch.update`).
LUMP_SAME_SHARE = 0.02

#: Likewise for the pieces taken for an arm, which the bridging grows over their
#: neighbours' edges (a die lifted beside them: s132 clip 12904 at 134.6 s, 8 of
#: 167 pixels) (:meth:`ReachWatch._arm_stayed`).
ARM_SAME_SHARE = 0.1

#: The most of the field's area the pieces taken for an arm may cover off the field,
#: weighed as :meth:`ReachWatch.off_share` weighs them, for them to be checkers borne
#: off beside the rim (three checkers, bridged, 0.8 % of the pixels in s132 clip
#: 12904; four put on a pile by the far rim, seen from the side by an oblique camera
#: with the board small in the picture, 2.5 % in s181 clip 17802 at 341.9 s; two put
#: on a pile by the near rim at the picture's edge, 2.4 % in s184 clip 18101 at
#: 646.1 s; arms held still in the 44 renders of s174-s184, 4.3 % and more: ``python
#: bench/arm_stayed.py``) (:meth:`ReachWatch._arm_stayed`).
OFF_PILE_SHARE = 0.03


class _FieldMasks(NamedTuple):
    """The masks :class:`ReachWatch` weighs pieces by, for one small picture's size."""

    #: where a piece must reach: past the rim, within the zone, or the picture's edge
    #: there; not the field, grown by a pixel as its edge blurs
    out_there: Any
    #: where it must lie in part besides: the field, past the zone, the picture's edge
    arm_ends: Any
    #: the field
    on_field: Any
    #: the field's area in small pixels
    area: float
    #: each small pixel's area in the board's plane, as a share of the field's
    #: (:meth:`ReachWatch.plane_share`)
    plane: Any


class _Change(NamedTuple):
    """A view against one of the watch's pictures (:meth:`ReachWatch._piece`); areas
    are shares of the field's."""

    reach: float  # the pieces that reach out past the rim
    mask: Any  # those pieces' mask, or None
    largest: float  # the largest changed piece, wherever it lies
    cover: float  # the most of the field one changed piece covers
    lump: Any  # that piece's mask where it covers ``cover_share`` or more, solid, else None
    big: Any  # the largest piece's mask where it is ``hold_share`` or more, else None


class ReachWatch:
    """Whether someone reaches over the board: an arm held still.

    The motion gate calls a picture settled when nothing moved; a hand resting over
    a point while its owner thinks moves nothing either, yet the board read under it
    is wrong. An arm comes from outside the board: it changes the table around it.
    What the game moves stays on the board: checkers and dice on the field, a
    checker put in a tray or the cube on the rim, and a die rolled off the board is
    small; checkers borne off onto the table pile up beside the board, over no point
    and coming from nowhere far.

    Each settled frame is compared with a reference, the last picture judged clear,
    both shrunk so that the field's diagonal is about ``diagonal_px`` pixels and
    blurred. The changed pixels are gathered in pieces (gaps of ``bridge_share``
    of the diagonal closed: a forearm the colour of the table between a sleeve and
    a hand); a piece counts, with its part over the field, if it reaches out past
    the board's rim (the field grown by ``rim_share`` of its length and width on every side, in
    the board's plane; or the picture's edge) within the field grown by
    ``zone_share``, and lies in part over the field or past that zone (or on the
    picture's edge): an arm comes from somewhere. The counted area, as a share of the field's,
    is the *reach*; at ``reach_share`` or more the frame is not settled. The same
    change seen unmoved for ``forget_s`` seconds is taken for no arm: that view
    becomes a reference too, beside the clear one (a bag put down by the board, the
    camera's exposure shifted, or an arm at rest for good). A view like either
    reference is clear and keeps that reference up to date, unless a changed piece
    of ``hold_share`` of the field's area or more lies on it (a hand over the field
    whose arm the watch does not tell from the table: not the picture to compare the
    next ones with; but that piece seen again where it lay, its pixels the same, once
    the table moved is the board's own: checkers moved in a crowded corner).
    Such a hand is someone reaching in too where one changed piece
    covers ``cover_share`` of the field or more against a reference (not the first
    picture, which a game's play has changed by more; the board under it is hidden; a
    play changes a few checkers' places, a roll a die's: up to 7.7 % of the field
    in the renders, a double's four checkers to their neighbours; hands 9.4 % and
    more) and changes ``solid_share`` of it or more (a hand changes the field it lies
    on through and through; checkers moved side by side change their own places,
    the gaps between them closed only by the bridging), held back as an arm is,
    until it stays unmoved for ``forget_s``, or is seen again where it lay, its
    pixels the same (but ``LUMP_SAME_SHARE`` of them), once the table moved: the
    board's own, checkers put side by side. So are pieces taken for an arm, small off
    the field (``OFF_PILE_SHARE``), seen again where they lay once the table moved,
    nothing else reaching out: checkers borne off onto the table by the rim, bridged
    to the checkers the play moved beside them. Of the references, a view is compared
    with the one it reaches out against least, and of those under ``reach_share``
    the one it changes least. The first clear picture is kept as well, for good: a
    reference gone wrong (an arm the table's colour, come in by steps each too small
    to see, taken for the table) makes every clear view after it look like an arm; a
    view like the first picture is clear all the same and puts the reference right.

    ``field_px``: the field's four corners in image pixels.

    >>> field = [[400, 200], [880, 200], [880, 520], [400, 520]]
    >>> watch = ReachWatch(field)
    >>> table = np.full((720, 1280, 3), 60, np.uint8)
    >>> table[170:550, 370:910] = 150  # the board and its rim
    >>> watch.update(table, 0.0)
    False
    >>> arm = table.copy()
    >>> arm[300:340, 0:700] = 200  # an arm from the left edge to the middle of the field
    >>> watch.update(arm, 0.1), round(watch.reach, 2)
    (True, 0.19)
    >>> watch.update(table, 0.2)  # gone again
    False
    >>> die = table.copy()
    >>> die[600:612, 500:512] = 250  # a die rolled off the board
    >>> tray = table.copy()
    >>> tray[300:340, 380:396] = 250  # a checker borne off
    >>> watch.update(die, 0.3), watch.update(tray, 0.4)
    (False, False)
    >>> off = table.copy()
    >>> off[600:680, 200:280] = 200  # checkers borne off, piled on the table
    >>> watch.update(off, 0.5), watch.update(table, 0.6)
    (False, False)
    >>> watch.update(arm, 1.0), watch.update(arm, 3.9), watch.update(arm, 4.1)
    (True, True, False)
    >>> watch.update(table, 4.2), watch.update(arm, 4.3)  # both are references now
    (False, False)
    >>> hand = table.copy()
    >>> hand[260:420, 560:720] = 90  # a hand over the field, its arm the table's colour
    >>> watch.update(table, 4.4), watch.update(hand, 4.5), watch.reach
    (False, True, 0.0)
    >>> watch.update(table, 4.6), watch.update(tray, 4.7)  # gone; a checker moved
    (False, False)
    >>> watch.reset(); watch.update(table, 5.0), watch.update(arm, 5.1)
    (False, True)
    >>> watch.moved(); watch.update(arm, 8.0), watch.update(arm, 8.2)  # an arm again
    (True, True)
    >>> watch = ReachWatch(field); watch.update(table, 0.0)
    False
    >>> crept = table.copy()
    >>> for k, level in enumerate((72, 84, 96, 108)):  # each step too small to see
    ...     crept[300:340, 0:370] = level
    ...     _ = watch.update(crept, 0.1 * k)
    >>> watch.update(table, 1.0)  # the arm gone: like the first picture, so clear
    False
    >>> watch.update(arm, 1.1)  # and the reference is the table again
    True
    """

    def __init__(
        self,
        field_px: Any,
        *,
        diagonal_px: float = 150.0,
        threshold: int = 20,
        reach_share: float = 0.03,
        rim_share: float = 0.2,
        zone_share: float = 0.6,
        bridge_share: float = 0.04,
        forget_s: float = 3.0,
        same_overlap: float = 0.8,
        hold_share: float = 0.08,
        cover_share: float = 0.085,
        solid_share: float = 0.8,
    ) -> None:
        field = _field_corners(field_px)
        diagonal = float(np.hypot(*np.ptp(field, axis=0)))
        self.scale = max(1.0, diagonal / diagonal_px)
        self.threshold, self.reach_share, self.forget_s = threshold, reach_share, forget_s
        self.same_overlap, self.hold_share = same_overlap, hold_share
        self.cover_share, self.solid_share = cover_share, solid_share
        small_diagonal = diagonal / self.scale
        self.rim_share, self.zone_share = rim_share, zone_share
        self._bridge = _odd(bridge_share * small_diagonal)
        # the field in the small picture, its corners in drawing order
        self._field = _convex_order(field / self.scale)
        #: The masks for one picture size (:meth:`_field_masks`).
        self._masks: tuple[tuple[int, int], _FieldMasks] | None = None
        #: The last clear picture, and one whose change stayed for ``forget_s``.
        self._references: list[Any] = []
        #: The first clear picture, kept until :meth:`reset`.
        self._first: Any = None
        #: The change seen unmoved since when (a mask over the small picture).
        self._pending: tuple[Any, float] | None = None
        #: The piece last taken for a hand over the field in this still stretch, and
        #: in the one before the table last moved: its mask and the small picture.
        self._lump_now: tuple[Any, Any] | None = None
        self._lump_before: tuple[Any, Any] | None = None
        #: The pieces last taken for an arm reaching in, likewise (:meth:`_arm_stayed`).
        self._arm_now: tuple[Any, Any] | None = None
        self._arm_before: tuple[Any, Any] | None = None
        #: The large piece of a clear view not taken for a reference, likewise.
        self._big_now: tuple[Any, Any] | None = None
        self._big_before: tuple[Any, Any] | None = None
        #: The last frame's reach (share of the field's area; 0.0 before a reference).
        self.reach = 0.0
        #: The last frame's arm, where :meth:`update` said someone reaches in: the
        #: image pixels of its pieces (:meth:`reach_and_arm`); else ``None``.
        self.arm: Any | None = None

    def _small(self, frame: U8) -> Any:
        h, w = frame.shape[:2]
        size = (max(1, round(w / self.scale)), max(1, round(h / self.scale)))
        small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0).astype(np.int16)

    def _field_masks(self, shape: tuple[int, ...]) -> _FieldMasks:
        """The masks pieces are weighed by in a small picture of ``shape``
        (:class:`_FieldMasks`), made once for each size."""
        size = (shape[0], shape[1])
        if self._masks is None or self._masks[0] != size:
            unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
            to_image = cv2.getPerspectiveTransform(unit, self._field)
            field = _quad_mask(size, self._field)
            area = float(max(1, int(field.sum())))
            grown = cv2.dilate(field, np.ones((3, 3), np.uint8)) == 1
            # the field grown by a share of its length and width on every side, in the
            # board's own plane (so a rim looks as deep as it is at any camera angle)
            rim, zone = (
                _quad_mask(size, cv2.perspectiveTransform(_unit_grown(m)[None], to_image)[0]) == 1
                for m in (self.rim_share, self.zone_share)
            )
            edge = np.zeros(size, bool)
            edge[[0, -1], :] = edge[:, [0, -1]] = True
            masks = _FieldMasks(
                out_there=zone & (~rim | edge) & ~grown,
                arm_ends=grown | ~zone | edge,
                on_field=field == 1,
                area=area,
                plane=self._plane_weights(size, np.linalg.inv(to_image)),
            )
            self._masks = (size, masks)
        return self._masks[1]

    def _plane_weights(self, size: tuple[int, int], to_plane: Any) -> Any:
        """Each pixel's area in the board's plane (``to_plane`` maps the picture onto
        the unit square of the field, area 1): the Jacobian of a plane homography,
        det(H) / w^3; a pixel at or past the plane's horizon weighs as much as the
        whole field."""
        ys, xs = np.mgrid[0 : size[0], 0 : size[1]].astype(np.float64)
        w = to_plane[2, 0] * xs + to_plane[2, 1] * ys + to_plane[2, 2]
        centre = self._field.mean(axis=0)
        side = np.sign(to_plane[2, 0] * centre[0] + to_plane[2, 1] * centre[1] + to_plane[2, 2])
        with np.errstate(divide="ignore"):
            weight = np.abs(np.linalg.det(to_plane) / w**3)
        return np.where(w * side > 1e-9, np.minimum(weight, 1.0), 1.0)

    def plane_share(self, mask: Any) -> float:
        """The area of ``mask`` (over the small picture) in the board's plane, as a
        share of the field's: each pixel weighed by the area of the board's plane it
        shows (a camera that looks at the board obliquely shows what lies on the near
        side larger, and on the far side smaller, than the field's own pixels); a
        pixel at or past the plane's horizon weighs as much as the whole field.

        >>> field = [[400, 200], [880, 200], [880, 520], [400, 520]]
        >>> watch = ReachWatch(field)
        >>> round(watch.scale, 2)  # the small picture: 333 x 187, the field 125 x 83
        3.85
        >>> square = np.zeros((187, 333), bool)
        >>> square[20:40, 20:40] = True  # 400 small pixels, as the camera looks down
        >>> pixels = 400 * watch.scale**2 / (480 * 320)  # its share of the field's pixels
        >>> round(100 * watch.plane_share(square), 2), round(100 * pixels, 2)
        (3.85, 3.85)
        >>> tilted = ReachWatch([[500, 200], [780, 200], [880, 520], [400, 520]])
        >>> near, far = np.zeros((2, 187, 333), bool)
        >>> near[125:135, 150:160] = far[60:70, 150:160] = True
        >>> bool(tilted.plane_share(near) < tilted.plane_share(far))
        True
        """
        return float(self._field_masks(mask.shape).plane[mask].sum())

    def off_share(self, mask: Any) -> float:
        """How much of the field's area ``mask`` (over the small picture) covers off
        the field, for :meth:`_arm_stayed`: between its share of the field's pixels
        and its share in the board's plane (:meth:`plane_share`), their geometric
        mean. A camera that looks at the board obliquely shows what lies on the near
        side larger than the field's own pixels, and the plane shows that right for
        what lies flat; but a pile of checkers on the far side stands up from the
        plane, and its height, mapped onto the plane, reaches far back (s184 clip
        18101 at 646.1 s: two checkers put on a pile by the near rim, 3.5 % of the
        field's pixels, 1.7 % of its plane; s181 clip 17802 at 341.9 s: four put on
        a pile by the far rim, 2.0 % and 3.1 %)."""
        masks = self._field_masks(mask.shape)
        off = mask & ~masks.on_field
        return float(np.sqrt(self.plane_share(off) * np.count_nonzero(off) / masks.area))

    def _piece(self, small: Any, reference: Any) -> _Change:
        """How the small picture changes ``reference`` (:class:`_Change`)."""
        out_there, arm_ends, on_field, area, _ = self._field_masks(small.shape)
        changed = self._changed(small, reference).astype(np.uint8)
        raw = changed
        if self._bridge > 1:
            kernel = np.ones((self._bridge, self._bridge), np.uint8)
            changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, kernel)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        largest = float(stats[1:, cv2.CC_STAT_AREA].max()) / area if count > 1 else 0.0
        big = None
        if largest >= self.hold_share:
            big = labels == 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())
        cover, lump = 0.0, None
        if count > 1:
            inside = np.bincount(labels[on_field].ravel(), minlength=count)
            inside[0] = 0
            top = int(inside.argmax())
            cover = float(inside[top]) / area
            if cover >= self.cover_share:  # (its mask only where it is taken for a hand)
                lump = labels == top
                # a hand changes the field it lies on through and through; checkers
                # moved apart change their own places, the gaps between them closed only
                # by the bridging (s117 clip 11402 at 121.0 s: a 22 played 9/7(2) 6/4
                # 5/3* in one quarter, its dice lifted: 11.3 % of the field, 71 % of it
                # changed; hands over the field 84 % and more)
                over = lump & on_field
                if np.count_nonzero(raw[over]) < self.solid_share * np.count_nonzero(over):
                    lump = None
        reaching = np.unique(labels[out_there & (changed == 1)])
        # an arm comes from outside the zone or lies over the field; a piece wholly
        # between the two is something put down beside the board: checkers borne off
        # onto the table, piling up turn by turn (s37 clip 3203 at 507 s)
        reaching = np.intersect1d(reaching[reaching > 0], labels[arm_ends & (changed == 1)])
        if not reaching.size:
            return _Change(0.0, None, largest, cover, lump, big)
        reach = float(stats[reaching, cv2.CC_STAT_AREA].sum()) / area
        return _Change(reach, np.isin(labels, reaching), largest, cover, lump, big)

    def update(self, frame: U8, t: float) -> bool:
        """One settled frame at time ``t`` (seconds); True while someone reaches in."""
        self.arm = None
        small = self._small(frame)
        self._references = [r for r in self._references if r.shape == small.shape]
        if not self._references:
            self._references, self.reach, self._pending = [small], 0.0, None
            self._first = small
            return False
        pictures, held = self._pictures(small)
        found = [self._piece(small, r) for r in pictures]
        # the picture that shows the least: no arm against it, and the least change
        # over the field (a reference kept up to date, not the first picture where a
        # speck reaches out against the other: s105 clip 10203 from 505 s, the last
        # clear picture kept unchanged for minutes); else the least reach
        best = min(
            range(len(found)),
            key=lambda k: (
                (True, found[k].reach, found[k].cover)
                if found[k].reach >= self.reach_share
                else (False, found[k].cover, found[k].reach)
            ),
        )
        self.reach, piece, largest, _, lump, _ = found[best]
        # a hand over the field whose arm the watch does not tell from the table (its
        # sleeve the table's colour): one changed piece over much of the field is a
        # hand as well, not a play (s107 clip 10404 at 342.3 s: a forearm across the
        # dice, 17 % of the field, the board read under it). Not against the first
        # picture, which the view is compared with only where it reaches out against
        # every reference: a game's play has changed the field since by more than a
        # hand (s115 clip 11203 from 444.2 s: 11.5 %, the rest of the game held back)
        covered = self.reach < self.reach_share and lump is not None and best < held
        # the reference a clear view replaces: the one it was compared with, or the
        # last clear picture where that was the first picture
        replaced = best if best < held else 0
        if covered and self._seen_again(self._lump_before, small, lump):
            # the same piece, the same pixels, after the table moved: what lies there
            # is the board's own, no hand put back just so (s131 clip 12802 from
            # 428.5 s: 33 played 5/2(2) 4/1(2) side by side in a full home board,
            # 9.2 % of the field changed through and through, taken for a hand in
            # every view until the game's end, the table never still for 3 s)
            self._references[best] = small
            self._forget_pieces()
            return False
        if covered:
            piece = lump
            self._lump_now = (lump, small)
        if self.reach < self.reach_share and not covered:
            # keeps up with the light; but a large change that reaches nowhere (a
            # hand and a forearm over the field, the sleeve the table's colour) is
            # no clear picture: taken for one, its arm, gone, would look like an arm
            # reaching in for the rest of the game (s19 clip 1403). Like the first
            # picture alone: the last clear one had gone wrong (s28 clip 2303, an
            # arm from the far side over a table of its colour), this one replaces it,
            # where it changes that one little (the first picture may differ by a
            # game's play: s115 clip 11203 from 444.2 s). A large change seen again
            # where it lay, its pixels the same, once the table moved is the board's
            # own, as a hand's piece is above (s158 clip 15501 at 575.2 s: a 33 borne
            # in and off, 5/2 4/1(2) 3/0, in a crowded home board, 9.2 % of the field
            # in one piece; never taken, the reference fell behind play by play until
            # the bear-off's checkers bridged to the pile by the rim reached out in
            # every view from 588 s to the game's end)
            big = found[replaced].big  # None where that piece is under hold_share
            renew = min(largest, found[replaced].largest) < self.hold_share or (
                self._seen_again(self._big_before, small, big)
            )
            if renew:
                self._references[replaced] = small
            self._forget_pieces()
            if not renew:
                self._big_now = (big, small)
            return False
        if not covered:
            if self._arm_stayed(small):
                # what reached out in the still stretch before the table moved lies
                # there still, pixel for pixel, and nothing reaches out beside it: no
                # arm, but checkers borne off onto the table beside the rim, bridged to
                # the ones the play moved next to them (s132 clip 12904 from 132.4 s:
                # 3.1 % of the field, every view of the bear-off to the game's end held
                # back)
                self._references[replaced] = small
                self._forget_pieces()
                return False
            self._arm_now = (piece, small)
        if self._pending is None or not self._same(piece, self._pending[0]):
            self._pending = (piece, t)
        elif t - self._pending[1] >= self.forget_s:
            self._references[1:], self._pending = [small], None
            return False
        self.arm = self._pixels(piece)
        return True

    def reach_of(self, frame: U8) -> float | None:
        """The reach of ``frame`` against the references, as :meth:`update` measures
        it, changing nothing (a frame that is not settled: whether an arm is still in
        it); ``None`` before a reference.

        >>> field = [[400, 200], [880, 200], [880, 520], [400, 520]]
        >>> watch = ReachWatch(field)
        >>> table = np.full((720, 1280, 3), 60, np.uint8)
        >>> table[170:550, 370:910] = 150
        >>> watch.reach_of(table) is None, watch.update(table, 0.0)
        (True, False)
        >>> arm = table.copy(); arm[300:340, 0:700] = 200
        >>> round(watch.reach_of(arm), 2), watch.reach_of(table), watch.update(arm, 0.1)
        (0.19, 0.0, True)
        """
        return self.reach_and_arm(frame)[0]

    def reach_and_arm(self, frame: U8) -> tuple[float | None, Any | None]:
        """:meth:`reach_of`, and where it is ``reach_share`` or more (an arm reaching
        onto the board, against the reference that shows the least) the (N, 2) image
        pixels of its pieces, one for each pixel of the small picture; else ``None``.
        An arm comes from someone's seat: where its pieces lie beyond the field tells
        whose (``CameraEyes.arm_seat``). Changes nothing.

        >>> field = [[400, 200], [880, 200], [880, 520], [400, 520]]
        >>> watch = ReachWatch(field)
        >>> table = np.full((720, 1280, 3), 60, np.uint8)
        >>> table[170:550, 370:910] = 150
        >>> watch.reach_and_arm(table), watch.update(table, 0.0)
        ((None, None), False)
        >>> arm = table.copy(); arm[400:720, 600:640] = 200  # from the picture's bottom
        >>> reach, xy = watch.reach_and_arm(arm)
        >>> bool(xy[:, 1].max() > 700), bool(xy[:, 1].min() < 420), watch.reach_and_arm(table)
        (True, True, (0.0, None))
        >>> watch.update(arm, 0.1), np.array_equal(watch.arm, xy)  # the same, kept
        (True, True)
        """
        small = self._small(frame)
        pictures, held = self._pictures(small)
        if not held:
            return None, None
        reach, mask, *_ = min((self._piece(small, r) for r in pictures), key=lambda f: f.reach)
        if reach < self.reach_share or mask is None:
            return reach, None
        return reach, self._pixels(mask)

    def _pictures(self, small: Any) -> tuple[list[Any], int]:
        """What a small picture is measured against: the references of its shape, then
        the first picture where it has that shape too; and how many are references."""
        pictures = [r for r in self._references if r.shape == small.shape]
        held = len(pictures)
        if self._first is not None and self._first.shape == small.shape:
            pictures.append(self._first)
        return pictures, held

    def _pixels(self, mask: Any) -> Any:
        """The image pixels (N, 2: x, y) of a mask over the small picture."""
        ys, xs = np.nonzero(mask)
        return (np.stack([xs, ys], axis=1).astype(np.float64) + 0.5) * self.scale

    def moved(self) -> None:
        """A frame that was not settled: a change that stays is timed afresh (an arm
        that comes back to the same place after moving is still an arm); a piece
        taken for a hand over the field, or too large to renew a reference with, is
        kept to compare the next still stretch with (:meth:`_seen_again`)."""
        self._pending = None
        if self._lump_now is not None:
            self._lump_before, self._lump_now = self._lump_now, None
        if self._arm_now is not None:
            self._arm_before, self._arm_now = self._arm_now, None
        if self._big_now is not None:
            self._big_before, self._big_now = self._big_now, None

    def _forget_pieces(self) -> None:
        """A clear view: no change waits to be forgotten, no piece taken for a hand or
        an arm, or too large to renew a reference with, is kept to compare the next
        still stretch with."""
        self._pending = self._lump_now = self._lump_before = None
        self._arm_now = self._arm_before = None
        self._big_now = self._big_before = None

    def _seen_again(self, seen: tuple[Any, Any] | None, small: Any, piece: Any) -> bool:
        """Whether ``piece``, a piece taken for a hand over the field (or one too
        large to take a clear view for a reference), was ``seen``, as its mask and
        the small picture, in the still stretch before the table last moved, where
        it lay then, its pixels changed by no more than ``LUMP_SAME_SHARE`` of them: a
        hand lifted and put down again moves by more."""
        if seen is None:
            return False
        mask, before = seen
        if before.shape != small.shape or not self._same(piece, mask):
            return False
        return self._kept(small, before, piece, LUMP_SAME_SHARE)

    def _arm_stayed(self, small: Any) -> bool:
        """Whether the pieces taken for an arm in the still stretch before the table
        last moved lie where they lay then, their pixels changed by no more than
        ``ARM_SAME_SHARE`` of them (an arm lifted and put down again moves by more);
        the small picture, against the one they were seen in, reaches out nowhere
        (what reached out then is still there, and nothing more); and they are small
        off the field (:meth:`_pile_sized`: checkers, not a forearm). An arm may rest
        where it lay while the other hand moves; not one that small."""
        if self._arm_before is None:
            return False
        mask, before = self._arm_before
        if before.shape != small.shape:
            return False
        if not self._kept(small, before, mask, ARM_SAME_SHARE):
            return False
        if self._piece(small, before).reach >= self.reach_share:
            return False
        return self._pile_sized(mask)

    def _pile_sized(self, mask: Any) -> bool:
        """Whether pieces that stayed where they lay, nothing else reaching out, are
        small enough off the field to be the board's own (:meth:`_arm_stayed`)."""
        return self.off_share(mask) <= OFF_PILE_SHARE

    def _kept(self, small: Any, before: Any, mask: Any, share: float) -> bool:
        """Whether the pixels of ``mask`` changed from the small picture ``before`` to
        ``small`` by no more than ``share`` of them: what lay there lies there still."""
        changed = np.count_nonzero(self._changed(small, before) & mask)
        return bool(changed <= share * np.count_nonzero(mask))

    def _changed(self, small: Any, reference: Any) -> Any:
        """Where two small pictures differ by more than ``threshold`` in any channel."""
        diff = np.abs(small - reference)
        return (diff.max(axis=2) if diff.ndim == 3 else diff) > self.threshold

    def _same(self, piece: Any, before: Any) -> bool:
        both = np.count_nonzero(piece & before)
        either = np.count_nonzero(piece | before)
        return bool(either > 0 and both / either >= self.same_overlap)

    def reset(self) -> None:
        """Forget the references (the camera or the board was moved)."""
        self._references, self.reach, self._first = [], 0.0, None
        self._forget_pieces()


def _field_corners(field_px: Any) -> Any:
    """The field's four corners as an array, or a ``ValueError`` saying what is wrong
    with them (not four finite (x, y) points, or all in one place)."""
    field = np.asarray(field_px, np.float64)
    if field.shape != (4, 2) or not np.isfinite(field).all():
        raise ValueError(f"the field is four (x, y) corners, got {field_px!r:.80}")
    if not np.ptp(field, axis=0).any():
        raise ValueError(f"the field's corners {field_px!r:.80} enclose nothing")
    return field


def _odd(size: float) -> int:
    """A kernel's side: odd, at least 1."""
    return max(1, round(size) // 2 * 2 + 1)


def _unit_grown(margin: float) -> Any:
    """The unit square grown by ``margin`` on every side, as four float32 corners."""
    low, high = -margin, 1 + margin
    return np.array([[low, low], [high, low], [high, high], [low, high]], np.float32)


def _quad_mask(size: tuple[int, int], corners: Any) -> Any:
    """A (rows, columns) uint8 mask, 1 inside the quadrilateral."""
    mask = np.zeros(size, np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
    return mask


def _convex_order(corners: Any) -> Any:
    """Four corners in order around their centre (as a quadrilateral is drawn)."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    return np.asarray(corners[np.argsort(angles)], np.float32)
