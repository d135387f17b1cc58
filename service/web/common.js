// GammonEye pages: what the observer and overlay pages share.
// SPDX-License-Identifier: AGPL-3.0-or-later
//
// - tableIdFromPath(): the table id from /tables/{id}/observer or /tables/{id}/overlay
// - TableSocket: the /ws/tables/{id} stream with automatic reconnect; on a reconnect it
//   asks for the events it missed ({"since": last_seq + 1})
// - applyEvent(): patches a TableState with one event so the screen changes at once,
//   before the server's next state message arrives
// - drawBoard(): the board diagram as inline SVG, from a TableState
// - api(): token-carrying fetch for the action endpoints
//
// Everything that comes from the server or the user goes into the DOM through
// textContent or setAttribute, never through innerHTML.

const SVG_NS = "http://www.w3.org/2000/svg";

export const PLAYER_COLOURS = [
  { fill: "#f3ead7", stroke: "#6b5a3e", text: "#2b2118", pip: "#2b2118" },
  { fill: "#b3261e", stroke: "#4a0d09", text: "#ffffff", pip: "#ffffff" },
];

// ---------------------------------------------------------------------------
// URLs and text

export function tableIdFromPath(pathname = location.pathname) {
  const parts = pathname.split("/").filter(Boolean);
  const at = parts.indexOf("tables");
  if (at < 0 || at + 1 >= parts.length) return null;
  return decodeURIComponent(parts[at + 1]);
}

export function tableApi(tableId, rest = "") {
  return `/api/tables/${encodeURIComponent(tableId)}${rest}`;
}

export function playerName(state, player) {
  const players = state?.match?.players;
  if (player === null || player === undefined) return "nobody";
  return (players && players[player]) || `player ${player}`;
}

export function matchLengthText(length) {
  if (!length) return "money game";
  return `${length}-point match`;
}

export const LEVEL_NAMES = { 1: "single game", 2: "gammon", 3: "backgammon" };

/** The pip counts [player 0, player 1]: the state's own, else counted from the board. */
export function pipCounts(board) {
  if (!board) return [null, null];
  if (Array.isArray(board.pips) && board.pips.length === 2) return board.pips;
  const points = board.points || [];
  const bar = board.bar || [0, 0];
  let p0 = 25 * (bar[0] || 0);
  let p1 = 25 * (bar[1] || 0);
  points.forEach((n, i) => {
    // index i is player 0's point i+1 and player 1's point 24-i
    if (n > 0) p0 += n * (i + 1);
    else if (n < 0) p1 += -n * (24 - i);
  });
  return [p0, p1];
}

/** Dice the way players say them, high first ("6-4"); `sep` between. */
export function diceText(dice, sep = "-") {
  if (!Array.isArray(dice) || dice.length === 0) return "";
  return [...dice].sort((a, b) => b - a).join(sep);
}

/** One line of plain text about an event, for feeds and the move list. */
export function describeEvent(ev, state) {
  const who = (p) => playerName(state, p);
  const dice = (d) => diceText(d) || "?";
  switch (ev.type) {
    case "match_start":
      return `New match: ${(ev.players || []).join(" v ")}, ${matchLengthText(ev.match_length)} (${ev.profile})`;
    case "game_start":
      return `Game ${ev.game} starts, score ${(ev.score || []).join("-")}${ev.crawford ? " (Crawford game)" : ""}`;
    case "opening_roll":
      return `Opening roll: ${who(0)} ${ev.dice?.[0] ?? "?"}, ${who(1)} ${ev.dice?.[1] ?? "?"}`;
    case "roll":
      return `${who(ev.player)} rolls ${dice(ev.dice)}`;
    case "roll_invalid":
      return `${who(ev.player)}'s roll ${ev.dice ? dice(ev.dice) + " " : ""}is invalid: ${(ev.reasons || []).join(", ").replaceAll("_", " ")}`;
    case "move":
      return `${who(ev.player)} ${dice(ev.dice)}: ${ev.play || "no play"}${ev.legal === false ? "  (ILLEGAL)" : ""}`;
    case "double":
      return `${who(ev.player)} doubles to ${ev.value}${ev.requested_value ? ` (turned to ${ev.requested_value})` : ""}`;
    case "take":
      return `${who(ev.player)} takes, cube at ${ev.value}`;
    case "drop":
      return `${who(ev.player)} drops`;
    case "resign":
      return `${who(ev.player)} offers to resign a ${LEVEL_NAMES[ev.level] || "game"}`;
    case "resign_accept":
      return `${who(ev.player)} accepts the resignation`;
    case "resign_reject":
      return `${who(ev.player)} refuses the resignation`;
    case "game_end":
      return `${who(ev.winner)} wins game ${ev.game}: ${ev.points} point${ev.points === 1 ? "" : "s"} (${ev.reason})`;
    case "match_end":
      return `${who(ev.winner)} wins the match ${(ev.score || []).join("-")}`;
    case "flag":
      return `FLAG ${ev.flag_id}: ${ev.message}${ev.rule ? ` [${ev.rule}]` : ""}`;
    case "flag_cleared":
      return `Flag ${ev.flag_id} ${ev.how}`;
    case "correction":
      return `Correction: ${JSON.stringify(ev.data)}${ev.note ? ` (${ev.note})` : ""}`;
    case "accepted_illegal":
      return `${who(ev.player)}'s illegal play ${ev.play} stands`;
    default:
      return `${ev.type}`;
  }
}

