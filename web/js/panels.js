// The panels beside the map: the hex (as `opsim map --hex`), the selection and its draft order,
// the orders list and its dry run, the defender's reply, the replay's events, the legend. Each
// function fills one element from an answer of the API; text only (textContent), never HTML.

import { TERRAIN_COLORS, STYLE, PLAY_STYLE, SYMBOLS, NATIONALITY_COLORS, SIDE_COLORS, paintStar, paintSymbol } from "./style.js";

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "string" || typeof c === "number" ? String(c) : c);
  }
  return e;
}

export function para(text, cls) {
  return el("p", cls ? { class: cls } : {}, text);
}

function rule(r) {
  return r ? el("span", { class: "rule" }, ` [${r}]`) : null;
}

function pct(p) {
  return `${(100 * p).toFixed(p > 0 && p < 0.01 ? 2 : 0)}%`;
}

const SIDE_WORDS = { axis: "Axis", allied: "Allied" };

// A flood as /hex answers it (41.A.4), in words.
export function floodWords(f) {
  if (!f || typeof f !== "object") return f ? "flooded" : "";
  const when = [f.from !== undefined ? `from ${f.from}` : "", f.until !== undefined ? `until ${f.until}` : ""].filter(Boolean).join(" ");
  return [`${f.kind || ""} flood`.trim() + (when ? ` (${when})` : ""),
    f.counts_as ? `counts as ${f.counts_as}` : "", f.why || ""].filter(Boolean).join("; ") + (f.rule ? ` [${f.rule}]` : "");
}

// A water area of a hex (41.A.1), in words.
export function waterAreaWords(w) {
  const name = w.name ? ` "${w.name}"` : "";
  const sides = (w.sides || []).length ? `, toward ${w.sides.join(", ")}` : "";
  return `water area ${Number(w.index ?? 0) + 1}${name}${sides}${w.port_only ? ", port only" : ""}`
    + `${w.split_by ? `, split from the others by ${w.split_by}` : ""}${w.rule ? ` [${w.rule}]` : ""}`;
}

function hexsideWords(s) {
  if (s.map_edge) return "map edge";
  return [s.water && s.water !== "none" ? s.water : "", ...(s.features || []), s.waterway ? `waterway ${s.waterway}` : "",
    s.owner && s.owner !== "none" ? `owner ${s.owner}` : ""].filter(Boolean).join(", ") || "—";
}

function unitWords(u) {
  if (typeof u === "string") return u;
  return [SIDE_WORDS[u.side] || u.side, u.id, u.name ? `(${u.name})` : "", u.type, u.strength,
    u.supply && u.supply !== "supplied" ? u.supply : ""].filter(Boolean).join(" ");
}

// `objective`: the status's objective on this hex (B15.1), if any.
export function hexPanel(body, h, hexside, objective) {
  const port = h.port ? `${h.port}${h.inland_port ? ", inland" : ""}` : "";
  const rows = [
    ["hex", h.hex],
    ["place", h.name],
    ["terrain", h.terrain],
    ["coast", h.coast],
    ["owner", h.owner],
    ["city", h.city],
    ["port", port],
    ["airbase", h.airbase ? "yes" : ""],
    ["areas", (h.areas || []).join(", ")],
    ["weather zone", h.weather_zone],
    ["flood", floodWords(h.flood)],
    ["ice airfield", h.ice_airfield ? "yes (41.A.3)" : ""],
    ["rail ferries", (h.rail_ferries || []).join(", ")],
    ["objective", objective ? `${objective.name}, ${objective.points} points [B15.1]` : ""],
    ["hexside clicked", hexside],
  ];
  const table = el("table", { class: "kv" }, rows.filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v)))));
  const sides = el("table", { class: "kv" }, el("tr", {}, el("th", {}, "side"), el("th", {}, "hexside"), el("th", {}, "what")),
    (h.hexsides || []).map((s) => el("tr", {}, el("td", {}, s.dir), el("td", {}, s.hexside || "—"), el("td", {}, hexsideWords(s)))));
  const units = (h.units || []).length ? el("ul", {}, h.units.map((u) => el("li", {}, unitWords(u)))) : para("no units");
  const water = (h.water_areas || []).length
    ? [el("h3", {}, "Water areas"), el("ul", { class: "water-areas" }, h.water_areas.map((w) => el("li", {}, waterAreaWords(w))))] : [];
  body.replaceChildren(table, el("h3", {}, "Units"), units, ...water, el("details", {}, el("summary", {}, "Hexsides"), sides));
}

