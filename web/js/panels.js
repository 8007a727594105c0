// The panels beside the map: the hex (as `opsim map --hex`), the selection and its draft order,
// the orders list and its dry run, the defender's reply, the replay's events, the legend. Each
// function fills one element from an answer of the API; text only (textContent), never HTML.

import { TERRAIN_COLORS, STYLE } from "./style.js";

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

export function hexPanel(body, h, hexside) {
  const rows = [
    ["hex", h.hex],
    ["terrain", h.terrain],
    ["coast", h.coast],
    ["owner", h.owner],
    ["areas", (h.areas || []).join(", ")],
    ["weather zone", h.weather_zone],
  ];
  if (h.flood) rows.push(["flood", typeof h.flood === "object" ? JSON.stringify(h.flood) : String(h.flood)]);
  if (h.ice_airfield) rows.push(["ice airfield", "yes (41.A.3)"]);
  if (hexside) rows.push(["hexside clicked", hexside]);
  const table = el("table", { class: "kv" }, rows.filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, String(v)))));
  const sides = el("table", { class: "kv" }, el("tr", {}, el("th", {}, "side"), el("th", {}, "hexside"), el("th", {}, "what")),
    (h.hexsides || []).map((s) => el("tr", {}, el("td", {}, s.dir), el("td", {}, s.hexside),
      el("td", {}, [s.water !== "none" ? s.water : "", ...(s.features || []), s.owner !== "none" ? `owner ${s.owner}` : ""].filter(Boolean).join(", ")))));
  const units = (h.units || []).length
    ? el("ul", {}, h.units.map((u) => el("li", {}, typeof u === "string" ? u : `${u.id || ""} ${u.name || ""} ${u.side || ""} ${u.strength || ""}`.trim())))
    : para("no units");
  const water = (h.water_areas || []).map((w) => para(`water: ${w.name} (${w.sides.join(" ")})${w.rule ? ` [${w.rule}]` : ""}`));
  body.replaceChildren(table, el("h3", {}, "Units"), units, ...water, el("details", {}, el("summary", {}, "Hexsides"), sides));
}

export function reachSummary(box, r) {
  if (!box) return;
  const units = (r.units || []).map((u) => `${u.id} (${u.class}, ${u.mp} MP)`).join(", ");
  box.textContent = `${units}: ${r.count ?? (r.hexes || []).length} hexes in reach (yellow)${r.hexes?.length ? "; click one to move there" : ""}.`;
}

export function selectionPanel(body, s) {
  if (!s.mover) {
    body.replaceChildren(para("Orders are written by the side to move, in the game now (not while replaying).", "hint"));
    return;
  }
  if (!s.units.length && !s.draft) {
    body.replaceChildren(para("Click a counter of your side to select it (a stack: click it, then its units). Then click a hex: a move there, or an attack on enemy units. Shift-click adds a waypoint. Escape cancels.", "hint"));
    return;
  }
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
          el("option", { value: "attack" }, "attack anyway"), el("option", { value: "call-off" }, "call it off"))));
    }
    parts.push(el("div", { class: "buttons" },
      el("button", { type: "button", id: "add-draft", onclick: s.onAdd, disabled: !(a?.own?.legal) }, d.order.attack ? "Add attack" : "Add order"),
      d.path.length > 2 ? el("button", { type: "button", onclick: s.onUndoWaypoint }, "Remove last waypoint") : null,
      el("button", { type: "button", onclick: s.onCancel }, "Cancel (Esc)")));
  } else {
    parts.push(el("div", { class: "buttons" }, el("button", { type: "button", onclick: s.onCancel }, "Cancel (Esc)")));
  }
  const old = body.querySelector(".reach")?.textContent;
  body.replaceChildren(...parts);
  if (old && body.querySelector(".reach")) body.querySelector(".reach").textContent = old;
}