/** What the match waits for, in words ("bob to play 6-3"). */
export function phaseText(state) {
  const m = state?.match;
  if (!m) return "";
  const who = playerName(state, m.on_roll);
  const dice = diceText(state.dice);
  // docs/service.md names some phases differently from the engine's Phase values;
  // both spellings are understood.
  switch (m.phase) {
    case "start":
      return dice ? "opening roll" : "waiting for the opening roll";
    case "opening":
      return "opening roll";
    case "roll":
      return `${who} to roll or double`;
    case "move":
    case "play":
      return dice ? `${who} to play ${dice}` : `${who} to play`;
    case "doubled":
    case "cube":
      return state.cube?.offered
        ? `${who} doubles to ${state.cube.offered}: take or drop?`
        : "cube action";
    case "resign_offered":
    case "resign":
      return "resignation offered: accept or reject?";
    case "game_over":
      return "game over";
    case "match_over":
      return m.winner !== null && m.winner !== undefined ? `${playerName(state, m.winner)} wins the match` : "match over";
    default:
      return m.phase || "";
  }
}

export const SOURCE_TEXT = {
  starting: "Camera starting",
  stalled: "Camera stalled: no new frames",
  reconnecting: "Camera reconnecting",
  ended: "Video ended",
  error: "Camera error",
};

/**
 * What the source-status banner says, or null when all is well.
 * `connected` is the page's own WebSocket; `everConnected` false before its first
 * connection.
 */
export function sourceProblem(state, connected, everConnected = true) {
  if (!connected) {
    if (!everConnected) return { kind: "connecting", short: "Connecting", text: "Connecting to the GammonEye server…" };
    return { kind: "disconnected", short: "Server connection lost", text: "Connection to the GammonEye server lost, reconnecting…" };
  }
  const src = state?.source;
  if (!src || src.status === "live") return null;
  const head = SOURCE_TEXT[src.status] || `Camera ${src.status}`;
  return { kind: src.status, short: head, text: src.message ? `${head}: ${src.message}` : head };
}

/** What the observer should hear of the camera while the source is well: the dice
 * read unsurely (the referee will misread rolls), else null. */
export function cameraProblem(state) {
  const notice = state?.camera?.notice;
  if (!notice) return null;
  return { kind: "dice", short: "Dice read unsurely", text: `Camera: ${notice}` };
}

// ---------------------------------------------------------------------------
// DOM helpers

