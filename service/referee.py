"""The referee loop: frames in, events and a transcript out.

``frames → motion gate → (settled) board reader → stabiliser → referee`` for a
camera, a video file or a folder of frames; or a clip's ground truth standing in
for the camera (``eyes="truth"``) to measure the referee apart from vision.

Real time: with ``realtime=True`` the loop behaves as it does behind a live camera
whose grabber keeps only the newest frame (:mod:`.grabber`, the service's tables).
Each frame arrives at its own time; while the loop is busy with an earlier one, the
newest frame to arrive waits and is taken the moment the loop is free, the others
are dropped. An event's decision time (``Decision.at``) is when the loop finished
the frame that caused it, so flag latency includes every millisecond spent reading.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import numpy as np

from gammoneye.calibration.barwidth import fit_bar_fraction
from gammoneye.calibration.boardspace import Orientation
from gammoneye.calibration.find import find_field
from gammoneye.calibration.lens import TRIES as LENS_TRIES
from gammoneye.calibration.lens import Lens
from gammoneye.calibration.profile import CalibrationProfile
from gammoneye.engine.events import Event, read_event_log
from gammoneye.engine.match import Phase
from gammoneye.engine.referee import (
    CHECKER_TOP_P,
    REREAD_P,
    SURE_CUBE_FACE,
    Referee,
    RefereeConfig,
    SeenCube,
    Sighting,
)
from gammoneye.vision.dice import DiceConfidence
from gammoneye.vision.gate import MotionGate, ReachWatch
from gammoneye.vision.read import BoardReader, NoBoardError, colour_distance2
from gammoneye.vision.selfcal import match_opening
from gammoneye.vision.sighting import (
    BoardMarks,
    dice_read_otherwise,
    fused_dice,
    sighting_key,
    sighting_of,
    still_key,
)
from gammoneye.vision.stabilise import Stabiliser

log = logging.getLogger(__name__)

FRAME_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
#: Times the same picture is shown to the motion gate, at most, to settle it (a resume).
SETTLE_TRIES = 10
#: Settled frames read after a view was passed on, while the table stays still: the
#: detector finds a small die in some frames of a still scene and not in others
#: (green dice on a green cloth), and the view passed may have been made without it.
#: A later view showing the same board with more dice is passed on too
#: (:meth:`RefereeStep.__call__`).
LOOK_AGAIN = 4
#: ... and after a view showing one die alone: a roll's second die, lying against the
#: first or small and far, can be missed in every frame that made the view and found
#: in half the frames after it (s142 clip 13902 at 18.3 s: a 52's dice touching, the 2
#: found 0.5 and 0.9 s after the view of the 5 alone was passed; the roll was read
#: from the play as a 53 and its illegal play flagged only when put right, 5 s late).
LONE_DIE_LOOKS = 15
#: Seconds the board's motion gate (:meth:`MotionGate.on_board`) may see motion that
#: the whole picture's does not, before it is overruled: dice roll to rest in about a
#: second (in the rendered clips, 0.7 s after the hand has left).
BOARD_GATE_PATIENCE_S = 3.0
#: Still frames in a row that show the same checkers and cube, no two alike in their
#: dice, before their view is passed on with the dice read from them all
#: (:func:`~gammoneye.vision.sighting.fused_dice`): small dice read unsure flicker
#: from frame to frame in number and in being found (s26fix clip 2101 at 258 s: a 61
#: read 12, 02, 06, 02, 22, 00 over six still frames; s31 clip 2603 at 162 s: a 32
#: read 02, 1, 2, 13, 02 over five), no two frames agree, and no view is passed.
FUSE_FRAMES = 4
#: Look-again frames (of the ``LOOK_AGAIN`` read after a view was passed) that must
#: show the same still table before their dice, read from them all, are passed on as
#: the passed view's dice read again (:meth:`RefereeStep._read_again`).
REREAD_FRAMES = 3
#: Pictures on which the lens is looked for, at most, while the opening layout nearly
#: reads (at least ``LENS_NEAR`` of its 24 points) but not quite (:class:`CameraEyes`).
LENS_LOOKS = 3
LENS_NEAR = 18
#: Whether a still frame showing the last view passed with its dice lifted (the same
#: checkers and cube, no die, the mover to play) is passed on at once, not after
#: ``agree`` frames (:meth:`RefereeStep._lifted`).
LIFTED_AT_ONCE = True
#: ... and one that shows a lone die besides, read unsure where no die of the roll lay
#: (:meth:`RefereeStep._lifted`).
LIFTED_STRAY_DIE = True
#: Whether the picture an arm just left, while the mover is to play, is read ahead
#: of the still pictures after it (:meth:`CameraEyes.prepare`).
READ_AHEAD = True
#: The least share of an arm's pieces (pixels of the reach watch's small picture)
#: beyond one long side of the field, and how many times more than beyond the
#: other, for the arm to be taken as from that side's seat (:meth:`CameraEyes.arm_seat`).
#: An arm reaching to roll or to lift dice lies wholly on its player's side: on s87
#: clip 8401's frames 1951-1990, 776 to 1,868 pixels one side, none the other.
ARM_SEAT_PIXELS = 20
ARM_SEAT_RATIO = 4.0
#: Seconds an observer's event (a resignation...) waits, at most, for the camera to
#: catch up with the table as it stood when the event came (:func:`run_referee`).
OBSERVER_WAIT_S = 2.0
#: A settled picture whose field's edges differ this much from those of the last
#: picture read (:meth:`CalibrationProfile.drift`, 0 to 1) means the board or the
#: camera moved: the field is looked for again (:meth:`CameraEyes.follow_board`).
#: Between still views the field changes little (``python bench/drift.py clips/s39
#: --openings 5``: 1,163 pairs of views, p50 0.012, p99 0.065, at most 0.25); five
#: rendered openings with the camera moved sideways by 1 cm (the corners 6 to 8 px)
#: drift 0.22 to 0.97, by 2 cm (12 to 16 px) 0.40 to 1.0 (``docs/vision.md``).
DRIFT_LIMIT = 0.3
#: The field found again replaces the one followed only where a corner moved this
#: many pixels or more; a smaller move is the finder's own scatter, or its difference
#: from corners set by hand (s44 clip 3903 at 188 s: a still arm over the board read
#: as drift, the field found 3.3 px from the clip's corners; followed, the watchers
#: built again took the arm for the clear table, and no view was read to the clip's
#: end). A camera moved by 1 cm moves the corners 6 to 8 px (``DRIFT_LIMIT``).
REFIND_MOVE_PX = 5.0
#: A packed clip's frames (``gammoneye render pack``), in place of ``frames/``.
CLIP_VIDEO = "video.mp4"


class SourceError(ValueError):
    """A frame source that cannot be opened or read."""


@dataclass(frozen=True)
class Frame:
    ref: int | str
    t: float
    image: Any  # BGR uint8, or None for truth-only frames


def folder_frames(folder: Path, fps: float, first: int = 0) -> Iterator[Frame]:
    """The pictures of a folder in name order, ``fps`` apart, from the ``first``-th
    (numbered from 0; those before it are not read)."""
    import cv2

    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in FRAME_SUFFIXES)
    if not files:
        raise SourceError(f"{folder} holds no frames ({', '.join(FRAME_SUFFIXES)})")
    for i, path in enumerate(files):
        if i < first:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"{path} is not a picture OpenCV can read")
        yield Frame(i, i / fps, image)


def is_live(spec: str) -> bool:
    """Whether ``spec`` names a camera index or a stream URL: frames that are gone once
    shown, as opposed to a video file or a folder of frames, which can be read again.

    >>> is_live("0"), is_live("rtsp://table1/stream"), is_live("match.mp4")
    (True, True, False)
    """
    return (spec.isdigit() or "://" in spec) and not Path(spec).is_dir()


def capture_frames(spec: str, fps: float | None = None, first: int = 0) -> Iterator[Frame]:
    """A video file, a camera index or a stream URL, through OpenCV; of a video file,
    the frames from the ``first``-th on (those before are grabbed, not decoded)."""
    import cv2

    source: int | str = int(spec) if spec.isdigit() else spec
    cap = cv2.VideoCapture(source)
    if not cap.isOpened():
        raise SourceError(f"cannot open {spec!r} (a video file, camera index or stream URL)")
    live = is_live(spec)
    start = time.monotonic()
    rate = fps or cap.get(cv2.CAP_PROP_FPS) or 10.0
    i = 0
    try:
        if not live:
            # grab() walks the stream without decoding pictures; seeking by
            # CAP_PROP_POS_FRAMES lands on key frames only in some containers
            while i < first and cap.grab():
                i += 1
        while True:
            ok, image = cap.read()
            if not ok:
                return
            t = time.monotonic() - start if live else i / rate
            yield Frame(i, t, image)
            i += 1
    finally:
        cap.release()


def open_source(spec: str, fps: float | None = None, *, first: int = 0) -> Iterator[Frame]:
    """Frames from a folder of pictures (or a rendered clip's folder), a video file, a
    camera index or a stream URL. Of a finite source (not :func:`is_live`), the frames
    from the ``first``-th on, numbered as in the whole source; a live one starts now
    whatever ``first`` says."""
    path = Path(spec)
    if path.is_dir():
        clip = path / "clip.json"
        frames = path / "frames"
        if clip.is_file() and (frames.is_dir() or (path / CLIP_VIDEO).is_file()):
            rate = fps or float(json.loads(clip.read_text("utf-8")).get("fps", 10.0))
            if not frames.is_dir():  # a packed clip (gammoneye render pack)
                return capture_frames(str(path / CLIP_VIDEO), rate, first)
            return folder_frames(frames, rate, first)
        return folder_frames(path, fps or 10.0, first)
    if not is_live(spec) and not path.exists():
        raise SourceError(f"no such file or folder: {spec}")
    return capture_frames(spec, fps, first)


def last_judged_frame(spec: str, events: Iterable[Event]) -> int | None:
    """The frame of source ``spec`` where a referee restarted on ``events`` takes up:
    that of the last event that has a frame. It is looked at again, not judged
    (``run_referee(last_seen=...)``), and the frames before it are not read at all.
    ``None`` (start with what comes) for a live source, whose earlier frames are gone,
    or when no event has a frame.

    >>> from gammoneye.engine.events import GameStartEvent
    >>> start = GameStartEvent(seq=1, frame=13, game=1, score=(0, 0), crawford=False,
    ...                        first_player=None)
    >>> done = [start, GameStartEvent(seq=2, game=2, score=(1, 0), crawford=False,
    ...                               first_player=None)]  # no frame: passed over
    >>> last_judged_frame("match.mp4", done), last_judged_frame("0", done)
    (13, None)
    """
    if is_live(spec):
        return None
    framed = [e.frame for e in events if isinstance(e.frame, int)]
    return framed[-1] if framed else None


# --- eyes: what turns a frame into a sighting -----------------------------------------------


class CameraEyes:
    """Motion gate, then the board reader on settled frames only.

    ``settle_frames``: still frames in a row before one is read. One (the frame that
    did not change since the last) is enough: the stabiliser behind still wants two
    readings that agree (the dice lifted off a board already seen but one,
    :meth:`RefereeStep._lifted`; and the frame an arm just left is read ahead,
    :meth:`prepare`). Two cost 0.1 s of flag latency at 10 fps (held-out clips
    through the camera: p95 0.56 s against 0.46 s, plays and flags the same,
    ``docs/referee-benchmarks.md``).

    ``corners``: the field's corners (a calibration); ``None`` finds the field in the
    first settled frame. The colour of each player and the direction of play are
    learnt from the first reading that shows the opening layout. A referee restarted
    mid-game no longer sees the opening: keep :meth:`snapshot` with the match and
    :meth:`restore` it.

    The lens: where the opening layout nearly reads but not quite (a wide-angle
    camera bowing the field's sides, :mod:`gammoneye.calibration.lens`), the
    coefficients of ``LENS_TRIES`` are tried on that picture (``LENS_LOOKS`` pictures
    at most) and the one it reads the opening best under is kept: every picture is
    then read with the distortion taken out, the corners given or found in the
    pictures as taken.

    The bar: boards differ in how wide it is, and the points' strips follow from it.
    It is measured in each picture looked at until the opening is seen
    (:func:`~gammoneye.calibration.barwidth.fit_bar_fraction`); the opening's
    measure then stays, with the calibration profile (and its snapshot).

    A board bumped or a camera knocked: each settled picture is compared with the
    last one read (:meth:`follow_board`); where the field moved, it is found again
    and followed, its corners kept in the same order (the home side and the colours
    learnt stay), and the match goes on.
    """

    SNAPSHOT_VERSION = 1

    def __init__(
        self,
        bottom_player: int,
        corners: Any = None,
        *,
        reader: Any = None,
        settle_frames: int = 1,
    ) -> None:
        self.bottom_player = bottom_player
        self.reader = reader or BoardReader.load()
        # the boards the referee weighs keep fifteen a side; the points as counted show
        # a checker entered onto an opponent's point (``points_within_fifteen``)
        if isinstance(self.reader, BoardReader):
            self.reader.points_within_fifteen = False
        self.gate = MotionGate(settle_frames=settle_frames)
        self.corners = None if corners is None else np.asarray(corners, np.float64)
        self.profile: Any = None
        self.colours: tuple[str, str] | None = None
        #: The lens learnt from the opening (no distortion until then).
        self.lens = Lens()
        self._lens_looks = 0
        #: The home side learnt before a new calibration was given (see :meth:`restore`).
        self._orientation: Orientation | None = None
        self.reads = 0
        self.read_seconds = 0.0
        #: Still frames not read: an arm reached onto the board.
        self.reached = 0
        #: What watches the field once it is known, built for its corners: the reach
        #: watch and the gate on the board alone (:meth:`MotionGate.on_board`: it sees
        #: dice still rolling, which the whole picture's does not).
        self._watch: tuple[Any, ReachWatch, MotionGate] | None = None
        #: Since when the board's gate alone has seen motion (``BOARD_GATE_PATIENCE_S``).
        self._board_stirs_since: float | None = None
        #: The last reading made (what the service draws on its video).
        self.last_reading: Any = None
        #: Marks on the bar or rail found as dice (left out of every sighting).
        self.marks = BoardMarks()
        #: Each player's checker colour as measured in the opening's picture (Lab),
        #: learnt with ``colours``: a later reading that names the two colours the
        #: other way round is renamed (:meth:`_named_the_other_way`).
        self.colour_lab: tuple[tuple[float, ...], tuple[float, ...]] | None = None
        #: The profile with the drift reference of the last picture read, the times
        #: the field was found moved and followed, and the times a field found was
        #: not followed, fitting the last picture no better (:meth:`follow_board`).
        self._last_seen: CalibrationProfile | None = None
        self.refound = 0
        self.kept = 0
        #: Whether the last frame given to :meth:`settled` moved and showed no arm
        #: where the one before showed one (the arm just withdrawn), and whether that
        #: one showed an arm; pictures read ahead by :meth:`prepare`.
        self.arm_left = False
        self._arm_in = False
        #: The seats ("bottom", "top") whose arms were seen reaching onto the board
        #: since :meth:`take_arms` last gave them (:meth:`arm_seat`).
        self.arms: set[str] = set()
        self.prepared = 0
        self.prepare_seconds = 0.0
        #: How surely the dice of this match are read (its :meth:`~DiceConfidence.notice`
        #: is for the players: a camera or dice the reader misreads).
        self.dice_confidence = DiceConfidence()
        #: Pictures read while the dice read lately were read unsurely (its notice up).
        self.unsure_looks = 0

    def snapshot(self) -> dict[str, Any]:
        """What these eyes have learnt, as JSON-able data for :meth:`restore`: the
        field's corners, the calibration profile built on them (with the home side once
        known) and each player's checker colour (``None`` while not learnt).

        >>> eyes = CameraEyes(1, reader=object())
        >>> eyes.colours = ("light", "dark")
        >>> again = CameraEyes(1, reader=object())
        >>> again.restore(eyes.snapshot())
        >>> again.colours, again.snapshot() == eyes.snapshot()
        (('light', 'dark'), True)
        """
        return {
            "version": self.SNAPSHOT_VERSION,
            "bottom_player": self.bottom_player,
            "corners": None if self.corners is None else self.corners.tolist(),
            "profile": None if self.profile is None else json.loads(self.profile.to_json()),
            "colours": None if self.colours is None else list(self.colours),
            "lens_k1": self.lens.k1,
            "marks": [list(m) for m in self.marks.marks],
            "colour_lab": None if self.colour_lab is None else [list(c) for c in self.colour_lab],
        }

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Take up what :meth:`snapshot` recorded. Corners given to these eyes (a new
        calibration) that differ from the recorded ones win; the colours and the home
        side learnt are kept all the same. Raises ``ValueError`` for a snapshot of
        another version, of the other seat, or damaged; these eyes are then unchanged."""
        if not isinstance(snapshot, dict) or snapshot.get("version") != self.SNAPSHOT_VERSION:
            raise ValueError(
                f"not a version {self.SNAPSHOT_VERSION} snapshot of camera eyes: {snapshot!r:.200}"
            )
        if snapshot.get("bottom_player") != self.bottom_player:
            raise ValueError(
                f"the snapshot is for bottom player {snapshot.get('bottom_player')!r}, "
                f"these eyes have player {self.bottom_player} at the bottom"
            )
        try:
            raw = snapshot.get("corners")
            corners = None if raw is None else np.asarray(raw, np.float64)
            if corners is not None and corners.shape != (4, 2):
                raise ValueError(f"corners {raw!r} are not four (x, y) pairs")
            raw = snapshot.get("profile")
            profile = None if raw is None else CalibrationProfile.from_json(json.dumps(raw))
            lens = Lens(float(snapshot.get("lens_k1", 0.0)))
            marks = BoardMarks([(float(x), float(y)) for x, y in snapshot.get("marks", [])])
            raw = snapshot.get("colours")
            colours = None
            if raw is not None:
                if len(raw) != 2 or str(raw[0]) == str(raw[1]):
                    raise ValueError(f"colours {raw!r} are not two different names")
                colours = (str(raw[0]), str(raw[1]))
            raw = snapshot.get("colour_lab")  # absent from older snapshots
            colour_lab = None
            if raw is not None:
                if len(raw) != 2 or any(len(c) != 3 for c in raw):
                    raise ValueError(f"colour_lab {raw!r} is not two Lab triples")
                colour_lab = (tuple(float(v) for v in raw[0]), tuple(float(v) for v in raw[1]))
        except (TypeError, IndexError, ValueError) as exc:
            raise ValueError(f"damaged snapshot of camera eyes: {exc}") from None
        given = self.corners
        if given is not None and (corners is None or not np.allclose(given, corners)):
            # a new calibration: its field, built at the next frame, with the learnt side
            self.profile = None
            self._orientation = None if profile is None else profile.orientation
        else:
            self.corners, self.profile = corners, profile
        self.colours, self.lens, self.marks = colours, lens, marks
        self.colour_lab = colour_lab

    def settled(self, frame: Frame, *, between_games: bool = False) -> bool:
        """Nothing moved, and no arm reaches onto the board (:class:`ReachWatch`, once
        the field is known); once the field is known, nothing moved on the board
        either, watched closely (:meth:`MotionGate.on_board`: dice still rolling).
        ``between_games``: a game is over and the board is being set up again, the
        checkers borne off going back onto the points from a tray or the table beside
        the board, a change the watch would take for an arm: a
        still view is taken as the watch's new clear picture (an arm held still
        while setting up hides points, so its board is no opening layout, which is
        all the referee looks for then)."""
        watchers = self._field_watchers()
        watch, board_gate = (None, None) if watchers is None else watchers
        still = self.gate.update(frame.image).settled
        # both gates see every frame: each compares it with the one before
        if board_gate is not None and not board_gate.update(frame.image).settled and still:
            # The board stirs while the picture is still: dice coming to rest, for a
            # second or so. For longer, it is no die: a camera that shakes by a pixel,
            # a picture compressed anew each frame, which only the close gate sees.
            if self._board_stirs_since is None:
                self._board_stirs_since = frame.t
            still = frame.t - self._board_stirs_since > BOARD_GATE_PATIENCE_S
        else:
            self._board_stirs_since = None
        self.arm_left = False
        if not still:
            if watch is not None:
                watch.moved()
                # an arm over the table until the frame before, none in this one: the
                # table may be still from here on (:meth:`prepare`)
                reach, xy = watch.reach_and_arm(frame.image)
                arm = reach is not None and reach >= watch.reach_share
                self.arm_left, self._arm_in = self._arm_in and reach is not None and not arm, arm
                self._note_arm(xy)
            return False
        self._arm_in = False
        if watch is not None and between_games:
            watch.reset()
            watch.update(frame.image, frame.t)
            return True
        if watch is not None and watch.update(frame.image, frame.t):
            self.reached += 1
            self._arm_in = True
            self._note_arm(watch.arm)
            return False
        return True

    def _note_arm(self, xy: Any) -> None:
        """Keeps the seat of an arm seen (``xy``: its pixels, or ``None`` for none),
        where it tells one."""
        seat = self.arm_seat(xy)
        if seat is not None:
            self.arms.add(seat)

    def arm_seat(self, xy: Any) -> str | None:
        """Whose seat an arm comes from: ``"bottom"`` or ``"top"``, the long side of
        the field beyond which its pieces (``xy``: image pixels, from
        :meth:`ReachWatch.reach_and_arm`) lie, at least ``ARM_SEAT_PIXELS`` of them and
        ``ARM_SEAT_RATIO`` times as many as beyond the other; ``None`` before the
        field is known, with no arm, or for an arm from an end of the board.

        >>> eyes = CameraEyes(0, [[400, 520], [880, 520], [880, 200], [400, 200]], reader=object())
        >>> _ = eyes._profile(np.zeros((720, 1280, 3), np.uint8))
        >>> below = np.array([[640.0, y] for y in range(530, 700, 5)])
        >>> eyes.arm_seat(below), eyes.arm_seat(below * [1, 0] + [0, 100]), eyes.arm_seat(None)
        ('bottom', 'top', None)
        """
        if xy is None or self.profile is None or not len(xy):
            return None
        p = np.c_[np.asarray(xy, np.float64), np.ones(len(xy))] @ self.profile.homography().T
        ahead = p[:, 2] > 0  # a point past the horizon maps nowhere
        y = p[ahead, 1] / p[ahead, 2]
        height = self.profile.space().height
        bottom, top = int((y > height).sum()), int((y < 0).sum())
        if bottom >= ARM_SEAT_PIXELS and bottom >= ARM_SEAT_RATIO * top:
            return "bottom"
        if top >= ARM_SEAT_PIXELS and top >= ARM_SEAT_RATIO * bottom:
            return "top"
        return None

    def take_arms(self) -> tuple[str, ...]:
        """The seats whose arms reached onto the board since the last call (sorted),
        forgetting them: what a view passed to the referee carries (``Sighting.arms``)."""
        seats, self.arms = tuple(sorted(self.arms)), set()
        return seats

    def _field_watchers(self) -> tuple[ReachWatch, MotionGate] | None:
        """The reach watch and the board's gate for the field's corners, once known
        (built again when the corners change)."""
        if self.corners is None:
            return None
        if self._watch is None or not np.array_equal(self._watch[0], self.corners):
            corners = self.corners.copy()
            self._watch = (corners, ReachWatch(corners), MotionGate.on_board(corners))
        return self._watch[1], self._watch[2]

    def _profile(self, image: Any) -> Any:
        if self.profile is not None:
            return self.profile
        size = (image.shape[1], image.shape[0])
        source = "manual"
        if self.corners is None:
            found = find_field(image)
            if found is None:
                return None
            self.corners, source = found.corners_px, "auto"
        corners = self.lens.undistort_points(self.corners, size)
        self.profile = CalibrationProfile.from_corners(
            corners, size, source=source, long_side_first=True
        )
        if source == "manual":
            self.profile = _keep_first_corner(self.profile, corners)
        self.profile = _with_bar_of(self.profile, self.lens.undistort_image(image))
        if self._orientation is not None:
            self.profile = replace(self.profile, orientation=self._orientation)
        return self.profile

    def follow_board(self, frame: Frame, image: Any) -> bool:
        """Whether the field moved since the last picture read (``DRIFT_LIMIT``) and
        was found again in ``frame``, a settled picture (``image``: as the lens
        takes it out, :meth:`Lens.undistort_image`): the corners then follow it,
        in the order they had (the nearest of the found ones to each), the profile
        keeps its bar and home side, and the watchers are built again for it. A field
        not found now is looked for at the next settled picture; one found within
        ``REFIND_MOVE_PX`` of where it was is kept as it was."""
        seen, profile = self._last_seen, self.profile
        if seen is None or profile is None or self.corners is None:
            return False
        if seen.field_corners_px != profile.field_corners_px:
            return False
        drift = seen.drift(image)
        if drift <= DRIFT_LIMIT:
            return False
        found = find_field(frame.image)
        if found is None:
            return False
        new = _in_the_order_of(np.asarray(found.corners_px, np.float64), self.corners)
        if float(np.abs(new - self.corners).max()) < REFIND_MOVE_PX:
            self._last_seen = seen.with_reference(image)  # it is where it was
            return False
        size = (frame.image.shape[1], frame.image.shape[0])
        ordered = _in_the_order_of(
            self.lens.undistort_points(new, size), np.asarray(profile.field_corners_px)
        )
        there = replace(
            seen, field_corners_px=tuple((float(x), float(y)) for x, y in ordered)
        ).drift(image)
        if there >= drift:
            # The field found shows the board as it last looked no better than the
            # field followed: it is no board moved there, but something else found (a
            # rail, the board's edge) while the board changed under it (s49 clip 4405
            # at 147 s: the next game set up, drift 0.31; a field found 67 px off
            # followed to the clip's end, no view read right again). It is where it was.
            self._last_seen = seen.with_reference(image)
            self.kept += 1
            return False
        self.corners = new
        self.profile = replace(
            profile,
            field_corners_px=tuple((round(float(x), 2), round(float(y), 2)) for x, y in ordered),
            source="auto",
            reference="",
        )
        self._last_seen = None
        self.refound += 1
        return True

    def look(self, frame: Frame) -> Sighting | None:
        built = self.profile is None  # then built on this picture, its bar measured
        image = self.lens.undistort_image(frame.image)
        if not built:
            self.follow_board(frame, image)
        profile = self._profile(frame.image)
        if profile is None:
            return None
        if self.colours is None and not built:
            # until the opening is seen, each picture measures the bar anew (the
            # first may have had an arm over the board); the opening's then stays
            self.profile = profile = _with_bar_of(profile, image)
        # the players' colours, once learnt, keep a picture from splitting one colour
        # in two (a lone checker of the other left: vision.read.anchored_colours)
        known: dict[str, Any] = {}
        if self.colour_lab is not None:
            known["colours_lab"] = np.array(self.colour_lab)
        start = time.perf_counter()
        try:
            reading = self.reader.read(image, profile, **known)
            self.last_reading = reading
        except NoBoardError:
            return None
        finally:
            self.reads += 1
            self.read_seconds += time.perf_counter() - start
        self._last_seen = profile.with_reference(image)
        if self.colours is None:
            found = match_opening(reading)
            if found.points_agreeing < 24 and found.points_agreeing >= LENS_NEAR:
                learnt = self._learn_lens(frame.image)
                if learnt is not None:
                    profile, image, reading, found = learnt
            if found.points_agreeing < LENS_NEAR and profile.source == "auto":
                # A field the finder found, on which the opening is not even nearly
                # read, may be something else (a rail, the board's edge): found again
                # on the next picture until the opening reads on one (s49 clip 4405:
                # the field found at 0.51 in its first frame, a quad 67 px off at
                # 0.07 in its second; kept, no view was read all clip long).
                self.corners = self.profile = None
            if not found.reads_as_opening:
                # colours unknown until the opening is seen (all but a pile of five
                # read a checker off is the opening, where no lens reads it whole)
                return None
            other = next(c for c in reading.colours if c != found.bottom_colour)
            by_player = {self.bottom_player: found.bottom_colour, 1 - self.bottom_player: other}
            self.colours = (by_player[0], by_player[1])
            lab = dict(zip(reading.colours, reading.colour_lab, strict=False))
            if all(c in lab for c in self.colours):
                self.colour_lab = (lab[self.colours[0]], lab[self.colours[1]])
            if not found.home_right:
                self.profile = replace(
                    profile, orientation=Orientation(self.bottom_player, home_right=False)
                )
                reading = self.reader.read(image, self.profile)
        elif self._named_the_other_way(reading):
            reading = reading.swapped()
        self.last_reading = reading
        seen = sighting_of(
            reading,
            self.colours,
            self.bottom_player,
            t=frame.t,
            frame=frame.ref,
            homography=self._homography(),
        )
        seen = self.marks.clean(seen)
        # how surely the dice are read: those the referee is given, marks on the board
        # left out (a bar's printed dots read as a die at 0.4, s174 17101)
        self.dice_confidence.add(d.p for d in seen.dice if d.half is not None)
        self.unsure_looks += int(self.dice_confidence.unsure())
        return seen

    def prepare(self, frame: Frame) -> None:
        """Read ``frame``, a picture that moved, ahead of the still pictures after it,
        keeping nothing but what the reader keeps of it: where the next settled
        picture shows the board as this one does, the reader gives its points and
        the detector its boxes again (``STILL_LEVEL``), and that picture is read in
        a few milliseconds where the detector's two passes take a hundred or more.
        Called on the frame an arm just left (:attr:`arm_left`): the dice lifted at
        a turn's end, whose play is then judged that much sooner. Only once the
        field and the players' colours are known (mid-match); nothing else of these
        eyes changes."""
        if self.profile is None or self.colours is None:
            return
        known: dict[str, Any] = {}
        if self.colour_lab is not None:
            known["colours_lab"] = np.array(self.colour_lab)
        start = time.perf_counter()
        try:
            self.reader.read(self.lens.undistort_image(frame.image), self.profile, **known)
        except NoBoardError:
            pass
        finally:
            self.prepared += 1
            self.prepare_seconds += time.perf_counter() - start

    def _named_the_other_way(self, reading: Any) -> bool:
        """Whether ``reading`` names the players' colours the other way round from the
        opening: the reader names its two colours by lightness, and under glare two
        colours alike in lightness (red and black, s20 clip 1503) swap names from one
        picture to the next; every checker then reads as the opponent's. Told by which
        pairing of its colours with those learnt lies nearer, as the reader matches a
        checker's colour (:func:`~gammoneye.vision.read.colour_distance2`)."""
        if self.colours is None or self.colour_lab is None or not reading.colour_lab:
            return False
        lab = dict(zip(reading.colours, reading.colour_lab, strict=True))
        if any(c not in lab for c in self.colours):
            return False
        now = np.array([lab[c] for c in self.colours], np.float64)
        d = np.sqrt(colour_distance2(now, np.array(self.colour_lab, np.float64)))
        return bool(d[0, 1] + d[1, 0] < d[0, 0] + d[1, 1])

    def _learn_lens(self, image: Any) -> tuple[Any, Any, Any, Any] | None:
        """Try the lens coefficients on a picture that nearly reads as the opening
        layout; keep, of those under which all 24 points agree, the one it reads the
        opening likeliest under. Returns (profile, picture undistorted, reading,
        opening match) under it, or None (the lens and profile as they were)."""
        if self._lens_looks >= LENS_LOOKS or not self.lens.flat or self.corners is None:
            return None
        self._lens_looks += 1
        before = self.profile
        best: tuple[float, Any] | None = None
        for k1 in LENS_TRIES:
            self.lens, self.profile = Lens(k1), None
            profile = self._profile(image)
            flat = self.lens.undistort_image(image)
            try:
                reading = self.reader.read(flat, profile)
            except NoBoardError:
                continue
            found = match_opening(reading)
            if found.points_agreeing == 24 and (best is None or found.log_likelihood > best[0]):
                best = (found.log_likelihood, (self.lens, profile, flat, reading, found))
        if best is None:
            self.lens, self.profile = Lens(), before
            return None
        self.lens, profile, flat, reading, found = best[1]
        self.profile = profile
        return profile, flat, reading, found

    def _homography(self) -> Any:
        """Image to board space (1000 x 800), for the dice's places; cached."""
        if self.profile is None:
            return None
        cached = getattr(self, "_h", None)
        if cached is None or cached[0] is not self.profile:
            self._h = (self.profile, self.profile.homography())
        return self._h[1]


def clip_calibration(meta: dict[str, Any]) -> CalibrationProfile:
    """The calibration of a rendered clip's camera (``clip.json``): its field corners,
    with the bottom player's side first, as a match calibrated once by hand would have
    them. Finding the field instead puts the side lower in the picture first, and
    that seat is the other player's when the camera looks from the far side."""
    corners = np.asarray(meta["field_corners_px"], np.float64)
    size = (int(meta["width"]), int(meta["height"]))
    profile = CalibrationProfile.from_corners(corners, size, long_side_first=True)
    return _keep_first_corner(profile, corners)


def _with_bar_of(profile: CalibrationProfile, image: Any) -> CalibrationProfile:
    """``profile`` with the bar's share of the field measured in ``image`` (taken
    through the profile's lens): :mod:`gammoneye.calibration.barwidth`; as it was
    where the picture shows no points."""
    fraction = fit_bar_fraction(image, profile.corners())
    return profile if fraction is None else replace(profile, bar_fraction=fraction)


def _in_the_order_of(corners: Any, before: Any) -> Any:
    """``corners`` (four, a ring in either direction) in the order of ``before``: of
    the eight ways round the ring, the one nearest ``before`` corner by corner.

    >>> before = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 8.0], [0.0, 8.0]])
    >>> _in_the_order_of(before[[2, 1, 0, 3]] + 1.0, before).tolist()
    [[1.0, 1.0], [11.0, 1.0], [11.0, 9.0], [1.0, 9.0]]
    """
    c = np.asarray(corners, np.float64).reshape(4, 2)
    b = np.asarray(before, np.float64).reshape(4, 2)
    rings = [np.roll(r, -k, axis=0) for r in (c, c[::-1]) for k in range(4)]
    return min(rings, key=lambda r: float(np.linalg.norm(r - b, axis=1).sum()))


def _keep_first_corner(profile: CalibrationProfile, given: Any) -> CalibrationProfile:
    """Given corners say which long side is the bottom one (the bottom player's):
    the first two. The canonical order picks the side lower in the picture instead,
    which is another side when the camera looks at the board from a side."""
    c = np.asarray(profile.field_corners_px, np.float64)
    first = np.asarray(given, np.float64).reshape(-1, 2)[0]
    k = int(np.argmin(np.linalg.norm(c - first, axis=1)))
    if k != 2:
        return profile  # already starts there (or the given order was no such ring)
    turned = np.roll(c, -2, axis=0)
    return replace(profile, field_corners_px=tuple((float(x), float(y)) for x, y in turned))


#: The journal's meta key for what the camera learnt (CameraEyes.snapshot).
EYES_KEY = "camera_eyes"


class EyesMemory:
    """What camera eyes learnt (the field, the home side, each player's colour), kept
    in the match's journal: a referee restarted after the opening, which it will not
    see again, still reads the board. Truth eyes learn nothing; this does nothing."""

    def __init__(self, eyes: CameraEyes | TruthEyes, journal: Any) -> None:
        self.eyes = eyes
        self.journal = journal
        self.kept: Any = self._snapshot()

    def _snapshot(self) -> Any:
        return self.eyes.snapshot() if isinstance(self.eyes, CameraEyes) else None

    def restore(self) -> str | None:
        """The eyes as the journal left them (on a resume); a message for people when
        the record is damaged (the board is then learnt again at the next opening)."""
        if not isinstance(self.eyes, CameraEyes):
            return None
        try:
            learnt = self.journal.meta(EYES_KEY)
            if learnt is not None:
                self.eyes.restore(learnt)
                self.kept = learnt
        except ValueError as exc:
            return f"the camera learns the board again: {exc}"
        return None

    def keep(self) -> None:
        """Write what the eyes learnt since the last call, if anything: call it before
        journalling the events read with it."""
        now = self._snapshot()
        if now != self.kept:
            self.journal.set_meta(EYES_KEY, now)
            self.kept = now


class TruthEyes:
    """A rendered clip's ground truth as a perfect camera (no pictures read)."""

    def __init__(self, clip: Path) -> None:
        from gammoneye.datasets.render.cliptruth import read_truth_rows

        self.rows = {row["frame"]: row for row in read_truth_rows(clip)}
        meta = json.loads((clip / "clip.json").read_text("utf-8"))
        self.bottom_player = int(meta["bottom_player"])
        self._previous = ""

    def frames(self) -> Iterator[Frame]:
        for ref, row in self.rows.items():
            yield Frame(ref, float(row["t"]), None)

    def settled(self, frame: Frame, *, between_games: bool = False) -> bool:
        """No hand over the table, no checker in the air, no die tumbling, nothing
        changed since the last frame: what a motion gate would call still
        (``between_games`` changes nothing here)."""
        row = self.rows[frame.ref]
        key = json.dumps([row.get("checkers"), row.get("dice"), row.get("cube")])
        changed, self._previous = key != self._previous, key
        return (
            not changed
            and not row.get("hands")
            and not row.get("in_air")
            and row.get("phase") != "rolling"
        )

    def look(self, frame: Frame) -> Sighting | None:
        from gammoneye.datasets.render.cliptruth import truth_sighting

        return truth_sighting(self.rows[frame.ref], self.bottom_player)


# --- the loop -------------------------------------------------------------------------------


@dataclass
class Decision:
    event: Event
    at: float  # when the loop had decided it (seconds, the frames' clock)


@dataclass
class RunStats:
    frames: int = 0
    dropped: int = 0
    sightings: int = 0
    busy_seconds: float = 0.0
    wall_seconds: float = 0.0
    decisions: list[Decision] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)

    @property
    def fps(self) -> float:
        return self.frames / self.busy_seconds if self.busy_seconds > 0 else float("inf")


