// Step play (docs/api.md, "Steps"): the player-turn in play as GET /play answers it, in words and
// marks for the page. What the game waits for and who decides it, the moves' trails, the combat
// report and the end-of-turn summary are read from the answer; the page decides no rule.

import { el, para } from "./panels.js";

const THE = { axis: "the Axis", allied: "the Allies" };
const NAME = { axis: "Axis", allied: "Allied" };

function rule(r) {
  return r ? el("span", { class: "rule" }, ` [${r}]`) : null;
}

// What the game waits for, for the page of `role`: {headline, detail, mine}. "Axis movement
// phase — your move", "Axis combat phase — waiting for the Allies: flood 16A:1122?".
export function promptWords(play, role) {
  const p = play.prompt || {};
  const mine = p.side === role;
  const phase = `${NAME[play.side] || play.side} ${p.phase || ""} phase`;
  const who = THE[p.side] || p.side;
  const order = { initial: "initial orders (or end the phase)", movement: "move", combat: "attacks", exploitation: "exploitation moves" }[p.phase] || "move";
  const theirs = { initial: "initial orders", movement: "moves", combat: "attacks", exploitation: "exploitation moves" }[p.phase] || "moves";
  const asks = {
    begin: mine ? "your player-turn: begin it (its weather is rolled), or send all orders at once"
      : `waiting for ${who} to begin the player-turn`,
    order: mine ? `your ${order}` : `waiting for ${who}: ${theirs}`,
    flood: mine ? `your decision: flood ${p.hex}?` : `waiting for ${who}: flood ${p.hex}?`,
    retreat: mine ? `your decision: where does your stack at ${p.hex} retreat?` : `waiting for ${who}: the retreat from ${p.hex}`,
    advance: mine ? `your decision: who advances into ${p.hex}?` : `waiting for ${who}: who advances into ${p.hex}`,
  };
  return { headline: `${phase} — ${asks[p.waiting] || p.text}`, detail: p.text || "", mine };
}

// Each move of the player-turn so far (moves, advances, retreats taken), for the map:
// [{path: [hex names], side}]. The events name the units, the units' side is the position's.
export function trailsOf(events, sideOf) {
  const out = [];
  for (const e of events || []) {
    const moved = e.kind === "move" || e.kind === "rail" || e.kind === "naval" || e.kind === "advance"
      || (e.kind === "retreat" && / retreats /.test(e.text));
    if (!moved || (e.hexes || []).length < 2) continue;
    out.push({ path: e.hexes, side: sideOf((e.units || [])[0]) });
  }
  return out;
}

// The units moved this player-turn (moves, advances, retreats, air drops).
export function movedUnits(events) {
  return (events || []).filter((e) => ["move", "rail", "naval", "advance", "air-drop", "landing"].includes(e.kind)
    || (e.kind === "retreat" && / retreats /.test(e.text))).flatMap((e) => e.units || []);
}

// Every attack of the player-turn so far, in the order fought: [{hex, attackers, odds, die,
// result, detail, flood, losses, rule, open}], from the rolls ("combat at HEX", "flooding of
// HEX") and the events (combat, eliminated, retreat). `prompt`: an attack waiting for a
// decision (a flood, a retreat, an advance) is listed too, as open.
export function combatReport(events, rolls, prompt) {
  const rows = new Map();
  const row = (hex) => {
    if (!rows.has(hex)) rows.set(hex, { hex, attackers: [], odds: "", die: null, result: "", detail: "", flood: "", losses: [], rule: "", open: "", asks: "" });
    return rows.get(hex);
  };
  for (const r of rolls || []) {
    let m = /^combat at (\S+)$/.exec(r.purpose || "");
    if (m) {
      const x = row(m[1]);
      // "DE at 5:1", "DR at 5:1 (die -1)": the result, the odds column, a modifier of the die.
      const d = /^(\S+) at (\S+)\s*(.*)$/.exec(r.decided || "");
      const mod = d && /^\(die ([^)]*)\)$/.exec(d[3]);
      Object.assign(x, { die: mod ? `${r.value} (${mod[1]})` : r.value, result: d ? d[1] : r.decided, odds: d ? d[2] : "",
        detail: [r.against, d && !mod ? d[3] : ""].filter(Boolean).join(" "), rule: r.rule });
      continue;
    }
    m = /^flooding of (\S+)$/.exec(r.purpose || "");
    if (m) row(m[1]).flood = `flood die ${r.value}: ${r.decided}`;
  }
  for (const e of events || []) {
    const hex = (e.hexes || [])[0];
    if (e.kind === "combat" && hex) row(hex).attackers = e.units || [];
    else if ((e.kind === "eliminated" || e.kind === "retreat") && (e.units || []).length) {
      const at = [...rows.keys()].find((h) => (e.hexes || []).includes(h) || (e.text || "").includes(h));
      if (at) row(at).losses.push(e.text);
    }
  }
  if (prompt && prompt.hex && ["flood", "retreat", "advance"].includes(prompt.waiting)) {
    const x = row(prompt.attacked || prompt.hex);
    if (!x.attackers.length && prompt.waiting === "flood") x.attackers = prompt.units || [];
    x.open = { flood: `waiting for ${THE[prompt.side]}: flood or not`, retreat: `waiting for ${THE[prompt.side]}: the retreat`,
      advance: `waiting for ${THE[prompt.side]}: the advance` }[prompt.waiting];
    x.asks = { flood: "flood?", retreat: "retreat?", advance: "advance?" }[prompt.waiting];
  }
  return [...rows.values()];
}

