// The workshop's scenario: the scenario file's own JSON (docs/scenario-format.md), kept as the
// document that is checked, saved and played, and beside it the theater the map draws (the form
// of docs/views.md, as model.js completes it), both changed together by each edit. An edit
// returns the edit that undoes it. The page decides no rule: the server checks the document.

import { normalizeTheater, coastWedge } from "./model.js";

export const TERRAIN = { c: "clear", r: "rough", f: "forest", s: "swamp", m: "mountain", k: "canal-intensive",
  x: "prohibited", "~": "all-sea", "=": "lake" };
const CODE = Object.fromEntries(Object.entries(TERRAIN).map(([k, v]) => [v, k]));
export const COASTS = { ".": "none", s: "partial-sea", l: "partial-lake" };
const COAST_CODE = { none: ".", "partial-sea": "s", "partial-lake": "l" };
// The hexside features a designer paints, and the water overrides (one at most per hexside).
export const FEATURES = ["major-river", "minor-river", "canal", "road", "railroad", "border"];
export const WATERS = ["all-sea", "partial-sea", "lake", "no-water"];
export const CROSSING = new Set(["road", "railroad"]); // drawn centre to centre, painted hex to hex
export const ROLES = ["netherlands", "egyptian-delta", "greater-germany", "iran", "sea-of-azov", "baltic-islands",
  "estonia", "kerch-straits", "sivash", "vuoksa"];
// A hex's directions, as water areas name its sides; a map's edges, as exits name them (41.F); the
// rules a waterway may be tied to (docs/scenario-format.md, "Waterways").
export const DIRS = ["N", "NE", "SE", "S", "SW", "NW"];
export const EDGES = ["north", "south", "east", "west"];
export const WATERWAY_RULES = ["41.B", "41.C", "41.D", "41.E.1", "41.E.3", "41.E.6"];
export const UNIT_TYPES = ["infantry", "mountain", "airborne", "cavalry", "motorized", "mechanized", "armor",
  "engineer", "construction", "artillery"];
// The editor's size limit (docs/editor.md): the generated 100,000-hex theater and more.
export const MAX_HEXES = 250000;

// Neighbours on the global grid by direction (N NE SE S SW NW): even columns sit lower.
const STEPS = [
  [[0, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0]],
  [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 0], [-1, -1]],
];
const KEY = 32768; // col * KEY + row: a global grid position as one small integer (a fast Map key)
const two = (n) => String(n).padStart(2, "0");

// The parts the workshop edits must have the format's shapes (lists where it has lists), so that an
// edit never meets a string where it expects a list; the server's check says the rest.
function shapes(doc) {
  const list = (v, where) => {
    if (v !== undefined && !Array.isArray(v)) throw new Error(`${where}: expected a list`);
  };
  const object = (v, where) => {
    if (v !== undefined && (v === null || typeof v !== "object" || Array.isArray(v))) throw new Error(`${where}: expected an object`);
  };
  doc.sheets.forEach((s, k) => {
    object(s, `/sheets/${k}`);
    for (const grid of ["coast", "zones"]) {
      const g = s[grid];
      list(g, `/sheets/${k}/${grid}`);
      if (g && (g.length !== s.terrain?.length || g.some((r, i) => typeof r !== "string" || r.length !== s.terrain[i]?.length))) {
        throw new Error(`/sheets/${k}/${grid}: the ${grid} grid must have the terrain grid's rows and columns`);
      }
    }
  });
  for (const key of ["places", "areas", "waterways", "rail-ferries", "exits", "water-areas"]) {
    list(doc[key], `/${key}`);
    (doc[key] || []).forEach((x, k) => object(x, `/${key}/${k}`));
  }
  for (const key of ["areas", "exits"]) (doc[key] || []).forEach((a, k) => list(a.hexes, `/${key}/${k}/hexes`));
  (doc.waterways || []).forEach((w, k) => list(w.hexsides, `/waterways/${k}/hexsides`));
  (doc["water-areas"] || []).forEach((w, k) => {
    list(w.areas, `/water-areas/${k}/areas`);
    (w.areas || []).forEach((a, j) => {
      object(a, `/water-areas/${k}/areas/${j}`);
      list(a.sides, `/water-areas/${k}/areas/${j}/sides`);
    });
  });
  object(doc.hexsides, "/hexsides");
  for (const [k, v] of Object.entries(doc.hexsides || {})) list(v, `/hexsides/${k}`);
  object(doc.campaign, "/campaign");
  for (const key of ["units", "air", "naval"]) {
    list(doc.campaign?.[key], `/campaign/${key}`);
    (doc.campaign?.[key] || []).forEach((x, k) => object(x, `/campaign/${key}/${k}`));
  }
  object(doc.campaign?.nationalities, "/campaign/nationalities");
  object(doc.campaign?.["supply-sources"], "/campaign/supply-sources");
  for (const [k, v] of Object.entries(doc.campaign?.["supply-sources"] || {})) list(v, `/campaign/supply-sources/${k}`);
  object(doc.state, "/state");
  object(doc.state?.control, "/state/control");
  list(doc.state?.["frozen-zones"], "/state/frozen-zones");
  for (const [k, v] of Object.entries(doc.state?.control || {})) list(v, `/state/control/${k}`);
}

