// The tactical page (web/tactical.html): a tactical board drawn by the server (POST
// /api/tactical/render, the SVG `opsim tactical render` writes), a line of sight or a path built by
// clicking it or typing, and the server's answer in words (POST /api/tactical/los and /move, the
// documents `opsim tactical los|move --json` print). The page decides no rule: every verdict, cost
// and rule id shown is the server's. Settings re-ask the question at once.

import { TacticalApi, ApiError } from "./api.js";
import { el, para } from "./panels.js";

const $ = (id) => document.getElementById(id);
const api = new TacticalApi();

// The unit kinds and flags `opsim tactical move --help` lists (docs/tactical.md, "move").
const UNIT_KINDS = ["infantry", "cavalry", "cycle", "bicycle", "fully-tracked", "truck", "amphibian", "boat", "landing-craft"];
const FLAGS = ["afv", "dozer", "waterproofed", "manhandling-gun", "manhandling-boat", "manhandling-motorcycle",
  "leading-horses", "pushing-motorcycle", "animal-packed", "towing-gun", "galloping", "commando", "japanese", "dummy",
  "column", "berserk", "broken", "pinned", "reduced", "immobilized", "large-target"];
const FILE = "file:"; // the board select's value for a board file opened from the disk

const state = {
  boards: [],
  source: null, // {board} or {board_text, board_file_name}: sent with every question
  sourceName: "",
  file: null, // {text, name}: the board file read last
  drawn: "", // the render question whose SVG is on the page
  seq: 0, // the latest question asked; older answers are dropped
  scale: 0, // px per SVG unit; 0: fit the board's width
  mode: "los",
};

// --- the question, as the flat JSON object the endpoints take (docs/api.md) ---

// The values of the controls with `data-key` under `root`: a select or field left empty and a box
// left clear are not sent (the CLI's option not given).
function valuesOf(root) {
  const body = {};
  for (const c of root.querySelectorAll("[data-key]")) {
    if (c.tagName === "FIELDSET") continue;
    const key = c.dataset.key;
    if (c.type === "checkbox") {
      if (c.checked) body[key] = true;
    } else if (c.value.trim() !== "") {
      body[key] = c.type === "number" ? Number(c.value) : c.value.trim();
    }
  }
  return body;
}

function settings() {
  return valuesOf($("settings"));
}

function losOptions() {
  return valuesOf($("los-form"));
}

function moveOptions() {
  const body = valuesOf($("move-form"));
  const flags = [...$("move-flags").querySelectorAll("input:checked")].map((c) => c.value);
  if (flags.length) body.flags = flags;
  return body;
}

function pathTokens() {
  return $("move-path").value.split(",").map((t) => t.trim()).filter(Boolean);
}

// What is asked now: `kind` "los", "move" or "" (the board only), the query for /los or /move, and
// the render question that draws it.
function question() {
  const base = { ...state.source, ...settings() };
  if (state.mode === "los") {
    const los = losOptions();
    if (los.from && los.to) {
      const { from, to, ...rest } = los;
      return { kind: "los", query: { ...base, ...los }, render: { ...base, ...rest, los: `${from},${to}` } };
    }
  } else if (pathTokens().length) {
    const move = moveOptions();
    move.path = pathTokens().join(",");
    return { kind: "move", query: { ...base, ...move }, render: { ...base, ...move } };
  }
  return { kind: "", query: null, render: base };
}

// --- asking ---