class RefereeStep:
    """What the loop does with one frame: the motion gate, a reading when settled, the
    stabiliser, the referee. Shared by :func:`run_referee` and the service's tables."""

    def __init__(
        self, eyes: CameraEyes | TruthEyes, referee: Referee, agree: int = 2, window: int = 3
    ) -> None:
        self.eyes = eyes
        self.referee = referee
        self.stab: Stabiliser[Sighting] = Stabiliser(agree, window)
        self.sightings = 0
        #: The last view the stabiliser passed to the referee.
        self.last: Sighting | None = None
        #: Frames still to read while the table stays still (``LOOK_AGAIN``), and the
        #: stabiliser's key of the last view passed, to compare them with.
        self._again = 0
        self._last_key: Hashable | None = None
        #: The views read since the table last moved, for :data:`FUSE_FRAMES`.
        self._still: deque[tuple[Hashable, Sighting]] = deque(maxlen=FUSE_FRAMES)
        #: Look-again frames kept to read the passed view's dice again (``None``: not
        #: for this view; :meth:`_read_again`).
        self._again_views: list[Sighting] | None = None
        #: Views the referee failed to judge (a fault of its own): each is logged, the
        #: referee put back as its record stood before it, and the match goes on.
        self.faults: list[str] = []
        #: The cube as last read surely off the middle since the table last moved
        #: (:meth:`_cube_held`).
        self._sure_cube: SeenCube | None = None

    def recall(self, frame: Frame) -> None:
        """On a resume (:meth:`Referee.resume`): look again at the frame whose view the
        referee last acted on (that of its last event), without judging it. The
        referee recalls from it what its events do not keep (:meth:`Referee.recall`)
        and the stabiliser does not pass that view, still on the table, a second
        time; so the loop goes on as if it had never stopped."""
        # the motion gate as it stood when that view was judged: settled on that picture
        for _ in range(SETTLE_TRIES):
            if self.eyes.settled(frame):
                break
        seen = self.eyes.look(frame)
        if seen is not None:
            self.referee.recall(seen)
            self.stab.remember(sighting_key(seen))

    def __call__(self, frame: Frame) -> list[Event]:
        between = self.referee.state.phase is Phase.GAME_OVER
        if not self.eyes.settled(frame, between_games=between):
            self.stab.reset()
            self._again = 0
            self._still.clear()
            self._sure_cube = None
            if (
                READ_AHEAD
                and isinstance(self.eyes, CameraEyes)
                and self.eyes.arm_left
                and self.referee.state.phase is Phase.MOVE
            ):
                self.eyes.prepare(frame)
            return []
        # a view was passed since the table last moved: look again, a few frames
        before = None if self.stab.waiting else self._last_key
        if not self.stab.waiting:
            if self._again <= 0 or before is None:
                return []
            self._again -= 1
        sighting = self.eyes.look(frame)
        if sighting is None:
            return []
        sighting = self._cube_held(sighting)
        key = sighting_key(sighting)
        if before is not None and not more_dice(key, before):
            # the view passed, or one with fewer dice: nothing new, unless the roll's
            # dice, read unsure when they came to rest, read otherwise now
            return self._read_again(key, sighting, frame.t)
        self.sightings += 1
        stable = self.stab.push(key, sighting)
        if stable is None and before is None and self._lifted(key, sighting):
            stable = sighting
            self.stab.remember(key)
        if stable is None and before is None:
            stable = self._fused(key, sighting)
            if stable is not None:
                key = sighting_key(stable)
                self.stab.remember(key)
        if stable is None:
            return []
        self._still.clear()
        return self._judge(stable, key, frame.t)

    def _lifted(self, key: Hashable, sighting: Sighting) -> bool:
        """Whether the view of stabiliser key ``key`` (``sighting``), the first still
        frame read since the table moved, is the last view passed with its dice taken
        away while the mover was to play: the same checkers and cube, no die. That is
        the dice lifted to end the turn, and it is passed on at once
        (``LIFTED_AT_ONCE``): its checkers and cube already held over the frames that
        passed the view before, and the play is judged one read sooner. Any other view
        waits for ``agree`` frames.

        So is one that shows a lone die besides, read as unsure as a checker's top
        (under ``CHECKER_TOP_P``) and lying where none of the dice lifted lay
        (``LIFTED_STRAY_DIE``): a checker's ring read as a die, which flickers in its
        number from frame to frame. No two frames agreed on it, and the play waited
        for four to be fused (s194 clip 19102 at 35.1 s: a white checker's ring read
        as a 3 at 0.62, then a 1 at 0.52; the illegal play flagged 0.54 s after the
        dice were lifted, 0.3 s after the view without them was first read). The
        referee weighs such a die as it does in the view fused from those frames; a
        roll is two dice, and two still wait."""
        last = self._last_key
        if not LIFTED_AT_ONCE or last is None or self.referee.state.phase is not Phase.MOVE:
            return False
        seen, before = cast(tuple[Any, ...], key), cast(tuple[Any, ...], last)
        if not before[1] or still_key(key) != still_key(last):
            return False
        if not seen[1]:
            return True
        if not LIFTED_STRAY_DIE or len(sighting.dice) != 1 or sighting.dice[0].p >= CHECKER_TOP_P:
            return False
        spot = seen[1][0][4]
        return spot is not None and all(d[4] is not None and d[4] != spot for d in before[1])

    def _cube_held(self, sighting: Sighting) -> Sighting:
        """``sighting`` with its cube as read surely on an earlier frame of this still
        table, where this frame reads it unsure (under ``SURE_CUBE_FACE``) in the same
        place and with the same face at best: the table has not moved, so neither has
        the cube. The cube reader's surety of one face flickers across that line from
        frame to frame of a still picture (s76 clip 7301 at 177.7 s: the cube on a
        player's side read 2 surely, then 2 unsurely), and a stabiliser key that
        changed with it (:func:`sighting_key`: a face read unsure is no face) held
        the view back a frame: a flag raised 0.55 s after the dice were lifted, 0.1 s
        later than the frames needed."""
        cube = sighting.cube
        if cube is None or cube.place == "centre":
            return sighting
        if cube.p >= SURE_CUBE_FACE:
            self._sure_cube = cube
            return sighting
        held = self._sure_cube
        if held is not None and held.place == cube.place and held.value == cube.value:
            return replace(sighting, cube=held)
        return sighting

    def _judge(
        self, stable: Sighting, key: Hashable, t: float, *, read_again: bool = True
    ) -> list[Event]:
        """Pass the view ``stable`` (stabiliser key ``key``) to the referee; then look
        again at ``LOOK_AGAIN`` frames (``LONE_DIE_LOOKS`` where it shows one die
        alone) while the table stays still, keeping them to read its dice again
        (:meth:`_read_again`) unless ``read_again`` is false (a view that is itself
        such a read)."""
        self.last, self._last_key = stable, key
        if isinstance(self.eyes, CameraEyes):
            # the arms seen since the last view passed: whose hands rolled or lifted
            stable = replace(stable, arms=self.eyes.take_arms())
        self._again = LONE_DIE_LOOKS if len(stable.dice) == 1 else LOOK_AGAIN
        self._again_views = [] if read_again else None
        count = len(self.referee.events)
        try:
            return self.referee.see(stable)
        except Exception as exc:  # one view misjudged must not end the match
            self.referee.rewind(count)
            fault = f"t={t:.1f}: view not judged ({type(exc).__name__}: {exc})"
            self.faults.append(fault)
            log.exception("%s; the match goes on from its record", fault)
            return []

    def _read_again(self, key: Hashable, sighting: Sighting, t: float) -> list[Event]:
        """A look-again frame showing nothing new by its key. The first view of a roll
        is often made as the dice come to rest, and a small die far from the camera is
        read from it unsure and wrong (s56 clip 5103 at 481 s: a 52 that its player
        could not enter with passed as 53 at 0.42 / 0.32, the next still frames reading
        52, 52, 52, 53; the dice were lifted 1.3 s later, so no other view was ever
        made). Where the mover's dice were read unsure (under ``REREAD_P``), the
        look-again frames showing the same still table are kept; once
        ``REREAD_FRAMES`` are, their dice are read from them all
        (:func:`~gammoneye.vision.sighting.fused_dice`) and, where as many dice lie
        where they lay and any reads as another number, that view is passed on. The
        referee weighs the new reads against the first (:meth:`Referee.see`, the dice
        read again: put right only where read surely)."""
        last, before = self.last, self._last_key
        if (
            last is None
            or before is None
            or self._again_views is None
            or self.referee.state.phase is not Phase.MOVE
            or all(d.p >= REREAD_P for d in last.dice)
            or still_key(key) != still_key(before)
        ):
            return []
        self._again_views.append(sighting)
        if len(self._again_views) < REREAD_FRAMES:
            return []
        views, self._again_views = self._again_views, None  # once for each view passed
        fused = fused_dice(views)
        if fused is None or not dice_read_otherwise(last.dice, fused.dice):
            return []
        fused_key = sighting_key(fused)
        self.stab.remember(fused_key)
        return self._judge(fused, fused_key, t, read_again=False)

    def _fused(self, key: Hashable, sighting: Sighting) -> Sighting | None:
        """The view of the last ``FUSE_FRAMES`` frames read, when they agree on the
        checkers and the cube and show dice: the dice found in half of them or more,
        each read from them all (:func:`~gammoneye.vision.sighting.fused_dice`).
        ``key``: the sighting's stabiliser key."""
        self._still.append((still_key(key), sighting))
        if len(self._still) < FUSE_FRAMES:
            return None
        first = self._still[0][0]
        if any(k != first for k, _ in self._still):
            return None
        return fused_dice([v for _, v in self._still])