// A scenario file's sheets as the theater gives them (docs/views.md): each one's name, origin and
// the window its terrain rows cover (`first`, `last`), without the panel it is drawn in, which is
// the server's to say (ScenarioApi.panels). Throws an Error in words when they cannot be drawn
// (the server's check says the rest).
export function sheetsOf(doc) {
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new Error("a scenario file is one JSON object");
  if (!Array.isArray(doc.sheets) || !doc.sheets.length) throw new Error("/sheets: a scenario needs at least one sheet");
  return doc.sheets.map((s, k) => {
    const rows = s?.terrain;
    const ok = (v) => Array.isArray(v) && v.length === 2 && v.every(Number.isInteger);
    if (typeof s?.name !== "string" || !ok(s.origin) || !ok(s.first) || !Array.isArray(rows) || !rows.length
        || rows.some((r) => typeof r !== "string" || !r.length || r.length !== rows[0].length)) {
      throw new Error(`/sheets/${k}: a sheet needs a name, origin, first and terrain rows of one length, at least one column wide`);
    }
    return { name: s.name, origin: s.origin, first: s.first, last: [s.first[0] + rows[0].length - 1, s.first[1] + rows.length - 1] };
  });
}

export class Scenario {
  // `doc`: a scenario file's JSON object; `panels`: the panel of each of its sheets, as the server
  // answers for sheetsOf(doc). Throws an Error in words when its sheets cannot be drawn (the
  // server's check says the rest).
  constructor(doc, panels) {
    const sheets = sheetsOf(doc).map((s, k) => ({ ...s, panel: panels[k] }));
    shapes(doc);
    this.doc = doc;
    this.build(sheets);
  }

  // The theater drawn from the document's sheets (sheetsOf's, with their panels), places and
  // hexsides.
  build(sheets) {
    const doc = this.doc;
    const hexes = [];
    this.at = new Map();
    this.byName = new Map();
    doc.sheets.forEach((s, k) => {
      const where = `/sheets/${k}`;
      const rows = s.terrain;
      rows.forEach((line, r) => {
        for (let c = 0; c < line.length; ++c) {
          const code = line[c];
          if (code === ".") continue;
          if (!TERRAIN[code]) throw new Error(`${where}/terrain/${r}: column ${c + 1}: unknown terrain code '${code}'`);
          if (hexes.length >= MAX_HEXES) throw new Error(`the workshop draws at most ${MAX_HEXES.toLocaleString("en")} hexes`);
          const col = s.first[0] + c, row = s.first[1] + r;
          if (s.origin[0] + col >= KEY || s.origin[1] + row >= KEY || s.origin[0] < 0 || s.origin[1] < 0) {
            throw new Error(`${where}/origin: the workshop draws a global grid of at most ${KEY} columns and rows`);
          }
          const h = { hex: `${s.name}:${two(col)}${two(row)}`, col: s.origin[0] + col, row: s.origin[1] + row,
            terrain: TERRAIN[code], coast: COASTS[s.coast?.[r]?.[c]] || "none", sheet: k, r, c };
          this.at.set(h.col * KEY + h.row, hexes.length);
          this.byName.set(h.hex, hexes.length);
          hexes.push(h);
        }
      });
    });
    this.hexes = hexes;
    this.sideOf = new Int32Array(hexes.length * 6).fill(-1); // a*6+dir (a < b) -> index in hexsides
    this.hexsides = [];
    for (const h of hexes) h.water = h.terrain === "all-sea" || h.terrain === "lake";
    this.applyPlaces();
    for (const [feature, list] of Object.entries(doc.hexsides || {})) {
      for (const [a, b] of this.pairsOf(list)) {
        const s = this.side(a, b, true);
        if (WATERS.includes(feature)) s.override = feature;
        else if (!s.features.includes(feature)) s.features.push(feature);
      }
    }
    const waterways = this.markLines();
    hexes.forEach((h, i) => {
      if (h.coast !== "none" || h.water) for (const n of this.neighbours(i)) this.side(i, n, true);
    });
    for (const s of this.hexsides) this.derive(s);
    this.theater = normalizeTheater({ title: doc.title || doc.name || "", sheets, hexes, hexsides: this.hexsides, waterways });
  }

