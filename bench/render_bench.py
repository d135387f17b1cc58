"""Renderer benchmark: stills throughput, reproducibility, and a match clip with faults.

Prints, in one run (the targets of issue 3):
  1. stills throughput: ``render_stills`` on --stills images (default 400, 1280x720)
     with one worker process per core, in images/second by render_stills' own clock
     (pool start to last image), by wall time of the call, and for the real command
     ``gammoneye render stills`` timed end to end in a subprocess (interpreter start,
     imports, worker processes, writing) — what a user measures. API and CLI runs are
     interleaved for --rounds rounds and the best of each is kept, as the machine is
     shared. Target: >= 20 stills/s, judged on the end-to-end command;
  2. reproducibility: the same seed rendered with 1 and with 2 workers must give the
     same bytes in every image and label; another seed must give other images;
  3. a clip: ``render_clip`` of games 2-4 of service/data/testbed_match.mat (a GNU
     Backgammon self-play match whose games 2-4 offer a chance for every fault kind)
     with ``faults="all"``, 1280x720 at 10 fps: wall seconds (target < 300 s), frames,
     video seconds, events, faults by kind, kinds not injected (must be none); then
     checks of its ground truth: events.jsonl reads back strictly and every line
     validates against the event-log JSON Schema; the .mat made from the events
     replays without problems and plays the source's games 2-4 action for action;
     every illegal-play flag is corrected by a legal move of the same player; flags
     and injected illegal plays agree in number; every roll fault points at the event
     that marks it.

Each check prints PASS or FAIL; the exit status is 1 when any target or check fails.

Usage: python bench/render_bench.py [--stills N] [--rounds N] [--seed S] [--workers W]
                                    [--skip-clip] [--out DIR]
Needs the test extra (jsonschema). Without --out everything is written to a temporary
folder and deleted; with --out (absent or empty) the outputs are kept there.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gammoneye.datasets.render.clip import ClipConfig, render_clip
from gammoneye.datasets.render.clipscript import ILLEGAL_KINDS, ROLL_FAULTS
from gammoneye.datasets.render.stills import StillsConfig, render_stills
from gammoneye.engine.events import (
    EVENT_LOG_SCHEMA,
    Event,
    FlagClearedEvent,
    FlagEvent,
    MoveEvent,
    RollEvent,
    RollInvalidEvent,
    read_event_log,
)
from gammoneye.engine.matfile import write_mat
from gammoneye.engine.replay import Replay, record_from_events, replay_mat

ROOT = Path(__file__).resolve().parents[1]
TESTBED = ROOT / "service" / "data" / "testbed_match.mat"
WIDTH, HEIGHT = 1280, 720
STILLS_TARGET = 20.0  # stills per second
CLIP_TARGET = 300.0  # seconds
CLIP_GAMES = (2, 3, 4)
CLIP_FPS = 10.0


@dataclass
class Verdicts:
    """Every PASS/FAIL printed, so that main() can set the exit status."""

    failed: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        print(f"  {'PASS' if ok else 'FAIL'}  {what}" + (f": {detail}" if detail else ""))
        if not ok:
            self.failed.append(what)
        return ok


# --- 1. stills throughput -------------------------------------------------------------------


def gammoneye_command() -> list[str]:
    """The installed ``gammoneye`` console script of this interpreter's environment."""
    beside = Path(sys.executable).with_name("gammoneye")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("gammoneye")
    if found:
        return [found]
    return [sys.executable, "-m", "gammoneye"]


def stills_api(n: int, seed: int, workers: int, out: Path) -> tuple[float, float]:
    """(seconds by render_stills' summary, wall seconds of the call)."""
    t0 = time.perf_counter()
    summary = render_stills(
        StillsConfig(n=n, out=out, seed=seed, width=WIDTH, height=HEIGHT), workers=workers
    )
    wall = time.perf_counter() - t0
    if summary.written != n:
        raise RuntimeError(f"render_stills wrote {summary.written} of {n} images into {out}")
    return summary.seconds, wall


def stills_cli(n: int, seed: int, workers: int, out: Path) -> tuple[float, str]:
    """(wall seconds of ``gammoneye render stills`` end to end, its last line)."""
    cmd = [
        *gammoneye_command(),
        "render",
        "stills",
        "--n",
        str(n),
        "--out",
        str(out),
        "--seed",
        str(seed),
        "--width",
        str(WIDTH),
        "--height",
        str(HEIGHT),
        "--workers",
        str(workers),
    ]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{done.stderr}")
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    written = len(list((out / "labels").glob("*.json")))
    if written != n:
        raise RuntimeError(f"the command wrote {written} of {n} labels into {out}")
    return wall, lines[-1] if lines else ""