async function ask() {
  if (!state.source) return;
  const seq = ++state.seq;
  const q = question();
  const key = JSON.stringify(q.render);
  document.body.dataset.busy = "1";
  try {
    const [answer, drawing] = await Promise.all([
      q.kind === "los" ? api.los(q.query) : q.kind === "move" ? api.move(q.query) : null,
      key === state.drawn ? null : api.render(q.render),
    ]);
    if (seq !== state.seq) return;
    if (drawing) {
      draw(drawing.svg);
      state.drawn = key;
      if (q.kind) showThread();
    }
    clearError();
    delete $("board").dataset.stale;
    showAnswer(q.kind, answer);
  } catch (e) {
    if (seq !== state.seq) return;
    fail(e);
    $("verdict").textContent = "";
    $("answer").replaceChildren(para("No answer: the error above says what was wrong.", "hint"));
    $("in-effect").textContent = "";
    // The drawing on the page is of an earlier question: dimmed, and said.
    $("board").dataset.stale = "1";
    if (e instanceof ApiError && !state.drawn) {
      $("board").replaceChildren(para("The board could not be drawn: the error above says why.", "hint"));
    }
  } finally {
    if (seq === state.seq) {
      delete document.body.dataset.busy;
      document.body.dataset.asked = String(seq);
      showPicks();
    }
  }
}

// --- the board ---

function svgOf() {
  return $("board").querySelector("svg");
}

function draw(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.localName !== "svg" || doc.querySelector("parsererror")) {
    throw new Error("the server's drawing of the board is not an SVG");
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  const board = $("board");
  const keep = [board.scrollLeft, board.scrollTop];
  board.replaceChildren(document.importNode(svg, true));
  zoom(state.scale);
  [board.scrollLeft, board.scrollTop] = keep;
}

// Scrolls the LOS thread or the path into view when part of it is out of the board's view.
function showThread() {
  const thread = svgOf()?.querySelector(".thread");
  if (!thread) return;
  const board = $("board"), view = board.getBoundingClientRect(), t = thread.getBoundingClientRect();
  if (t.left >= view.left && t.right <= view.right && t.top >= view.top && t.bottom <= view.bottom) return;
  board.scrollLeft += (t.left + t.right) / 2 - (view.left + view.right) / 2;
  board.scrollTop += (t.top + t.bottom) / 2 - (view.top + view.bottom) / 2;
}

// `scale`: px per SVG unit (a hex is 18 units across its flats); 0 fits the board's width.
function zoom(scale) {
  const svg = svgOf();
  if (!svg) return;
  const box = svg.viewBox.baseVal;
  const board = $("board");
  const fit = (board.clientWidth - 8) / box.width;
  const s = scale || fit;
  const centre = [(board.scrollLeft + board.clientWidth / 2) / (board.scrollWidth || 1),
    (board.scrollTop + board.clientHeight / 2) / (board.scrollHeight || 1)];
  state.scale = scale ? Math.min(Math.max(scale, fit / 2, 1), 40) : 0;
  svg.style.width = `${Math.round(box.width * (state.scale || s))}px`;
  svg.style.height = `${Math.round(box.height * (state.scale || s))}px`;
  board.scrollLeft = centre[0] * board.scrollWidth - board.clientWidth / 2;
  board.scrollTop = centre[1] * board.scrollHeight - board.clientHeight / 2;
}

function zoomBy(factor) {
  const svg = svgOf();
  if (!svg) return;
  const now = state.scale || svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  zoom(now * factor);
}

// The hex a typed or clicked end stands in: a unit's (its drawing's data-hex), or the position's.
function hexOf(value) {
  const svg = svgOf();
  if (!svg || !value) return "";
  const unit = svg.querySelector(`[data-unit="${CSS.escape(value)}"]`);
  return unit ? unit.dataset.hex : value.split(":")[0];
}