  // The waterways' and rail ferries' marks on their hexsides (a hexside's `waterway`, its
  // `rail-ferry` feature), from the document; returns the waterways as the map lists them.
  markLines() {
    const waterways = (this.doc.waterways || []).map((w, i) => {
      for (const [a, b] of this.pairsOf(w.hexsides)) {
        const s = this.side(a, b, true);
        if (!s) continue;
        s.waterway = i;
        s.navigable = !!w.navigable;
        s.suez = w.rule === "41.B";
      }
      return { name: w.name, rule: w.rule || "", navigable: !!w.navigable, closed: !!w.closed };
    });
    for (const f of this.doc["rail-ferries"] || []) {
      for (const [a, b] of this.pairsOf([f.line])) {
        const s = this.side(a, b, true);
        if (s && !s.features.includes("rail-ferry")) s.features.push("rail-ferry");
      }
    }
    return waterways;
  }
  // The marks again after an edit of the waterways or rail ferries (`keys`: the document's parts
  // it changed); returns the hexes whose hexsides' marks changed, for the map.
  applyLines(keys) {
    if (!keys.includes("waterways") && !keys.includes("rail-ferries")) return [];
    const mark = (s) => (s.waterway !== undefined || s.features.includes("rail-ferry")
      ? `${s.waterway}|${s.navigable}|${s.features.includes("rail-ferry")}` : "");
    const was = new Map();
    for (const s of this.hexsides) {
      if (!mark(s)) continue;
      was.set(s, mark(s));
      delete s.waterway;
      s.navigable = s.suez = false;
      const k = s.features.indexOf("rail-ferry");
      if (k >= 0) s.features.splice(k, 1);
    }
    this.theater.waterways = this.markLines();
    const hexes = new Set();
    for (const s of this.hexsides) {
      if (mark(s) !== (was.get(s) || "")) hexes.add(s.a).add(s.b);
    }
    return hexes;
  }

  // The hexes next to hex i (indices), by direction; -1 off the theater.
  neighboursByDir(i) {
    const h = this.hexes[i];
    return STEPS[h.col & 1].map(([dc, dr]) => this.at.get((h.col + dc) * KEY + h.row + dr) ?? -1);
  }
  neighbours(i) {
    return this.neighboursByDir(i).filter((n) => n >= 0);
  }
  // The direction from hex a to hex b, or -1 when they are not neighbours.
  dirOf(a, b) {
    const h = this.hexes[a], g = this.hexes[b];
    const steps = STEPS[h.col & 1];
    for (let d = 0; d < 6; ++d) {
      if (h.col + steps[d][0] === g.col && h.row + steps[d][1] === g.row) return d;
    }
    return -1;
  }

  // The hexside between hexes a and b, made (and listed for the map) when `make` is set.
  side(a, b, make) {
    if (a > b) [a, b] = [b, a];
    const dir = this.dirOf(a, b);
    if (dir < 0) return null;
    const k = this.sideOf[a * 6 + dir];
    if (k >= 0) return this.hexsides[k];
    if (!make) return null;
    const name = this.sideToken(a, b);
    const s = { hexside: name, name, a, b, dir, features: [], water: "none", override: "", navigable: false, suez: false };
    this.sideOf[a * 6 + dir] = this.hexsides.length;
    this.hexsides.push(s);
    this.added = true; // the map indexes its hexsides again
    return s;
  }