// The odds of the rolls whose purpose names `purpose` (or every roll).
function oddsOf(answer, purpose) {
  const rolls = (answer.odds?.rolls || []).filter((r) => !purpose || r.purpose === purpose);
  if (!rolls.length) return para(answer.odds?.complete === false ? "odds: too many outcomes to count (opsim odds estimates them)" : "");
  return el("div", { class: "odds" }, rolls.map((r) => el("p", {},
    `${r.purpose}: ${r.against}${r.rolled && r.rolled.probability < 1 ? ` (rolled ${pct(r.rolled.probability)} of the time)` : ""}: `,
    r.results.filter((x) => x.probability > 0).map((x) => `${x.result} ${pct(x.probability)}`).join(", "), rule(r.rule))));
}

export function ordersList(list, items, describe, onRemove) {
  list.replaceChildren(...items.map((item, i) => el("li", {},
    `${item.phase}: ${describe(item.order)}`,
    el("button", { type: "button", "aria-label": `remove order ${i + 1}`, onclick: () => onRemove(i) }, "remove"))));
  if (!items.length) list.replaceChildren(el("li", { class: "hint" }, "no orders yet"));
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

// The defender's reply: floods (41.A.4) and retreat preferences (B7.5), marked by clicking hexes.
// Returns {number, click(hexName, event) -> bool}.
export function replyForm(body, pending, send) {
  const reactions = [], retreats = [];
  let mode = "none";
  const list = el("ul");
  const show = () => list.replaceChildren(
    ...reactions.map((r) => el("li", {}, `${Object.keys(r)[0]} ${Object.values(r)[0]}`)),
    ...retreats.map((r) => el("li", {}, `retreat from ${r.hex}: prefer ${r.prefer.join(", ") || "(click hexes)"}`)));
  const modes = el("div", { class: "buttons", role: "group", "aria-label": "what a click on the map marks" },
    [["flood", "Flood a hex"], ["massive-flood", "Massive flood"], ["retreat", "Retreat preferences"], ["none", "Stop marking"]]
      .map(([m, label]) => el("button", { type: "button", "aria-pressed": String(m === mode), onclick: (e) => {
        mode = m;
        for (const b of modes.children) b.setAttribute("aria-pressed", String(b === e.target));
      } }, label)));
  // The attacks, when the server tells them with the pending orders.
  const attacks = (pending.attacks || []).map((a) => el("li", {},
    `${a.hex} attacked by ${(a.units || []).join(", ")}${a.canal_intensive ? ": canal-intensive, you may flood it (41.A.4)" : ""}`));
  body.replaceChildren(
    ...(attacks.length ? [el("ul", { id: "attacks" }, attacks)] : []),
    para(`${pending.text}. Your reply: floods of your canal-intensive hexes attacked (41.A.4), and where your stacks prefer to retreat (B7.5). Choose what a click marks, then click hexes; or reply with nothing.`),
    modes, list,
    el("div", { class: "buttons" },
      el("button", { type: "button", id: "send-reply", onclick: () => send({ reactions, retreats }) }, "Send reply"),
      el("button", { type: "button", onclick: () => { reactions.length = 0; retreats.length = 0; show(); } }, "Clear")));
  show();
  return {
    number: pending.number,
    click(hex) {
      if (mode === "flood" || mode === "massive-flood") {
        reactions.push({ [mode]: hex });
      } else if (mode === "retreat") {
        const last = retreats[retreats.length - 1];
        if (last && last.prefer.length < 6 && last.hex !== hex) last.prefer.push(hex);
        else retreats.push({ hex, prefer: [] });
      } else {
        return false;
      }
      show();
      return true;
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

export function mapStateText(p) {
  if (!p) return "";
  const parts = [`Suez Canal: ${p.suez} (41.B)`];
  if (p.floods.size) parts.push(`${p.floods.size} flooded`);
  if (p.ice.size) parts.push(`${p.ice.size} ice airfield${p.ice.size > 1 ? "s" : ""}`);
  if (p.bridges.size) parts.push(`${p.bridges.size} bridge${p.bridges.size > 1 ? "s" : ""} out`);
  return parts.join(" · ");
}

// The legend: every symbol the map uses, drawn by the same colours, with its words.
export function drawLegend(ul) {
  const entries = [];
  for (const [name, color] of Object.entries(TERRAIN_COLORS)) entries.push([name, (g) => { g.fillStyle = color; g.fillRect(0, 0, 24, 14); }]);
  const line = (color, width, dash) => (g) => { g.strokeStyle = color; g.lineWidth = width; g.setLineDash(dash || []); g.beginPath(); g.moveTo(1, 7); g.lineTo(23, 7); g.stroke(); };
  const hatch = (color, slant) => (g) => { g.strokeStyle = color; for (let x = -14; x < 24; x += 4) { g.beginPath(); g.moveTo(x, slant > 0 ? 14 : 0); g.lineTo(x + 14, slant > 0 ? 0 : 14); g.stroke(); } };
  const glyph = (text, color) => (g) => { g.fillStyle = color; g.font = "11px sans-serif"; g.textAlign = "center"; g.fillText(text, 12, 11); };
  const counter = (color, round, text) => (g) => { g.fillStyle = color; g.beginPath(); g.roundRect(1, 1, 22, 12, round ? 4 : 0); g.fill(); g.stroke(); g.fillStyle = "#000"; g.font = "8px sans-serif"; g.textAlign = "center"; g.fillText(text, 12, 10); };
  entries.push(
    ["Axis-owned (hatched /)", hatch(STYLE.axisHatch, 1)],
    ["Allied-owned (hatched \\)", hatch(STYLE.alliedHatch, -1)],
    ["flooded", (g) => { g.fillStyle = STYLE.flood; g.beginPath(); g.arc(12, 7, 6, 0, 7); g.fill(); }],
    ["ice airfield (ice AF)", glyph("ice", STYLE.port)],
    ["dot city", (g) => { g.fillStyle = "#000"; g.beginPath(); g.arc(12, 7, 3, 0, 7); g.fill(); }],
    ["city (black: full major)", (g) => { g.fillStyle = "#666"; g.fillRect(8, 3, 8, 8); }],
    ["port (iP: inland)", glyph("P", STYLE.port)],
    ["airbase", glyph("A", "#444")],
    ["navigable waterway", line(STYLE.waterway, 5)],
    ["all-sea hexside", line(STYLE.seaSide, 2.5)],
    ["major river", line(STYLE.majorRiver, 3)],
    ["minor river", line(STYLE.minorRiver, 1.5)],
    ["canal", line(STYLE.canal, 2, [4, 2])],
    ["border", line(STYLE.border, 1, [2, 2])],
    ["road", line(STYLE.road, 1.5)],
    ["railroad", line(STYLE.rail, 1.2, [3, 2])],
    ["causeway", line(STYLE.causeway, 3)],
    ["rail ferry", line(STYLE.railFerry, 2, [5, 3])],
    ["bridge out; Suez not open", (g) => { g.strokeStyle = STYLE.alert; g.lineWidth = 2; g.beginPath(); g.moveTo(8, 3); g.lineTo(16, 11); g.moveTo(8, 11); g.lineTo(16, 3); g.stroke(); }],
    ["Axis zone of control (dashed)", line(STYLE.zocAxis, 1.5, [4, 3])],
    ["Allied zone of control (dotted)", line(STYLE.zocAllied, 1.5, [1, 2])],
    ["in supply (ring)", (g) => { g.strokeStyle = STYLE.supplied; g.beginPath(); g.arc(12, 7, 5, 0, 7); g.stroke(); }],
    ["out of supply, isolated (ring, words)", (g) => { g.strokeStyle = STYLE.alert; g.beginPath(); g.arc(12, 7, 5, 0, 7); g.stroke(); }],
    ["reach, with its MP cost (■: the move ends there)", (g) => { g.fillStyle = STYLE.reach; g.fillRect(0, 0, 24, 14); }],
    ["path (dashed: refused)", line(STYLE.path, 2.5)],
    ["Axis unit (Ax)", counter(STYLE.axisCounter, false, "Ax")],
    ["Allied unit (Al)", counter(STYLE.alliedCounter, false, "Al")],
    ["air or naval unit (rounded)", counter("#fff", true, "tf")],
  );
  ul.replaceChildren(...entries.map(([text, paint]) => {
    const c = el("canvas", { width: 24, height: 14, "aria-hidden": "true" });
    paint(c.getContext("2d"));
    return el("li", {}, c, text);
  }));
}