// Outlines the hexes picked (a path's, the LOS's ends) and says what a click does next.
function showPicks() {
  const svg = svgOf();
  if (svg) {
    // Outlines (copies of the hexes' shapes) over the hexes and hexsides, so that no neighbour
    // hides them, and under the texts, units and the server's tags. A path is the server's to draw.
    svg.querySelector("g.picks")?.remove();
    const picks = document.createElementNS(svg.namespaceURI, "g");
    picks.setAttribute("class", "picks");
    svg.insertBefore(picks, svg.querySelector("g.hex-texts"));
    const mark = (value, cls) => {
      const hex = hexOf(value);
      const shape = hex && svg.querySelector(`polygon.hex[data-hex="${CSS.escape(hex)}"]`);
      if (!shape) return;
      const outline = picks.appendChild(document.createElementNS(svg.namespaceURI, "polygon"));
      outline.setAttribute("points", shape.getAttribute("points"));
      outline.setAttribute("class", `picked ${cls}`);
    };
    if (state.mode === "los") {
      mark($("los-from").value.trim(), "pick-from");
      mark($("los-to").value.trim(), "pick-to");
    }
  }
  const from = $("los-from").value.trim(), to = $("los-to").value.trim(), path = pathTokens();
  const next = state.mode === "los"
    ? !from ? "Click the firer (From)." : !to ? `From ${from}: click the target (To).` : `LOS ${from} to ${to}; a click starts a new one from there.`
    : !path.length ? "Click the hex the unit starts in." : `Path ${path.join(", ")}: click the next hex.`;
  const stale = $("board").dataset.stale ? " (No answer: the board, dimmed, is the last one drawn.)" : "";
  $("board-status").textContent = `${state.sourceName}. ${next}${stale}`;
}

// What is under a click: the topmost drawn unit (its name) or hex (its coordinate).
function pickAt(x, y) {
  for (const e of document.elementsFromPoint(x, y)) {
    if (!$("board").contains(e)) continue;
    const unit = e.closest("[data-unit]");
    if (unit) return { unit: unit.dataset.unit, hex: unit.dataset.hex, at: unit.dataset.at };
    const hex = e.closest("[data-hex]");
    if (hex) return { hex: hex.dataset.hex };
  }
  return null;
}

function clicked(ev) {
  const hit = pickAt(ev.clientX, ev.clientY);
  if (!hit) return;
  if (state.mode === "los") {
    const end = hit.unit || hit.hex;
    const from = $("los-from"), to = $("los-to");
    if (!from.value.trim() || to.value.trim()) {
      from.value = end;
      to.value = "";
    } else {
      to.value = end;
    }
  } else {
    // A unit clicked is its position, its place in the hex included (37DD7:beneath).
    $("move-path").value = [...pathTokens(), hit.at || hit.hex].join(",");
  }
  ask();
}

// --- the answer, in words ---

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const ruleSpan = (r) => (r ? el("span", { class: "rule" }, `[${r}]`) : "");

function factorRows(cls, title, items, total) {
  const rows = [el("tr", { class: "group" }, el("th", { colspan: 3, scope: "rowgroup" }, title))];
  for (const f of items) {
    rows.push(el("tr", { class: cls },
      el("td", { class: "what" }, f.what), el("td", { class: "amount" }, f.amount ? signed(f.amount) : ""),
      el("td", { class: "rule" }, f.rule)));
  }
  if (!items.length) rows.push(el("tr", { class: `${cls} none` }, el("td", { colspan: 3 }, "none")));
  if (total !== undefined) rows.push(el("tr", { class: `${cls}-total` }, el("td", {}, "in all"), el("td", { class: "amount" }, signed(total)), el("td", {})));
  return rows;
}

function settingsWords(s) {
  if (!s) return "";
  const words = [s.paddy === "unset" ? "paddy state not set" : `paddies ${s.paddy}`, `EC ${s.ec}`,
    s.slope === "unset" ? "slope not set" : `slope ${s.slope}`];
  words.push(`tide ${s.tide}`, `reef ${s.reef}`, `OCEAN is ${s.water}`, `seawall ${s.seawall}`);
  for (const [k, w] of [["pto", "PTO Terrain"], ["heavy_surf", "Heavy Surf"], ["frozen", "OCEAN frozen"]]) {
    if (s[k]) words.push(w);
  }
  return `In effect: ${words.join(", ")}.`;
}

function paddyRoll(r) {
  return r ? para(`Paddy state rolled [${r.rule}]: dr ${r.dr}${r.drm ? ` ${signed(r.drm)}` : ""} = ${r.final}: ${r.state}.`) : null;
}

