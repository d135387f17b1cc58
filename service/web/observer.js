// GammonEye observer page: live view, board, flags with one-click actions, moves,
// events, calibration and match set-up.
// SPDX-License-Identifier: AGPL-3.0-or-later

import {
  TableSocket, api, cameraProblem, diceText, applyEvent, describeEvent, drawBoard, el, initialToken,
  matchLengthText, phaseText, pipCounts, playerName, saveToken, sourceProblem, tableApi, tableIdFromPath,
} from "/static/common.js";

const $ = (id) => document.getElementById(id);
const tableId = tableIdFromPath();

let state = null;
let connected = false;
let everConnected = false;
const feed = []; // events for the feed, oldest first
const FEED_MAX = 200;

// ---------------------------------------------------------------------------
// token and action results

const tokenInput = $("token");
tokenInput.value = initialToken();
tokenInput.addEventListener("input", () => saveToken(tokenInput.value.trim()));
$("token-form").addEventListener("submit", (e) => e.preventDefault());

let statusTimer = null;
function showActionStatus(text, ok) {
  const box = $("action-status");
  box.textContent = text;
  box.className = `action-status ${ok ? "ok" : "bad"}`;
  box.hidden = false;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => { box.hidden = true; }, ok ? 4000 : 12000);
}

/** POST an action; report the outcome in words. Returns the api() result. */
async function act(path, body, what, button = null) {
  if (button) button.disabled = true;
  try {
    const result = await api("POST", tableApi(tableId, path), { body, token: tokenInput.value.trim() });
    if (result.ok) {
      const events = result.data?.events || [];
      const said = events.map((ev) => describeEvent(ev, state)).join("; ");
      showActionStatus(`${what}: done${said ? ` (${said})` : ""}`, true);
    } else {
      showActionStatus(`${what}: ${result.message}`, false);
      if (result.status === 401 || result.status === 403) tokenInput.focus();
    }
    return result;
  } finally {
    if (button) button.disabled = false;
  }
}

// ---------------------------------------------------------------------------
// rendering

function renderSourceStatus() {
  const box = $("source-status");
  const problem = sourceProblem(state, connected, everConnected) || cameraProblem(state);
  if (!problem) {
    box.hidden = true;
    box.textContent = "";
    box.className = "source-status";
    return;
  }
  box.hidden = false;
  box.className = `source-status status-${problem.kind}`;
  box.textContent = problem.text;
}

function renderScore() {
  const m = state.match || {};
  const score = m.score || [0, 0];
  const line = $("score");
  const pips = pipCounts(state.board);
  const name = (p) => el("span", { class: `name player${p}${m.on_roll === p ? " on-roll" : ""}`, text: playerName(state, p) });
  const parts = [
    name(0),
    el("span", { class: "points", text: `${score[0]} – ${score[1]}` }),
    name(1),
    el("span", { class: "sep", text: matchLengthText(m.match_length) }),
  ];
  if (m.game) parts.push(el("span", { class: "sep", text: `game ${m.game}` }));
  if (m.crawford) parts.push(el("span", { class: "crawford", text: "CRAWFORD" }));
  if (m.profile) parts.push(el("span", { class: "sep muted", text: `${m.profile} rules` }));
  line.replaceChildren(...parts);
  $("pips0").textContent = `${playerName(state, 0)}: ${pips[0] ?? "?"} pips`;
  $("pips1").textContent = `${playerName(state, 1)}: ${pips[1] ?? "?"} pips`;
  $("phase").textContent = phaseText(state);
  document.title = `GammonEye ${tableId}: ${playerName(state, 0)} ${score[0]}-${score[1]} ${playerName(state, 1)}`;
}