def more_dice(seen: Hashable, before: Hashable) -> bool:
    """Whether the view of stabiliser key ``seen`` (:func:`sighting_key`) shows the
    board and cube of ``before`` and its dice and more (by value, where read surely,
    and half).

    >>> from gammoneye.engine.referee import ExactCheckers, SeenDie
    >>> from gammoneye.engine.position import Position
    >>> board = ExactCheckers(Position.initial())
    >>> one = sighting_key(Sighting(board, (SeenDie(4, half="left"),)))
    >>> more_dice(sighting_key(Sighting(board, (SeenDie(1), SeenDie(4, half="left")))), one)
    True
    >>> more_dice(sighting_key(Sighting(board, (SeenDie(1), SeenDie(5, half="left")))), one)
    False
    """
    a, b = cast(tuple[Any, ...], seen), cast(tuple[Any, ...], before)
    if a[0] != b[0] or a[2] != b[2] or len(a[1]) <= len(b[1]):
        return False
    have = Counter((d[0], d[1]) for d in a[1])
    return all(have[k] >= n for k, n in Counter((d[0], d[1]) for d in b[1]).items())


def run_referee(
    frames: Iterable[Frame],
    eyes: CameraEyes | TruthEyes,
    referee: Referee,
    *,
    observer: Iterable[Event] = (),
    realtime: bool = True,
    agree: int = 2,
    window: int = 3,
    on_events: Callable[[list[Event]], None] | None = None,
    progress: Callable[[Frame], None] | None = None,
    last_seen: Frame | None = None,
) -> RunStats:
    """Drive ``referee`` from ``frames`` (see the module docstring); ``observer``
    events (resignations...) are applied at their ``t`` once the camera has caught up
    with the table: a frame from then on judged, and a view of the table since it last
    moved passed on (or found the same as the last); or ``OBSERVER_WAIT_S`` after
    their ``t``, whatever the camera sees. An observer acts on what happened before
    he acts: a resignation typed half a second after the last play (as the rendered
    clips do) must not end the game before the camera has seen that play (s76 clip
    7304 at 336.1 s: 2/0 2/0 judged 0.5 s after the dice were lifted, the game
    already resigned, the play lost from the transcript).

    ``last_seen``: on a resume, the frame whose view the referee last acted on; see
    :meth:`RefereeStep.recall`.
    """
    stats = RunStats()
    step = RefereeStep(eyes, referee, agree, window)
    if last_seen is not None:
        step.recall(last_seen)
    pending = sorted(observer, key=lambda e: e.t or 0.0)
    busy_until = 0.0
    wall = time.perf_counter()

    def deliver(new: list[Event], at: float) -> None:
        if not new:
            return
        stats.decisions += [Decision(e, at) for e in new]
        if on_events:
            on_events(new)

    def observe(event: Event, at: float) -> None:
        try:
            deliver(referee.observe(event), at)
        except ValueError as exc:  # MatchRuleError: the match is not where he thinks
            stats.refused.append(f"t={at:.1f}: observer's {event.TYPE} refused: {exc}")

    judged_t = -1.0  # the last frame judged

    def catch_up(now: float, at: float) -> None:
        # the observer's events the camera has caught up with (or that waited long)
        while pending:
            due = pending[0].t or 0.0
            seen = judged_t >= due and not step.stab.waiting
            if due > now or not (seen or now - due >= OBSERVER_WAIT_S):
                return
            observe(pending.pop(0), at)

    def judge(frame: Frame) -> None:
        nonlocal busy_until, judged_t
        start = time.perf_counter()
        stats.frames += 1
        new = step(frame)
        stats.sightings = step.sightings
        cost = time.perf_counter() - start
        stats.busy_seconds += cost
        # begun when it arrived, or when the loop got free if it waited for that
        busy_until = max(busy_until, frame.t) + cost
        deliver(new, busy_until if realtime else frame.t)
        judged_t = frame.t
        catch_up(frame.t, busy_until if realtime else frame.t)
        if progress:
            progress(frame)

    # the newest frame that arrived while the loop was busy: the grabber's, taken as
    # soon as the loop is free (before a frame that arrives after that)
    waiting: Frame | None = None
    for frame in frames:
        while realtime and waiting is not None and busy_until <= frame.t:
            taken, waiting = waiting, None
            judge(taken)
        catch_up(frame.t, frame.t)
        if realtime and frame.t < busy_until:
            if waiting is not None:
                stats.dropped += 1  # a newer one came
            waiting = frame
            continue
        judge(frame)
    if waiting is not None:
        judge(waiting)
    for e in pending:
        observe(e, e.t or 0.0)
    stats.refused += step.faults
    stats.wall_seconds = time.perf_counter() - wall
    return stats