  // A hexside's water as the loader derives it (docs/scenario-format.md, "Hexsides"), and its
  // causeway (a road or railroad across water, 41.A.1).
  derive(s) {
    const A = this.hexes[s.a], B = this.hexes[s.b];
    const kind = (h) => (h.water ? h.terrain : h.coast);
    let w = "none";
    if (s.override) w = s.override === "no-water" ? "none" : s.override;
    else if (A.terrain === "all-sea" || B.terrain === "all-sea") w = "all-sea";
    else if (A.terrain === "lake" || B.terrain === "lake") w = "lake";
    else if (kind(A) === "partial-sea" && kind(B) === "partial-sea") {
      const ends = this.neighbours(s.a).filter((n) => n !== s.b && this.dirOf(n, s.b) >= 0);
      if (ends.some((n) => this.hexes[n].terrain === "all-sea")) w = "partial-sea";
    }
    s.water = w;
    const causeway = (w === "all-sea" || w === "lake") && s.features.some((f) => CROSSING.has(f));
    const has = s.features.includes("causeway");
    if (causeway && !has) s.features.push("causeway");
    if (!causeway && has) s.features.splice(s.features.indexOf("causeway"), 1);
  }

  // Derives again the hexsides and coasts' wedges around these hexes; returns the hexes whose
  // drawing changed, for the map.
  rederive(list) {
    const touched = new Set();
    for (const i of list) {
      touched.add(i);
      for (const n of this.neighbours(i)) touched.add(n);
    }
    for (const i of touched) {
      const h = this.hexes[i];
      for (const n of this.neighbours(i)) {
        const s = this.side(i, n, h.coast !== "none" || h.water || this.hexes[n].water);
        if (s) this.derive(s);
      }
    }
    for (const i of touched) this.hexes[i].wedges = null;
    for (const i of touched) {
      for (const n of this.neighbours(i)) {
        const s = this.side(i, n, false);
        if (s) coastWedge(this.hexes[i], s, s.a === i ? s.dir : (s.dir + 3) % 6);
      }
    }
    return touched;
  }

  // ---- tokens (docs/scenario-format.md, "Tokens") ----

  hexIndex(token) {
    return this.byName.get(token) ?? -1;
  }
  sideToken(a, b) {
    const A = this.hexes[a].hex, B = this.hexes[b].hex;
    const sheet = A.slice(0, A.indexOf(":") + 1);
    return `${A}/${B.startsWith(sheet) ? B.slice(sheet.length) : B}`;
  }
  chainToken(list) {
    let sheet = "";
    return list.map((i) => {
      const name = this.hexes[i].hex, own = name.slice(0, name.indexOf(":") + 1);
      const part = own === sheet ? name.slice(own.length) : name;
      sheet = own;
      return part;
    }).join("-");
  }
  // The hexes a token names, in order (a hexside's two, a chain's all); null when one is not a
  // hex of the theater.
  hexesOf(token) {
    if (typeof token !== "string") return null;
    const parts = token.includes("/") ? token.split("/") : token.split("-");
    let sheet = "";
    const out = [];
    for (const p of parts) {
      const name = p.includes(":") ? p : sheet + p;
      sheet = name.slice(0, name.indexOf(":") + 1);
      const i = this.hexIndex(name);
      if (i < 0) return null;
      out.push(i);
    }
    return out.length >= 2 ? out : null;
  }
  // Every hexside a list of hexside and chain tokens names, as pairs of hex indices.
  *pairsOf(list) {
    for (const token of Array.isArray(list) ? list : []) {
      const hexes = this.hexesOf(token);
      for (let k = 1; hexes && k < hexes.length; ++k) yield [hexes[k - 1], hexes[k]];
    }
  }
  // The hexes of a hex list (docs/scenario-format.md: hexes and blocks), those of the theater.
  hexesOfList(list) {
    const out = [];
    for (const token of Array.isArray(list) ? list : []) {
      if (typeof token !== "string") continue;
      const block = /^([^:]+):(\d\d)(\d\d)\.\.(\d\d)(\d\d)$/.exec(token);
      if (!block) {
        const i = this.hexIndex(token);
        if (i >= 0) out.push(i);
        continue;
      }
      const [, sheet, c0, r0, c1, r1] = block;
      for (let c = +c0; c <= +c1; ++c) {
        for (let r = +r0; r <= +r1; ++r) {
          const i = this.hexIndex(`${sheet}:${two(c)}${two(r)}`);
          if (i >= 0) out.push(i);
        }
      }
    }
    return out;
  }

  // ---- edits: each changes the document and the map, and returns its undo ----