/** An element with attributes and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (text !== null) node.textContent = String(text);
  return node;
}

// ---------------------------------------------------------------------------
// The board diagram
//
// Player 0 sits at the bottom with his home board at the bottom right: his point 1
// (index 0) is the bottom-right point, point 12 the bottom-left, point 13 the
// top-left, point 24 the top-right. Player 1 bears off into the top tray.

const G = {
  width: 760,
  height: 560,
  frame: 20,
  pointW: 50,
  leftX: 20, // left half: 20..320
  barX: 320, // bar: 320..370
  barW: 50,
  rightX: 370, // right half: 370..670
  trayX: 685, // trays: 685..745
  trayW: 60,
  top: 20,
  bottom: 540,
  pointH: 210,
  r: 20,
};

function columnX(column) {
  // column 0..11 from the left; returns the point's left edge
  return column < 6 ? G.leftX + column * G.pointW : G.rightX + (column - 6) * G.pointW;
}

function pointGeometry(index) {
  // index 0..23 = player 0's point index+1
  const isBottom = index < 12;
  const column = isBottom ? 11 - index : index - 12;
  return { x: columnX(column), isBottom };
}

function drawChecker(group, cx, cy, player, label = null) {
  const c = PLAYER_COLOURS[player];
  group.append(
    svg("circle", {
      cx, cy, r: G.r - 1, fill: c.fill, stroke: c.stroke, "stroke-width": 2,
      class: `checker player${player}`, "data-player": player,
    }),
  );
  group.append(svg("circle", { cx, cy, r: G.r * 0.62, fill: "none", stroke: c.stroke, "stroke-opacity": 0.35, "stroke-width": 1.5 }));
  if (label !== null) {
    group.append(
      svg("text", {
        x: cx, y: cy + 7, "text-anchor": "middle", "font-size": 20, "font-weight": 700,
        "font-family": "system-ui, sans-serif", fill: c.text, class: "checker-count",
      }, label),
    );
  }
}

const PIP_SPOTS = {
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};

/** A die with pips at (x, y), size s, in player's colours; appended to group. */
export function drawDie(group, x, y, s, value, player) {
  const c = PLAYER_COLOURS[player ?? 0];
  group.append(
    svg("rect", {
      x, y, width: s, height: s, rx: s * 0.18, fill: c.fill, stroke: c.stroke,
      "stroke-width": 2, class: "die", "data-value": value ?? "",
    }),
  );
  const spots = PIP_SPOTS[value];
  if (!spots) {
    group.append(svg("text", { x: x + s / 2, y: y + s * 0.68, "text-anchor": "middle", "font-size": s * 0.5, fill: c.pip, "font-family": "system-ui, sans-serif" }, "?"));
    return;
  }
  for (const [fx, fy] of spots) {
    group.append(svg("circle", { cx: x + fx * s, cy: y + fy * s, r: s * 0.09, fill: c.pip, class: "pip" }));
  }
}

/** A small standalone SVG of one die, for score bars. */
export function dieIcon(value, player, size = 28) {
  const root = svg("svg", { viewBox: "0 0 44 44", width: size, height: size, class: "die-icon", role: "img", "aria-label": `die ${value}` });
  drawDie(root, 2, 2, 40, value, player);
  return root;
}

/** A small standalone SVG of the cube, for score bars. */
export function cubeIcon(cube, size = 28) {
  const root = svg("svg", { viewBox: "0 0 44 44", width: size, height: size, class: "cube-icon", role: "img" });
  const value = cube?.offered || cube?.value || 1;
  const text = cube?.owner == null && !cube?.offered && value === 1 ? 64 : value;
  root.setAttribute("aria-label", `cube ${text}`);
  root.append(svg("rect", { x: 2, y: 2, width: 40, height: 40, rx: 6, fill: "#fafafa", stroke: "#222", "stroke-width": 2 }));
  root.append(svg("text", { x: 22, y: 30, "text-anchor": "middle", "font-size": text >= 10 ? 19 : 24, "font-weight": 700, "font-family": "system-ui, sans-serif", fill: "#111" }, text));
  return root;
}

