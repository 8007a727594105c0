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
import { Scenario, TERRAIN, FEATURES, WATERS, CROSSING, ROLES, UNIT_TYPES, blankScenario } from "./editor-model.js";

const $ = (id) => document.getElementById(id);
const CHECK_DELAY = 400; // ms after the last change before the server checks the document
const TOOL_KEYS = ["zone", "select", "brush", "fill", "hexside", "place", "unit", "area", "control", "calibrate"]; // keys 0 … 9
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
  calibrate: "Load an image, then click the centre of the first hex on it, then the second's; a third click on the check hex says how far off the grid is.",
};

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
  open(doc, name, t0 = performance.now()) {
    let scn;
    try {
      scn = new Scenario(doc);
    } catch (e) {
      this.fail(`${name}: ${e.message}`);
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
    this.markUnit();
    this.showHex(-1);
    this.updateInfo();
    this.check();
  }

  async openBundled(name) {
    try {
      this.open(await this.api.scenario(name), name);
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
    this.open(doc, file.name.replace(/\.json$/, ""), t0);
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
    this.fillAreas();
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
    this.showArea();
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
    if (hex < 0 && tool !== "hexside") return false;
    this.begin();
    this.drag0 = { x, y, hex, moved: false, sides: new Set() };
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
    else if (tool === "area") this.areaHex(hex);
    else if (tool === "control") this.control(hex);
    else if (tool === "zone") this.zone(hex);
  }

  drag(x, y) {
    const d = this.drag0;
    if (!d) return;
    const tool = this.tool, hex = this.hexAt(x, y);
    if (!d.moved && Math.abs(x - d.x) + Math.abs(y - d.y) > 4) {
      d.moved = true;
      if (tool === "hexside") this.sideDrag(d.x, d.y, d.hex); // the hexside pressed on first
    }
    if (tool === "brush" && hex >= 0) this.brush(hex);
    else if ((tool === "area" || tool === "control" || tool === "zone") && hex >= 0 && hex !== d.hex) {
      d.hex = hex;
      this.onHex(tool, hex);
    } else if (tool === "hexside" && d.moved) this.sideDrag(x, y, hex);
    this.synced();
  }

  release() {
    const d = this.drag0;
    this.drag0 = null;
    if (d && this.tool === "hexside" && !d.moved) {
      const side = this.sideAt(d.x, d.y, 0.6);
      if (side) {
        const kind = $("side-kind").value, s = this.scn.side(side[0], side[1], false);
        const has = !!s && (WATERS.includes(kind) ? s.override === kind : s.features.includes(kind));
        this.take(this.scn.setSide(side[0], side[1], kind, !has && !this.erase));
      }
    }
    this.end();
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
    const d = this.drag0, kind = $("side-kind").value;
    let side = null;
    if (CROSSING.has(kind)) {
      if (hex >= 0 && d.hex >= 0 && hex !== d.hex && this.scn.dirOf(d.hex, hex) >= 0) side = [d.hex, hex];
      if (hex >= 0) d.hex = hex;
    } else {
      side = this.sideAt(x, y, 0.45);
    }
    if (!side) return;
    const key = Math.min(...side) + "|" + Math.max(...side);
    if (d.sides.has(key)) return;
    d.sides.add(key);
    this.take(this.scn.setSide(side[0], side[1], kind, !this.erase));
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
    if (list === "units") Object.assign(u, { type: $("unit-type").value, attack: num("unit-attack"), defense: num("unit-defense"), mp: num("unit-mp"), re: num("unit-re") });
    if (list === "naval") u.kind = $("unit-naval").value;
    return [list, u];
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
      $("unit-type").value = u.type || "infantry";
      for (const k of ["attack", "defense", "mp", "re"]) $(`unit-${k}`).value = u[k] ?? "";
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

  // ---- areas ----

  areaHex(hex) {
    const k = Number($("area-pick").value);
    const area = this.scn.doc.areas?.[k];
    if (!area) {
      this.notice("Add an area first (its name and rule role), then click its hexes.");
      return;
    }
    const name = this.scn.hexes[hex].hex;
    const inside = this.scn.hexesOfList(area.hexes).includes(hex);
    if (inside === !this.erase) return;
    this.take(this.scn.edit(["areas"], (doc) => {
      const a = doc.areas[k];
      // A hex taken out of a block: the block is written out hex by hex first.
      if (inside) a.hexes = this.scn.hexesOfList(a.hexes).filter((i) => i !== hex).map((i) => this.scn.hexes[i].hex);
      else a.hexes.push(name);
    }));
    this.showArea();
  }
  showArea() {
    const area = this.scn?.doc.areas?.[Number($("area-pick").value)];
    const show = this.tool === "area" && area;
    this.map.setOverlay({ choices: show ? new Map(this.scn.hexesOfList(area.hexes).map((i) => [i, area.name])) : null });
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
    this.map.underlay = { image, opacity: Number($("underlay-opacity").value), matrix: [k, 0, 0, k, b.x0, b.y0] };
    this.calPoints = [];
    $("cal-status").textContent = `${file.name}, ${image.width}×${image.height}: click the centre of ${$("cal-a").value} on it.`;
    this.map.redraw();
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
      // The similarity (scale, rotation, shift) taking the two clicked points to the hexes' centres.
      const [[ax, ay], [bx, by]] = this.calPoints;
      const ha = this.scn.hexes[hexes[0]], hb = this.scn.hexes[hexes[1]];
      const ix = bx - ax, iy = by - ay, wdx = hb.x - ha.x, wdy = hb.y - ha.y, n2 = ix * ix + iy * iy;
      if (!n2) {
        this.calPoints.pop();
        $("cal-status").textContent = "The second point is the first: click the second hex's centre.";
        return false;
      }
      const p = (wdx * ix + wdy * iy) / n2, q = (wdy * ix - wdx * iy) / n2;
      u.matrix = [p, q, -q, p, ha.x - (p * ax - q * ay), ha.y - (q * ax + p * ay)];
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

  // ---- what is shown ----

  get terrain() {
    return document.querySelector("input[name=terrain]:checked")?.value || "c";
  }

  hover(x, y) {
    const hex = this.scn ? this.hexAt(x, y) : -1;
    // With the hexside tool (rivers and the like), the hexside a click would paint.
    const side = hex >= 0 && this.tool === "hexside" && !CROSSING.has($("side-kind").value) ? this.sideAt(x, y, 0.6) : null;
    const was = this.hoverEdge;
    this.hoverEdge = side ? [...side, STYLE.selected] : null;
    if (String(was) !== String(this.hoverEdge)) this.map.setOverlay({ edges: this.edges() });
    $("pointer-at").textContent = side ? this.scn.sideToken(...side) : hex >= 0 ? `${this.scn.hexes[hex].hex} ${this.scn.hexes[hex].terrain}` : "";
  }
  // The hexsides marked on the map: the check's error, the one under the pointer.
  edges() {
    return [this.errorEdge, this.hoverEdge].filter(Boolean);
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
    const rows = [["hex", h.hex], ["terrain", h.terrain + (h.coast !== "none" ? `, ${h.coast} coast` : "")], ["weather zone", s.zoneOf(i) || "none"]];
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
    this.fillAreas();
  }
  fillAreas() {
    const doc = this.scn.doc;
    $("nationality-list").replaceChildren(...Object.keys(doc.campaign?.nationalities || {}).map((n) => el("option", { value: n })));
    const pick = $("area-pick"), was = pick.value;
    pick.replaceChildren(...(doc.areas || []).map((a, k) => el("option", { value: String(k) }, a.role ? `${a.name} (${a.role})` : a.name)));
    if ([...pick.options].some((o) => o.value === was)) pick.value = was;
    this.showArea();
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
    this.showArea();
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
    const e = answer.error || {};
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
    const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/json" })), download: `${this.scn.doc.name || this.name}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    this.notice(`Saved ${a.download}, laid out as opsim scenario format lays it out.`);
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
      this.open(blankScenario({ name, sheet: $("new-sheet").value.trim(), cols: Number($("new-cols").value),
        rows: Number($("new-rows").value), fill: $("new-fill").value }), name);
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
    $("unit-type").replaceChildren(...UNIT_TYPES.map((t) => el("option", { value: t }, t)));
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
    $("area-pick").addEventListener("change", () => this.showArea());
    $("campaign-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.applyCampaign();
    });
    $("underlay-file").addEventListener("change", (e) => e.target.files[0] && this.scn && this.loadUnderlay(e.target.files[0]));
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