  // Terrain (a name of TERRAIN) of hex i. Water hexes have no coast.
  setTerrain(i, terrain) {
    const h = this.hexes[i];
    const before = { terrain: h.terrain, coast: h.coast };
    if (h.terrain === terrain) return null;
    this.writeGrid("terrain", h, CODE[terrain]);
    h.terrain = terrain;
    h.water = terrain === "all-sea" || terrain === "lake";
    if (h.water && h.coast !== "none") this.setCoast(i, "none");
    return { hexes: this.rederive([i]), undo: () => this.restoreHex(i, before) };
  }
  setCoast(i, coast) {
    const h = this.hexes[i];
    const before = { terrain: h.terrain, coast: h.coast };
    if (h.coast === coast || (h.water && coast !== "none")) return null;
    if (!this.doc.sheets[h.sheet].coast) {
      this.doc.sheets[h.sheet].coast = this.doc.sheets[h.sheet].terrain.map((row) => ".".repeat(row.length));
    }
    this.writeGrid("coast", h, COAST_CODE[coast]);
    h.coast = coast;
    return { hexes: this.rederive([i]), undo: () => this.restoreHex(i, before) };
  }
  // The weather zone of hex i: its sheet's own (`zone`), or the zones grid's letter there.
  zoneOf(i) {
    const h = this.hexes[i], s = this.doc.sheets[h.sheet];
    const z = s.zones?.[h.r]?.[h.c];
    return z && z !== "." ? z : s.zone;
  }
  setZone(i, zone) {
    const h = this.hexes[i], s = this.doc.sheets[h.sheet], before = this.zoneOf(i);
    if (before === zone) return null;
    s.zones ||= s.terrain.map((row) => ".".repeat(row.length));
    this.writeGrid("zones", h, zone === s.zone ? "." : zone);
    return { hexes: [], undo: () => this.setZone(i, before) };
  }

  restoreHex(i, { terrain, coast }) {
    const now = { terrain: this.hexes[i].terrain, coast: this.hexes[i].coast };
    const a = this.setTerrain(i, terrain), b = this.setCoast(i, coast);
    const hexes = new Set([...(a?.hexes || []), ...(b?.hexes || [])]);
    return { hexes, undo: () => this.restoreHex(i, now) };
  }
  writeGrid(grid, h, code) {
    const rows = this.doc.sheets[h.sheet][grid];
    rows[h.r] = rows[h.r].slice(0, h.c) + code + rows[h.r].slice(h.c + 1);
  }

  // A hexside feature (FEATURES) or water override (WATERS) on the hexside a|b, on or off.
  setSide(a, b, feature, on) {
    const s = this.side(a, b, true);
    if (!s) return null;
    const water = WATERS.includes(feature);
    if ((water ? s.override === feature : s.features.includes(feature)) === on) return null;
    const before = s.override;
    this.doc.hexsides ||= {};
    if (water && on && s.override) this.dropFromList(s.override, s.a, s.b);
    if (on) (this.doc.hexsides[feature] ||= []).push(s.hexside);
    else this.dropFromList(feature, s.a, s.b);
    if (water) s.override = on ? feature : "";
    else if (on) s.features.push(feature);
    else s.features.splice(s.features.indexOf(feature), 1);
    const hexes = this.rederive([s.a, s.b]);
    const undo = water && before ? () => this.setSide(a, b, before, true) : () => this.setSide(a, b, feature, !on);
    return { hexes, undo };
  }
  // A chain of hexes (roads and rail painted hex to hex): one chain token, for the hexsides not
  // yet carrying the feature.
  addChain(list, feature) {
    const fresh = [];
    for (let k = 1; k < list.length; ++k) {
      const s = this.side(list[k - 1], list[k], true);
      if (s && !s.features.includes(feature)) fresh.push(k);
    }
    if (!fresh.length) return null;
    const runs = [];
    for (const k of fresh) {
      const last = runs[runs.length - 1];
      if (last && last[last.length - 1] === list[k - 1]) last.push(list[k]);
      else runs.push([list[k - 1], list[k]]);
    }
    this.doc.hexsides ||= {};
    const tokens = (this.doc.hexsides[feature] ||= []);
    const touched = new Set();
    for (const run of runs) {
      tokens.push(run.length === 2 ? this.sideToken(run[0], run[1]) : this.chainToken(run));
      for (let k = 1; k < run.length; ++k) this.side(run[k - 1], run[k], true).features.push(feature);
      for (const i of this.rederive(run)) touched.add(i);
    }
    const undo = () => {
      const hexes = new Set();
      for (const run of runs) {
        for (let k = 1; k < run.length; ++k) for (const i of this.setSide(run[k - 1], run[k], feature, false)?.hexes || []) hexes.add(i);
      }
      return { hexes, undo: () => this.addChain(list, feature) };
    };
    return { hexes: touched, undo };
  }
  // Takes the hexside a|b out of a hexside list, splitting the chain that names it.
  dropFromList(feature, a, b) {
    const list = this.doc.hexsides?.[feature];
    if (!list) return;
    this.dropSide(list, a, b);
    if (!list.length) delete this.doc.hexsides[feature];
  }
  // Takes the hexside a|b out of a list of hexside and chain tokens (in place), splitting the
  // chain that names it.
  dropSide(list, a, b) {
    for (let t = 0; t < list.length; ++t) {
      const hexes = this.hexesOf(list[t]);
      if (!hexes) continue;
      const k = hexes.findIndex((h, n) => n > 0 && ((hexes[n - 1] === a && h === b) || (hexes[n - 1] === b && h === a)));
      if (k < 0) continue;
      const head = hexes.slice(0, k), tail = hexes.slice(k);
      const parts = [head, tail].filter((p) => p.length >= 2)
        .map((p) => (p.length === 2 ? this.sideToken(p[0], p[1]) : this.chainToken(p)));
      list.splice(t, 1, ...parts);
      return;
    }
  }

