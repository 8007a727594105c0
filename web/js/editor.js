// The workshop (edit.html, docs/editor.md): a scenario opened (bundled, from the disk, or a new
// blank theater), drawn by the table's own map, painted with tools that each change the scenario
// document and the map together, undone and redone by strokes; each change checked by the server
// as `opsim scenario check` checks it, saved as `opsim scenario format` lays it out, and played
// as a hosted game. An image underlay stays in the page.

import { MapView, READABLE_SCALE } from "./mapview.js";
import { Minimap } from "./minimap.js";
import { TERRAIN_COLORS, STYLE } from "./style.js";
import { ScenarioApi } from "./api.js";
import { el, para } from "./panels.js";
import { Scenario, TERRAIN, FEATURES, WATERS, CROSSING, ROLES, UNIT_TYPES, DIRS, EDGES, WATERWAY_RULES, blankScenario, parseSheets, sheetsOf } from "./editor-model.js";

const $ = (id) => document.getElementById(id);
const CHECK_DELAY = 400; // ms after the last change before the server checks the document
const TOOL_KEYS = ["zone", "select", "brush", "fill", "hexside", "place", "unit", "area", "control", "calibrate"]; // keys 0 … 9
const LETTER_TOOLS = { b: "water", w: "waterway", t: "ferry", q: "exit" }; // bodies of water, waterways, train ferries, exits
// The tools that work on hexsides: a click on one, a drag along them (or, for rail ferries and
// the hexside tool's roads and railroads, from hex to hex).
const SIDE_TOOLS = new Set(["hexside", "waterway", "ferry"]);
// The tools a drag paints hex by hex.
const HEX_DRAG_TOOLS = new Set(["area", "control", "zone", "exit"]);
const HINTS = {
  select: "Click a hex to see everything on it; drag to pan.",
  brush: "Click or drag to paint the terrain chosen (its key: the file's code). Shift-drag pans.",
  fill: "Click a hex: it and every hex of its terrain joined to it take the terrain chosen.",
  hexside: "Rivers, canals and borders: click a hexside, or drag along hexsides. Roads and railroads: drag from hex to hex. A click on a hexside that has it takes it off.",
  place: "Click a hex to give it the place in the form.",
  unit: "Click a hex for a new unit; click a counter to edit it; drag a counter to move it.",
  area: "Click or drag over hexes to add them to the area chosen.",
  control: "Click or drag over hexes to give them to the side chosen at the start.",
  zone: "Click or drag over hexes to put them in the weather zone typed (a capital letter).",
  water: "Click a hex with sea: its bodies of water become the form's.",
  waterway: "Click a hexside or drag along hexsides: they join the waterway chosen.",
  ferry: "Drag from a land terminal across the water to the other: a rail ferry line.",
  exit: "Click or drag over map-edge hexes: they join the exit chosen.",
  calibrate: "Load an image, then click the centre of the first hex on it, then the second's; a third click on the check hex says how far off the grid is.",
};

// A file the browser downloads (JSON text): nothing leaves the machine.
function download(name, text) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}

class Workshop {
  constructor() {
    this.api = new ScenarioApi();
    this.scn = null;
    this.done = []; // strokes: each a list of edits ({hexes, undo})
    this.undone = [];
    this.stroke = null;
    this.selected = -1; // the hex shown in the Hex panel
    this.unit = ""; // the selected unit's id
    this.lastCheck = null; // the server's last answer, and the document's text it answered
    this.checkedText = "";
    this.openedMs = 0; // how long the last opening took, until its map was drawn
    this.lastSaved = "";
    this.map = new MapView($("map"), {
      hexClick: (hex) => this.showHex(hex),
      stackClick: () => {},
      unitClick: (u) => this.pickUnit(u.id),
      press: (e, x, y) => this.press(e, x, y),
      drag: (e, x, y) => this.drag(x, y),
      release: () => this.release(),
      hover: (x, y) => this.hover(x, y),
    });
    this.minimap = new Minimap($("minimap"), this.map, $("minimap-where"));
    this.map.onView = () => this.minimap.update();
    this.controls();
    this.listenCounters();
  }

  fail(message) {
    $("error-text").textContent = message;
    $("error").hidden = false;
  }
  notice(text) {
    $("notice").textContent = text;
  }

  // ---- opening ----

  // `t0`: when the opening began (performance.now()), for `openedMs`: until the map is drawn.
  // The server says which sheets are drawn as one panel (asked once an opening: an edit never
  // changes the sheets); of two openings under way, the last one asked is the one drawn.
  async open(doc, name, t0 = performance.now()) {
    const opening = (this.opening = (this.opening || 0) + 1);
    let scn;
    try {
      const panels = await this.api.panels(sheetsOf(doc));
      if (opening !== this.opening) return;
      scn = new Scenario(doc, panels);
    } catch (e) {
      // The server's error is about the sheets sent, which are the document's, one for one.
      if (opening === this.opening) this.fail(`${name}: ${e.pointer ? `${e.pointer}: ` : ""}${e.message}`);
      return;
    }
    $("error").hidden = true;
    $("play-panel").hidden = true;
    this.notice("");
    this.scn = scn;
    this.name = name;
    this.done = [];
    this.undone = [];
    this.selected = -1;
    this.unit = "";
    this.lastSaved = "";
    this.savedAt = null; // the last stroke when saved: changes since are not in a file yet
    scn.added = false;
    this.map.setTheater(scn.theater);
    this.map.setPosition(scn.position());
    this.errorEdge = this.hoverEdge = null;
    this.map.setOverlay({ selected: -1, target: -1, path: [], choices: null, edges: [] });
    this.map.setTags([]);
    this.map.fit();
    this.map.onDrawn = () => {
      this.map.onDrawn = null;
      this.openedMs = performance.now() - t0;
      this.minimap.build();
    };
    const [a, b] = [0, scn.hexes.length - 1].map((i) => scn.hexes[i].hex);
    $("cal-a").value ||= a;
    $("cal-b").value ||= b;
    $("cal-c").value ||= scn.hexes[Math.floor(scn.hexes.length / 2)].hex;
    this.fillForms();
    this.fillUnitTypes();
    this.markUnit();
    this.showHex(-1);
    this.updateInfo();
    this.check();
  }

  async openBundled(name) {
    try {
      await this.open(await this.api.scenario(name), name);
    } catch (e) {
      this.fail(`${name}: ${e.message}`);
    }
  }

  async openFile(file) {
    const t0 = performance.now();
    let doc;
    try {
      doc = JSON.parse(await file.text());
    } catch (e) {
      this.fail(`${file.name}: not JSON: ${e.message}`);
      return;
    }
    await this.open(doc, file.name.replace(/\.json$/, ""), t0);
  }

  updateInfo() {
    const s = this.scn;
    const changes = this.done.length ? `, ${this.done.length} change${this.done.length > 1 ? "s" : ""}` : "";
    $("doc-info").textContent = `${s.doc.name || this.name}: ${s.doc.title || ""} (${s.hexes.length.toLocaleString("en")} hexes${changes})`;
    $("undo").disabled = !this.done.length;
    $("redo").disabled = !this.undone.length;
  }

  // ---- edits, strokes, undo ----