let shownFlag = undefined;
function renderFlag() {
  const key = JSON.stringify(state.flag ?? null);
  if (key === shownFlag) return;
  shownFlag = key;
  const body = $("flag-body");
  const panel = $("flags");
  const flag = state.flag;
  if (!flag) {
    panel.classList.remove("open");
    body.replaceChildren(el("p", { class: "muted", text: "No open flag." }));
    return;
  }
  panel.classList.add("open");
  const kind = (flag.kind || "flag").replaceAll("_", " ");
  const who = flag.player === null || flag.player === undefined ? "" : ` · ${playerName(state, flag.player)}`;
  const children = [
    el("p", { class: "flag-head" }, el("b", { text: kind.toUpperCase() }), `${who} · ${flag.flag_id ?? ""}`),
    el("p", { class: "flag-message", text: flag.message || "" }),
  ];
  if (flag.rule) children.push(el("p", { class: "muted", text: `rule ${flag.rule}` }));
  const buttons = el("div", { class: "row flag-actions" });
  if (flag.kind === "illegal_play") {
    buttons.append(el("button", {
      type: "button", class: "accept", "data-action": "accept", text: "Accept: the play stands",
      onclick: (e) => act("/actions/accept", undefined, "Accept", e.currentTarget),
    }));
  }
  buttons.append(el("button", {
    type: "button", class: "dismiss", "data-action": "dismiss", text: "Dismiss (misreading)",
    onclick: (e) => act("/actions/dismiss", flag.flag_id ? { flag_id: flag.flag_id } : {}, "Dismiss", e.currentTarget),
  }));
  children.push(buttons);
  const suggestions = flag.suggestions || [];
  if (suggestions.length) {
    const list = el("div", { class: "row suggestions" }, el("span", { class: "muted", text: "It was really:" }));
    suggestions.forEach((s, i) => {
      list.append(el("button", {
        type: "button", class: "suggestion", "data-action": "correct", "data-after": s.after,
        text: `${i === 0 ? "★ " : ""}${s.play || "no play"}`,
        onclick: (e) => act("/actions/correct", { after: s.after }, `Correct to ${s.play}`, e.currentTarget),
      }));
    });
    children.push(list);
  }
  body.replaceChildren(...children);
}

let shownMovesKey = "";
function renderMoves() {
  const moves = state.moves || [];
  const last = moves[moves.length - 1];
  const key = `${moves.length}:${last ? `${last.seq}:${last.legal}` : ""}:${(state.match?.players || []).join("|")}`;
  if (key === shownMovesKey) return;
  shownMovesKey = key;
  const list = $("moves");
  const items = [];
  for (let i = moves.length - 1; i >= 0; i--) {
    const mv = moves[i];
    const dice = diceText(mv.dice, "");
    const li = el("li", { class: mv.legal === false ? "illegal" : "", value: i + 1, "data-seq": mv.seq },
      el("span", { class: "game muted", text: mv.game ? `G${mv.game}` : "" }),
      el("span", { class: `who player${mv.player}`, text: playerName(state, mv.player) }),
      el("span", { class: "dice", text: dice }),
      el("span", { class: "play", text: mv.play || "(no play)" }));
    if (mv.legal === false) li.append(el("span", { class: "tag-illegal", text: "ILLEGAL" }));
    items.push(li);
  }
  if (!items.length) items.push(el("li", { class: "muted empty", text: "No plays yet." }));
  list.replaceChildren(...items);
}

function renderFeed() {
  const list = $("events");
  const items = [];
  for (let i = feed.length - 1; i >= 0; i--) {
    const ev = feed[i];
    items.push(el("li", { class: `ev ev-${ev.type}`, "data-seq": ev.seq },
      el("span", { class: "seq muted", text: `#${ev.seq}` }),
      el("span", { text: describeEvent(ev, state) })));
  }
  list.replaceChildren(...items);
}

function addToFeed(ev) {
  if (ev.type === "match_start") feed.length = 0;
  if (feed.some((f) => f.seq === ev.seq && f.type === ev.type)) return;
  feed.push(ev);
  feed.sort((a, b) => a.seq - b.seq);
  if (feed.length > FEED_MAX) feed.splice(0, feed.length - FEED_MAX);
}

let shownPlayers = "";
function renderPlayerControls() {
  const players = state.match?.players || ["player 0", "player 1"];
  const key = players.join("|");
  if (key === shownPlayers) return;
  shownPlayers = key;
  const select = $("resign-player");
  const chosen = select.value;
  select.replaceChildren(...[0, 1].map((p) => el("option", { value: p, text: playerName(state, p) })));
  if (chosen) select.value = chosen;
}

function render() {
  if (!state) {
    renderSourceStatus();
    return;
  }
  renderSourceStatus();
  renderScore();
  drawBoard($("board"), state);
  renderFlag();
  renderMoves();
  renderPlayerControls();
  renderFeed();
  $("resign").closest(".panel").classList.toggle("resign-open", ["resign", "resign_offered"].includes(state.match?.phase));
  maybeStartVideo();
  maybeLoadStill();
}

// ---------------------------------------------------------------------------
// video: the MJPEG stream, or frame.jpg polled when the stream fails

const video = $("video");
let videoMode = null; // null (not started), "stream", "poll"
let pollTimer = null;

function hasFrames() {
  return (state?.source?.frames ?? 0) > 0;
}

function maybeStartVideo() {
  if (videoMode !== null || !hasFrames()) return;
  videoMode = "stream";
  video.src = tableApi(tableId, "/video.mjpg");
}

function pollFrame() {
  clearTimeout(pollTimer);
  // no-store on the server: each new address is a new frame; the old picture stays
  // up until the new one has loaded
  video.src = `${tableApi(tableId, "/frame.jpg")}?overlay=1&t=${Date.now()}`;
}