def throughput(n: int, seed: int, workers: int, rounds: int, base: Path, keep: bool,
               v: Verdicts) -> None:
    print(f"1. stills throughput: {n} stills {WIDTH}x{HEIGHT}, seed {seed}, {workers} workers, "
          f"best of {rounds} interleaved rounds")
    best = {"summary": float("inf"), "api": float("inf"), "cli": float("inf")}
    cli_line = ""
    for r in range(1, rounds + 1):
        api_out, cli_out = base / f"stills-api-{r}", base / f"stills-cli-{r}"
        summary_s, api_s = stills_api(n, seed, workers, api_out)
        cli_s, line = stills_cli(n, seed, workers, cli_out)
        print(f"  round {r}: render_stills {summary_s:6.1f} s by its summary, {api_s:6.1f} s wall;"
              f" gammoneye render stills {cli_s:6.1f} s end to end")
        best["summary"] = min(best["summary"], summary_s)
        best["api"] = min(best["api"], api_s)
        if cli_s < best["cli"]:
            best["cli"], cli_line = cli_s, line
        if not keep:  # only the timings matter here; free the disk for the next round
            shutil.rmtree(api_out)
            shutil.rmtree(cli_out)
    rates = {k: n / s for k, s in best.items()}
    print(f"  render_stills(), summary's clock (pool start .. last image): "
          f"{rates['summary']:6.1f} stills/s")
    print(f"  render_stills(), wall time of the call (incl. worker start):   "
          f"{rates['api']:6.1f} stills/s")
    print(f"  gammoneye render stills, end to end (incl. interpreter start): "
          f"{rates['cli']:6.1f} stills/s")
    print(f"  the command said: {cli_line}")
    per_core = rates["cli"] / workers
    v.check(
        rates["cli"] >= STILLS_TARGET,
        f"stills throughput >= {STILLS_TARGET:g}/s (end to end)",
        f"{rates['cli']:.1f}/s on {workers} workers ({per_core:.1f}/s per worker)",
    )


# --- 2. reproducibility ---------------------------------------------------------------------


def run_files(run: Path) -> dict[str, bytes]:
    """Every image and label of a stills run, by relative path."""
    return {
        str(p.relative_to(run)): p.read_bytes()
        for sub in ("images", "labels")
        for p in sorted((run / sub).iterdir())
    }


def reproducibility(n: int, seed: int, base: Path, v: Verdicts) -> None:
    print(f"2. reproducibility: {n} stills {WIDTH}x{HEIGHT}, seed {seed} with 1 and 2 workers, "
          f"seed {seed + 1} with 2")
    runs = {}
    rates = []
    for name, s, workers in (("a", seed, 1), ("b", seed, 2), ("c", seed + 1, 2)):
        out = base / f"repro-seed{s}-w{workers}"
        summary = render_stills(StillsConfig(n=n, out=out, seed=s, width=WIDTH, height=HEIGHT),
                                workers=workers)
        runs[name] = run_files(out)
        rates.append(f"{summary.per_second:.1f}/s with {workers} worker{'s' * (workers > 1)}")
    print(f"  (by the summaries: {', '.join(rates)})")
    a, b, c = runs["a"], runs["b"], runs["c"]
    same_names = sorted(a) == sorted(b)
    matched = sum(name in b and a[name] == b[name] for name in a)
    images = [name for name in a if name.startswith("images/")]
    labels = [name for name in a if name.startswith("labels/")]
    print(f"  seed {seed}, 1 vs 2 workers: {matched} of {len(a)} files byte-identical "
          f"({len(images)} images, {len(labels)} labels)")
    v.check(
        same_names and matched == len(a) == 2 * n,
        "same seed, same bytes (1 vs 2 workers)",
        f"{matched}/{len(a)} files match",
    )
    differ = sum(name not in c or a[name] != c[name] for name in images)
    print(f"  seed {seed} vs seed {seed + 1}: {differ} of {len(images)} images differ")
    v.check(differ == len(images), "another seed, other images", f"{differ}/{len(images)} differ")