  // The hexside a|b in waterway k (out of any other: a hexside belongs to one), or out of it.
  setWaterwaySide(a, b, k, on) {
    const s = this.side(a, b, true);
    if (!s || !this.doc.waterways?.[k] || (s.waterway === k) === on) return null;
    return this.edit(["waterways"], (doc) => {
      if (s.waterway !== undefined) this.dropSide(doc.waterways[s.waterway].hexsides, s.a, s.b);
      if (on) (doc.waterways[k].hexsides ||= []).push(s.hexside);
    });
  }
  // A new rail ferry along the hexes `line` (a chain, 41.A.2).
  addFerry(name, line) {
    return this.edit(["rail-ferries"], (doc) => (doc["rail-ferries"] ||= []).push({ name, line: this.chainToken(line) }));
  }
  // The rail ferries `ks` (indices) taken out.
  dropFerries(ks) {
    if (!ks.length) return null;
    return this.edit(["rail-ferries"], (doc) => {
      doc["rail-ferries"] = doc["rail-ferries"].filter((_, k) => !ks.includes(k));
      if (!doc["rail-ferries"].length) delete doc["rail-ferries"];
    });
  }
  // Hex i's bodies of water: `entry` ({areas, split-by}) in place of its own, or null for none
  // listed (one body touching all its sea hexsides).
  setWaterAreas(i, entry) {
    const name = this.hexes[i].hex;
    if (!entry && !this.waterAreasAt(i)) return null;
    return this.edit(["water-areas"], (doc) => {
      const list = (doc["water-areas"] ||= []);
      const k = list.findIndex((w) => w.hex === name);
      if (entry && k >= 0) list[k] = { hex: name, ...entry };
      else if (entry) list.push({ hex: name, ...entry });
      else list.splice(k, 1);
      if (!list.length) delete doc["water-areas"];
    });
  }
  // Hex i in the hex list of `doc[key][k]` (an area's, an exit's), or out of it (a block it is
  // in is written out hex by hex first).
  setListHex(key, k, i, on) {
    const item = this.doc[key]?.[k];
    if (!item || this.hexesOfList(item.hexes).includes(i) === on) return null;
    return this.edit([key], (doc) => {
      const x = doc[key][k];
      if (on) (x.hexes ||= []).push(this.hexes[i].hex);
      else x.hexes = this.hexesOfList(x.hexes).filter((h) => h !== i).map((h) => this.hexes[h].hex);
    });
  }
  // Weather zone `zone` frozen at the start (the state's frozen zones), or not.
  setFrozen(zone, on) {
    if (this.frozen(zone) === on) return null;
    return this.edit(["state"], (doc) => {
      const state = (doc.state ||= {});
      const list = (state["frozen-zones"] ||= []);
      if (on) list.push(zone);
      else list.splice(list.indexOf(zone), 1);
      if (!list.length) delete state["frozen-zones"];
      if (!Object.keys(state).length) delete doc.state;
    });
  }