function nextPoll(ms) {
  clearTimeout(pollTimer);
  pollTimer = setTimeout(pollFrame, ms);
}

video.addEventListener("load", () => {
  $("video-note").hidden = true;
  if (videoMode === "poll") nextPoll(state?.source?.status === "live" ? 300 : 2000);
});
video.addEventListener("error", () => {
  if (videoMode === "poll") {
    nextPoll(2000);
    return;
  }
  if (videoMode !== "stream") return;
  videoMode = "poll";
  const note = $("video-note");
  note.textContent = "The video stream failed; showing single frames.";
  note.hidden = false;
  pollFrame();
});

// ---------------------------------------------------------------------------
// calibration: a still with four draggable corners

const CORNER_NAMES = ["corner 1", "corner 2", "corner 3", "corner 4"];
const still = $("calib-frame");
const handles = $("calib-handles");
let corners = null; // [[x, y] x4] in the still's pixels
let calibration = null; // the last GET answer
let stillLoaded = false;
let stillRequested = false;

function maybeLoadStill() {
  if (stillRequested || !hasFrames()) return;
  stillRequested = true;
  reloadStill();
}

function reloadStill() {
  stillLoaded = false;
  // the bare picture: the reading drawn on it would hide the corners
  still.src = `${tableApi(tableId, "/frame.jpg")}?overlay=0&t=${Date.now()}`;
}

async function loadCalibration() {
  const result = await api("GET", tableApi(tableId, "/calibration"));
  if (!result.ok) {
    $("calib-note").textContent = `Calibration unavailable: ${result.message}`;
    return;
  }
  calibration = result.data;
  corners = null;
  setCornersFromCalibration();
}

function setCornersFromCalibration() {
  if (!stillLoaded) return;
  const w = still.naturalWidth;
  const h = still.naturalHeight;
  const c = calibration?.corners_px;
  if (Array.isArray(c) && c.length === 4) {
    // corners are in the camera image's pixels; the still may be another size
    const size = calibration.image_size;
    const sx = size ? w / size[0] : 1;
    const sy = size ? h / size[1] : 1;
    corners = c.map(([x, y]) => [x * sx, y * sy]);
    $("calib-note").textContent = `Corners from ${calibration.source || "the saved calibration"}.`;
  } else {
    const mx = w * 0.15;
    const my = h * 0.15;
    corners = [[mx, my], [w - mx, my], [w - mx, h - my], [mx, h - my]];
    $("calib-note").textContent = "No calibration yet: drag the corners into place, or find them automatically.";
  }
  drawHandles();
}