# --- 3. the clip ----------------------------------------------------------------------------


def render_testbed_clip(seed: int, workers: int, out: Path, v: Verdicts) -> ClipConfig:
    text = TESTBED.read_text(encoding="utf-8")
    cfg = ClipConfig(
        mat_text=text,
        mat_name=TESTBED.name,
        out=out,
        seed=seed,
        games=CLIP_GAMES,
        faults="all",
        fps=CLIP_FPS,
        width=WIDTH,
        height=HEIGHT,
    )
    games = ",".join(map(str, CLIP_GAMES))
    print(f"3. clip: {TESTBED.name} games {games}, faults=all, {WIDTH}x{HEIGHT} at {CLIP_FPS:g} "
          f"fps, seed {seed}, {workers} workers")
    t0 = time.perf_counter()
    summary = render_clip(cfg, workers=workers)
    wall = time.perf_counter() - t0
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(summary.faults.items())) or "none"
    print(f"  {summary.frames} frames = {summary.video_seconds:.1f} s of video, "
          f"{summary.events} events, rendered in {wall:.1f} s wall "
          f"({summary.frames / wall:.1f} frames/s, {summary.video_seconds / wall:.2f}x real time)")
    print(f"  faults ({sum(summary.faults.values())}): {kinds}")
    print(f"  kinds not injected: {', '.join(summary.not_injected) or 'none'}")
    v.check(wall < CLIP_TARGET, f"clip rendered in < {CLIP_TARGET:g} s", f"{wall:.1f} s")
    v.check(not summary.not_injected, "every fault kind injected",
            ", ".join(summary.not_injected) or "all kinds")
    frames = len(list((out / "frames").glob("*.jpg")))
    truth = (out / "frames.jsonl").read_text(encoding="utf-8").count("\n")
    v.check(
        frames == truth == summary.frames,
        "one frame file and one frames.jsonl line per frame",
        f"{frames} files, {truth} lines, {summary.frames} frames",
    )
    return cfg


def check_clip_truth(cfg: ClipConfig, v: Verdicts) -> None:
    """The consistency checks of the clip's ground truth (see the module docstring)."""
    import jsonschema

    out = cfg.out
    print("  ground truth:")
    text = (out / "events.jsonl").read_text(encoding="utf-8")
    try:
        events, _ = read_event_log(text, strict=True)
    except ValueError as exc:
        v.check(False, "events.jsonl reads back strictly", str(exc))
        return
    v.check(True, "events.jsonl reads back strictly", f"{len(events)} events")

    validator = jsonschema.Draft202012Validator(EVENT_LOG_SCHEMA)
    lines = [line for line in text.splitlines() if line.strip()]
    bad = [(i, err.message) for i, line in enumerate(lines, 1)
           for err in validator.iter_errors(json.loads(line))]
    v.check(not bad, "every line validates against EVENT_LOG_SCHEMA",
            f"{len(lines)} lines" + (f", {len(bad)} errors, first: line {bad[0][0]}: "
                                     f"{bad[0][1]}" if bad else ""))

    check_transcript(cfg, events, v)
    check_flags(events, out, v)
    check_roll_faults(events, out, v)


Entry = tuple[int, str, int, tuple[int, int] | None, str]


def _entries(replay_result: Replay, games: tuple[int, ...]) -> list[Entry]:
    return [
        (e.game, e.kind, e.player, e.dice, e.play)
        for e in replay_result.entries
        if e.game in games
    ]


def check_transcript(cfg: ClipConfig, events: list[Event], v: Verdicts) -> None:
    mat = write_mat(record_from_events(events))
    on_disk = (cfg.out / "match.mat").read_text(encoding="utf-8")
    v.check(mat == on_disk, "match.mat is the .mat of events.jsonl")
    clip = replay_mat(mat, cfg.profile)
    problems = [p.describe() for p in clip.all_problems()]
    v.check(not problems, "the events' .mat replays without problems",
            f"{clip.turns} turns" + (f"; {len(problems)} problems, first: {problems[0]}"
                                     if problems else ""))
    source = _entries(replay_mat(cfg.mat_text, cfg.profile), CLIP_GAMES)
    ours = _entries(clip, CLIP_GAMES)
    first_diff = next(
        (i for i, (x, y) in enumerate(zip(source, ours, strict=False)) if x != y),
        None if len(source) == len(ours) else min(len(source), len(ours)),
    )
    detail = f"{len(ours)} entries vs {len(source)} in the source"
    if first_diff is not None:
        src = source[first_diff] if first_diff < len(source) else None
        got = ours[first_diff] if first_diff < len(ours) else None
        detail += f"; first difference at entry {first_diff}: source {src}, clip {got}"
    v.check(first_diff is None, "(game, kind, player, dice, play) equal to the source's games",
            detail)