// The combat report's table.
export function combatTable(box, rows) {
  if (!rows.length) {
    box.replaceChildren(para("No attack yet this player-turn.", "hint"));
    return;
  }
  box.replaceChildren(el("table", { class: "report", id: "combat-report" },
    el("thead", {}, el("tr", {}, ["hex", "attackers", "odds", "die", "result"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.flatMap((r) => [
      el("tr", { "data-hex": r.hex, class: r.open ? "open" : "" },
        el("td", {}, r.hex), el("td", {}, r.attackers.join(", ") || "—"), el("td", {}, r.odds || "—"),
        el("td", {}, r.die ?? "—"), el("td", { class: "result" }, [r.result, r.open].filter(Boolean).join(": ") || "—")),
      r.detail || r.flood || r.losses.length ? el("tr", { class: "detail" }, el("td", { colspan: 5 },
        r.flood ? el("div", {}, r.flood) : null, r.detail ? el("div", {}, r.detail, rule(r.rule)) : null,
        r.losses.map((l) => el("div", {}, l)))) : null,
    ]))));
}

// A combat's result as a tag over its hex, two short lines, narrow enough to clear the counters
// of the hexes beside it: "DE 5:1" over "die 3" (or "die 5 -1", a modified die); an attack
// waiting for a decision says what it waits for under its result, once rolled ("DR 5:1" over
// "retreat?").
export function resultTags(rows) {
  return rows.map((r) => ({ hex: r.hex, kind: r.open ? "open" : "result",
    text: r.open ? `${r.result ? `${r.result} ${r.odds}` : "attacked"}\n${r.asks || "…"}`
      : `${r.result} ${r.odds}\ndie ${String(r.die).replace(/ \((.*)\)$/, " $1")}` }));
}

// The decision the game asks of this page's side, as a form in `box`: a flood (41.A.4), a
// retreat (B7.5: the legal hexes, the rules' choice first) or an advance (B7.6: none allowed).
// `take(step)` sends the step. Returns the buttons' hexes for a retreat (a map click takes one).
export function decisionForm(box, prompt, take) {
  const p = prompt;
  if (p.waiting === "flood") {
    const words = { flood: "Flood", "massive-flood": "Massive flood" };
    box.replaceChildren(
      para(`${(p.units || []).join(", ")} attack ${p.hex}, a canal-intensive hex of yours. Try to flood it (41.A.4)?`),
      el("div", { class: "buttons", role: "group", "aria-label": "flood or not" },
        (p.floods || []).map((f) => el("button", { type: "button", class: "primary", "data-flood": f,
          onclick: () => take({ [f]: p.hex }) }, `${words[f] || f} ${p.hex}`)),
        el("button", { type: "button", "data-flood": "none", onclick: () => take({ flood: false }) }, "No flood")));
    return;
  }
  if (p.waiting === "retreat") {
    const to = p.retreat_to || [];
    box.replaceChildren(
      para(`Your stack at ${p.hex} must retreat${p.result ? ` (${p.result})` : ""}. Choose its hex (B7.5): the hexes are outlined green on the map; click one there, or here.`),
      el("div", { class: "buttons", role: "group", "aria-label": "where to retreat" },
        to.map((h, i) => el("button", { type: "button", "data-retreat": h, class: i === 0 ? "primary" : "",
          onclick: () => take({ hex: p.hex, prefer: [h] }) }, i === 0 ? `${h} (the rules' choice)` : h)),
        el("button", { type: "button", "data-retreat": "rules", onclick: () => take({ hex: p.hex, prefer: [] }) }, "Let the rules choose")),
      ...(to.length ? [] : [para("No hex is open: the stack is eliminated (B7.5).", "hint")]));
    return;
  }
  if (p.waiting === "advance") {
    const boxes = (p.units || []).map((u) => el("input", { type: "checkbox", value: u, "data-advance": u }));
    box.replaceChildren(
      para(`${p.hex} is empty${p.result ? ` (${p.result})` : ""}: who advances into it (B7.6)? No one is allowed.`),
      el("fieldset", { class: "advance" }, el("legend", {}, "advance"), boxes.map((b) => el("label", {}, b, ` ${b.value}`))),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary", id: "advance-go",
          onclick: () => take({ advance: boxes.filter((b) => b.checked).map((b) => b.value) }) }, "Advance the checked"),
        el("button", { type: "button", id: "advance-none", onclick: () => take({ advance: [] }) }, "No one advances")));
    return;
  }
  box.replaceChildren();
}