function losAnswer(a) {
  if (a.ruleset === "samurai") {
    $("verdict").replaceChildren(el("span", { class: a.los ? "legal" : "illegal" },
      `LOS ${a.from} → ${a.to}: ${a.los ? "clear" : "blocked"}`),
    a.blocked ? el("span", {}, `: ${a.blocked.what} `, ruleSpan(a.blocked.rule)) : "");
    return [el("table", { class: "report", id: "los-hexes" },
      el("tr", {}, el("th", {}, "hex"), el("th", {}, "what it does to LOS"), el("th", {}, "rule")),
      a.hexes.map((h) => el("tr", { class: "hex" }, el("td", {}, h.hex), el("td", { class: "what" }, h.ruling), el("td", { class: "rule" }, h.rule))))];
  }
  const ends = `LOS ${a.from.at} (Level ${a.from.level}) → ${a.to.at} (Level ${a.to.level})`;
  $("verdict").replaceChildren(a.los
    ? el("span", { class: "legal" }, `${ends}: clear, Hindrance ${signed(a.hindrance)}; vs ${a.attack}, TEM ${signed(a.tem)}`)
    : el("span", { class: "illegal" }, `${ends}: NO LOS, blocked: ${a.blocked.what} `, ruleSpan(a.blocked.rule)));
  const path = a.path.map((h, i) => (i === 0 ? `${h} (firer)` : i === a.path.length - 1 ? `${h} (target)` : h));
  const rows = [];
  if (a.blocked) rows.push(...factorRows("blocks", "Blocked by", [{ what: a.blocked.what, rule: a.blocked.rule, amount: 0 }]));
  rows.push(...factorRows("hindrance", "Hindrance", a.hindrances, a.hindrance));
  rows.push(...factorRows("tem", `TEM vs ${a.attack}`, a.tem_items, a.tem));
  if (a.fp.length) rows.push(...factorRows("fp", "Firepower", a.fp));
  if (a.drm.length) rows.push(...factorRows("drm", "DRM", a.drm));
  if (a.notes.length) rows.push(...factorRows("note", "Notes", a.notes));
  const status = [["open_ground", "the target is in Open Ground"], ["hd", "Hull Down"], ["wall_advantage", "wall advantage"],
    ["height_advantage", "height advantage"], ["entrenched", "the target is entrenched"]].filter(([k]) => a[k]).map(([, w]) => w);
  return [
    paddyRoll(a.paddy_dr),
    para(`The thread crosses ${path.join(" → ")}${a.along.length ? `; it runs along hexside${a.along.length > 1 ? "s" : ""} ${a.along.join(", ")}` : ""}.`),
    el("table", { class: "report", id: "los-factors" },
      el("tr", {}, el("th", {}, "what"), el("th", {}, "adds"), el("th", {}, "rule")), rows),
    status.length ? para(`Also: ${status.join("; ")}.`) : null,
    a.refusals.length ? el("ul", { class: "illegal" }, a.refusals.map((r) => el("li", {}, `The firer may not: ${r}`))) : null,
  ];
}

function moveAnswer(a) {
  const unit = a.unit_after && a.unit_after !== a.unit ? `${a.unit} (after: ${a.unit_after})` : a.unit;
  $("verdict").replaceChildren(a.legal
    ? el("span", { class: "legal" }, `${unit}: legal, ${a.total_text} ${a.points} in total${a.cx ? ", CX" : ""}`)
    : el("span", { class: "illegal" }, `${unit}: illegal: ${a.refusal.message} `, ruleSpan(a.refusal.rule)));
  const rows = a.steps.map((s, i) => el("tr", { class: `step${s.refusal ? " refused" : ""}` },
    el("td", { class: "n" }, i === 0 ? "start" : String(i)),
    el("td", { class: "to" }, s.to, s.step !== s.to ? el("span", { class: "hint" }, ` (${s.step})`) : ""),
    el("td", { class: "cost" }, i === 0 ? "" : s.refusal ? "refused" : `${s.cost_text} ${a.points}`),
    el("td", { class: "why" },
      s.charges.map((c) => el("div", { class: "charge" }, `${c.cost_text} `, ruleSpan(c.rule), ` ${c.what}`)),
      s.notes.map((n) => el("div", { class: "note" }, "note ", ruleSpan(n.rule), ` ${n.text}`)),
      s.refusal ? el("div", { class: "illegal" }, "REFUSED ", ruleSpan(s.refusal.rule), ` ${s.refusal.message}`) : "")));
  return [
    paddyRoll(a.paddy_dr),
    el("table", { class: "report", id: "move-steps" },
      el("tr", {}, el("th", {}, "step"), el("th", {}, "to"), el("th", {}, "cost"), el("th", {}, "why (rule)")), rows),
  ];
}

