"""The observer and overlay pages (``service/web/``) in a real browser, on the real app.

The app serves one table whose source is a short rendered clip with its own labels
standing in for the camera (``eyes="truth"``): bob's first play is an illegal bear-off,
and the clip is cut just after the referee has flagged it, so the table ends with that
flag open, every time. The test loads the pages while the table is still at the
opening, starts the table, and watches the flag arrive over the WebSocket; then it
clears the flag and plays a resignation from the observer page and checks that the
overlay follows.

Chromium is the system's (``/usr/bin/chromium``), never a downloaded one; the module
skips where it or playwright is missing. ``GAMMONEYE_SCREENSHOTS=1`` also writes
``docs/observer.png`` and ``docs/overlay.png`` (and renders the clip larger for them).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.is_file():
    pytest.skip("no system Chromium at /usr/bin/chromium", allow_module_level=True)

uvicorn = pytest.importorskip("uvicorn")

from gammoneye.datasets.render.clip import ClipConfig, render_clip  # noqa: E402
from gammoneye.service.app import create_app  # noqa: E402
from gammoneye.service.settings import (  # noqa: E402
    MatchSettings,
    ServiceSettings,
    TableSettings,
)

REPO = Path(__file__).resolve().parents[1]
SCREENSHOTS = os.environ.get("GAMMONEYE_SCREENSHOTS", "") not in ("", "0")
TOKEN = "test-token-1234"
#: Frames the clip holds its opening layout and its last still view for, beyond its own.
HOLD = 12
DASH = "\N{EN DASH}"  # the observer page writes scores "2 DASH 3"
BROWSER_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
]

# Three moves each; the renderer's forced faults make bob's first play an illegal
# bear-off (6/0 with 64), flagged when he lifts his dice, then corrected.
SHORT_MATCH = """\
 3 point match

 Game 1
 ann : 0                        bob : 0
  1)                             64: 24/18 13/9
  2) 52: 13/8 13/11              31: 8/5 6/5
  3) 43: 13/9 13/10              42: 8/4 6/4
"""


# --- fixtures --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The clip, cut after the still frames that follow the first flagged play."""
    out = tmp_path_factory.mktemp("pages") / "clip"
    width, height = (640, 360) if SCREENSHOTS else (320, 180)
    cfg = ClipConfig(
        mat_text=SHORT_MATCH,
        mat_name="short.mat",
        out=out,
        seed=1,
        games=(1,),
        faults="all",
        fps=4.0,
        width=width,
        height=height,
    )
    render_clip(cfg, workers=1)
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    flagged = next(e["frame"] for e in events if e["type"] == "flag")
    rows = [json.loads(line) for line in (out / "frames.jsonl").read_text().splitlines()]
    # past the hand lifting the dice, through the still frames the referee judges,
    # up to the hand that comes to correct the play
    cut = flagged
    while rows[cut]["hands"]:
        cut += 1
    while not rows[cut]["hands"]:
        cut += 1
    frames = sorted((out / "frames").iterdir())
    # the opening layout is still for three frames of the clip (0.75 s) and the last
    # still view for a few: each is held longer (HOLD frames), so that a busy machine,
    # dropping a frame, still sees it settle (a table that dropped one of the opening's
    # frames never saw the game start, and the flag never came)
    kept = [json.loads(line) for line in (out / "frames.jsonl").read_text().splitlines()[:cut]]
    rows = [kept[0]] * HOLD + kept + [kept[-1]] * HOLD
    images = [frames[0]] * HOLD + frames[:cut] + [frames[cut - 1]] * HOLD
    staged = out / "frames_held"
    staged.mkdir()
    for n, image in enumerate(images):
        shutil.copyfile(image, staged / f"{n:06d}.jpg")
    shutil.rmtree(out / "frames")
    staged.rename(out / "frames")
    lines = [
        json.dumps({**row, "frame": n, "t": round(n / cfg.fps, 3)}) for n, row in enumerate(rows)
    ]
    (out / "frames.jsonl").write_text("\n".join(lines) + "\n")
    return out