export function reachSummary(box, r) {
  if (!box) return;
  const units = (r.units || []).map((u) => `${u.id} (${u.class}, ${u.mp} MP)`).join(", ");
  box.textContent = `${units}: ${r.count ?? (r.hexes || []).length} hexes in reach (yellow)${r.hexes?.length ? "; click one to move there" : ""}.`;
}

// `s.step`: step play, where a move is taken at the click that ends it and an attack is declared
// with its button (no dry run: /check sees the position at the player-turn's start); `s.idle`:
// what to say when this page has nothing to give.
export function selectionPanel(body, s) {
  if (!s.mover) {
    body.replaceChildren(para(s.idle || "Orders are written by the side to move, in the game now (not while replaying).", "hint"));
    return;
  }
  if (!s.units.length && !s.draft) {
    body.replaceChildren(para(s.step
      ? "Click a counter of your side to select it (a stack: click it, then its units). Then click a hex: the move is taken at once; or an enemy hex to attack it. Shift-click adds waypoints first. Escape cancels."
      : "Click a counter of your side to select it (a stack: click it, then its units). Then click a hex: a move there, or an attack on enemy units. Shift-click adds a waypoint. Escape cancels.", "hint"));
    return;
  }
  if (s.step) return stepSelection(body, s);
  const parts = [];
  if (s.units.length) {
    parts.push(para(`Selected: ${s.units.map((u) => `${u.id} (${u.strength})`).join(", ")}`));
    parts.push(el("p", { class: "reach" }, "reach: asking the server…"));
  }
  const d = s.draft;
  if (d) {
    const a = d.answer;
    const what = d.order.attack ? `attack ${d.order.attack} with ${d.order.units.join(", ")}` :
      d.order.path ? `path ${d.order.path.join("-")}` : JSON.stringify(d.order);
    parts.push(para(what));
    if (!a) parts.push(para("checking…"));
    else if (a.error) parts.push(el("p", { class: "illegal", id: "draft-verdict" }, `refused: ${a.error.message}`));
    else if (a.own) {
      parts.push(a.own.legal
        ? el("p", { class: "legal", id: "draft-verdict" }, "legal")
        : el("p", { class: "illegal", id: "draft-verdict" }, "refused: ", a.own.problems.map((p) => `${p.message}`).join("; "),
          rule(a.own.problems[0]?.rule)));
    }
    if (d.order.attack) {
      if (a?.dry) parts.push(oddsOf(a.dry, `combat at ${d.order.attack}`));
      parts.push(el("label", {}, "If the hex is flooded ",
        el("select", { onchange: (e) => s.onIfFlooded(e.target.value) },
          el("option", { value: "attack" }, "attack anyway"),
          el("option", { value: "call-off", selected: d.order["if-flooded"] === "call-off" }, "call it off"))));
    }
    parts.push(el("div", { class: "buttons" },
      el("button", { type: "button", id: "add-draft", onclick: s.onAdd, disabled: !(a?.own?.legal) }, d.order.attack ? "Add attack" : "Add order"),
      d.path.length > 2 ? el("button", { type: "button", onclick: s.onUndoWaypoint }, "Remove last waypoint") : null,
      el("button", { type: "button", onclick: s.onCancel }, "Cancel (Esc)")));
  } else {
    parts.push(el("div", { class: "buttons" }, el("button", { type: "button", onclick: s.onCancel }, "Cancel (Esc)")));
  }
  showSelection(body, parts);
}

// Puts `parts` in the selection panel `body`, keeping the reach line's answer if it came before.
function showSelection(body, parts) {
  const old = body.querySelector(".reach")?.textContent;
  body.replaceChildren(...parts);
  if (old && body.querySelector(".reach")) body.querySelector(".reach").textContent = old;
}