  begin() {
    this.stroke = [];
  }
  // One edit of the stroke in progress (null: nothing changed).
  take(edit) {
    if (!edit) return;
    this.stroke.push(edit);
    this.map.repaint(edit.hexes);
  }
  end() {
    this.synced();
    const stroke = this.stroke;
    this.stroke = null;
    if (!stroke?.length) return;
    this.done.push(stroke);
    this.undone = [];
    this.changed();
  }
  // Each edit's undo, last first: the stroke that redoes it.
  replay(from, to) {
    const stroke = from.pop();
    if (!stroke) return;
    const back = stroke.reverse().map((edit) => edit.undo()).filter(Boolean);
    for (const edit of back) this.map.repaint(edit.hexes);
    to.push(back);
    this.synced();
    this.changed();
    this.fillForms();
  }
  undo() {
    this.replay(this.done, this.undone);
  }
  redo() {
    this.replay(this.undone, this.done);
  }
  // The map's hexsides indexed again when edits made new ones (once a press, a move, a release
  // or an undo: a fill may make thousands).
  synced() {
    if (this.scn.added) {
      this.scn.added = false;
      this.map.indexHexsides();
    }
  }
  changed() {
    this.map.setPosition(this.scn.position());
    this.markUnit();
    this.showHex(this.selected);
    this.fillLists();
    this.updateInfo();
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.check(), CHECK_DELAY);
    clearTimeout(this.miniTimer);
    this.miniTimer = setTimeout(() => this.minimap.build(), 1500);
  }
  // One edit as its own stroke.
  once(edit) {
    this.begin();
    this.take(edit);
    this.end();
  }

  // ---- the tools on the map ----

  get tool() {
    return document.querySelector("input[name=tool]:checked").value;
  }
  setTool(tool) {
    document.querySelector(`input[name=tool][value="${tool}"]`).checked = true;
    this.toolChanged();
  }
  toolChanged() {
    const tool = this.tool;
    for (const f of document.querySelectorAll("[data-tools]")) f.hidden = !f.dataset.tools.split(" ").includes(tool);
    $("tool-hint").textContent = HINTS[tool];
    $("map").dataset.tool = tool;
    this.showToolMarks();
  }
  get erase() {
    return $("erase").checked;
  }

  hexAt(x, y) {
    return this.map.hexAt(x, y);
  }
  // The hexside nearest a canvas point, as [a, b] hex indices, when within `near` world units of
  // its middle; else null. Every hexside counts, not only those the map draws.
  sideAt(x, y, near) {
    const a = this.hexAt(x, y);
    if (a < 0) return null;
    const [wx, wy] = this.map.toWorld(x, y), h = this.scn.hexes;
    let best = null, bestD = near * near;
    for (const b of this.scn.neighbours(a)) {
      const d = ((h[a].x + h[b].x) / 2 - wx) ** 2 + ((h[a].y + h[b].y) / 2 - wy) ** 2;
      if (d < bestD) {
        bestD = d;
        best = [a, b];
      }
    }
    return best;
  }

  press(e, x, y) {
    if (!this.scn || e.button !== 0 || e.shiftKey) return false;
    const tool = this.tool, hex = this.hexAt(x, y);
    if (tool === "select") return false;
    if (tool === "calibrate") return this.calibrateAt(x, y);
    if (hex < 0 && !SIDE_TOOLS.has(tool)) return false;
    this.begin();
    this.drag0 = { x, y, hex, moved: false, sides: new Set(), line: hex >= 0 ? [hex] : [] };
    this.onHex(tool, hex);
    this.synced();
    return true;
  }
  // The tool's work on one hex (a press, or Enter on the hex shown in the Hex panel).
  onHex(tool, hex) {
    if (tool === "brush") this.brush(hex);
    else if (tool === "fill") this.fill(hex);
    else if (tool === "place") this.place(hex);
    else if (tool === "unit") this.newUnit(hex);
    else if (tool === "area") this.listHex("areas", $("area-pick"), hex);
    else if (tool === "exit") this.listHex("exits", $("exit-pick"), hex);
    else if (tool === "control") this.control(hex);
    else if (tool === "zone") this.zone(hex);
    else if (tool === "water") this.waterHex(hex);
  }

  drag(x, y) {
    const d = this.drag0;
    if (!d) return;
    const tool = this.tool, hex = this.hexAt(x, y);
    if (!d.moved && Math.abs(x - d.x) + Math.abs(y - d.y) > 4) {
      d.moved = true;
      if (SIDE_TOOLS.has(tool)) this.sideDrag(d.x, d.y, d.hex); // the hexside pressed on first
    }
    if (tool === "brush" && hex >= 0) this.brush(hex);
    else if (HEX_DRAG_TOOLS.has(tool) && hex >= 0 && hex !== d.hex) {
      d.hex = hex;
      this.onHex(tool, hex);
    } else if (SIDE_TOOLS.has(tool) && d.moved) this.sideDrag(x, y, hex);
    this.synced();
  }

  release() {
    const d = this.drag0, tool = this.tool;
    this.drag0 = null;
    if (d && SIDE_TOOLS.has(tool) && !d.moved) {
      const side = this.sideAt(d.x, d.y, 0.6);
      if (side) this.sideClick(tool, side[0], side[1]);
    }
    if (d && tool === "ferry") {
      this.map.setOverlay({ path: [] });
      if (d.moved && !this.erase && d.line.length >= 2) this.take(this.scn.addFerry($("ferry-name").value.trim() || "rail ferry", d.line));
    }
    this.end();
  }
  // A click on the hexside a|b: the hexside tool's kind on (or off, if it has it or erasing); the
  // hexside in the waterway chosen (or out); a rail ferry there taken away (erasing).
  sideClick(tool, a, b) {
    if (tool === "hexside") {
      const kind = $("side-kind").value, s = this.scn.side(a, b, false);
      const has = !!s && (WATERS.includes(kind) ? s.override === kind : s.features.includes(kind));
      this.take(this.scn.setSide(a, b, kind, !has && !this.erase));
    } else if (tool === "waterway") {
      const k = Number($("waterway-pick").value), s = this.scn.side(a, b, false);
      if (!this.waterwayChosen()) return;
      this.take(this.scn.setWaterwaySide(a, b, k, !(s && s.waterway === k) && !this.erase));
    } else if (this.erase) {
      this.take(this.scn.dropFerries(this.scn.ferriesAt(a, b)));
    } else {
      this.notice("A rail ferry is dragged: from a land terminal, hex to hex across the water, to the other.");
    }
  }

  brush(hex) {
    const terrain = this.terrain;
    const hexes = [hex];
    if ($("brush-size").value === "1") hexes.push(...this.scn.neighbours(hex));
    for (const i of hexes) {
      this.take(TERRAIN[terrain] ? this.scn.setTerrain(i, TERRAIN[terrain]) : this.scn.setCoast(i, terrain));
    }
  }

  // Flood fill: the hex and every hex of its terrain joined to it.
  fill(hex) {
    const to = TERRAIN[this.terrain];
    const from = this.scn.hexes[hex].terrain;
    if (!to || to === from) return;
    const seen = new Set([hex]), todo = [hex];
    while (todo.length) {
      const i = todo.pop();
      this.take(this.scn.setTerrain(i, to));
      for (const n of this.scn.neighbours(i)) {
        if (!seen.has(n) && this.scn.hexes[n].terrain === from) {
          seen.add(n);
          todo.push(n);
        }
      }
    }
  }

  // Dragging hexsides: roads and rail across the hexsides between the hexes passed; the rest
  // along the hexside nearest the pointer.
  sideDrag(x, y, hex) {
    const d = this.drag0, tool = this.tool, kind = $("side-kind").value;
    let side = null;
    if (tool === "ferry" || (tool === "hexside" && CROSSING.has(kind))) {
      if (hex >= 0 && d.hex >= 0 && hex !== d.hex && this.scn.dirOf(d.hex, hex) >= 0) side = [d.hex, hex];
      if (hex >= 0 && (tool !== "ferry" || side)) d.hex = hex; // a ferry's line runs hex to next hex
    } else {
      side = this.sideAt(x, y, 0.45);
    }
    if (!side) return;
    if (tool === "ferry") {
      // The line so far, drawn as it is dragged; made a ferry on release.
      if (!this.erase) d.line.push(side[1]);
      this.map.setOverlay({ path: d.line });
      return;
    }
    const key = Math.min(...side) + "|" + Math.max(...side);
    if (d.sides.has(key)) return;
    d.sides.add(key);
    if (tool === "hexside") this.take(this.scn.setSide(side[0], side[1], kind, !this.erase));
    else if (this.waterwayChosen()) this.take(this.scn.setWaterwaySide(side[0], side[1], Number($("waterway-pick").value), !this.erase));
  }

  place(hex) {
    if (this.erase) {
      if (this.scn.placeAt(hex)) this.take(this.scn.setPlace(hex, null));
      return;
    }
    const p = {};
    if ($("place-name").value.trim()) p.name = $("place-name").value.trim();
    if ($("place-city").value) p.city = $("place-city").value;
    if ($("place-port").value) p.port = $("place-port").value;
    if ($("place-inland").checked) p.inland = true;
    if ($("place-airbase").checked) p.airbase = true;
    if (!Object.keys(p).length) {
      this.notice("The place form is empty: give a name, a city, a port or an airbase.");
      return;
    }
    this.take(this.scn.setPlace(hex, p));
  }

  // ---- units ----

  // The unit the form describes, as its campaign list ("units", "air", "naval") holds it.
  unitForm() {
    const num = (id) => Number($(id).value);
    const u = { id: $("unit-id").value.trim(), name: $("unit-name").value.trim(), nationality: $("unit-nat").value.trim() };
    const list = $("unit-kind").value;
    if (list === "units") {
      Object.assign(u, { type: $("unit-type").value, attack: num("unit-attack"), defense: num("unit-defense"), mp: num("unit-mp"), re: num("unit-re") });
      // B16.1: a reinforcement's game turn; none, a unit there at the start.
      const arrives = $("unit-arrives").value.trim();
      if (arrives) u.arrives = arrives;
    }
    if (list === "naval") u.kind = $("unit-naval").value;
    return [list, u];
  }
  // The unit types the scenario's rules define inline (B3.1), else the base rules' ten; and
  // `also`, a unit's own type, so that picking it never loses it.
  fillUnitTypes(also) {
    const own = this.scn?.doc.campaign?.rules?.units?.types;
    const types = Array.isArray(own) ? own.map((t) => String(t?.type)) : [...UNIT_TYPES];
    if (also && !types.includes(also)) types.push(also);
    const now = $("unit-type").value;
    $("unit-type").replaceChildren(...types.map((t) => el("option", { value: t }, t)));
    if (types.includes(now)) $("unit-type").value = now;
  }
  // The form's fields for the kind of unit chosen.
  unitKind() {
    const list = $("unit-kind").value;
    for (const f of document.querySelectorAll("#unit-form .ground")) f.hidden = list !== "units";
    for (const f of document.querySelectorAll("#unit-form .naval")) f.hidden = list !== "naval";
  }
  // The campaign's list holding unit `id`, and its index there.
  findUnit(id) {
    const c = this.scn.doc.campaign || {};
    for (const key of ["units", "air", "naval"]) {
      const k = (c[key] || []).findIndex((u) => String(u.id) === id);
      if (k >= 0) return [key, k];
    }
    return null;
  }
  freshId(id) {
    let base = id || "unit", n = 1, out = base;
    const m = /^(.*?)(\d+)$/.exec(base);
    if (m) [base, n] = [m[1], Number(m[2])];
    while (this.findUnit(out)) out = `${base}${++n}`;
    return out;
  }
  newUnit(hex) {
    const [list, form] = this.unitForm();
    const id = this.freshId(form.id);
    const u = { ...form, id, name: form.name || id, hex: this.scn.hexes[hex].hex };
    this.take(this.scn.edit(["campaign"], (doc) => {
      doc.campaign ||= { start: "May I 1940", first: "axis", nationalities: {} };
      (doc.campaign[list] ||= []).push(u);
    }));
    // The form shows the new unit, selected: Apply changes it; the next click makes another,
    // numbered on.
    this.unit = id;
    $("unit-id").value = id;
  }
  pickUnit(id) {
    if (this.dragged) return;
    this.unit = id;
    const at = this.findUnit(id);
    if (!at) return;
    const u = this.scn.doc.campaign[at[0]][at[1]];
    $("unit-kind").value = at[0];
    $("unit-id").value = u.id;
    $("unit-name").value = u.name || "";
    $("unit-nat").value = u.nationality || "";
    if (at[0] === "units") {
      this.fillUnitTypes(u.type);
      $("unit-type").value = u.type || "infantry";
      for (const k of ["attack", "defense", "mp", "re"]) $(`unit-${k}`).value = u[k] ?? "";
      $("unit-arrives").value = u.arrives || "";
    }
    if (at[0] === "naval") $("unit-naval").value = u.kind || "tf";
    this.unitKind();
    this.markUnit();
    const hex = this.scn.hexIndex(String(u.hex).split("#")[0]);
    if (hex >= 0) this.showHex(hex);
  }
  markUnit() {
    for (const u of this.map.position?.units || []) u.selected = u.id === this.unit;
    this.map.redraw();
    $("unit-apply").disabled = $("unit-delete").disabled = !this.findUnit(this.unit);
  }
  applyUnit() {
    const at = this.findUnit(this.unit);
    if (!at) return;
    const [list, form] = this.unitForm();
    if (form.id !== this.unit && this.findUnit(form.id)) {
      this.fail(`There is a unit ${form.id} already: ids are unique.`);
      return;
    }
    this.once(this.scn.edit(["campaign"], (doc) => {
      // Its own keys the form has not (a naval unit's at-sea) are kept, unless its kind changed.
      const [u] = doc.campaign[at[0]].splice(at[1], 1);
      const kept = list === at[0] ? u : { hex: u.hex };
      if (list === "units") delete kept.arrives; // the form says whether it is a reinforcement
      (doc.campaign[list] ||= []).splice(list === at[0] ? at[1] : doc.campaign[list].length, 0, { ...kept, ...form });
    }));
    this.unit = form.id;
    this.markUnit();
  }
  deleteUnit() {
    const at = this.findUnit(this.unit);
    if (!at) return;
    this.once(this.scn.edit(["campaign"], (doc) => doc.campaign[at[0]].splice(at[1], 1)));
    this.unit = "";
    this.markUnit();
  }
  moveUnit(id, hex) {
    const at = this.findUnit(id);
    if (!at) return;
    this.once(this.scn.edit(["campaign"], (doc) => {
      doc.campaign[at[0]][at[1]].hex = this.scn.hexes[hex].hex;
    }));
  }
  // Counters are dragged to move their unit (the counters' layer is over the canvas).
  listenCounters() {
    const host = $("map");
    let grab = null;
    host.addEventListener("pointerdown", (e) => {
      const b = e.target.closest?.(".counter[data-unit]");
      if (!b || e.button !== 0) return;
      grab = { id: b.dataset.unit, x: e.clientX, y: e.clientY, moved: false, button: b };
      this.dragged = false;
      b.setPointerCapture(e.pointerId);
    });
    host.addEventListener("pointermove", (e) => {
      if (!grab) return;
      if (Math.abs(e.clientX - grab.x) + Math.abs(e.clientY - grab.y) > 4) grab.moved = true;
      if (grab.moved) grab.button.classList.add("dragging");
    });
    host.addEventListener("pointerup", (e) => {
      if (!grab) return;
      const g = grab;
      grab = null;
      g.button.classList.remove("dragging");
      if (!g.moved) return;
      this.dragged = true;
      setTimeout(() => (this.dragged = false));
      const r = this.map.canvas.getBoundingClientRect();
      const hex = this.hexAt(e.clientX - r.left, e.clientY - r.top);
      if (hex >= 0) {
        this.unit = g.id;
        this.moveUnit(g.id, hex);
        this.showHex(hex);
      }
    });
  }

  // ---- areas and exits: named hex lists ----

  // Hex `hex` into the hex list of `doc[key][k]` (k the `pick` list's choice), or out of it
  // with erase.
  listHex(key, pick, hex) {
    const k = Number(pick.value);
    if (!this.scn.doc[key]?.[k]) {
      this.notice(key === "areas" ? "Add an area first (its name and rule role), then click its hexes."
        : "Add an exit first (its name, side, edge and total), then click its hexes.");
      return;
    }
    this.take(this.scn.setListHex(key, k, hex, !this.erase));
    this.showToolMarks();
  }
  // What the tool chosen shows on the map: the area's or exit's hexes, the hexes with water
  // areas listed, the waterway's hexsides.
  showToolMarks() {
    const doc = this.scn?.doc, tool = this.tool;
    const list = (item) => (item ? new Map(this.scn.hexesOfList(item.hexes).map((i) => [i, item.name])) : null);
    let choices = null;
    if (tool === "area") choices = list(doc?.areas?.[Number($("area-pick").value)]);
    else if (tool === "exit") choices = list(doc?.exits?.[Number($("exit-pick").value)]);
    else if (tool === "water" && doc) {
      choices = new Map((doc["water-areas"] || []).map((w) => [this.scn.hexIndex(w.hex), "water areas"]).filter(([i]) => i >= 0));
    }
    const way = tool === "waterway" && doc ? this.waterwayChosen(true) : null;
    this.wayEdges = way ? this.scn.waterwaySides(Number($("waterway-pick").value)).map(([a, b]) => [a, b, STYLE.waterway]) : [];
    this.map.setOverlay({ choices, edges: this.edges() });
  }

  // ---- waterways ----

  // The waterway chosen, or null (then, unless `quiet`, the designer is told to add one).
  waterwayChosen(quiet) {
    const way = this.scn.doc.waterways?.[Number($("waterway-pick").value)] || null;
    if (!way && !quiet) this.notice("Add a waterway first (its name, rule and kind), then click its hexsides.");
    return way;
  }
  showWaterway() {
    const way = this.scn && this.waterwayChosen(true);
    $("waterway-name").value = way?.name || "";
    $("waterway-rule").value = way?.rule || "";
    $("waterway-navigable").checked = !!way?.navigable;
    $("waterway-closed").checked = !!way?.closed;
    $("waterway-note").value = way?.note || "";
    $("waterway-apply").disabled = !way;
    this.showToolMarks();
  }
  // The waterway form's fields, as the file writes them.
  waterwayForm() {
    const w = { name: $("waterway-name").value.trim() };
    if ($("waterway-rule").value) w.rule = $("waterway-rule").value;
    if ($("waterway-navigable").checked) w.navigable = true;
    if ($("waterway-closed").checked) w.closed = true;
    if ($("waterway-note").value.trim()) w.note = $("waterway-note").value.trim();
    return w;
  }
  addWaterway() {
    const w = this.waterwayForm();
    if (!w.name) return this.notice("A waterway needs a name.");
    this.once(this.scn.edit(["waterways"], (doc) => (doc.waterways ||= []).push({ ...w, hexsides: [] })));
    this.fillLists();
    $("waterway-pick").value = String(this.scn.doc.waterways.length - 1);
    this.showWaterway();
  }
  applyWaterway() {
    const k = Number($("waterway-pick").value), w = this.waterwayForm();
    if (!this.waterwayChosen() || !w.name) return;
    this.once(this.scn.edit(["waterways"], (doc) => {
      doc.waterways[k] = { ...w, hexsides: doc.waterways[k].hexsides || [] };
    }));
    this.fillLists();
  }

  addExit() {
    const x = { name: $("exit-name").value.trim(), side: $("exit-side").value, edge: $("exit-edge").value,
      total: $("exit-total").value.trim(), hexes: [] };
    if (!x.name || !x.total) return this.notice("An exit needs a name and the total its units add to.");
    this.once(this.scn.edit(["exits"], (doc) => (doc.exits ||= []).push(x)));
    $("exit-pick").value = String(this.scn.doc.exits.length - 1);
    this.showToolMarks();
  }

  // ---- water areas ----

  // The water form's bodies ("scheldt: SE S SW NW; veere: N NW") as the file writes them, or a
  // string saying what is wrong.
  waterForm() {
    const areas = [];
    for (const part of $("water-bodies").value.split(";").map((x) => x.trim()).filter(Boolean)) {
      const colon = part.indexOf(":");
      const name = colon >= 0 ? part.slice(0, colon).trim() : "";
      const sides = (colon >= 0 ? part.slice(colon + 1) : part).split(/[\s,]+/).filter(Boolean).map((d) => d.toUpperCase());
      const bad = sides.find((d) => !DIRS.includes(d));
      if (bad || !sides.length) return `"${part}": a body is a name, a colon and its sides (${DIRS.join(" ")})`;
      areas.push(name ? { name, sides } : { sides });
    }
    if (!areas.length) return "Give the hex's bodies of water: a name, a colon and the sides each touches.";
    const split = $("water-split").value.trim();
    return split ? { "split-by": split, areas } : { areas };
  }
  // Hex `hex`'s bodies of water: the form's, or none listed with erase. The Hex panel shows it.
  waterHex(hex) {
    const entry = this.erase ? null : this.waterForm();
    if (typeof entry === "string") return this.notice(entry);
    this.take(this.scn.setWaterAreas(hex, entry));
    this.showHex(hex);
  }
  // The form filled from the Hex panel's hex's water areas.
  takeWater() {
    const w = this.selected >= 0 ? this.scn?.waterAreasAt(this.selected) : null;
    $("water-bodies").value = (w?.areas || []).map((a) => `${a.name ? `${a.name}: ` : ""}${(a.sides || []).join(" ")}`).join("; ");
    $("water-split").value = w?.["split-by"] || "";
  }

  // ---- the starting control (the scenario's state) ----

  control(hex) {
    const side = $("control-side").value, s = this.scn, name = s.hexes[hex].hex;
    const lists = s.doc.state?.control || {};
    const now = Object.keys(lists).find((k) => s.hexesOfList(lists[k]).includes(hex)) || "";
    if (now === side) return;
    this.take(s.edit(["state"], (doc) => {
      const control = ((doc.state ||= {}).control ||= {});
      // Out of its side's list (a block written out hex by hex first), into the new side's.
      if (now) control[now] = s.hexesOfList(control[now]).filter((i) => i !== hex).map((i) => s.hexes[i].hex);
      if (side) (control[side] ||= []).push(name);
    }));
    this.map.setPosition(s.position());
  }

  zone(hex) {
    const zone = $("zone-letter").value.trim();
    if (!/^[A-Z]$/.test(zone)) {
      this.notice("A weather zone is one capital letter (A to Z).");
      return;
    }
    this.take(this.scn.setZone(hex, zone));
  }

  // ---- the underlay ----

  async loadUnderlay(file) {
    let image;
    try {
      image = await createImageBitmap(file);
    } catch (e) {
      this.fail(`${file.name}: not an image this browser reads (${e.message})`);
      return;
    }
    // At first the image covers the theater's bounds; calibration places it exactly.
    const b = this.scn.theater.bounds;
    const k = Math.min((b.x1 - b.x0) / image.width, (b.y1 - b.y0) / image.height);
    this.setUnderlay(image, [k, 0, 0, k, b.x0, b.y0], { name: file.name, blob: file });
    $("cal-status").textContent = `${file.name}, ${image.width}×${image.height}: click the centre of ${$("cal-a").value} on it.`;
  }
  // The underlay drawn: `source` ({name, blob}) is the image's file, kept in the page for
  // Keep underlay; its calibration is forgotten until made again.
  setUnderlay(image, matrix, source) {
    this.map.underlay = { image, opacity: Number($("underlay-opacity").value), matrix };
    this.underlaySource = source;
    this.calibration = null; // {first: {hex, at: [x, y]}, second: ...}: image pixels on hex centres
    this.calPoints = [];
    $("underlay-keep").disabled = false;
    this.map.redraw();
  }
  // The similarity (scale, rotation, shift) taking image points `pa` and `pb` to the centres of
  // the hexes named `a` and `b`, as a canvas matrix; null when the points are one.
  similarity([ax, ay], [bx, by], a, b) {
    const ha = this.scn.hexes[this.scn.hexIndex(a)], hb = this.scn.hexes[this.scn.hexIndex(b)];
    const ix = bx - ax, iy = by - ay, wdx = hb.x - ha.x, wdy = hb.y - ha.y, n2 = ix * ix + iy * iy;
    if (!n2) return null;
    const p = (wdx * ix + wdy * iy) / n2, q = (wdy * ix - wdx * iy) / n2;
    return [p, q, -q, p, ha.x - (p * ax - q * ay), ha.y - (q * ax + p * ay)];
  }
  // A click on the image while calibrating: image coordinates of the first, second hex centre,
  // then the check hex.
  calibrateAt(x, y) {
    const u = this.map.underlay;
    if (!u) {
      $("cal-status").textContent = "Load an image first.";
      return false;
    }
    const [wx, wy] = this.map.toWorld(x, y);
    const [a, b, c, d, e, f] = u.matrix, det = a * d - b * c;
    const px = (d * (wx - e) - c * (wy - f)) / det, py = (-b * (wx - e) + a * (wy - f)) / det;
    const names = ["cal-a", "cal-b", "cal-c"].map((id) => $(id).value.trim());
    const hexes = names.map((n) => this.scn.hexIndex(n));
    const step = this.calPoints.length;
    if (hexes[step] < 0) {
      $("cal-status").textContent = `${names[step] || "(empty)"} is not a hex of this theater.`;
      return false;
    }
    if (step < 2) this.calPoints.push([px, py]);
    if (step === 0) {
      $("cal-status").textContent = `Now the centre of ${names[1]}.`;
    } else if (step === 1) {
      const [pa, pb] = this.calPoints, matrix = this.similarity(pa, pb, names[0], names[1]);
      if (!matrix) {
        this.calPoints.pop();
        $("cal-status").textContent = "The second point is the first: click the second hex's centre.";
        return false;
      }
      u.matrix = matrix;
      this.calibration = { first: { hex: names[0], at: pa }, second: { hex: names[1], at: pb } };
      $("cal-status").textContent = `Calibrated on ${names[0]} and ${names[1]}. Click the centre of ${names[2]} to check.`;
    } else {
      const hc = this.scn.hexes[hexes[2]];
      const off = Math.hypot(wx - hc.x, wy - hc.y) / Math.sqrt(3);
      $("cal-status").textContent = `${names[2]}: the scan's centre is ${off.toFixed(2)} hex from the grid's${off < 0.2 ? ": the grid sits on the scan." : ": calibrate again on two hexes far apart."}`;
      this.calPoints = [];
    }
    this.map.redraw();
    return true;
  }

  // Keep underlay: the image (a data URL) and its calibration downloaded as NAME.underlay.json,
  // to keep beside the scenario file. Nothing is sent to the server.
  async keepUnderlay() {
    const src = this.underlaySource;
    if (!this.scn || !src) return this.notice("Load an image first.");
    const image = await new Promise((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(r.result);
      r.onerror = () => reject(r.error);
      r.readAsDataURL(src.blob);
    });
    const keep = { opsim: "underlay", version: 1, scenario: this.scn.doc.name || this.name, image: src.name,
      opacity: this.map.underlay.opacity, calibration: this.calibration, data: image };
    const name = `${keep.scenario}.underlay.json`;
    download(name, JSON.stringify(keep, null, 1));
    this.keptUnderlay = keep; // for the tests and the console
    this.notice(`Kept the underlay as ${name} (a download: the image stays on your disk, never on the server).`);
  }
  // A kept underlay read back: its image, opacity and calibration as they were.
  async loadKeptUnderlay(file) {
    let keep, image, blob;
    try {
      keep = JSON.parse(await file.text());
      const [head, base64] = typeof keep?.data === "string" ? keep.data.split(",", 2) : [];
      if (keep?.opsim !== "underlay" || !/^data:image\/[\w.+-]+;base64$/.test(head) || base64 === undefined) {
        throw new Error("not a kept underlay (NAME.underlay.json, which Keep underlay writes)");
      }
      // Decoded here: the page may fetch nothing but its server (its Content-Security-Policy).
      blob = new Blob([Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0))], { type: head.slice(5, -7) });
      image = await createImageBitmap(blob);
    } catch (e) {
      this.fail(`${file.name}: ${e.message}`);
      return;
    }
    const cal = keep.calibration;
    const known = cal && [cal.first, cal.second].every((p) => p && this.scn.hexIndex(String(p.hex)) >= 0
      && Array.isArray(p.at) && p.at.length === 2 && p.at.every(Number.isFinite));
    const b = this.scn.theater.bounds, k = Math.min((b.x1 - b.x0) / image.width, (b.y1 - b.y0) / image.height);
    const matrix = known && this.similarity(cal.first.at, cal.second.at, cal.first.hex, cal.second.hex);
    if (Number.isFinite(keep.opacity)) $("underlay-opacity").value = String(keep.opacity);
    this.setUnderlay(image, matrix || [k, 0, 0, k, b.x0, b.y0], { name: String(keep.image || "underlay"), blob });
    if (matrix) {
      this.calibration = cal;
      $("cal-a").value = cal.first.hex;
      $("cal-b").value = cal.second.hex;
    }
    $("cal-status").textContent = matrix ? `${file.name}: calibrated on ${cal.first.hex} and ${cal.second.hex}, as kept.`
      : `${file.name}: its calibration is not of this theater's hexes: calibrate it again.`;
  }

  // ---- what is shown ----

  get terrain() {
    return document.querySelector("input[name=terrain]:checked")?.value || "c";
  }

  hover(x, y) {
    const hex = this.scn ? this.hexAt(x, y) : -1;
    // With the hexside tool (rivers and the like) and the waterways', the hexside a click would
    // paint; erasing rail ferries, the one a click would take away.
    const tool = this.tool;
    const along = (tool === "hexside" && !CROSSING.has($("side-kind").value)) || tool === "waterway" || (tool === "ferry" && this.erase);
    const side = hex >= 0 && along ? this.sideAt(x, y, 0.6) : null;
    const was = this.hoverEdge;
    this.hoverEdge = side ? [...side, STYLE.selected] : null;
    if (String(was) !== String(this.hoverEdge)) this.map.setOverlay({ edges: this.edges() });
    $("pointer-at").textContent = side ? this.scn.sideToken(...side) : hex >= 0 ? `${this.scn.hexes[hex].hex} ${this.scn.hexes[hex].terrain}` : "";
  }
  // The hexsides marked on the map: the waterway chosen's, the check's error, the one under the
  // pointer.
  edges() {
    return [...(this.wayEdges || []), this.errorEdge, this.hoverEdge].filter(Boolean);
  }

  // The Hex panel: everything on hex i.
  showHex(i) {
    this.selected = i;
    this.map.setOverlay({ selected: i });
    const body = $("hex-body");
    if (!this.scn || i < 0) {
      body.replaceChildren(para("Click a hex with Select to see everything on it.", "hint"));
      return;
    }
    const s = this.scn, h = s.hexes[i];
    const rows = [["hex", h.hex], ["terrain", h.terrain + (h.coast !== "none" ? `, ${h.coast} coast` : "")], ["weather zone", s.zoneOf(i) ? `${s.zoneOf(i)}${s.frozen(s.zoneOf(i)) ? " (frozen at the start)" : ""}` : "none"]];
    const p = s.placeAt(i);
    if (p) rows.push(["place", [p.name, p.city && `city ${p.city}`, p.port && `${p.inland ? "inland " : ""}${p.port} port`, p.airbase && "airbase"].filter(Boolean).join(", ")]);
    for (const n of s.neighbours(i)) {
      const sd = s.side(i, n, false);
      const way = sd?.waterway === undefined ? "" : s.doc.waterways?.[sd.waterway]?.name;
      const what = sd ? [...sd.features, sd.override && `water ${sd.override}`, way && `waterway ${way}`].filter(Boolean) : [];
      if (what.length) rows.push([`hexside ${sd.hexside}`, what.join(", ")]);
    }
    for (const u of this.map.position.units.filter((x) => x.hex === i)) rows.push([`unit ${u.id}`, `${u.name}, ${u.nationality} ${u.type || u.kind} ${u.strength}`]);
    for (const a of s.areasAt(i)) rows.push(["area", a]);
    for (const x of s.exitsAt(i)) rows.push(["exit", x]);
    const water = s.waterAreasAt(i);
    if (water) {
      rows.push(["water areas", (water.areas || []).map((a) => `${a.name || "(unnamed)"}: ${(a.sides || []).join(" ")}`).join("; ")
        + (water["split-by"] ? `; split by ${water["split-by"]}` : "")]);
    }
    for (const [side, list] of Object.entries(s.doc.campaign?.["supply-sources"] || {})) {
      if (s.hexesOfList(list).includes(i)) rows.push(["supply source", side]);
    }
    for (const [side, list] of Object.entries(s.doc.state?.control || {})) {
      if (s.hexesOfList(list).includes(i)) rows.push(["control", side]);
    }
    body.replaceChildren(el("table", { class: "kv", id: "hex-table" }, rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, v)))));
  }

  // The forms that show the document: the campaign's fields, the areas, the nationalities.
  fillForms() {
    const doc = this.scn.doc, c = doc.campaign || {};
    $("doc-title").value = doc.title || "";
    $("c-start").value = c.start || "";
    $("c-first").value = c.first || "axis";
    $("c-nats").value = Object.entries(c.nationalities || {}).map(([n, s]) => `${n}=${s}`).join(", ");
    $("c-supply-axis").value = (c["supply-sources"]?.axis || []).join(", ");
    $("c-supply-allied").value = (c["supply-sources"]?.allied || []).join(", ");
    this.fillLists();
    this.showWaterway();
  }
  // The lists to choose from (areas, exits, waterways, nationalities) as the document has them,
  // each keeping its choice; the zone's frozen box.
  fillLists() {
    const doc = this.scn.doc;
    $("nationality-list").replaceChildren(...Object.keys(doc.campaign?.nationalities || {}).map((n) => el("option", { value: n })));
    const fill = (pick, items, words) => {
      const was = pick.value;
      pick.replaceChildren(...(items || []).map((x, k) => el("option", { value: String(k) }, words(x))));
      if ([...pick.options].some((o) => o.value === was)) pick.value = was;
    };
    fill($("area-pick"), doc.areas, (a) => (a.role ? `${a.name} (${a.role})` : a.name));
    fill($("exit-pick"), doc.exits, (x) => `${x.name} (${x.side}, ${x.edge} edge)`);
    const way = $("waterway-pick").value;
    fill($("waterway-pick"), doc.waterways, (w) => [w.name, w.rule, w.navigable && "navigable", w.closed && "closed"].filter(Boolean).join(", "));
    if ($("waterway-pick").value !== way) this.showWaterway();
    $("zone-frozen").checked = this.scn.frozen($("zone-letter").value.trim());
    this.showToolMarks();
  }

  applyCampaign() {
    const list = (id) => $(id).value.split(",").map((x) => x.trim()).filter(Boolean);
    const nats = {};
    for (const pair of list("c-nats")) {
      const [n, side] = pair.split("=").map((x) => x.trim());
      if (!n || (side !== "axis" && side !== "allied")) {
        this.fail(`Nationalities: "${pair}" is not NAME=axis or NAME=allied.`);
        return;
      }
      nats[n] = side;
    }
    this.once(this.scn.edit(["title", "campaign"], (doc) => {
      doc.title = $("doc-title").value;
      const start = $("c-start").value.trim();
      if (!doc.campaign && !start && !Object.keys(nats).length) return; // a map only
      const c = (doc.campaign ||= {});
      c.start = start;
      c.first = $("c-first").value;
      c.nationalities = nats;
      const supply = { axis: list("c-supply-axis"), allied: list("c-supply-allied") };
      if (supply.axis.length || supply.allied.length) c["supply-sources"] = supply;
      else delete c["supply-sources"];
    }));
  }

  addArea(name, role) {
    if (!name) {
      this.notice("An area needs a name.");
      return;
    }
    this.once(this.scn.edit(["areas"], (doc) => {
      (doc.areas ||= []).push(role ? { name, role, hexes: [] } : { name, hexes: [] });
    }));
    $("area-pick").value = String(this.scn.doc.areas.length - 1);
    this.showToolMarks();
  }

  // ---- the server: check, save, play ----

  async check() {
    if (!this.scn) return;
    const text = JSON.stringify(this.scn.doc);
    const box = $("check");
    let answer;
    try {
      answer = await this.api.check(text);
    } catch (e) {
      box.replaceChildren(el("p", { class: "illegal" }, `The server did not check it: ${e.message}`));
      return;
    }
    if (text !== JSON.stringify(this.scn.doc)) return; // changed since: a newer check follows
    this.lastCheck = answer;
    this.checkedText = text;
    this.showCheck(answer);
  }

  showCheck(answer) {
    const box = $("check");
    box.dataset.ok = String(!!answer.ok);
    if (answer.ok) {
      this.map.setTags([]);
      this.errorEdge = null;
      this.map.setOverlay({ target: -1, edges: this.edges() });
      // `opsim scenario stats --json`, in words: counts of zero left out.
      const words = (v) => {
        if (v === null) return "none";
        if (typeof v === "boolean") return v ? "yes" : "no";
        if (Array.isArray(v)) return v.join(", ");
        if (typeof v !== "object") return typeof v === "number" ? v.toLocaleString("en") : String(v);
        return Object.entries(v).filter(([, x]) => x !== 0).map(([k, x]) => (typeof x === "object" && x !== null
          ? `${k.replaceAll("_", " ")} (${words(x) || "none"})` : `${words(x)} ${k.replaceAll("_", " ")}`)).join(", ");
      };
      const st = answer.stats || {};
      const stats = Object.entries(st).filter(([k]) => k !== "name" && k !== "title")
        .map(([k, v]) => el("tr", {}, el("th", {}, k.replaceAll("_", " ")), el("td", {}, words(v) || "none")));
      const count = (v) => (typeof v === "object" && v !== null ? v.total : v);
      const brief = [["hexes", count(st.hexes)], ["hexsides", count(st.hexsides)], ["places", st.places?.named], ["sheets", st.sheets?.length]]
        .filter(([, n]) => typeof n === "number").map(([k, n]) => `${n.toLocaleString("en")} ${k}`).join(", ");
      box.replaceChildren(el("p", { class: "legal check-ok" }, "✓ opsim loads it: no error."),
        brief ? el("p", { class: "hint" }, brief) : null,
        el("details", {}, el("summary", {}, "its stats"), el("table", { class: "kv", id: "check-stats" }, stats)));
      return;
    }
    const e = { ...answer.error };
    // An error the server gives no hex or hexside for (an exit's hex off its edge, a waterway's
    // hexside) is marked on the first one its message names.
    if (!e.hex && !e.hexside) Object.assign(e, this.tokenIn(e.message || ""));
    const s = this.scn, hex = s.hexIndex(e.hex || ""), side = e.hexside ? s.hexesOf(e.hexside) : null;
    const target = hex >= 0 ? hex : side ? side[0] : -1;
    this.map.setTags(target >= 0 ? [{ hex: target, text: "error", kind: "error" }] : []);
    this.errorEdge = side ? [side[0], side[side.length - 1], STYLE.alert] : null;
    this.map.setOverlay({ target: hex, edges: this.edges() });
    const go = target >= 0 ? el("button", { type: "button", id: "check-goto", onclick: () => {
      this.map.scale = Math.max(this.map.scale, READABLE_SCALE);
      this.map.centerOn(target);
      this.showHex(target);
    } }, `Go to ${e.hex || e.hexside}`) : null;
    // The JSON path in the document (its line is of the text the page sent, not of a file), and
    // what it names: a unit, a place, an area.
    const where = [e.path || e.where, this.named(e.path || "")].filter(Boolean).join(": ");
    box.replaceChildren(...[
      el("p", { class: "illegal check-error" }, e.message || "an error", e.rule ? el("span", { class: "rule" }, ` [${e.rule}]`) : null),
      where ? el("p", { class: "hint" }, `at ${where}`) : null,
      go].filter(Boolean));
  }

  // The first hex or hexside of this theater a message names: {hex} or {hexside}, or {}.
  tokenIn(message) {
    for (const [token] of message.matchAll(/[A-Za-z0-9]+:\d{4}(?:\/(?:[A-Za-z0-9]+:)?\d{4})?/g)) {
      if (token.includes("/") && this.scn.hexesOf(token)) return { hexside: token };
      if (!token.includes("/") && this.scn.hexIndex(token) >= 0) return { hex: token };
    }
    return {};
  }

  // The unit, place or area a JSON path points into, in words ("unit t-1"), or "".
  named(path) {
    const m = /^\/(campaign\/(?:units|air|naval)|places|areas)\/(\d+)/.exec(path);
    if (!m) return "";
    const item = m[1].split("/").reduce((o, k) => o?.[k], this.scn.doc)?.[Number(m[2])];
    if (!item) return "";
    return m[1] === "places" ? `the place ${item.name || item.hex}` : m[1] === "areas" ? `the area ${item.name}` : `the unit ${item.id}`;
  }

  async save() {
    if (!this.scn) return;
    let text;
    try {
      text = (await this.api.format(JSON.stringify(this.scn.doc))).text;
    } catch (e) {
      this.fail(`Not saved: ${e.message}`);
      return;
    }
    this.lastSaved = text;
    this.savedAt = this.done.at(-1) || null;
    const name = `${this.scn.doc.name || this.name}.json`;
    download(name, text);
    this.notice(`Saved ${name}, laid out as opsim scenario format lays it out.`);
  }

  async play() {
    if (!this.scn) return;
    let g;
    try {
      g = await this.api.play(this.scn.doc);
    } catch (e) {
      this.fail(`No game: ${e.message}`);
      return;
    }
    $("play-panel").hidden = false;
    $("play-links").replaceChildren(para(`Game ${g.game}: each side's link is its secret; the spectator's may be shared.`),
      el("ul", { id: "play-list" }, Object.entries(g.links).map(([who, link]) => el("li", {}, el("a", { href: link, target: "_blank" }, who)))));
    $("play-panel").scrollIntoView({ block: "nearest" });
  }

  // ---- the page's controls and keys ----

  controls() {
    $("error-close").addEventListener("click", () => ($("error").hidden = true));
    $("open-bundled").addEventListener("submit", (e) => {
      e.preventDefault();
      this.openBundled($("bundled").value);
    });
    $("open-file").addEventListener("change", (e) => e.target.files[0] && this.openFile(e.target.files[0]));
    $("new-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const name = $("new-name").value.trim() || "my-theater";
      let sheets;
      try {
        sheets = parseSheets($("new-sheets").value);
      } catch (err) {
        this.fail(`New theater: ${err.message}`);
        return;
      }
      this.open(blankScenario({ name, sheets, fill: $("new-fill").value }), name);
      $("new-theater").open = false;
    });
    $("undo").addEventListener("click", () => this.undo());
    $("redo").addEventListener("click", () => this.redo());
    $("save").addEventListener("click", () => this.save());
    $("play").addEventListener("click", () => this.play());
    for (const r of document.querySelectorAll("input[name=tool]")) r.addEventListener("change", () => this.toolChanged());
    // The terrains by their file codes (their keys), then the coasts a land hex may have.
    const coasts = [["partial-sea", "partial-sea coast"], ["partial-lake", "partial-lake coast"], ["none", "no coast"]];
    $("terrains").replaceChildren(...[...Object.entries(TERRAIN), ...coasts].map(([value, name], k) =>
      el("label", { class: "swatch", title: name },
        el("input", { type: "radio", name: "terrain", value, checked: k === 0 }),
        el("span", { class: "chip", "data-terrain": name }), ` ${name} `, TERRAIN[value] ? el("kbd", {}, value) : null)));
    for (const chip of document.querySelectorAll("#terrains .chip")) {
      const color = TERRAIN_COLORS[chip.dataset.terrain];
      if (color) chip.style.background = color;
      else chip.classList.add("coast", chip.dataset.terrain.split(" ")[0]);
    }
    $("side-kind").replaceChildren(...FEATURES.map((f) => el("option", { value: f }, f)),
      ...WATERS.map((w) => el("option", { value: w }, `water: ${w}`)));
    $("area-role").append(...ROLES.map((r) => el("option", { value: r }, r)));
    $("unit-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.applyUnit();
    });
    $("unit-delete").addEventListener("click", () => this.deleteUnit());
    $("unit-kind").addEventListener("change", () => this.unitKind());
    this.unitKind();
    $("place-form").addEventListener("submit", (e) => e.preventDefault());
    $("area-new").addEventListener("submit", (e) => {
      e.preventDefault();
      this.addArea($("area-name").value.trim(), $("area-role").value);
    });
    $("area-pick").addEventListener("change", () => this.showToolMarks());
    $("exit-pick").addEventListener("change", () => this.showToolMarks());
    $("exit-edge").replaceChildren(...EDGES.map((e) => el("option", { value: e }, e)));
    $("exit-new").addEventListener("submit", (e) => {
      e.preventDefault();
      this.addExit();
    });
    $("waterway-rule").append(...WATERWAY_RULES.map((r) => el("option", { value: r }, r)));
    $("waterway-pick").addEventListener("change", () => this.showWaterway());
    $("waterway-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.addWaterway();
    });
    $("waterway-apply").addEventListener("click", () => this.applyWaterway());
    $("water-form").addEventListener("submit", (e) => e.preventDefault());
    $("water-take").addEventListener("click", () => this.takeWater());
    $("zone-letter").addEventListener("input", () => ($("zone-frozen").checked = !!this.scn?.frozen($("zone-letter").value.trim())));
    $("zone-frozen").addEventListener("change", (e) => {
      const zone = $("zone-letter").value.trim();
      if (!this.scn || !/^[A-Z]$/.test(zone)) {
        e.target.checked = false;
        return this.notice("A weather zone is one capital letter (A to Z).");
      }
      this.once(this.scn.setFrozen(zone, e.target.checked));
    });
    $("campaign-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.applyCampaign();
    });
    $("underlay-file").addEventListener("change", (e) => e.target.files[0] && this.scn && this.loadUnderlay(e.target.files[0]));
    $("underlay-kept").addEventListener("change", (e) => e.target.files[0] && this.scn && this.loadKeptUnderlay(e.target.files[0]));
    $("underlay-keep").addEventListener("click", () => this.keepUnderlay().catch((e) => this.fail(`Not kept: ${e.message}`)));
    $("underlay-opacity").addEventListener("input", (e) => {
      if (this.map.underlay) this.map.underlay.opacity = Number(e.target.value);
      this.map.redraw();
    });
    $("zoom-in").addEventListener("click", () => this.map.zoom(1.25));
    $("zoom-out").addEventListener("click", () => this.map.zoom(0.8));
    $("zoom-fit").addEventListener("click", () => this.map.fit());
    $("goto").addEventListener("submit", (e) => {
      e.preventDefault();
      const hex = this.scn?.hexIndex($("goto-hex").value.trim().toUpperCase()) ?? -1;
      if (hex < 0) {
        this.notice(`${$("goto-hex").value} is not a hex of this theater.`);
        return;
      }
      this.map.showReadable(hex);
      this.showHex(hex);
    });
    document.addEventListener("keydown", (e) => this.key(e));
    // Leaving the page with changes not saved: the browser asks first.
    window.addEventListener("beforeunload", (e) => {
      if ((this.done.at(-1) || null) !== this.savedAt) e.preventDefault();
    });
    $("map").addEventListener("contextmenu", (e) => e.preventDefault()); // the right button pans
    this.toolChanged();
  }

  key(e) {
    const typing = e.target.closest?.("input:not([type=radio]):not([type=checkbox]):not([type=range]), select, textarea");
    const ctrl = e.ctrlKey || e.metaKey;
    if (ctrl && !e.altKey) {
      const k = e.key.toLowerCase();
      const act = { z: e.shiftKey ? () => this.redo() : () => this.undo(), y: () => this.redo(), s: () => this.save() }[k];
      if (act && !(typing && k !== "s")) {
        e.preventDefault();
        act();
      }
      return;
    }
    if (e.key === "Escape") {
      $("error").hidden = true;
      this.unit = "";
      this.markUnit();
      return;
    }
    if (typing || e.altKey || !this.scn) return;
    if (/^[0-9]$/.test(e.key)) this.setTool(TOOL_KEYS[Number(e.key)]);
    else if (LETTER_TOOLS[e.key.toLowerCase()]) this.setTool(LETTER_TOOLS[e.key.toLowerCase()]);
    else if (TERRAIN[e.key]) {
      document.querySelector(`input[name=terrain][value="${CSS.escape(e.key)}"]`).checked = true;
      if (this.tool !== "brush" && this.tool !== "fill") this.setTool("brush");
    } else if (e.key === "e" || e.key === "E") $("erase").checked = !$("erase").checked;
    else if (e.key === "Delete" && this.unit) this.deleteUnit();
    else if (e.key === "Enter" && e.target === $("map") && this.selected >= 0) {
      this.begin();
      this.onHex(this.tool, this.selected);
      this.end();
    } else return;
    e.preventDefault();
  }
}

async function start() {
  const w = new Workshop();
  window.opsimEditor = w; // for the tests and the console
  try {
    const list = await w.api.scenarios();
    $("bundled").replaceChildren(...list.scenarios.map((s) => el("option", { value: s.name }, `${s.name}: ${s.title}`)));
  } catch (e) {
    w.fail(`The bundled scenarios: ${e.message}`);
  }
  const name = new URLSearchParams(location.search).get("scenario");
  if (name) await w.openBundled(name);
}

start();