function svgNode(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function drawHandles() {
  const w = still.naturalWidth;
  const h = still.naturalHeight;
  handles.setAttribute("viewBox", `0 0 ${w} ${h}`);
  handles.setAttribute("preserveAspectRatio", "none");
  handles.replaceChildren();
  if (!corners) return;
  const r = Math.max(w, h) / 70;
  handles.append(svgNode("polygon", {
    points: corners.map(([x, y]) => `${x},${y}`).join(" "),
    class: "calib-outline", "stroke-width": r / 4,
  }));
  corners.forEach(([x, y], i) => {
    const g = svgNode("g", { class: "calib-handle", "data-corner": i, tabindex: 0, role: "slider", "aria-label": `${CORNER_NAMES[i]} corner` });
    g.append(svgNode("circle", { cx: x, cy: y, r: r * 2.2, class: "hit" }));
    g.append(svgNode("circle", { cx: x, cy: y, r, class: "dot", "stroke-width": r / 3 }));
    const label = svgNode("text", { x: x + r * 1.6, y: y - r * 1.6, "font-size": r * 2, class: "calib-label" });
    label.textContent = CORNER_NAMES[i];
    g.append(label);
    g.addEventListener("pointerdown", (e) => startDrag(e, i));
    g.addEventListener("keydown", (e) => nudge(e, i));
    handles.append(g);
  });
}

function toImagePx(e) {
  const m = handles.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  const w = still.naturalWidth;
  const h = still.naturalHeight;
  return [Math.min(Math.max(p.x, 0), w), Math.min(Math.max(p.y, 0), h)];
}

let dragging = null;
function startDrag(e, i) {
  e.preventDefault();
  dragging = { index: i, pointer: e.pointerId };
  handles.setPointerCapture(e.pointerId);
}

handles.addEventListener("pointermove", (e) => {
  if (!dragging || e.pointerId !== dragging.pointer) return;
  const p = toImagePx(e);
  if (!p) return;
  corners[dragging.index] = p;
  drawHandles();
});

function endDrag(e) {
  if (!dragging || e.pointerId !== dragging.pointer) return;
  if (handles.hasPointerCapture(e.pointerId)) handles.releasePointerCapture(e.pointerId);
  dragging = null;
  $("calib-note").textContent = "Corners moved: save them to use them.";
}
handles.addEventListener("pointerup", endDrag);
handles.addEventListener("pointercancel", endDrag);

function nudge(e, i) {
  const step = e.shiftKey ? 10 : 1;
  const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
  if (!d || !corners) return;
  e.preventDefault();
  corners[i] = [corners[i][0] + d[0], corners[i][1] + d[1]];
  drawHandles();
  handles.querySelector(`[data-corner="${i}"]`)?.focus();
}

still.addEventListener("load", () => {
  stillLoaded = true;
  if (corners) drawHandles();
  else setCornersFromCalibration();
});
still.addEventListener("error", () => {
  stillLoaded = false;
  $("calib-note").textContent = "No still frame yet.";
});

$("calib-reload").addEventListener("click", reloadStill);
$("calib-save").addEventListener("click", async (e) => {
  if (!corners || !stillLoaded) {
    showActionStatus("Save corners: no still frame to place them on yet", false);
    return;
  }
  // back to the camera image's pixels
  const size = calibration?.image_size;
  const sx = size ? size[0] / still.naturalWidth : 1;
  const sy = size ? size[1] / still.naturalHeight : 1;
  const corners_px = corners.map(([x, y]) => [Math.round(x * sx * 10) / 10, Math.round(y * sy * 10) / 10]);
  const result = await act("/calibration", { corners_px }, "Save corners", e.currentTarget);
  if (result.ok) await loadCalibration();
});
$("calib-auto").addEventListener("click", async (e) => {
  const result = await act("/calibration", { auto: true }, "Find the board automatically", e.currentTarget);
  if (result.ok) {
    reloadStill();
    await loadCalibration();
  }
});

// ---------------------------------------------------------------------------
// observer actions

$("undo").addEventListener("click", (e) => act("/actions/undo", undefined, "Undo", e.currentTarget));
$("resign").addEventListener("click", (e) => act("/actions/resign", {
  player: Number($("resign-player").value || 0),
  level: Number($("resign-level").value || 1),
}, "Resignation", e.currentTarget));
$("answer-accept").addEventListener("click", (e) => act("/actions/answer", { accept: true }, "Accept the resignation", e.currentTarget));
$("answer-reject").addEventListener("click", (e) => act("/actions/answer", { accept: false }, "Reject the resignation", e.currentTarget));

let formFilled = false;
function fillMatchForm() {
  if (formFilled || !state?.match) return;
  formFilled = true;
  const f = $("match-form");
  const m = state.match;
  f.player0.value = m.players?.[0] ?? "";
  f.player1.value = m.players?.[1] ?? "";
  f.match_length.value = m.match_length ?? 7;
  if (m.profile) f.profile.value = m.profile;
  f.bottom_player.value = String(m.bottom_player ?? 0);
}

$("match-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.currentTarget;
  const body = {
    players: [f.player0.value.trim(), f.player1.value.trim()],
    match_length: Number(f.match_length.value),
    profile: f.profile.value,
    bottom_player: Number(f.bottom_player.value),
  };
  await act("/match", body, "New match", f.querySelector("button[type=submit]"));
});

// ---------------------------------------------------------------------------
// start

async function loadRecentEvents(lastSeq) {
  const since = Math.max(0, (lastSeq ?? -1) - 99);
  const result = await api("GET", `${tableApi(tableId, "/events")}?since=${since}`);
  if (!result.ok || !Array.isArray(result.data)) return;
  for (const ev of result.data) addToFeed(ev);
  renderFeed();
}

function start() {
  if (!tableId) {
    document.body.prepend(el("p", { class: "source-status status-error", text: "No table id in this page's address." }));
    return;
  }
  $("table-id").textContent = tableId;
  $("link-mat").href = tableApi(tableId, "/match.mat");
  $("link-events").href = tableApi(tableId, "/events.jsonl");
  $("link-overlay").href = `/tables/${encodeURIComponent(tableId)}/overlay`;
  let first = true;
  const socket = new TableSocket(tableId, {
    onState: (s) => {
      const isFirst = first;
      first = false;
      state = s;
      fillMatchForm();
      render();
      if (isFirst) loadRecentEvents(s.last_seq);
    },
    onEvent: (ev) => {
      addToFeed(ev);
      if (state) {
        applyEvent(state, ev);
        render();
      }
    },
    onConnection: (ok) => {
      connected = ok;
      everConnected ||= ok;
      renderSourceStatus();
    },
  }).start();
  // for tests and the browser console: stop() and start() the stream by hand
  window.gammoneye = { socket };
  renderSourceStatus();
  loadCalibration();
}

start();
