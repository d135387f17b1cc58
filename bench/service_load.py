"""Service load benchmark: many overlay clients on one table, on loopback.

Runs the demo (``gammoneye demo``, the bundled clip) as a real server in its own
process twice in one run, and prints for each run the referee loop's figures as the
server reports them (``/api/tables/demo/state`` → ``loop``):

  1. the reference: no WebSocket client;
  2. the load: ``--clients`` overlay clients (default 100) connected to
     ``/ws/tables/demo?since=0`` for the whole clip, in this process.

Figures: frames judged, frames dropped, mean busy time per judged frame, the
processing rate (judged frames per second of busy time, what the loop could do) and
the loop's wall rate; then the drop in processing rate under load (target: < 10 %).
Every client must receive every event of the match, once and in seq order (compared
with ``/api/tables/demo/events`` at the end); the number of clients that did is
printed.

Usage: python bench/service_load.py [--clients 100] [--eyes camera|truth] [--speed 1]
``--eyes camera`` (default) reads the video with GammonEye's vision, the real per-frame
work; ``--eyes truth`` uses the clip's labels (all 33 events of the clip happen, so
the delivery check has more to check).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def start_server(port: int, eyes: str, speed: float, out: str) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable, "-m", "gammoneye", "demo", "--port", str(port), "--eyes", eyes,
        "--speed", str(speed), "--keep-serving", "--out", out,
    ]  # fmt: skip
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


async def wait_up(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            get_json(f"http://127.0.0.1:{port}/api/tables")
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise SystemExit("the server did not start")


async def client(port: int, seqs: list[int], done: asyncio.Event) -> None:
    import websockets

    url = f"ws://127.0.0.1:{port}/ws/tables/demo?since=0"
    async with websockets.connect(url, max_size=None) as ws:
        while not done.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            except websockets.ConnectionClosed:
                return
            message = json.loads(text)
            if message["type"] == "event":
                seqs.append(message["event"]["seq"])


async def run(port: int, eyes: str, speed: float, clients: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="gammoneye-load-") as out:
        server = start_server(port, eyes, speed, out)
        try:
            await wait_up(port)
            done = asyncio.Event()
            got: list[list[int]] = [[] for _ in range(clients)]
            tasks = [asyncio.create_task(client(port, got[i], done)) for i in range(clients)]
            state: dict[str, Any] = {}
            events: list[dict[str, Any]] = []
            while True:  # until the clip has played
                await asyncio.sleep(0.5)
                state = get_json(f"http://127.0.0.1:{port}/api/tables/demo/state")
                if state["source"]["status"] == "ended":
                    await asyncio.sleep(1.0)  # the last messages reach the clients
                    events = get_json(f"http://127.0.0.1:{port}/api/tables/demo/events")
                    break
            done.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            server.terminate()
            server.wait(10)
    want = [e["seq"] for e in events]
    complete = sum(1 for seqs in got if seqs == want)
    loop = state["loop"]
    busy = loop["busy_ms_mean"] or float("nan")
    return {
        "clients": clients,
        "events": len(want),
        "clients_complete": complete,
        "frames": loop["frames"],
        "dropped": loop["dropped"],
        "busy_ms_mean": busy,
        "rate_fps": 1000.0 / busy,
        "wall_fps": loop["fps"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--eyes", choices=["camera", "truth"], default="camera")
    ap.add_argument("--speed", type=float, default=1.0)
    args = ap.parse_args()
    results = []
    for clients in (0, args.clients):
        r = asyncio.run(run(free_port(), args.eyes, args.speed, clients))
        results.append(r)
        print(
            f"{clients:4d} clients: {r['frames']} frames judged, {r['dropped']} dropped, "
            f"{r['busy_ms_mean']:.2f} ms busy per frame -> {r['rate_fps']:.1f} frames/s "
            f"processing rate, loop {r['wall_fps']:.1f} frames/s; {r['events']} events, "
            f"{r['clients_complete']}/{clients} clients got every event in order",
            flush=True,
        )
    base, load = results
    drop = 100.0 * (1 - load["rate_fps"] / base["rate_fps"])
    print(f"processing rate drop under {args.clients} clients: {drop:.1f} % (target < 10 %)")
    print(
        f"every client got every event: "
        f"{'yes' if load['clients_complete'] == args.clients else 'NO'}"
    )


if __name__ == "__main__":
    main()