function drawCube(group, cube, matchPhase, onRoll) {
  if (!cube) return;
  const size = 42;
  const offered = cube.offered ?? null;
  const value = offered || cube.value || 1;
  const label = cube.owner == null && !offered && value === 1 ? 64 : value;
  let x = G.barX + (G.barW - size) / 2;
  let y;
  let where;
  if (offered) {
    // The doubler turns the cube and pushes it to the other side: draw it in the
    // middle of the receiver's half of the board, highlighted.
    const doubler = onRoll ?? 0;
    const receiver = 1 - doubler;
    x = receiver === 0 ? G.rightX + 150 - size / 2 : G.leftX + 150 - size / 2;
    y = (G.top + G.bottom) / 2 - size / 2;
    where = "offered";
  } else if (cube.owner === 0) {
    y = G.bottom - size - 4;
    where = "owner0";
  } else if (cube.owner === 1) {
    y = G.top + 4;
    where = "owner1";
  } else {
    y = (G.top + G.bottom) / 2 - size / 2;
    where = "centre";
  }
  const g = svg("g", { class: `cube cube-${where}`, "data-value": value });
  if (offered) {
    g.append(svg("rect", { x: x - 5, y: y - 5, width: size + 10, height: size + 10, rx: 10, fill: "none", stroke: "#ffd34d", "stroke-width": 4 }));
  }
  g.append(svg("rect", { x, y, width: size, height: size, rx: 7, fill: "#fafafa", stroke: "#1b1b1b", "stroke-width": 2 }));
  g.append(svg("text", { x: x + size / 2, y: y + size * 0.7, "text-anchor": "middle", "font-size": label >= 10 ? 19 : 24, "font-weight": 700, "font-family": "system-ui, sans-serif", fill: "#111" }, label));
  if (offered) {
    g.append(svg("text", { x: x + size / 2, y: y + size + 22, "text-anchor": "middle", "font-size": 15, "font-weight": 700, "font-family": "system-ui, sans-serif", fill: "#ffd34d" }, "offered"));
  }
  group.append(g);
}

function drawDice(group, state) {
  const dice = state?.dice;
  if (!Array.isArray(dice) || dice.length === 0) return;
  const m = state.match || {};
  const s = 44;
  const y = (G.top + G.bottom) / 2 - s / 2;
  const halfCentre = (player) => (player === 0 ? G.rightX + 150 : G.leftX + 150);
  const g = svg("g", { class: "dice" });
  if (m.phase === "opening" || m.on_roll === null || m.on_roll === undefined) {
    // The opening roll: each player's die in his own right-hand half.
    dice.slice(0, 2).forEach((value, player) => {
      drawDie(g, halfCentre(player) - s / 2, y, s, value, player);
    });
  } else {
    const cx = halfCentre(m.on_roll);
    const gap = 12;
    const total = dice.length * s + (dice.length - 1) * gap;
    dice.forEach((value, i) => {
      drawDie(g, cx - total / 2 + i * (s + gap), y, s, value, m.on_roll);
    });
  }
  group.append(g);
}

/**
 * Draw the board of `state` into the <svg> element `root`, replacing what was there.
 * Adds classes: checker (one circle per checker drawn, at most five a point with the
 * count written on the fifth), die, cube.
 */
