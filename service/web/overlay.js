// GammonEye overlay (OBS browser source): score bug, board, flag banner.
// Everything is drawn from WebSocket messages the moment they arrive; nothing polls.
// ?compact=1: the score bug only. ?scale=1.5: everything 1.5 times as big.
// SPDX-License-Identifier: AGPL-3.0-or-later

import {
  TableSocket, applyEvent, diceText, cubeIcon, dieIcon, drawBoard, el, matchLengthText, phaseText,
  pipCounts, playerName, sourceProblem, tableIdFromPath,
} from "/static/common.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const compact = ["1", "true", "yes"].includes((params.get("compact") || "").toLowerCase());
const scale = Number.parseFloat(params.get("scale") || "1");
const tableId = tableIdFromPath();

// Everything is sized in rem, so the root font size scales the whole overlay.
if (Number.isFinite(scale) && scale > 0 && scale <= 10) {
  document.documentElement.style.fontSize = `${16 * scale}px`;
}
document.body.classList.toggle("compact", compact);

let state = null;
let connected = false;
let everConnected = false;

function renderSource() {
  const badge = $("source-status");
  const problem = sourceProblem(state, connected, everConnected);
  badge.hidden = !problem;
  badge.className = `ov-source${problem ? ` status-${problem.kind}` : ""}`;
  // the broadcast shows the short words; the details are for whoever hovers
  badge.textContent = problem ? problem.short : "";
  badge.title = problem ? problem.text : "";
}

function playerRow(p) {
  const m = state.match || {};
  const score = m.score || [0, 0];
  const pips = pipCounts(state.board);
  const onRoll = m.on_roll === p;
  const row = el("div", { class: `ov-row player${p}${onRoll ? " on-roll" : ""}`, "data-player": p },
    el("span", { class: `ov-chip player${p}` }),
    el("span", { class: "ov-name", text: playerName(state, p) }),
    el("span", { class: "ov-extras" }),
    el("span", { class: "ov-pips", text: pips[p] === null ? "" : `${pips[p]}` }),
    el("span", { class: "ov-points", text: `${score[p] ?? 0}` }));
  const extras = row.querySelector(".ov-extras");
  const dice = Array.isArray(state.dice) ? state.dice : [];
  if (dice.length && (onRoll || (m.phase === "opening" && dice.length === 2))) {
    const shown = m.phase === "opening" ? [dice[p]] : dice;
    for (const d of shown) extras.append(dieIcon(d, p));
  }
  const cube = state.cube;
  if (cube && !m.crawford && (cube.owner === p || (cube.offered && m.on_roll === 1 - p))) {
    const icon = cubeIcon(cube);
    if (cube.offered) icon.classList.add("offered");
    extras.append(icon);
  }
  return row;
}

function renderScore() {
  const m = state.match || {};
  const foot = el("div", { class: "ov-foot" },
    el("span", { class: "ov-length", text: matchLengthText(m.match_length) }));
  if (m.crawford) foot.append(el("span", { class: "ov-crawford", text: "CRAWFORD" }));
  const cube = state.cube;
  if (cube && !m.crawford && cube.owner == null && !cube.offered) {
    foot.append(el("span", { class: "ov-cube-centre" }, cubeIcon(cube)));
  }
  const phase = phaseText(state);
  if (phase) foot.append(el("span", { class: "ov-phase", text: phase }));
  foot.append(el("span", { class: "ov-pips-label", text: "pips" }));
  $("score").replaceChildren(playerRow(1), playerRow(0), foot);
}

function renderFlag() {
  const banner = $("flag-banner");
  const flag = state.flag;
  if (!flag) {
    banner.hidden = true;
    $("flag-kind").textContent = "";
    $("flag-text").textContent = "";
    return;
  }
  const kind = (flag.kind || "flag").replaceAll("_", " ").toUpperCase();
  const who = flag.player === null || flag.player === undefined ? "" : ` · ${playerName(state, flag.player)}`;
  $("flag-kind").textContent = `${kind}${who}`;
  $("flag-text").textContent = flag.message || "";
  banner.hidden = false;
}

function renderLastPlay() {
  const box = $("last-play");
  const moves = state.moves || [];
  const last = moves[moves.length - 1];
  if (!last) {
    box.replaceChildren();
    return;
  }
  const dice = diceText(last.dice, "");
  const parts = [
    el("span", { class: `ov-chip small player${last.player}` }),
    el("span", { class: "ov-last-who", text: `${playerName(state, last.player)} ${dice}` }),
    el("span", { class: "ov-last-play", text: last.play || "no play" }),
  ];
  if (last.legal === false) parts.push(el("span", { class: "ov-illegal", text: "ILLEGAL" }));
  box.replaceChildren(...parts);
}

function render() {
  renderSource();
  if (!state) return;
  renderScore();
  renderFlag();
  if (!compact) {
    drawBoard($("board"), state);
    renderLastPlay();
  }
}

function start() {
  if (!tableId) {
    $("source-status").hidden = false;
    $("source-status").textContent = "No table id in this page's address.";
    return;
  }
  const socket = new TableSocket(tableId, {
    onState: (s) => {
      state = s;
      render();
    },
    onEvent: (ev) => {
      if (!state) return;
      applyEvent(state, ev);
      render();
    },
    onConnection: (ok) => {
      connected = ok;
      everConnected ||= ok;
      renderSource();
    },
  }).start();
  // for tests and the browser console: stop() and start() the stream by hand
  window.gammoneye = { socket };
  render();
}

start();