// The selection in step play: the units, the path being built or the attack to declare, and the
// server's refusal of the last try, with its rule.
function stepSelection(body, s) {
  const parts = [];
  if (s.units.length) {
    parts.push(para(`Selected: ${s.units.map((u) => `${u.id} (${u.strength})`).join(", ")}`));
    parts.push(el("p", { class: "reach" }, "reach: asking the server…"));
  }
  const d = s.draft, a = d?.answer;
  if (d) {
    if (d.order.attack) {
      parts.push(para(`Attack ${d.order.attack} with ${d.order.units.join(", ")}: declare it, and the dice decide (B7).`));
      parts.push(attackOdds(d.preview, s.oddsWords));
      parts.push(el("label", {}, "If the hex is flooded ",
        el("select", { onchange: (e) => s.onIfFlooded(e.target.value) },
          el("option", { value: "attack" }, "attack anyway"),
          el("option", { value: "call-off", selected: d.order["if-flooded"] === "call-off" }, "call it off"))));
    } else if (d.order.path) {
      parts.push(para(`Path ${d.order.path.join("-")}${a?.error ? "" : ": shift-click more waypoints, then click the last hex (or Move now)"}`));
    }
    if (a?.sending) parts.push(el("p", { id: "draft-verdict" }, "sent: the server judges it…"));
    else if (a?.error) {
      parts.push(el("p", { class: "illegal", id: "draft-verdict", role: "alert" }, `refused: ${a.error.message.replace(/ \[[^\]]*\]$/, "")}`,
        rule(a.error.rule), ". Nothing moved."));
    }
    parts.push(el("div", { class: "buttons" },
      el("button", { type: "button", id: "add-draft", class: "primary", onclick: s.onAdd, disabled: !!a?.sending },
        d.order.attack ? "Declare attack" : a?.error ? "Try again" : "Move now"),
      d.path.length > 2 ? el("button", { type: "button", onclick: s.onUndoWaypoint }, "Remove last waypoint") : null,
      el("button", { type: "button", onclick: s.onCancel }, "Cancel (Esc)")));
  } else {
    parts.push(el("div", { class: "buttons" }, el("button", { type: "button", onclick: s.onCancel }, "Cancel (Esc)")));
  }
  showSelection(body, parts);
}

// The odds an attack would be fought at if declared now (POST /preview), or the rules' refusal
// of it: `preview` is {asking}, {odds} or {refused}; `words(odds)` says the odds.
function attackOdds(preview, words) {
  const attrs = { id: "attack-odds", "aria-live": "polite" };
  if (!preview) return el("p", attrs);
  if (preview.asking) return el("p", { ...attrs, class: "hint" }, "Odds: asking the server…");
  if (preview.refused) {
    const e = preview.refused;
    return el("p", { ...attrs, class: "illegal", "data-refused": "true" }, "The rules refuse this attack: ",
      e.message.replace(/ \[[^\]]*\]$/, ""), rule(e.rule), ".");
  }
  return el("p", { ...attrs, class: "odds-preview", "data-odds": preview.odds.odds }, ...words(preview.odds));
}

// The odds of the rolls whose purpose names `purpose` (or every roll).
function oddsOf(answer, purpose) {
  const rolls = (answer.odds?.rolls || []).filter((r) => !purpose || r.purpose === purpose);
  if (!rolls.length) return para(answer.odds?.complete === false ? "odds: too many outcomes to count (opsim odds estimates them)" : "");
  return el("div", { class: "odds" }, rolls.map((r) => el("p", {},
    `${r.purpose}: ${r.against}${r.rolled && r.rolled.probability < 1 ? ` (rolled ${pct(r.rolled.probability)} of the time)` : ""}: `,
    r.results.filter((x) => x.probability > 0).map((x) => `${x.result} ${pct(x.probability)}`).join(", "), rule(r.rule))));
}

// The orders in play order (`items` are kept so: orders.js). Each entry's data-pointer is its
// place in the orders file (/movement/0), for an error to point at. `submitted`: the orders are
// the ones sent, waiting for the reply: marked so, and not removable.
export function ordersList(list, items, describe, onRemove, submitted = false) {
  const seen = {};
  list.replaceChildren(...items.map((item, i) => {
    const k = (seen[item.phase] = (seen[item.phase] ?? -1) + 1);
    return el("li", { "data-pointer": `/${item.phase}/${k}`, class: submitted ? "submitted" : null },
      `${item.phase}: ${describe(item.order)}`,
      submitted ? el("span", { class: "tag" }, " (submitted)")
        : el("button", { type: "button", "aria-label": `remove order ${i + 1}`, onclick: () => onRemove(i) }, "remove"));
  }));
  if (!items.length) list.replaceChildren(el("li", { class: "hint" }, "no orders yet"));
}