// The end-of-turn summary of a logged player-turn (GET /log?turn=N): its moves, its attacks
// with their odds, die and result, its eliminations, and what else happened (floods).
export function summaryBody(turn) {
  const events = turn.events || [];
  const of = (kinds) => events.filter((e) => kinds.includes(e.kind));
  const list = (items, empty) => (items.length ? el("ul", {}, items.map((e) => el("li", {}, e.text, rule(e.rule)))) : para(empty, "hint"));
  const attacks = combatReport(events, turn.rolls || [], null);
  const section = (title, body) => el("section", {}, el("h3", {}, title), body);
  const table = el("div");
  combatTable(table, attacks);
  return [
    section("Moves", list(of(["move", "rail", "naval", "air-drop", "air", "landing", "advance", "retreat"]), "no moves")),
    section("Attacks", table),
    section("Eliminated", list(of(["eliminated"]), "no unit eliminated")),
    section("Floods and more", list(of(["flood", "bridge", "surrender", "refused"]), "nothing else")),
  ];
}

// ---- the odds before an attack is declared ---------------------------------------------------

// POST /preview's answer in words, for the mover `side`: "Would be fought at 2:1 — 12 to 4,
// column 3:1 shifted -1 (rough) [B7.2]", and, when the owner may flood first, that it may change.
export function previewBody(p, side) {
  const owner = THE[side === "axis" ? "allied" : "axis"] || "the owner";
  // The server's text ends with the odds it shifts to, said first here.
  const how = (p.text || "").replace(new RegExp(` to ${p.odds.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`), "");
  const tries = (p.floods || []).map((f) => (f === "massive-flood" ? "massively flood" : "flood")).join(" or ");
  return [
    el("span", {}, "Would be fought at "), el("strong", { class: "odds-column" }, p.odds),
    ` — ${how}`, rule(p.rule),
    tries ? `. ${owner.charAt(0).toUpperCase()}${owner.slice(1)} may try to ${tries} ${p.hex} first (41.A.4), which can change it.` : ".",
  ];
}

// ---- a logged player-turn, step by step ------------------------------------------------------

const WHO = { axis: "Axis", allied: "Allies" };
const PHASE_NAMES = ["initial", "movement", "combat", "exploitation"];

// The phase each step of a logged player-turn was taken in: each phase ends with its end-phase
// step. `steps`: the log's (GET /log?turn=N&steps=true).
export function stepPhases(steps) {
  let k = 0;
  return (steps || []).map((s) => {
    const phase = PHASE_NAMES[Math.min(k, PHASE_NAMES.length - 1)];
    if (s.step?.["end-phase"]) k += 1;
    return phase;
  });
}

// The number of steps after which each phase had ended: [initial, movement, combat,
// exploitation]; null for a phase whose end is not among the steps.
export function phaseEnds(steps) {
  const ends = [];
  (steps || []).forEach((s, i) => {
    if (s.step?.["end-phase"] && ends.length < PHASE_NAMES.length) ends.push(i + 1);
  });
  while (ends.length < PHASE_NAMES.length) ends.push(null);
  if (steps?.length) ends[PHASE_NAMES.length - 1] = steps.length; // the last step ends the player-turn
  return ends;
}