export function drawBoard(root, state) {
  root.replaceChildren();
  root.setAttribute("viewBox", `0 0 ${G.width} ${G.height}`);
  root.setAttribute("role", "img");
  const board = state?.board || { points: Array(24).fill(0), bar: [0, 0], off: [0, 0] };
  const points = board.points || Array(24).fill(0);
  const bar = board.bar || [0, 0];
  const off = board.off || [0, 0];
  root.setAttribute("aria-label", "backgammon board");

  // frame and felt
  root.append(svg("rect", { x: 0, y: 0, width: G.width, height: G.height, rx: 14, fill: "#5b3a1e", class: "frame" }));
  root.append(svg("rect", { x: G.leftX, y: G.top, width: 300, height: G.bottom - G.top, fill: "#1f5e3b" }));
  root.append(svg("rect", { x: G.rightX, y: G.top, width: 300, height: G.bottom - G.top, fill: "#1f5e3b" }));
  root.append(svg("rect", { x: G.barX, y: G.top - 8, width: G.barW, height: G.bottom - G.top + 16, fill: "#4a2f17", class: "bar" }));
  for (const [player, y] of [[1, G.top], [0, (G.top + G.bottom) / 2 + 10]]) {
    root.append(svg("rect", { x: G.trayX, y, width: G.trayW, height: (G.bottom - G.top) / 2 - 10, rx: 4, fill: "#3b2512", class: `tray tray${player}` }));
  }

  // points and their numbers (player 0's numbering)
  const pointsGroup = svg("g", { class: "points" });
  for (let i = 0; i < 24; i++) {
    const { x, isBottom } = pointGeometry(i);
    const base = isBottom ? G.bottom : G.top;
    const tip = isBottom ? G.bottom - G.pointH : G.top + G.pointH;
    const dark = i % 2 === 0;
    pointsGroup.append(
      svg("polygon", {
        points: `${x + 1},${base} ${x + G.pointW - 1},${base} ${x + G.pointW / 2},${tip}`,
        fill: dark ? "#c9a36a" : "#7d1f1a", class: "point", "data-point": i + 1,
      }),
    );
    pointsGroup.append(
      svg("text", {
        x: x + G.pointW / 2, y: isBottom ? G.bottom + 15 : G.top - 5, "text-anchor": "middle",
        "font-size": 12, "font-family": "system-ui, sans-serif", fill: "#e8d7bb", class: "point-number",
      }, i + 1),
    );
  }
  root.append(pointsGroup);

  // checkers on the points
  const checkers = svg("g", { class: "checkers" });
  points.forEach((n, i) => {
    if (!n) return;
    const player = n > 0 ? 0 : 1;
    const count = Math.abs(n);
    const { x, isBottom } = pointGeometry(i);
    const shown = Math.min(count, 5);
    for (let k = 0; k < shown; k++) {
      const cy = isBottom ? G.bottom - G.r - k * 2 * G.r : G.top + G.r + k * 2 * G.r;
      const label = count > 5 && k === shown - 1 ? count : null;
      drawChecker(checkers, x + G.pointW / 2, cy, player, label);
    }
  });

  // the bar: player 0's checkers above the middle (they enter at the top right),
  // player 1's below
  const mid = (G.top + G.bottom) / 2;
  [0, 1].forEach((player) => {
    const count = bar[player] || 0;
    const shown = Math.min(count, 4);
    for (let k = 0; k < shown; k++) {
      const offset = 50 + G.r + k * 2 * G.r;
      const cy = player === 0 ? mid - offset : mid + offset;
      const label = count > 4 && k === shown - 1 ? count : null;
      drawChecker(checkers, G.barX + G.barW / 2, cy, player, label);
    }
  });
  root.append(checkers);

  // borne off: thin slabs in each player's tray, and the count
  const trays = svg("g", { class: "off" });
  [0, 1].forEach((player) => {
    const count = off[player] || 0;
    const c = PLAYER_COLOURS[player];
    const slab = 14;
    for (let k = 0; k < count; k++) {
      const y = player === 0 ? G.bottom - 4 - (k + 1) * slab : G.top + 4 + k * slab;
      trays.append(svg("rect", { x: G.trayX + 6, y: y + 1, width: G.trayW - 12, height: slab - 2, rx: 3, fill: c.fill, stroke: c.stroke, "stroke-width": 1.5, class: `off-checker player${player}` }));
    }
    if (count > 0) {
      const y = player === 0 ? G.bottom - 8 - count * slab - 6 : G.top + 8 + count * slab + 16;
      trays.append(svg("text", { x: G.trayX + G.trayW / 2, y, "text-anchor": "middle", "font-size": 16, "font-weight": 700, "font-family": "system-ui, sans-serif", fill: "#f5e9d3", class: "off-count" }, count));
    }
  });
  root.append(trays);

  const m = state?.match || {};
  drawDice(root, state);
  drawCube(root, state?.cube, m.phase, m.on_roll);
  return root;
}

// ---------------------------------------------------------------------------
// State patching from events

/**
 * Apply what an event says at once to the state we show (the server's next state
 * message replaces it anyway). Returns the same object.
 */
export function applyEvent(state, ev) {
  if (!state || !ev) return state;
  if (typeof ev.seq === "number") state.last_seq = Math.max(state.last_seq ?? -1, ev.seq);
  switch (ev.type) {
    case "flag":
      state.flag = ev;
      break;
    case "flag_cleared":
      if (state.flag && state.flag.flag_id === ev.flag_id) state.flag = null;
      break;
    case "move":
      state.moves = state.moves || [];
      if (!state.moves.some((m) => m.seq === ev.seq)) {
        state.moves.push({ seq: ev.seq, game: state.match?.game, player: ev.player, dice: ev.dice, play: ev.play, legal: ev.legal });
      }
      break;
    case "roll":
      state.dice = ev.dice;
      break;
    default:
      break;
  }
  return state;
}