// Marks the entry of `box` whose data-pointer starts the error's pointer, with the message
// beside it; returns whether one was found.
export function markInvalid(box, pointer, message) {
  for (const old of box.querySelectorAll("[aria-invalid]")) {
    old.removeAttribute("aria-invalid");
    old.querySelector(".field-error")?.remove();
  }
  if (!pointer) return false;
  const entries = [...box.querySelectorAll("[data-pointer]")].filter((e) => pointer === e.dataset.pointer
    || pointer.startsWith(`${e.dataset.pointer}/`));
  const entry = entries[entries.length - 1];
  if (!entry) return false;
  entry.setAttribute("aria-invalid", "true");
  entry.append(el("span", { class: "field-error" }, ` — ${message}`));
  return true;
}

export function dryRun(box, answer) {
  const rows = (answer.orders || []).map((o) => el("li", { class: o.legal ? "legal" : "illegal" },
    `${o.order}: ${o.legal ? "legal" : "refused"}`,
    o.problems.map((p) => el("span", {}, ` — ${p.message}`, rule(p.rule)))));
  box.replaceChildren(
    el("p", { class: answer.legal ? "legal" : "illegal", id: "dry-run-verdict" },
      answer.legal ? "Dry run: every order is legal." : "Dry run: problems found."),
    el("ol", {}, rows), oddsOf(answer));
}

// The defender's reply: floods (41.A.4) and retreat preferences (B7.5), marked by clicking hexes
// (or their counters). `nextTo(a, b)` says whether two hexes (names) are adjacent: a preferred
// retreat hex that is not next to its stack's hex is refused here, in words, before sending.
// Returns {number, click(hexName) -> bool, body(), invalid(pointer, message)}.
export function replyForm(body, pending, { send, nextTo }) {
  const reactions = [], retreats = [];
  let mode = "none";
  let newStack = true; // in retreat mode: the next click names a stack's hex
  const list = el("ul", { id: "reply-list" });
  const error = el("p", { class: "form-error illegal", id: "reply-error", role: "alert" });
  const refuse = (text) => { error.textContent = text; };
  const show = () => list.replaceChildren(
    ...reactions.map((r, i) => el("li", { "data-pointer": `/reactions/${i}` }, `${Object.keys(r)[0]} ${Object.values(r)[0]}`)),
    ...retreats.map((r, i) => el("li", { "data-pointer": `/retreats/${i}` },
      `retreat from ${r.hex}: prefer ${r.prefer.join(", ") || "(click the hexes next to it, best first)"}`)));
  const hint = para("", "hint");
  const setMode = (m) => {
    mode = m;
    newStack = true;
    refuse("");
    for (const b of modes.children) b.setAttribute("aria-pressed", String(b.dataset.mode === m));
    hint.textContent = {
      flood: "Click an attacked canal-intensive hex of yours to ask for its flood (41.A.4.a).",
      "massive-flood": "Click an attacked canal-intensive hex of yours to ask for a massive flood (41.A.4.b).",
      retreat: "Click the stack's hex (or its counter), then the hexes next to it that it prefers, best first (B7.5). Press Retreat preferences again for another stack.",
      none: "Choose what a click on the map marks.",
    }[m];
  };
  const modes = el("div", { class: "buttons", role: "group", "aria-label": "what a click on the map marks" },
    [["flood", "Flood a hex"], ["massive-flood", "Massive flood"], ["retreat", "Retreat preferences"], ["none", "Stop marking"]]
      .map(([m, label]) => el("button", { type: "button", "data-mode": m, "aria-pressed": "false", onclick: () => setMode(m) }, label)));
  // The attacks, when the server tells them with the pending orders.
  const attacks = (pending.attacks || []).map((a) => el("li", {},
    `${a.hex} attacked by ${(a.units || []).join(", ")}${a.canal_intensive ? ": canal-intensive, you may flood it (41.A.4)" : ""}`));
  const reply = () => ({ reactions, retreats });
  body.replaceChildren(
    ...(attacks.length ? [el("ul", { id: "attacks" }, attacks)] : []),
    para(`${pending.text}. Your reply: floods of your canal-intensive hexes attacked (41.A.4), and where your stacks prefer to retreat (B7.5). Choose what a click marks, then click hexes; or reply with nothing.`),
    modes, hint, list, error,
    el("div", { class: "buttons" },
      el("button", { type: "button", id: "send-reply", onclick: () => { refuse(""); send(reply()); } }, "Send reply"),
      el("button", { type: "button", onclick: () => { reactions.length = 0; retreats.length = 0; setMode(mode); show(); } }, "Clear")));
  setMode("none");
  show();
  const retreatClick = (hex) => {
    const last = retreats[retreats.length - 1];
    if (newStack || !last) {
      const entry = retreats.find((r) => r.hex === hex);
      if (!entry) retreats.push({ hex, prefer: [] });
      else retreats.push(...retreats.splice(retreats.indexOf(entry), 1)); // its entry, now the last
      newStack = false;
      return;
    }
    if (hex === last.hex) return refuse(`${hex} is the stack's own hex: click a hex next to it`);
    if (!nextTo(hex, last.hex)) {
      return refuse(`${hex} is not next to ${last.hex}: a retreat moves one hex (B7.5). Click a hex next to ${last.hex}, or press Retreat preferences again for another stack.`);
    }
    if (last.prefer.includes(hex)) return refuse(`${hex} is already preferred for ${last.hex}`);
    last.prefer.push(hex);
  };
  return {
    number: pending.number,
    click(hex) {
      refuse("");
      if (mode === "flood" || mode === "massive-flood") reactions.push({ [mode]: hex });
      else if (mode === "retreat") retreatClick(hex);
      else return false;
      show();
      return true;
    },
    body: reply,
    // An error the server found in the reply, shown at its entry.
    invalid(pointer, message) {
      return markInvalid(list, pointer, message);
    },
  };
}