def _faults(out: Path) -> list[dict[str, Any]]:
    return list(json.loads((out / "faults.json").read_text(encoding="utf-8"))["faults"])


def check_flags(events: list[Event], out: Path, v: Verdicts) -> None:
    flags = [(i, e) for i, e in enumerate(events)
             if isinstance(e, FlagEvent) and e.kind == "illegal_play"]
    wrong: list[str] = []
    for i, flag in flags:
        cleared = next((j for j in range(i + 1, len(events))
                        if isinstance(events[j], FlagClearedEvent)
                        and getattr(events[j], "flag_id", None) == flag.flag_id), None)
        if cleared is None or getattr(events[cleared], "how", None) != "corrected":
            wrong.append(f"flag {flag.flag_id} (seq {flag.seq}) not cleared as corrected")
            continue
        move = next((e for e in events[cleared + 1:] if isinstance(e, MoveEvent)), None)
        if move is None or move.player != flag.player or not move.legal:
            wrong.append(f"flag {flag.flag_id} (seq {flag.seq}) not followed by a legal move of "
                          f"player {flag.player}: {move}")
    v.check(not wrong, "every illegal_play flag: flag_cleared 'corrected', then a legal move "
            "of the same player", f"{len(flags)} flags" + (f"; {wrong[0]}" if wrong else ""))
    injected = [f for f in _faults(out) if f["kind"] in ILLEGAL_KINDS]
    v.check(len(flags) == len(injected), "flags = injected illegal plays",
            f"{len(flags)} flags, {len(injected)} illegal faults in faults.json")


def check_roll_faults(events: list[Event], out: Path, v: Verdicts) -> None:
    by_seq = {e.seq: e for e in events}
    rolls = [f for f in _faults(out) if f["kind"] in ROLL_FAULTS]
    wrong: list[str] = []
    for f in rolls:
        ev = by_seq.get(f["seq"])
        stands = f["kind"] == "premature" and f.get("stands")
        ok = isinstance(ev, RollInvalidEvent) or (
            stands and isinstance(ev, RollEvent) and bool(ev.note)
        )
        if not ok:
            wrong.append(f"{f['kind']} fault at seq {f['seq']} points at {ev}")
    v.check(not wrong, "every roll fault points at its roll_invalid (or noted roll) event",
            f"{len(rolls)} roll faults" + (f"; {wrong[0]}" if wrong else ""))


# --- main -----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stills", type=int, default=400, help="stills per throughput run")
    parser.add_argument("--rounds", type=int, default=2, help="throughput rounds (best kept)")
    parser.add_argument("--repro", type=int, default=24, help="stills per reproducibility run")
    parser.add_argument("--seed", type=int, default=1, help="seed of every render")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: one per core)")
    parser.add_argument("--skip-clip", action="store_true", help="leave out the clip (quick run)")
    parser.add_argument("--out", type=Path, help="keep the outputs in this (empty) folder")
    args = parser.parse_args()

    if args.out is not None and args.out.exists() and any(args.out.iterdir()):
        parser.error(f"--out {args.out} is not empty: earlier outputs would be resumed, "
                     "not rendered, and spoil the timings")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"render benchmark: {os.cpu_count()} CPUs, load average {load} at start, "
          f"Python {sys.version.split()[0]}")
    v = Verdicts()
    with tempfile.TemporaryDirectory(prefix="render-bench-") as tmp:
        base = args.out or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        throughput(args.stills, args.seed, args.workers, args.rounds, base,
                   args.out is not None, v)
        reproducibility(args.repro, args.seed, base, v)
        if args.skip_clip:
            print("3. clip: skipped (--skip-clip)")
        else:
            cfg = render_testbed_clip(args.seed, args.workers, base / "clip", v)
            check_clip_truth(cfg, v)
        took = time.perf_counter() - t0
    if v.failed:
        print(f"FAILED {len(v.failed)}: {'; '.join(v.failed)} ({took:.0f} s in all)")
        return 1
    print(f"all targets and checks passed ({took:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