function showAnswer(kind, a) {
  if (!kind) {
    $("verdict").textContent = "";
    $("answer").replaceChildren(para(state.mode === "los" ? "Click the firer, then the target." : "Click a start hex, then each hex stepped into.", "hint"));
    $("in-effect").textContent = "";
    return;
  }
  $("answer").replaceChildren(...(kind === "los" ? losAnswer(a) : moveAnswer(a)).filter(Boolean));
  $("in-effect").textContent = settingsWords(a.settings);
}

// --- errors ---

function clearError() {
  $("error").hidden = true;
  for (const c of document.querySelectorAll("[aria-invalid]")) c.removeAttribute("aria-invalid");
}

// A control's words: its label's, without the words of the options inside it.
function labelOf(control) {
  const label = control.tagName === "FIELDSET" ? control.querySelector("legend") : control.labels?.[0];
  if (!label) return control.dataset.key;
  const words = label.cloneNode(true);
  for (const c of words.querySelectorAll("select, input")) c.remove();
  return words.textContent.trim();
}

// Says what was wrong: the server's where, message and rule (a board file's error names the file
// and line), and marks the control of the key the error's `where` points at, if any.
function fail(e) {
  let text = e instanceof Error ? e.message : String(e);
  if (e instanceof ApiError) {
    // A key of the question (`request body:1: /seed`) is named as the page labels its control.
    const key = e.pointer.split("/")[1];
    const control = key && document.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (control) {
      control.setAttribute("aria-invalid", "true");
      text = `${labelOf(control)}: ${text}`;
    } else if (e.where) {
      text = `${e.where}: ${text}`;
    }
    text += `\n(HTTP ${e.status || "—"}, ${e.code}${control ? `; ${e.where}` : ""})`;
  }
  $("error-text").textContent = text;
  $("error").hidden = false;
  // A warning: a refused question is an answer of the server, not a page error.
  console.warn("opsim tactical:", text);
}

// --- the board chosen ---

function boardWords(b) {
  return `${b.title}: ${b.hexes} hexes, ${b.columns} columns by ${b.rows} rows (${b.grids.map((g) => `${g.name}, ${g.role}`).join("; ")}); ${b.units} units.`;
}

// A board chosen: its own settings (the controls back to "the board's") and no question yet.
function useSource(source, name, info) {
  state.source = source;
  state.sourceName = name;
  state.drawn = "";
  state.scale = 0;
  $("board-info").textContent = info;
  $("board").replaceChildren();
  $("settings").reset();
  for (const id of ["los-from", "los-to", "move-path"]) $(id).value = "";
  ask();
}

function chooseBundled(name) {
  const b = state.boards.find((x) => x.name === name);
  $("board-name").value = name;
  useSource({ board: name }, name, b ? boardWords(b) : "");
}

// The board file read last, which the board list offers again as "file: NAME".
function chooseFile() {
  const { text, name } = state.file;
  $("board-name").value = FILE;
  useSource({ board_text: text, board_file_name: name }, name,
    `${name}, from your disk: its text goes with each question (docs/tactical.md, "Board files").`);
}