// A logged player-turn: its orders, and one phase's dice (each roll, what it decided, its rule)
// and events in order, each with its rule. `log` has the phases' ranges (the log's ?phases).
export function replayEvents(box, log, n, describe, phase) {
  const turn = (log.turns || []).find((t) => t.number === n) || (log.turns || [])[0] || log;
  const orders = [];
  for (const kind of ["initial", "movement", "combat", "reactions", "retreats", "exploitation"]) {
    for (const o of turn.orders?.[kind] || []) orders.push(`${kind}: ${describe(o)}`);
  }
  const range = (turn.phases || []).find((p) => p.phase === phase) || {};
  // A log from another rules version has no event ranges: then every event is shown.
  const slice = (list, r) => (r ? list.slice(r[0], r[1]) : list);
  const rolls = slice(turn.rolls || [], range.rolls);
  const events = slice(turn.events || [], range.events);
  const of = (r, all, what) => (r ? `${what} ${r[1] > r[0] ? `${r[0] + 1}–${r[1]}` : "none"} of ${all}` : `all ${all} ${what}`);
  box.replaceChildren(
    el("h3", {}, `Player-turn ${n}: ${turn.date || ""}, ${turn.side || ""}: the ${phase} phase`),
    el("details", {}, el("summary", {}, `Orders of the player-turn (${orders.length})`), el("ul", {}, orders.map((o) => el("li", {}, o)))),
    el("details", { open: true }, el("summary", {}, `Dice of the ${phase} phase (${of(range.rolls, (turn.rolls || []).length, "rolls")})`),
      el("ul", { class: "dice" }, rolls.map((r) => el("li", {},
        `d${r.sides} rolled ${r.value}: ${r.purpose}: ${r.decided}`, rule(r.rule))))),
    el("details", { open: true }, el("summary", {}, `Events of the ${phase} phase (${of(range.events, (turn.events || []).length, "events")})`),
      el("ol", { start: range.events ? range.events[0] + 1 : 1 }, events.map((e) => el("li", { "data-kind": e.kind }, e.text, rule(e.rule))))));
}

// Where the game stands against its victory conditions (B15.1), as the status answers it: each
// side's points, the result as it stands (or as it stood when the game ended), and each objective
// with its owner, a button that goes to its hex (`go(name)`).
export function victoryPanel(body, v, turns, go) {
  const owner = (o) => SIDE_WORDS[o] || "no one";
  const standing = `Axis ${v.points.axis} points, Allied ${v.points.allied}: ${v.over ? "the game is over" : "as it stands"}, ${v.result}`;
  const open = !!body.querySelector("#victory-objectives")?.open;
  const when = v.over ? `It ended after ${v.end}.` : `The game ends after ${v.end}. Counted ${turns ? `after player-turn ${turns}` : "at the start"} (a player-turn in play counts once it is logged).`;
  body.replaceChildren(
    el("p", { id: "victory-standing", "data-over": String(!!v.over) }, standing, rule(v.rule)),
    para(when, "hint"),
    el("details", { id: "victory-objectives", open }, el("summary", {}, `Objectives (${v.objectives.length})`),
      el("ul", {}, v.objectives.map((o) => el("li", { "data-owner": o.owner || "" },
        el("button", { type: "button", class: "link", "data-hex": o.hex, onclick: () => go(o.hex) },
          `${o.name} (${o.hex}), ${o.points} points: ${owner(o.owner)}`))))));
}