  // The place on hex i (docs/scenario-format.md, "Places"): an object without its hex, or null
  // to remove it.
  placeAt(i) {
    return (this.doc.places || []).find((p) => p.hex === this.hexes[i].hex) || null;
  }
  setPlace(i, place) {
    const before = this.placeAt(i);
    const places = (this.doc.places ||= []);
    const k = before ? places.indexOf(before) : -1;
    const next = place ? { hex: this.hexes[i].hex, ...place } : null;
    if (next && k >= 0) places[k] = next;
    else if (next) places.push(next);
    else if (k >= 0) places.splice(k, 1);
    if (!places.length) delete this.doc.places;
    this.applyPlaces();
    const { hex: _, ...was } = before || {};
    return { hexes: [i], undo: () => this.setPlace(i, before && was) };
  }
  applyPlaces() {
    for (const h of this.hexes) {
      h.city = h.port = h.inland = h.airbase = h.place = undefined;
    }
    for (const p of this.doc.places || []) {
      const h = this.hexes[this.hexIndex(p.hex)];
      if (!h) continue;
      if (p.city) h.city = p.city;
      if (p.port) h.port = p.port;
      if (p.inland) h.inland = true;
      if (p.airbase) h.airbase = true;
      if (p.name) h.place = p.name;
    }
  }

  // Any other part of the document (the campaign, the areas, the title): `change(doc)` edits it
  // in place; the undo puts back a copy of what `keys` held before.
  edit(keys, change) {
    const before = Object.fromEntries(keys.map((k) => [k, structuredClone(this.doc[k])]));
    change(this.doc);
    return { hexes: this.applyLines(keys), undo: () => this.restore(before) };
  }
  restore(parts) {
    const now = Object.fromEntries(Object.keys(parts).map((k) => [k, structuredClone(this.doc[k])]));
    for (const [k, v] of Object.entries(parts)) {
      if (v === undefined) delete this.doc[k];
      else this.doc[k] = v;
    }
    this.applyPlaces();
    return { hexes: this.applyLines(Object.keys(parts)), undo: () => this.restore(now) };
  }

  // ---- what the map and panels show ----

  // Every unit of the campaign as the map's position has them (model.js's normalizePosition form).
  units() {
    const c = this.doc.campaign || {};
    const side = (n) => c.nationalities?.[n] || "";
    const out = [];
    const add = (u, kind, strength) => out.push({ id: String(u.id), name: u.name || String(u.id), side: side(u.nationality), kind,
      type: u.type || "", nationality: u.nationality || "", hex: this.hexIndex(String(u.hex || "").split("#")[0]), strength, selected: false });
    for (const u of c.units || []) add(u, "ground", `${u.attack}-${u.defense}-${u.mp} ${u.re}RE`);
    for (const u of c.air || []) add(u, "air", "air");
    for (const u of c.naval || []) add(u, "naval", u.kind || "");
    return out;
  }
  // The position drawn: the units and the starting control.
  position() {
    const owner = new Array(this.hexes.length).fill("");
    for (const [side, list] of Object.entries(this.doc.state?.control || {})) {
      for (const i of this.hexesOfList(list)) owner[i] = side;
    }
    return { owner, floods: new Set(), ice: new Set(), bridges: new Set(), suez: "open", units: this.units(), zoc: {}, supply: {} };
  }
  // The areas holding hex i (their names).
  areasAt(i) {
    return (this.doc.areas || []).filter((a) => this.hexesOfList(a.hexes).includes(i)).map((a) => a.role ? `${a.name} (${a.role})` : a.name);
  }
  // The exits holding hex i, in words.
  exitsAt(i) {
    return (this.doc.exits || []).filter((x) => this.hexesOfList(x.hexes).includes(i))
      .map((x) => `${x.name}: ${x.side} units off the ${x.edge} edge, into ${x.total}`);
  }
  // Hex i's water areas (docs/scenario-format.md, "Water areas"): its entry, or null.
  waterAreasAt(i) {
    return (this.doc["water-areas"] || []).find((w) => w.hex === this.hexes[i].hex) || null;
  }
  // The rail ferries whose line crosses the hexside a|b (their indices).
  ferriesAt(a, b) {
    const out = [];
    (this.doc["rail-ferries"] || []).forEach((f, k) => {
      for (const [p, q] of this.pairsOf([f.line])) if ((p === a && q === b) || (p === b && q === a)) out.push(k);
    });
    return [...new Set(out)];
  }
  // The hexsides of waterway k, as [a, b] pairs.
  waterwaySides(k) {
    return [...this.pairsOf(this.doc.waterways?.[k]?.hexsides)];
  }
  frozen(zone) {
    return (this.doc.state?.["frozen-zones"] || []).includes(zone);
  }
}