function openFile(file) {
  const reader = new FileReader();
  reader.onload = () => {
    const select = $("board-name");
    select.querySelector(`option[value="${FILE}"]`)?.remove();
    select.append(el("option", { value: FILE }, `file: ${file.name}`));
    state.file = { text: reader.result, name: file.name };
    chooseFile();
  };
  reader.onerror = () => fail(new Error(`${file.name}: cannot be read (${reader.error?.message || "unknown error"})`));
  reader.readAsText(file);
}

function setMode(mode) {
  state.mode = mode;
  document.querySelector(`input[name="mode"][value="${mode}"]`).checked = true;
  $("los-form").hidden = mode !== "los";
  $("move-form").hidden = mode !== "move";
  ask();
}

// --- wiring ---

function typing(target) {
  return target.closest("input:not([type=checkbox]):not([type=radio]), select, textarea");
}

function wire() {
  for (const s of document.querySelectorAll("select.unit-kinds")) s.append(...UNIT_KINDS.map((k) => el("option", { value: k }, k)));
  $("move-flags").append(...FLAGS.map((f) => el("label", {}, el("input", { type: "checkbox", value: f }), ` ${f}`)));
  $("board-name").addEventListener("change", (ev) => (ev.target.value === FILE ? chooseFile() : chooseBundled(ev.target.value)));
  $("board-file").addEventListener("change", (ev) => {
    const file = ev.target.files[0];
    if (file) openFile(file);
    ev.target.value = "";
  });
  for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", () => setMode(r.value));
  for (const form of [$("los-form"), $("move-form")]) {
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      ask();
    });
    // An option changed re-asks; the ends and the path are asked on Enter (or a click).
    form.addEventListener("change", (ev) => {
      if (!["los-from", "los-to", "move-path"].includes(ev.target.id)) ask();
      else showPicks();
    });
  }
  $("settings").addEventListener("change", () => ask());
  $("settings").addEventListener("submit", (ev) => {
    ev.preventDefault();
    ask();
  });
  $("los-swap").addEventListener("click", () => {
    [$("los-from").value, $("los-to").value] = [$("los-to").value, $("los-from").value];
    ask();
  });
  $("los-clear").addEventListener("click", () => {
    $("los-from").value = $("los-to").value = "";
    ask();
  });
  $("move-back").addEventListener("click", () => {
    $("move-path").value = pathTokens().slice(0, -1).join(",");
    ask();
  });
  $("move-clear").addEventListener("click", () => {
    $("move-path").value = "";
    ask();
  });
  $("board").addEventListener("click", clicked);
  $("zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => zoomBy(0.8));
  $("zoom-fit").addEventListener("click", () => zoom(0));
  $("error-close").addEventListener("click", clearError);
  window.addEventListener("resize", () => state.scale || zoom(0));
  $("board").addEventListener("keydown", (ev) => {
    const act = { "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(0.8), "0": () => zoom(0),
      Backspace: () => state.mode === "move" && $("move-back").click() }[ev.key];
    if (act && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      ev.preventDefault();
      act();
    }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "Escape") {
      if (!$("error").hidden) return clearError();
      return state.mode === "los" ? $("los-clear").click() : $("move-clear").click();
    }
    if (typing(ev.target)) return;
    if (ev.key === "l" || ev.key === "L") setMode("los");
    else if (ev.key === "m" || ev.key === "M") setMode("move");
  });
}

async function main() {
  wire();
  try {
    const answer = await api.boards();
    state.boards = answer.boards;
    $("board-name").replaceChildren(...state.boards.map((b) => el("option", { value: b.name }, `${b.name}: ${b.title}`)));
    const wanted = new URLSearchParams(location.search).get("board");
    // The G8.2108 illustration first (it needs no setting the file leaves open but the paddies').
    const first = state.boards.find((b) => b.name === wanted) || state.boards.find((b) => b.name === "g8_2108") || state.boards[0];
    if (first) chooseBundled(first.name);
    else $("board-status").textContent = "The server has no bundled board: open a board file.";
  } catch (e) {
    fail(e);
  }
}

main();