export function mapStateText(p, t) {
  if (!p) return "";
  const parts = t?.hasSuez ? [`Suez Canal: ${p.suez} (41.B)`] : [];
  if (p.floods.size) parts.push(`${p.floods.size} flooded`);
  if (p.ice.size) parts.push(`${p.ice.size} ice airfield${p.ice.size > 1 ? "s" : ""}`);
  if (p.bridges.size) parts.push(`${p.bridges.size} bridge${p.bridges.size > 1 ? "s" : ""} out`);
  return parts.join(" · ");
}

// The legend: every symbol the map uses, drawn by the same colours, with its words. Each entry
// has its own look (data-look: its kind, colour and dash), and red (STYLE.alert) means one thing
// only: something refused, out of supply, out or closed.
export function drawLegend(ul) {
  const entries = []; // [words, look, paint]
  const box = (color) => [`fill:${color}`, (g) => { g.fillStyle = color; g.fillRect(0, 0, 24, 14); }];
  for (const [name, color] of Object.entries(TERRAIN_COLORS)) entries.push([name, ...box(color)]);
  const line = (color, width, dash) => [`line:${color}:${(dash || []).join(",")}`,
    (g) => { g.strokeStyle = color; g.lineWidth = width; g.setLineDash(dash || []); g.beginPath(); g.moveTo(1, 7); g.lineTo(23, 7); g.stroke(); }];
  const outline = (color, dash) => [`hex-outline:${color}:${dash.join(",")}`, (g) => {
    g.strokeStyle = color; g.lineWidth = 1.5; g.setLineDash(dash); g.beginPath();
    for (let k = 0; k <= 6; ++k) g.lineTo(12 + 9 * Math.cos((k * Math.PI) / 3), 7 + 6.5 * Math.sin((k * Math.PI) / 3));
    g.stroke();
  }];
  const hatch = (color, slant) => [`hatch:${color}:${slant}`, (g) => { g.strokeStyle = color; for (let x = -14; x < 24; x += 4) { g.beginPath(); g.moveTo(x, slant > 0 ? 14 : 0); g.lineTo(x + 14, slant > 0 ? 0 : 14); g.stroke(); } }];
  const glyph = (text, color) => [`glyph:${text}:${color}`, (g) => { g.fillStyle = color; g.font = "11px sans-serif"; g.textAlign = "center"; g.fillText(text, 12, 11); }];
  const ring = (color) => [`ring:${color}`, (g) => { g.strokeStyle = color; g.lineWidth = 1.5; g.beginPath(); g.arc(12, 7, 5, 0, 7); g.stroke(); }];
  const cross = (color) => [`cross:${color}`, (g) => { g.strokeStyle = color; g.lineWidth = 2; g.beginPath(); g.moveTo(8, 3); g.lineTo(16, 11); g.moveTo(8, 11); g.lineTo(16, 3); g.stroke(); }];
  const counter = (color, type) => [`counter:${color}:${type}`, (g) => {
    g.fillStyle = color; g.fillRect(1, 0, 22, 14); g.strokeStyle = "#000"; g.strokeRect(1, 0, 22, 14);
    if (type) paintSymbol(g, SYMBOLS[type], 5, 2.5, 14, 8.4);
  }];
  entries.push(
    ["Axis-owned (hatched /)", ...hatch(STYLE.axisHatch, 1)],
    ["Allied-owned (hatched \\)", ...hatch(STYLE.alliedHatch, -1)],
    ["flooded", "disc:flood", (g) => { g.fillStyle = STYLE.flood; g.beginPath(); g.arc(12, 7, 6, 0, 7); g.fill(); }],
    ["ice airfield (ice AF)", ...glyph("ice", STYLE.port)],
    ["dot city", "dot:city", (g) => { g.fillStyle = STYLE.ink; g.beginPath(); g.arc(12, 7, 3, 0, 7); g.fill(); }],
    ["city (black: full major)", "square:city", (g) => { g.fillStyle = STYLE.city; g.fillRect(8, 3, 8, 8); }],
    ["port (iP: inland)", ...glyph("P", STYLE.port)],
    ["airbase", ...glyph("A", STYLE.airbase)],
    ["navigable waterway", ...line(STYLE.waterway, 5)],
    ["all-sea hexside", ...line(STYLE.seaSide, 2.5)],
    ["major river", ...line(STYLE.majorRiver, 3)],
    ["minor river", ...line(STYLE.minorRiver, 1.5)],
    ["canal", ...line(STYLE.canal, 2, [4, 2])],
    ["border", ...line(STYLE.border, 1, [6, 2, 1, 2])],
    ["road", ...line(STYLE.road, 1.5)],
    ["railroad", ...line(STYLE.rail, 1.2, [3, 2])],
    ["causeway", ...line(STYLE.causeway, 3)],
    ["rail ferry", ...line(STYLE.railFerry, 2, [5, 3])],
    ["sheet edge, its name beside it", ...line(STYLE.sheetEdge, 1, [1, 3])],
    ["bridge out; Suez not open (red: a problem)", ...cross(STYLE.alert)],
    ["Axis zone of control (hex outlined, dashed)", ...outline(STYLE.zocAxis, [4, 3])],
    ["Allied zone of control (hex outlined, dotted)", ...outline(STYLE.zocAllied, [1, 2])],
    ["in supply (ring)", ...ring(STYLE.supplied)],
    ["out of supply, isolated (red ring, words)", ...ring(STYLE.alert)],
    ["reach, with its MP cost (■: the move ends there)", ...box(STYLE.reach)],
    ["order being drafted: path, attack target", ...line(STYLE.path, 2.5)],
    ["refused path (red, dashed)", ...line(STYLE.alert, 2.5, [4, 3])],
    ["selected hex", ...outline(STYLE.selected, [])],
    ...["axis", "allied", ""].map((side) => [`objective (B15.1) held by ${SIDE_WORDS[side] || "no one"}: its points, ${side === "axis" ? "Ax" : side === "allied" ? "Al" : "—"}`,
      `star:${side || "none"}`, (g) => paintStar(g, 12, 7, 6, SIDE_COLORS[side] || "#ffffff", 1)]),
    ...["axis", "allied"].map((side) => {
      const color = side === "axis" ? PLAY_STYLE.trailAxis : PLAY_STYLE.trailAllied;
      return [`${side === "axis" ? "Axis" : "Allied"} move taken this player-turn (dot: from; arrow: to; the counter outlined so)`, `trail:${color}`, (g) => {
        g.strokeStyle = g.fillStyle = color; g.lineWidth = 2.5; g.beginPath(); g.moveTo(4, 7); g.lineTo(17, 7); g.stroke();
        g.beginPath(); g.arc(4, 7, 2.5, 0, 7); g.fill();
        g.beginPath(); g.moveTo(23, 7); g.lineTo(16, 3); g.lineTo(16, 11); g.closePath(); g.fill();
      }];
    }),
    ["a hex a retreat may enter (green, dashed; click to choose)", ...outline(PLAY_STYLE.choice, [3, 2])],
    ["a combat's result over its hex (result · odds · die)", "tag:result", (g) => {
      g.fillStyle = "#1b1b1b"; g.fillRect(0, 2, 24, 10); g.fillStyle = "#fff"; g.font = "bold 8px sans-serif"; g.fillText("DE", 6, 10);
    }],
  );
  for (const [type, sym] of Object.entries(SYMBOLS)) {
    if (type !== "box") entries.push([`${type} (counter symbol)`, `symbol:${type}`, (g) => paintSymbol(g, sym, 2, 1, 20, 12)]);
  }
  for (const [nation, color] of Object.entries(NATIONALITY_COLORS)) entries.push([`${nation} unit`, ...counter(color, "infantry")]);
  entries.push(["other Axis unit (Ax)", ...counter(SIDE_COLORS.axis, "")], ["other Allied unit (Al)", ...counter(SIDE_COLORS.allied, "")]);
  ul.replaceChildren(...entries.map(([text, look, paint]) => {
    const c = el("canvas", { width: 24, height: 14, "aria-hidden": "true" });
    paint(c.getContext("2d"));
    return el("li", { "data-look": look }, c, text);
  }));
}