// The new-theater dialog's sheets (docs/editor.md), one a line: `NAME COLSxROWS`, and after the
// first `east of NAME`, `west of NAME`, `south of NAME` or `north of NAME`: the sheet joins that
// one along its whole edge. Returns [{name, cols, rows, origin}], origins on the global grid (the
// first sheet's top-left corner at 0,0 or as far as the others need); throws an Error in words.
export function parseSheets(text) {
  const sheets = [];
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  if (!lines.length) throw new Error("give at least one sheet: NAME COLUMNSxROWS");
  lines.forEach((line, k) => {
    const m = /^(\S+)\s+(\d+)\s*x\s*(\d+)(?:\s+(east|west|south|north)\s+of\s+(\S+))?$/i.exec(line);
    const at = `sheet line ${k + 1} ("${line}")`;
    if (!m) throw new Error(`${at}: write NAME COLUMNSxROWS, then (after the first) east, west, south or north of NAME`);
    const [, name, c, r, way, of] = m, cols = Number(c), rows = Number(r);
    if (!/^[A-Za-z0-9]+$/.test(name)) throw new Error(`${at}: a sheet's name is letters and digits`);
    if (sheets.some((x) => x.name === name)) throw new Error(`${at}: there is a sheet ${name} already`);
    if (cols < 1 || cols > 99 || rows < 1 || rows > 99) throw new Error(`${at}: 1 to 99 columns and rows (a hex is numbered XXYY)`);
    if (!k && way) throw new Error(`${at}: the first sheet lies where it is; the others are placed by it`);
    if (k && !way) throw new Error(`${at}: say where it lies: east, west, south or north of a sheet above`);
    const by = k ? sheets.find((x) => x.name === of) : null;
    if (k && !by) throw new Error(`${at}: no sheet ${of} above it`);
    const dir = way?.toLowerCase();
    // Columns joined east-west keep even columns the lower ones only across an even count.
    const odd = dir === "east" ? by.cols % 2 : dir === "west" ? cols % 2 : 0;
    if (odd) throw new Error(`${at}: sheets side by side join only across an even number of columns (${dir === "east" ? by.name : name} has ${dir === "east" ? by.cols : cols})`);
    const origin = !by ? [0, 0] : dir === "east" ? [by.origin[0] + by.cols, by.origin[1]] : dir === "west" ? [by.origin[0] - cols, by.origin[1]]
      : dir === "south" ? [by.origin[0], by.origin[1] + by.rows] : [by.origin[0], by.origin[1] - rows];
    const clash = sheets.find((x) => origin[0] < x.origin[0] + x.cols && x.origin[0] < origin[0] + cols
      && origin[1] < x.origin[1] + x.rows && x.origin[1] < origin[1] + rows);
    if (clash) throw new Error(`${at}: it would overlap sheet ${clash.name}`);
    sheets.push({ name, cols, rows, origin });
  });
  const hexes = sheets.reduce((n, x) => n + x.cols * x.rows, 0);
  if (hexes > MAX_HEXES) throw new Error(`${hexes.toLocaleString("en")} hexes: the workshop draws at most ${MAX_HEXES.toLocaleString("en")}`);
  // Moved so that no origin is negative, by an even number of columns.
  const dx = Math.max(0, -Math.min(...sheets.map((x) => x.origin[0])));
  const dy = Math.max(0, -Math.min(...sheets.map((x) => x.origin[1])));
  for (const x of sheets) x.origin = [x.origin[0] + dx + (dx % 2), x.origin[1] + dy];
  return sheets;
}

// A new theater: its sheets (parseSheets' form), all clear or all sea (docs/editor.md).
export function blankScenario({ name, sheets, fill }) {
  return {
    opsim: "scenario", version: 1, name, title: name,
    sheets: sheets.map((s) => ({ name: s.name, size: [s.cols, s.rows], origin: s.origin, first: [1, 1], zone: "A",
      terrain: Array.from({ length: s.rows }, () => (fill === "sea" ? "~" : "c").repeat(s.cols)) })),
  };
}
