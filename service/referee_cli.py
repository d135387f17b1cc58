"""``gammoneye referee SOURCE`` and ``gammoneye eval referee CLIPS_DIR``."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from gammoneye.service.cliutil import fail


def _say(event: Any, players: tuple[str, str]) -> str:
    d = event.to_dict()
    kind = d.pop("type")
    who = players[d["player"]] if isinstance(d.get("player"), int) else ""
    t = f"{event.t:8.1f}s" if event.t is not None else " " * 9
    if kind == "flag":
        return f"{t}  FLAG {d['kind'].upper()} {who}: {d['message']} [{d['rule']}]"
    if kind == "move":
        legal = "" if d["legal"] else "  (ILLEGAL)"
        return f"{t}  {who} plays {d['dice'][0]}{d['dice'][1]}: {d['play'] or '(no move)'}{legal}"
    rest = {k: v for k, v in d.items() if k not in ("seq", "t", "frame", "source", "player")}
    return f"{t}  {kind} {who} {json.dumps(rest) if rest else ''}".rstrip()


def referee(
    source: Annotated[
        str,
        typer.Argument(
            help="A video file, a folder of frames (or a rendered clip), a camera index "
            "(0, 1, ...) or a stream URL (rtsp://, http://)."
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="Folder for the match's files.")],
    profile: Annotated[
        str, typer.Option("--profile", help="Rule profile: wbf, konstanz or club.")
    ] = "wbf",
    match_length: Annotated[
        int | None,
        typer.Option("--match-length", min=0, help="Points to win (0: money game)."),
    ] = None,
    players: Annotated[
        tuple[str, str], typer.Option("--players", help="The two players' names (player 0 first).")
    ] = ("player 0", "player 1"),
    bottom_player: Annotated[
        int,
        typer.Option(
            "--bottom-player",
            min=0,
            max=1,
            help="Which player (0 or 1) sits at the side of the board nearer the picture's "
            "bottom (the field's bottom side after calibration).",
        ),
    ] = 0,
    calibration: Annotated[
        Path | None,
        typer.Option("--calibration", help="A calibration file (gammoneye calibrate); else found."),
    ] = None,
    fps: Annotated[
        float | None, typer.Option("--fps", min=1.0, help="Frame rate of a folder of frames.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="Print no events.")] = False,
) -> None:
    """Referee a match from a camera, a video or a folder of frames.

    Writes, as it goes, OUT/events.jsonl (every event, the engine's event-log format),
    OUT/match.mat (the transcript GNU Backgammon and eXtreme Gammon import) and
    OUT/journal.sqlite (the journal: synced to disk at every event). Run again on the
    same OUT to resume a match after a crash: nothing decided is lost. The journal also
    keeps what the camera learnt (the field, the home side, each player's colour), so a
    resumed referee reads the board without seeing the opening again. A video file or
    a folder of frames is taken up after the frame of the last event on record: the
    frames up to it were judged already (that frame is looked at again, to know what
    lay on the table, but not judged); a camera or a stream goes on from what it shows
    now.

    Illegal plays are flagged when the mover lifts his dice, before the next roll;
    invalid rolls (cocked, wrong half, on a checker, off the board, premature) are
    reported as they settle. When the dice are read unsurely (a camera too far, dice of
    little contrast with their pips or the board, poor light) the terminal says so:
    rolls will then be misread.

    Examples:

      gammoneye referee clips/testbed --out match1 --match-length 7

      gammoneye referee 0 --out club-night --profile club --match-length 5 --players ann bob
    """
    from gammoneye.calibration.profile import CalibrationProfile
    from gammoneye.engine.referee import Referee, RefereeConfig
    from gammoneye.engine.rules import RuleProfileError, get_profile
    from gammoneye.service.journal import Journal, JournalError, MatchFiles
    from gammoneye.service.referee import (
        CameraEyes,
        EyesMemory,
        SourceError,
        last_judged_frame,
        open_source,
        run_referee,
    )

    try:
        get_profile(profile)
    except RuleProfileError as e:
        raise fail(str(e)) from None
    corners = None
    if calibration is not None:
        if not calibration.is_file():
            raise fail(f"no such calibration file: {calibration}")
        try:
            corners = CalibrationProfile.from_json(
                calibration.read_text("utf-8"), str(calibration)
            ).corners()
        except ValueError as e:
            raise fail(str(e)) from None
    settings = {
        "profile": profile,
        "match_length": match_length,
        "players": list(players),
        "bottom_player": bottom_player,
    }
    journal = Journal(out / "journal.sqlite")
    try:
        before = journal.settings()
        if before is not None and before != settings:
            raise fail(
                f"{out} holds another match ({before}); give a new --out or the same settings"
            )
        journal.set_settings(settings)
        config = RefereeConfig(
            profile=profile,
            match_length=match_length,
            players=players,
            bottom_player=bottom_player,
        )
        try:
            earlier = journal.events()
            ref = Referee.resume(config, earlier) if earlier else Referee(config, t=0.0)
        except (JournalError, ValueError) as e:
            raise fail(f"cannot resume from {journal.path}: {e}") from None
        if earlier:
            print(f"resuming: {len(earlier)} events on record", file=sys.stderr)
        else:
            journal.append(ref.events)
        outputs = MatchFiles(out)
        outputs.write(ref.events)
        eyes = CameraEyes(bottom_player, corners)
        memory = EyesMemory(eyes, journal)
        problem = memory.restore() if earlier else None
        if problem:
            print(problem, file=sys.stderr)

        def on_events(new: list[Any]) -> None:
            # what the eyes learnt goes to disk before the events read with it: a
            # restart after these events needs it, the opening being past
            memory.keep()
            journal.append(new)  # on disk first; the files below are views of it
            outputs.write(ref.events)
            if not quiet:
                for e in new:
                    print(_say(e, players), flush=True)

        followed = getattr(eyes, "refound", 0)  # truth eyes follow no board
        dice_unsure = False

        def on_frame(frame: Any) -> None:
            nonlocal followed, dice_unsure
            memory.keep()
            refound = getattr(eyes, "refound", 0)
            if refound != followed:
                followed = refound
                print(
                    f"the board moved (frame {frame.ref}): its field was found again",
                    file=sys.stderr,
                )
            if eyes.dice_confidence.unsure() != dice_unsure:
                dice_unsure = not dice_unsure
                said = eyes.dice_confidence.notice() or "the dice are read surely again"
                print(f"frame {frame.ref}: {said}", file=sys.stderr)

        seen = last_judged_frame(source, earlier)
        try:
            frames = open_source(source, fps, first=seen or 0)
            last_seen = None if seen is None else next(frames, None)
            if last_seen is not None:
                print(f"resuming after frame {last_seen.ref} of {source}", file=sys.stderr)
            stats = run_referee(
                frames,
                eyes,
                ref,
                on_events=on_events,
                progress=on_frame,
                realtime=False,
                last_seen=last_seen,
            )
        except SourceError as e:
            raise fail(str(e)) from None
        print(
            f"{stats.frames} frames, {stats.sightings} settled readings; "
            f"{len(ref.events)} events in {out / 'events.jsonl'}",
            file=sys.stderr,
        )
    finally:
        journal.close()


def _keep_events(folder: Path, events: Sequence[Any], decided: Mapping[int, float]) -> None:
    """Write ``events`` (our log of one clip) to ``folder/events.jsonl`` and, for each
    event decided during the run, its seq and when (clip seconds) to ``decided.jsonl``."""
    from gammoneye.engine.events import dumps_event

    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "events.jsonl").write_text(
            "".join(dumps_event(e) + "\n" for e in events), "utf-8"
        )
        (folder / "decided.jsonl").write_text(
            "".join(
                json.dumps({"seq": e.seq, "at": round(decided[id(e)], 3)}) + "\n"
                for e in events
                if id(e) in decided
            ),
            "utf-8",
        )
    except OSError as e:
        raise fail(f"cannot write our events to {folder}: {e}") from None


def eval_referee(
    clips: Annotated[
        Path, typer.Argument(help="A rendered clip, or a folder of them (gammoneye render clip).")
    ],
    vision: Annotated[
        str,
        typer.Option(
            "--vision",
            help="camera: read the frames; truth: the clip's ground truth as a perfect "
            "camera (measures the referee apart from vision).",
        ),
    ] = "camera",
    find: Annotated[
        bool,
        typer.Option(
            "--find/--calibrated",
            help="Find the board in the frames, or take the field's corners from clip.json "
            "(as a match calibrated once).",
        ),
    ] = False,
    realtime: Annotated[
        bool,
        typer.Option(
            "--realtime/--every-frame",
            help="Play the clip at its frame rate, dropping frames while busy (as a live "
            "camera), or read every frame.",
        ),
    ] = True,
    problems: Annotated[
        bool, typer.Option("--problems", help="List every missed or extra call.")
    ] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the figures as one JSON object.")
    ] = False,
    keep: Annotated[
        Path | None,
        typer.Option(
            "--keep",
            help="Also write our event log of each clip to KEEP/CLIP/events.jsonl, and "
            "when each event was decided (seconds into the clip) to decided.jsonl, to "
            "look at a real-time run afterwards.",
        ),
    ] = None,
) -> None:
    """Run the referee on rendered clips and compare with their ground-truth event logs.

    Prints: plays transcribed exactly, cube actions, illegal-play flag recall (by
    fault kind) and precision, invalid-roll recall and false alarms, flag latency
    p50/p95 from the dice being lifted (at real-time playback, decisions timed on
    this machine), and the frame rate of the loop.

    Example:

      gammoneye render clip --mat ../shared/data/mat/kevung_charlot1-charlot2_7p.mat \\
          --games 1-2 --faults all --out clips/c1 --seed 11
      gammoneye eval referee clips
    """
    from gammoneye.engine.referee import Referee
    from gammoneye.service.referee import (
        CameraEyes,
        SourceError,
        TruthEyes,
        clip_referee_config,
        open_source,
        read_truth,
        rendered_clips,
        run_referee,
    )
    from gammoneye.service.referee_eval import RefereeScore, compare_events

    if vision not in ("camera", "truth"):
        raise fail(f"--vision is camera or truth, not {vision!r}")
    total = RefereeScore()
    frames = dropped = reads = reached = refound = kept = 0
    busy = 0.0
    read_s = 0.0
    try:
        found = rendered_clips([clips])
    except SourceError as e:
        raise fail(str(e)) from None
    for clip in found:
        try:
            truth = read_truth(clip)
        except SourceError as e:
            raise fail(str(e)) from None
        config = clip_referee_config(clip, truth)
        ref = Referee(config, t=0.0)
        observer = [e for e in truth if e.source == "observer" and e.TYPE != "match_start"]
        eyes: Any
        if vision == "truth":
            eyes = TruthEyes(clip)
            source = eyes.frames()
        else:
            meta = json.loads((clip / "clip.json").read_text("utf-8"))
            corners = None if find else meta.get("field_corners_px")
            eyes = CameraEyes(config.bottom_player, corners)
            source = open_source(str(clip))
        try:
            stats = run_referee(source, eyes, ref, observer=observer, realtime=realtime)
        except SourceError as e:
            hint = " (a truth-only clip: try --vision truth)" if vision != "truth" else ""
            raise fail(f"{e}{hint}") from None
        decided = {id(d.event): d.at for d in stats.decisions}
        score = compare_events(truth, ref.events, decided_at=decided)
        if keep is not None:
            _keep_events(keep / clip.name, ref.events, decided)
        total.add(score)
        frames += stats.frames
        busy += stats.busy_seconds
        dropped += stats.dropped
        if isinstance(eyes, CameraEyes):
            reads += eyes.reads
            read_s += eyes.read_seconds
            reached += eyes.reached
            refound += eyes.refound
            kept += eyes.kept
        dice = ""
        if isinstance(eyes, CameraEyes) and eyes.dice_confidence.overall is not None:
            # how surely the dice were read (:class:`DiceConfidence`), and for how many
            # pictures its notice would have been up
            confidence = eyes.dice_confidence
            dice = (
                f"; {confidence.seen} dice read at p {confidence.overall:.3f} (mean), read"
                f" unsurely lately in {eyes.unsure_looks} of {eyes.reads} pictures read"
            )
        print(
            f"{clip.name}: {score.summary()}; {stats.frames} frames read, {stats.dropped} dropped"
            f"{dice}",
            file=sys.stderr,
        )
        if problems:
            for p in stats.refused + score.problems:
                print(f"  {p}", file=sys.stderr)
    figures = total.figures()
    figures["loop_fps"] = frames / busy if busy else None
    figures["frames_dropped"] = dropped
    figures["board_reads"] = reads
    figures["still_frames_with_an_arm"] = reached
    figures["field_found_moved"] = refound
    figures["field_found_elsewhere_kept"] = kept
    figures["read_ms_mean"] = 1000 * read_s / reads if reads else None
    figures["vision"] = vision
    if json_out:
        print(json.dumps(figures, indent=1))
        return
    for key, value in figures.items():
        if isinstance(value, float):
            value = f"{value:.2f}"
        print(f"{key:26s} {value}")