class Server:
    def __init__(self, app: Any, base: str) -> None:
        self.app = app
        self.base = base

    @property
    def table(self) -> Any:
        return self.app.state.tables["main"]

    def start_table(self) -> None:
        self.table.start()  # does nothing the second time

    def wait_until_ended(self, timeout_s: float = 60.0) -> None:
        end = time.monotonic() + timeout_s
        while self.table.state()["source"]["status"] != "ended":
            assert time.monotonic() < end, "the clip did not play to its end"
            time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(clip: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    bottom = json.loads((clip / "clip.json").read_text())["bottom_player"]
    settings = ServiceSettings(
        token=TOKEN,
        data_dir=tmp_path_factory.mktemp("data"),
        start_tables=False,  # the test starts the table once the pages are open
        tables=[
            TableSettings(
                id="main",
                source=str(clip),
                eyes="truth",
                fps=10.0,  # 2.5 times the clip's own 4 fps: few frames dropped when busy
                match=MatchSettings(players=("ann", "bob"), match_length=3, bottom_player=bottom),
            )
        ],
    )
    app = create_app(settings)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, name="uvicorn", daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < end, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield Server(app, f"http://127.0.0.1:{port}")
    finally:
        srv.should_exit = True
        thread.join(15)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            yield b
        finally:
            b.close()


class Watch:
    """Console errors, page errors, failed requests and HTTP errors of one page."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _console(self, msg: Any) -> None:
        if msg.type in ("error", "warning"):
            self.problems.append(f"console {msg.type}: {msg.text} ({msg.location.get('url')})")

    def _failed(self, request: Any) -> None:
        self.problems.append(f"request failed: {request.url} {request.failure}")

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def take(self) -> list[str]:
        out, self.problems = self.problems, []
        return out

    def detach(self) -> None:
        # closing a page aborts the MJPEG stream: not a problem of the page
        self.page.remove_listener("requestfailed", self._failed)
        self.page.remove_listener("console", self._console)


def open_page(browser: Any, url: str, **context: Any) -> tuple[Any, Any, Watch]:
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    watch = Watch(page)
    page.goto(url, wait_until="domcontentloaded")
    return ctx, page, watch


def text(page: Any, selector: str) -> str:
    return str(page.locator(selector).inner_text())


# --- tests -----------------------------------------------------------------------------------


def test_index_lists_the_table(server: Server, browser: Any) -> None:
    ctx, page, watch = open_page(browser, server.base + "/")
    try:
        row = page.locator('tr[data-table="main"]')
        row.wait_for()
        assert "ann v bob" in row.inner_text()
        links = row.locator("a")
        hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
        assert hrefs == [
            "/tables/main/observer",
            "/tables/main/overlay",
            "/tables/main/overlay?compact=1",
        ]
        assert watch.take() == []
    finally:
        ctx.close()


def test_pages_follow_the_table(server: Server, browser: Any) -> None:
    observer_ctx, observer, ob_watch = open_page(
        browser, server.base + "/tables/main/observer", viewport={"width": 1400, "height": 1000}
    )
    overlay_ctx, overlay, ov_watch = open_page(
        browser, server.base + "/tables/main/overlay", viewport={"width": 1920, "height": 1080}
    )
    try:
        _opening(observer, overlay)
        assert ob_watch.take() == [] and ov_watch.take() == []

        server.start_table()
        _flag_arrives(server, observer, overlay)
        server.wait_until_ended()
        _source_ended_and_video(observer, overlay)
        if SCREENSHOTS:
            _screenshots(observer, overlay)
        assert ob_watch.take() == [] and ov_watch.take() == []

        _action_without_token(observer)
        problems = ob_watch.take()
        assert problems and all("401" in p and "/actions/dismiss" in p for p in problems), problems

        _correct_the_flag(observer, overlay)
        _calibration_drag(observer)
        problems = ob_watch.take()
        assert problems and all("409" in p and "/calibration" in p for p in problems), problems

        _resignation(observer, overlay)
        _new_match_names_are_text(observer, overlay)
        assert ob_watch.take() == [] and ov_watch.take() == []
    finally:
        ob_watch.detach()
        ov_watch.detach()
        observer_ctx.close()
        overlay_ctx.close()


def _opening(observer: Any, overlay: Any) -> None:
    """Before the table starts: the opening position, names, score, match length."""
    for page in (observer, overlay):
        page.wait_for_function("document.querySelectorAll('#board circle.checker').length > 0")
        checkers = page.locator("#board circle.checker")
        assert checkers.count() == 30
        assert page.locator("#board circle.checker.player0").count() == 15
        assert page.locator("#board .cube").count() == 1
        score = text(page, "#score")
        assert "ann" in score and "bob" in score and "3-point match" in score
        # the source has not produced a frame: that is said, in words
        assert page.locator("#source-status").is_visible()
    assert overlay.locator("#flag-banner").is_hidden()
    assert [text(overlay, f'#score .ov-row[data-player="{p}"] .ov-points') for p in (0, 1)] == [
        "0",
        "0",
    ]
    assert text(overlay, '#score .ov-row[data-player="0"] .ov-pips') == "167"
    assert f"0 {DASH} 0" in text(observer, "#score")
    assert "No plays yet" in text(observer, "#moves")
    assert "No open flag" in text(observer, "#flags")
    assert observer.locator("#video").get_attribute("src") is None  # no frame yet: no 404
    for selector in ("#token", "#calibration", "#events", "#match-form"):
        assert observer.locator(selector).count() == 1
    assert observer.eval_on_selector("#match-form", "f => f.player0.value") == "ann"
    assert overlay.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"


def _flag_arrives(server: Server, observer: Any, overlay: Any) -> None:
    """The illegal play and its flag reach both pages over the WebSocket."""
    try:
        overlay.locator("#flag-banner").wait_for(state="visible", timeout=30_000)
    except Exception as exc:  # say what the table did, not only what the page lacks
        state = server.table.state()
        kinds = [e["type"] for e in server.table.events_since(0)]
        raise AssertionError(
            f"no flag on the overlay; the table's events: {kinds}; source "
            f"{state['source']}; loop {state['loop']}"
        ) from exc
    banner = text(overlay, "#flag-banner")
    assert "ILLEGAL PLAY" in banner and "bob" in banner and "not a legal play" in banner
    assert "ILLEGAL" in text(overlay, "#last-play")
    observer.locator("#flags button.suggestion").first.wait_for(timeout=10_000)
    buttons = observer.locator("#flags button")
    labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
    assert labels[:2] == ["Accept: the play stands", "Dismiss (misreading)"]
    assert len(labels) >= 3  # and one button per suggestion
    illegal = observer.locator("#moves li.illegal")
    assert illegal.count() == 1 and "ILLEGAL" in illegal.inner_text()
    assert "FLAG" in text(observer, "#events")


def _source_ended_and_video(observer: Any, overlay: Any) -> None:
    for page in (observer, overlay):
        page.wait_for_function(
            "document.querySelector('#source-status').className.includes('status-ended')"
        )
        assert page.locator("#source-status").is_visible()
    assert "Video ended" in text(observer, "#source-status")
    assert observer.locator("#video").get_attribute("src") == "/api/tables/main/video.mjpg"
    observer.wait_for_function("document.querySelector('#video').naturalWidth > 0")
    # calibration: the still with four handles at the clip's corners
    observer.wait_for_function(
        "document.querySelectorAll('#calibration .calib-handle').length == 4"
    )
    assert "Corners from clip" in text(observer, "#calib-note")


def _screenshots(observer: Any, overlay: Any) -> None:
    observer.wait_for_function("document.querySelector('#calib-frame').naturalWidth > 0")
    observer.screenshot(path=str(REPO / "docs" / "observer.png"), full_page=True)
    box = overlay.locator("#stack").bounding_box()
    pad = 12  # keep the panels' shadows
    overlay.screenshot(
        path=str(REPO / "docs" / "overlay.png"),
        omit_background=True,
        clip={
            "x": box["x"] - pad,
            "y": box["y"] - pad,
            "width": box["width"] + 2 * pad,
            "height": box["height"] + 2 * pad,
        },
    )


def _action_without_token(observer: Any) -> None:
    """An action without the token: the page says why it was refused."""
    observer.evaluate("localStorage.clear()")
    observer.fill("#token", "")
    observer.locator("#flags button.dismiss").click()
    status = observer.locator("#action-status")
    status.wait_for(state="visible")
    assert "token" in status.inner_text()
    assert "Not allowed" in status.inner_text()


def _correct_the_flag(observer: Any, overlay: Any) -> None:
    """A suggestion clicked on the observer page clears the banner on the overlay."""
    observer.fill("#token", TOKEN)
    assert observer.evaluate("localStorage.getItem('gammoneye.token')") == TOKEN
    overlay.evaluate(
        """() => {
          const banner = document.querySelector('#flag-banner');
          window.__clearedAt = null;
          new MutationObserver(() => {
            if (banner.hidden && window.__clearedAt === null) window.__clearedAt = Date.now();
          }).observe(banner, {attributes: true});
        }"""
    )
    first = observer.locator("#flags button.suggestion").first
    play = first.inner_text().lstrip("★ ")
    clicked_at = observer.evaluate(
        "() => { const t = Date.now(); document.querySelector('#flags button.suggestion').click();"
        " return t; }"
    )
    overlay.wait_for_function("window.__clearedAt !== null", timeout=10_000)
    latency_ms = overlay.evaluate("window.__clearedAt") - clicked_at
    # the click's POST, the table's event, the WebSocket and the redraw, all on one
    # loaded machine; the overlay itself redraws in the same task as the message
    print(f"the overlay cleared the flag {latency_ms} ms after the click")  # seen with -s
    assert latency_ms < 1000, f"the overlay took {latency_ms} ms to clear the flag"
    observer.wait_for_function(
        "document.querySelector('#flags').innerText.includes('No open flag')"
    )
    # the flag's end comes by the WebSocket, the action's answer by its POST: either
    # may be first on a loaded machine
    observer.wait_for_function(
        "document.querySelector('#action-status').innerText.includes('done')", timeout=5_000
    )
    overlay.wait_for_function(
        f"document.querySelector('#last-play').innerText.includes({json.dumps(play)})"
    )
    assert "ILLEGAL" not in text(overlay, "#last-play")
    # the illegal play stays in the record, marked; the correction is the newest play
    newest = observer.locator("#moves li").first
    assert play in newest.inner_text() and "illegal" not in (newest.get_attribute("class") or "")
    assert observer.locator("#moves li.illegal").count() == 1


def _calibration_drag(observer: Any) -> None:
    """A corner dragged with the mouse moves; saving it on a clip-labelled table is
    refused (409) and the page says why."""
    handle = observer.locator('#calibration .calib-handle[data-corner="2"] .dot')
    handle.scroll_into_view_if_needed()
    outline = observer.locator("#calibration .calib-outline")
    before = outline.get_attribute("points")
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    observer.mouse.move(x, y)
    observer.mouse.down()
    observer.mouse.move(x - 20, y + 10, steps=4)
    observer.mouse.up()
    after = outline.get_attribute("points")
    assert after != before
    moved = [tuple(map(float, p.split(","))) for p in after.split()]
    was = [tuple(map(float, p.split(","))) for p in before.split()]
    assert moved[0] == was[0] and moved[2][0] < was[2][0] and moved[2][1] > was[2][1]
    observer.click("#calib-save")
    observer.wait_for_function(
        "document.querySelector('#action-status').innerText.includes('Save corners')"
    )
    assert "Not now" in text(observer, "#action-status")
    assert "clip" in text(observer, "#action-status")


def _resignation(observer: Any, overlay: Any) -> None:
    """ann resigns a single game and bob accepts: 0-1 on both pages. The resignation is
    offered while the observer page's WebSocket is down: the page says so, and fills
    the gap when it is back."""
    observer.evaluate("window.gammoneye.socket.stop()")
    status = observer.locator("#source-status")
    observer.wait_for_function(
        "document.querySelector('#source-status').className.includes('status-disconnected')"
    )
    assert status.is_visible() and "lost" in status.inner_text()
    observer.select_option("#resign-player", "0")
    observer.select_option("#resign-level", "1")
    observer.click("#resign")
    observer.wait_for_function(
        "document.querySelector('#action-status').innerText.includes('done')"
    )
    assert "offers to resign" not in text(observer, "#events")
    overlay.wait_for_function("document.querySelector('#score').innerText.includes('resignation')")

    observer.evaluate("window.gammoneye.socket.start()")
    observer.wait_for_function(
        "document.querySelector('#events').innerText.includes('offers to resign')"
    )
    assert text(observer, "#events").count("offers to resign") == 1
    assert "status-disconnected" not in (status.get_attribute("class") or "")
    observer.click("#answer-accept")
    overlay.wait_for_function(
        "document.querySelector('#score .ov-row[data-player=\"1\"] .ov-points').innerText === '1'"
    )
    assert text(overlay, '#score .ov-row[data-player="0"] .ov-points') == "0"
    observer.wait_for_function(f"document.querySelector('#score').innerText.includes('0 {DASH} 1')")
    assert "wins game 1" in text(observer, "#events")


def _new_match_names_are_text(observer: Any, overlay: Any) -> None:
    """A new match from the form; a name that looks like HTML stays text."""
    name = '<img src="x" onerror="window.__pwned=1">ann'
    observer.fill("#match-form input[name=player0]", name)
    observer.fill("#match-form input[name=match_length]", "0")
    observer.click("#match-form button[type=submit]")
    for page in (observer, overlay):
        page.wait_for_function(
            f"document.querySelector('#score').innerText.includes({json.dumps(name)})"
        )
        assert page.locator("#score img").count() == 0
        assert page.evaluate("window.__pwned") is None
        assert "money game" in text(page, "#score")
    assert text(overlay, '#score .ov-row[data-player="1"] .ov-points') == "0"
    assert overlay.locator("#flag-banner").is_hidden()


def test_compact_and_scaled_overlay(server: Server, browser: Any) -> None:
    ctx, page, watch = open_page(
        browser,
        server.base + "/tables/main/overlay?compact=1&scale=1.5",
        viewport={"width": 1920, "height": 1080},
    )
    try:
        page.locator("#score .ov-row").first.wait_for()
        assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "24px"
        assert page.locator("#board-panel").is_hidden()
        assert page.locator("#score").is_visible()
        assert page.locator("#score .ov-row").count() == 2
        width = page.evaluate("document.querySelector('#score').getBoundingClientRect().width")
        assert width == pytest.approx(26 * 24, abs=2)  # 26rem at 24px
        assert watch.take() == []
    finally:
        watch.detach()
        ctx.close()


# A position no clip reaches: stacks over five, checkers on the bar and borne off, the
# cube owned by bob; the pip counts left out, so the page counts them itself.
# o = ann (player 0), x = bob:
#   13 14 15 16 17 18 | 19 20 21 22 23 24
#   o1          x2    | x6    x1
#   x2          o2    | o7 o3          x1    bar: o1 x2   off: o1 x1
#   12 11 10  9  8  7 |  6  5  4  3  2  1
CRAFTED: dict[str, Any] = {
    "table": "main",
    "source": {
        "spec": "0",
        "status": "stalled",
        "message": "no frame for 3 s",
        "fps": 0.0,
        "frames": 0,
        "since": 0.0,
    },
    "match": {
        "players": ["ann", "bob"],
        "match_length": 5,
        "profile": "wbf",
        "score": [4, 3],
        "game": 6,
        "crawford": False,
        "phase": "move",
        "on_roll": 0,
        "winner": None,
        "bottom_player": 0,
    },
    "board": {
        "points": [-1, 0, 0, 0, 3, 7, 0, 2, 0, 0, 0, -2, 1, 0, 0, 0, -2, 0, -6, 0, -1, 0, 0, 0],
        "bar": [1, 2],
        "off": [1, 1],
    },
    "dice": [5, 5],
    "cube": {"value": 4, "owner": 1, "offered": None},
    "flag": {
        "type": "flag",
        "seq": 40,
        "flag_id": "g6-1",
        "kind": "invalid_roll",
        "player": 0,
        "message": "dice in the left half",
        "rule": "001 4.1(iv)(a)",
        "suggestions": [],
    },
    "moves": [
        {"seq": 30, "game": 6, "player": 1, "dice": [1, 3], "play": "8/5 6/5", "legal": True}
    ],
    "last_seq": 40,
    "reading": None,
}


@contextmanager
def _stand_in_socket(
    browser: Any, server: Server, page_name: str, viewport: dict[str, int]
) -> Iterator[tuple[Any, Any, Watch]]:
    """A table page (``overlay``, ``observer``) whose WebSocket is a stand-in the test
    speaks through: yields the page, the stand-in socket and the page's watch."""
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    if not hasattr(page, "route_web_socket"):
        ctx.close()
        pytest.skip("playwright before 1.48 cannot stand in for a WebSocket")
    watch = Watch(page)
    sockets: list[Any] = []
    page.route_web_socket("**/ws/tables/main", lambda ws: sockets.append(ws))
    try:
        page.goto(f"{server.base}/tables/main/{page_name}", wait_until="domcontentloaded")
        end = time.monotonic() + 10
        while not sockets:
            assert time.monotonic() < end, f"the {page_name} page did not open its WebSocket"
            page.wait_for_timeout(20)
        yield page, sockets[0], watch
    finally:
        watch.detach()
        ctx.close()


def test_overlay_draws_any_state(server: Server, browser: Any) -> None:
    """The overlay fed by a stand-in WebSocket: what it draws follows the state, and an
    event alone (no state after it) already changes the screen."""
    viewport = {"width": 1920, "height": 1080}
    with _stand_in_socket(browser, server, "overlay", viewport) as (page, ws, watch):
        page.wait_for_function("document.querySelector('#board') !== null")
        ws.send(json.dumps({"type": "state", "state": CRAFTED}))
        page.locator("#board circle.checker").first.wait_for()
        # at most five checkers drawn a point (the count on the fifth), four on the bar
        assert page.locator("#board circle.checker.player0").count() == 3 + 5 + 2 + 1 + 1
        assert page.locator("#board circle.checker.player1").count() == 1 + 2 + 2 + 5 + 1 + 2
        counts = page.locator("#board .checker-count").all_text_contents()
        assert sorted(counts) == ["6", "7"]
        assert page.locator("#board .off-checker").count() == 2
        assert page.locator('#board .cube.cube-owner1[data-value="4"]').count() == 1
        assert page.locator("#board .dice .die").count() == 2
        assert page.locator('#board .die[data-value="5"] ~ .pip').count() >= 5
        pips = [text(page, f'#score .ov-row[data-player="{p}"] .ov-pips') for p in (0, 1)]
        assert pips == ["111", "156"]
        assert "5-point match" in text(page, "#score")
        assert page.locator(".ov-crawford").count() == 0
        assert page.locator("#source-status").is_visible()
        assert "stalled" in text(page, "#source-status")
        assert "dice in the left half" in text(page, "#flag-banner")
        assert "31" in text(page, "#last-play")  # dice said high first

        cleared = {"type": "flag_cleared", "seq": 41, "flag_id": "g6-1", "how": "dismissed"}
        ws.send(json.dumps({"type": "event", "event": cleared}))
        page.locator("#flag-banner").wait_for(state="hidden")

        offered = json.loads(json.dumps(CRAFTED))
        offered["match"].update(phase="doubled", on_roll=1, crawford=False)
        offered["source"]["status"] = "live"
        offered.update(dice=None, flag=None, last_seq=42)
        offered["cube"] = {"value": 4, "owner": 1, "offered": 8}
        ws.send(json.dumps({"type": "state", "state": offered}))
        page.locator('#board .cube.cube-offered[data-value="8"]').wait_for()
        assert "bob doubles to 8" in text(page, "#score")
        assert page.locator("#source-status").is_hidden()

        crawford = json.loads(json.dumps(offered))
        crawford["match"].update(phase="start", on_roll=None, crawford=True, score=[4, 2])
        crawford.update(dice=[2, 6], last_seq=50)
        crawford["cube"] = {"value": 1, "owner": None, "offered": None}
        ws.send(json.dumps({"type": "state", "state": crawford}))
        page.locator(".ov-crawford").wait_for()
        assert text(page, ".ov-crawford") == "CRAWFORD"
        assert page.locator("#board .cube.cube-centre").text_content() == "64"
        assert page.locator("#board .dice .die").count() == 2  # one each: the opening roll
        assert watch.take() == []


def test_the_observer_hears_of_dice_read_unsurely_and_the_overlay_shows_nothing(
    server: Server, browser: Any
) -> None:
    """A state whose camera reads the dice unsurely (``camera.notice``), the source
    live: the observer page says so in its status banner, the livestream overlay keeps
    it off the air; once the notice is gone the banner goes too."""
    unsure = json.loads(json.dumps(CRAFTED))
    unsure["source"].update(status="live", message=None)
    unsure["camera"] = {"dice_read_p": 0.72, "notice": "the dice are read unsurely (mean 0.72)"}
    sure = json.loads(json.dumps(unsure))
    sure["camera"] = {"dice_read_p": 0.97, "notice": None}
    viewport = {"width": 1400, "height": 1000}
    for path, shown in (("observer", True), ("overlay", False)):
        with _stand_in_socket(browser, server, path, viewport) as (page, ws, watch):
            ws.send(json.dumps({"type": "state", "state": unsure}))
            page.locator("#board circle.checker").first.wait_for()
            status = page.locator("#source-status")
            if shown:
                status.wait_for()
                said = text(page, "#source-status")
                assert "Camera: the dice are read unsurely (mean 0.72)" in said
                ws.send(json.dumps({"type": "state", "state": sure}))
                status.wait_for(state="hidden")
            else:
                page.wait_for_timeout(300)
                assert status.is_hidden()
            assert watch.take() == []


def test_video_falls_back_to_single_frames(server: Server, browser: Any) -> None:
    """When the MJPEG stream fails, the observer page shows frame.jpg instead."""
    server.start_table()
    server.wait_until_ended()
    ctx = browser.new_context()
    page = ctx.new_page()
    watch = Watch(page)
    page.route("**/video.mjpg*", lambda route: route.fulfill(status=503, body="no stream"))
    try:
        page.goto(server.base + "/tables/main/observer", wait_until="domcontentloaded")
        page.wait_for_function(
            "document.querySelector('#video').src.includes('/frame.jpg?overlay=1')"
        )
        page.wait_for_function("document.querySelector('#video').naturalWidth > 0")
        problems = watch.take()
        assert problems and all("503" in p and "video.mjpg" in p for p in problems), problems
    finally:
        watch.detach()
        ctx.close()