// ---------------------------------------------------------------------------
// The WebSocket

/**
 * The live stream of one table. Calls onState(state), onEvent(event) and
 * onConnection(connected). Reconnects with back-off; after a reconnect it asks for
 * the events since the last one it saw, and drops events it has already seen.
 */
export class TableSocket {
  constructor(tableId, { onState = () => {}, onEvent = () => {}, onConnection = () => {} } = {}) {
    this.tableId = tableId;
    this.onState = onState;
    this.onEvent = onEvent;
    this.onConnection = onConnection;
    this.lastSeq = null; // the newest event seq seen (from events or the first state)
    this.connected = false;
    this.retryMs = 500;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
    window.addEventListener("pagehide", () => this.stop());
  }

  /** Connect (again, after stop(): then the missed events are asked for). */
  start() {
    this.stopped = false;
    if (!this.ws) this._connect();
    return this;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  _connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retryMs = 500;
      if (this.lastSeq !== null) ws.send(JSON.stringify({ since: this.lastSeq + 1 }));
      this._setConnected(true);
    });
    ws.addEventListener("message", (m) => this._message(m.data));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this._setConnected(false);
      if (this.stopped) return;
      this.timer = setTimeout(() => this._connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 5000);
    });
  }

  _setConnected(connected) {
    if (this.connected === connected) return;
    this.connected = connected;
    this.onConnection(connected);
  }

  _message(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "event" && msg.event) {
      const ev = msg.event;
      // A new match starts its log again at seq 0.
      const fresh = ev.type === "match_start" || this.lastSeq === null || ev.seq > this.lastSeq;
      if (!fresh) return;
      this.lastSeq = ev.seq;
      this.onEvent(ev);
    } else if (msg.type === "state" && msg.state) {
      const seq = msg.state.last_seq ?? -1;
      // Only the first state (or a new match's, whose seqs start again) sets where we
      // are: after a reconnect the missed events follow the state and must not be
      // taken for duplicates.
      if (this.lastSeq === null || seq < this.lastSeq) {
        this.lastSeq = seq;
      }
      this.onState(msg.state);
    }
  }
}

// ---------------------------------------------------------------------------
// HTTP

const TOKEN_KEY = "gammoneye.token";

/** The token: from #token=... in the URL (then kept, and taken out of the URL) or storage. */
export function initialToken() {
  const hash = location.hash.replace(/^#/, "");
  const params = new URLSearchParams(hash);
  const fromUrl = params.get("token");
  if (fromUrl) {
    saveToken(fromUrl);
    history.replaceState(null, "", location.pathname + location.search);
    return fromUrl;
  }
  try {
    return localStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

export function saveToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage may be off (private mode); the token then lives in the input box only
  }
}

function detailText(detail) {
  if (detail === undefined || detail === null) return "";
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    // FastAPI's validation errors: [{loc: [...], msg: "..."}]
    return detail
      .map((d) => (d && d.msg ? `${(d.loc || []).filter((x) => x !== "body").join(".") || "body"}: ${d.msg}` : JSON.stringify(d)))
      .join("; ");
  }
  return JSON.stringify(detail);
}

/**
 * fetch() with JSON in and out and the bearer token. Never throws: returns
 * {ok, status, data, message} where message explains a failure in words.
 */
export async function api(method, url, { body = undefined, token = "" } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    return { ok: false, status: 0, data: null, message: `The server cannot be reached (${e.message})` };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.ok) return { ok: true, status: response.status, data, message: "" };
  const detail = detailText(data?.detail);
  const prefix = {
    401: "Not allowed: the table token is missing or wrong",
    403: "Not allowed: the table token is missing or wrong",
    404: "Not found",
    409: "Not now",
    422: "Rejected",
  }[response.status] || `Error ${response.status}`;
  return { ok: false, status: response.status, data, message: detail ? `${prefix}: ${detail}` : prefix };
}