def clip_referee_config(clip: Path, truth: list[Event]) -> RefereeConfig:
    """The referee set up as the clip's match: players, length, profile, seats, and
    the score of the clip's first game."""
    from gammoneye.engine.events import GameStartEvent, MatchStartEvent

    meta = json.loads((clip / "clip.json").read_text("utf-8"))
    start = next(e for e in truth if isinstance(e, MatchStartEvent))
    first = next((e for e in truth if isinstance(e, GameStartEvent)), None)
    return RefereeConfig(
        profile=start.profile,
        match_length=start.match_length,
        players=(start.players[0], start.players[1]),
        bottom_player=int(meta["bottom_player"]),
        tags=tuple((a, b) for a, b in start.tags),
        score=(first.score[0], first.score[1]) if first else (0, 0),
        game=first.game if first else 1,
        crawford=bool(first.crawford) if first else False,
    )


def rendered_clips(paths: Iterable[Path]) -> list[Path]:
    """The rendered clips at ``paths`` (``gammoneye render clip``'s folders, known by
    their truth, ``events.jsonl``), each path a clip or a folder of clips, those of a
    folder in name order. Raises :class:`SourceError` for a path that holds none."""
    found: list[Path] = []
    for path in paths:
        if (path / "events.jsonl").is_file():
            found.append(path)
            continue
        inside = sorted(p.parent for p in path.glob("*/events.jsonl"))
        if not inside:
            raise SourceError(f"{path} holds no rendered clip (a folder with events.jsonl)")
        found += inside
    return found


def read_truth(clip: Path) -> list[Event]:
    path = clip / "events.jsonl"
    if not path.is_file():
        raise SourceError(f"{clip} is no rendered clip: it has no events.jsonl")
    events, problems = read_event_log(path.read_text("utf-8"))
    if problems:
        raise SourceError(f"{path}: {problems[0]}")
    return events