// One step of a logged player-turn in words: "Axis moves de-18a 16A:1322 → 16A:1222", "Allies do
// not flood", "Axis: end of the movement phase". `describe`: an order in words (orders.js).
export function stepWords(step, side, phase, describe) {
  const s = step || {};
  const who = WHO[side] || side || "";
  const v = (one, many) => (side === "allied" ? many : one);
  const path = (p) => (p || []).join(" → ");
  if (s["end-phase"]) return `${who}: end of the ${phase} phase`;
  if (s.attack) {
    return `${who} ${v("attacks", "attack")} ${s.attack} with ${(s.units || []).join(", ")}`
      + (s["if-flooded"] === "call-off" ? " (called off if flooded)" : "");
  }
  if (s.flood === false) return `${who} ${v("does", "do")} not flood`;
  if (s.flood) return `${who} ${v("tries", "try")} to flood ${s.flood}`;
  if (s["massive-flood"]) return `${who} ${v("tries", "try")} a massive flood of ${s["massive-flood"]}`;
  if (s.prefer && s.hex) {
    if (!s.prefer.length) return `${who} ${v("lets", "let")} the rules choose the retreat from ${s.hex}`;
    return `${who} ${v("retreats", "retreat")} the stack at ${s.hex} ${s.prefer.length > 1 ? `preferring ${s.prefer.join(", ")}` : `to ${s.prefer[0]}`}`;
  }
  if (s.advance) return s.advance.length ? `${who} ${v("advances", "advance")} ${s.advance.join(", ")}` : `${who}: no one advances`;
  if (s.path && (s.units || s.unit)) return `${who} ${v("moves", "move")} ${(s.units || [s.unit]).join(", ")} ${path(s.path)}`;
  if (s.rail && s.path) return `${who} ${v("moves", "move")} ${s.rail.join(", ")} by rail ${path(s.path)}`;
  if (s.naval && s.path) {
    return `${who} ${v("moves", "move")} ${s.naval.join(", ")} by sea ${path(s.path)}${s.carry ? ` carrying ${s.carry.join(", ")}` : ""}`;
  }
  return `${who}: ${describe ? describe(s) : JSON.stringify(s)}`;
}

// The events and rolls of a [from, to) range of a logged player-turn; a missing range (a log of
// another rules version) is none.
function sliceOf(list, range) {
  return range ? (list || []).slice(range[0], range[1]) : [];
}

// The replay's words for step `k` of logged player-turn `turn` (with its steps): what the step
// was, its dice and events, and what the game waited for after it (`then`: /state's "step").
export function replayStepBody(turn, k, then, describe) {
  const steps = turn.steps || [];
  const phases = stepPhases(steps);
  const entry = k > 0 ? steps[k - 1] : null;
  const range = entry || turn.begun || {};
  const title = entry ? `Step ${k} of ${steps.length}: ${stepWords(entry.step, entry.side, phases[k - 1], describe)}`
    : `Step 0 of ${steps.length}: the player-turn begun (its weather and what comes before the first step)`;
  const rolls = sliceOf(turn.rolls, range.rolls);
  // The dice are listed as rolls; their events say the same, so are left out of the events.
  const from = range.events ? range.events[0] : 0;
  const events = sliceOf(turn.events, range.events).map((e, i) => [e, from + i + 1]).filter(([e]) => e.kind !== "die");
  const after = then?.prompt ? promptWords({ side: turn.side, prompt: then.prompt }, null).headline : "";
  return [
    el("h3", { id: "replay-step-title" }, title),
    rolls.length ? el("ul", { class: "dice", "aria-label": "its dice" }, rolls.map((r) => el("li", {},
      `d${r.sides} rolled ${r.value}: ${r.purpose}: ${r.decided}`, rule(r.rule)))) : null,
    events.length ? el("ol", { "aria-label": "its events" },
      events.map(([e, i]) => el("li", { "data-kind": e.kind, value: i }, e.text, rule(e.rule)))) : null,
    !range.events ? para("Its events are not told: the log is of another rules version.", "hint")
      : !rolls.length && !events.length ? para("No die rolled, nothing else happened.", "hint") : null,
    k === steps.length ? para("Then: the player-turn is over.", "then")
      : after ? para(`Then: ${after}${/[.?!]$/.test(after) ? "" : "."}`, "then") : null,
  ].filter(Boolean);
}

// The steps of logged player-turn `turn`, each a button that goes to the position after it; the
// step shown marked (aria-current).
export function replayStepList(list, turn, k, go, describe) {
  const steps = turn.steps || [];
  const phases = stepPhases(steps);
  const item = (i, words) => el("li", { "data-step": i, "aria-current": i === k ? "step" : null },
    el("button", { type: "button", class: "link", onclick: () => go(i) }, `${i}. ${words}`));
  list.replaceChildren(item(0, "begun (weather)"),
    ...steps.map((s, i) => item(i + 1, stepWords(s.step, s.side, phases[i], describe))));
  // The list scrolls to the step shown (the panel beside it does not move).
  const at = list.querySelector("[aria-current]");
  if (at && (at.offsetTop < list.scrollTop || at.offsetTop + at.offsetHeight > list.scrollTop + list.clientHeight)) {
    list.scrollTop = at.offsetTop - list.clientHeight / 2;
  }
}
