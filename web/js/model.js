// The theater and position answers (docs/views.md) turned into what the map draws: arrays by
// hex and hexside index, world positions, and sets for the position's markers. Each sheet is
// drawn in the panel the theater gives it (its `panel`); panels() lays the panels out in rows. The
// theater comes in either form: the compact one (columns, `?form=compact`: what the page asks
// for) or the JSON one (an object per hex: the workshop's, made from a scenario file); both
// become the same model.

const ROOT3 = Math.sqrt(3);

// A hex's centre on the global grid: flat-topped, even columns half a hex lower.
function center(col, row) {
  return [col * 1.5, row * ROOT3 + (col % 2 === 0 ? ROOT3 / 2 : 0)];
}

// The panels as the page lays them out. Which sheets form one panel is the server's (each sheet's
// `panel`, docs/views.md: sheets that touch on the global grid share one, numbered in the order
// of their first sheet); where each panel goes is the page's own choice, below. A theater whose
// sheets do not say their panels is an error, never worked out again here.
function panels(sheets) {
  const list = [];
  const win = (s) => [s.origin[0] + s.first[0], s.origin[1] + s.first[1], s.origin[0] + s.last[0], s.origin[1] + s.last[1]];
  for (const s of sheets) {
    if (!Number.isInteger(s.panel) || s.panel < 0 || s.panel > list.length) {
      throw new Error(`the theater's sheet ${s.name} does not say its panel (docs/views.md: each sheet's "panel")`);
    }
    if (s.panel === list.length) list.push({ names: [], x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity });
    const p = list[s.panel];
    const w = win(s);
    const [ax, ay] = center(w[0], w[1]);
    const [bx, by] = center(w[2], w[3]);
    p.names.push(s.name);
    p.x0 = Math.min(p.x0, ax - 2);
    p.y0 = Math.min(p.y0, ay - 2);
    p.x1 = Math.max(p.x1, bx + 2);
    p.y1 = Math.max(p.y1, by + 2);
  }
  // Panels are laid out in rows (shelves) about as wide as the whole is tall times 1.6, so that
  // a theater of far-apart sheets fills a screen rather than a tall strip.
  const area = list.reduce((sum, p) => sum + (p.x1 - p.x0 + 4) * (p.y1 - p.y0 + 6), 0);
  const width = Math.max(...list.map((p) => p.x1 - p.x0 + 4), Math.sqrt(area * 1.6));
  let x = 0, y = 0, shelf = 0;
  for (const p of list) {
    const w = p.x1 - p.x0 + 4, h = p.y1 - p.y0 + 6;
    if (x > 0 && x + w > width) {
      x = 0;
      y += shelf;
      shelf = 0;
    }
    p.dx = x - p.x0;
    p.dy = y + 4 - p.y0;
    x += w;
    shelf = Math.max(shelf, h);
  }
  const bySheet = new Map(sheets.map((s) => [s.name, list[s.panel]]));
  return { bySheet, list };
}

// The water of a coastal hex is drawn as wedges toward its sea (or lake) hexsides: adds hex h's
// wedge toward its hexside `s`, in direction `dir` from h (the workshop calls it again for the
// hexes it repaints).
export function coastWedge(h, s, dir) {
  if (h.coast === "none" || s.water === "none") return;
  const sea = h.coast === "partial-sea";
  if (sea ? s.water !== "all-sea" && s.water !== "partial-sea" : s.water !== "lake") return;
  (h.wedges ||= []).push({ dir, kind: sea ? "sea" : "lake" });
}

// The answer's own objects are completed in place (a generated theater has 100,000 hexes and
// as many hexsides to draw: new objects for each would double the garbage).
export function normalizeTheater(doc) {
  if (doc.form === "compact") return compactTheater(doc);
  const layout = panels(doc.sheets);
  const index = new Map();
  let prefix = "\0", panel = null; // the sheet of the hexes before, which usually comes next
  const hexes = doc.hexes;
  for (let i = 0; i < hexes.length; ++i) {
    const h = hexes[i];
    const name = h.hex;
    index.set(name, i);
    if (!name.startsWith(prefix)) {
      const colon = name.indexOf(":");
      prefix = name.slice(0, colon + 1);
      panel = layout.bySheet.get(name.slice(0, colon));
    }
    h.name = name;
    h.x = h.col * 1.5 + panel.dx;
    h.y = h.row * ROOT3 + (h.col % 2 === 0 ? ROOT3 / 2 : 0) + panel.dy;
    h.coast ||= "none";
    h.water = h.terrain === "all-sea" || h.terrain === "lake";
    h.wedges = null;
  }
  const hexsides = doc.hexsides;
  for (const s of hexsides) {
    const way = s.waterway === undefined ? null : doc.waterways[s.waterway];
    s.name = s.hexside;
    s.features ||= [];
    s.water ||= "none";
    s.navigable = !!way?.navigable;
    s.suez = way?.rule === "41.B";
  }
  for (const s of hexsides) {
    coastWedge(hexes[s.a], s, s.dir);
    coastWedge(hexes[s.b], s, (s.dir + 3) % 6);
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const h of hexes) {
    if (h.x < x0) x0 = h.x;
    if (h.x > x1) x1 = h.x;
    if (h.y < y0) y0 = h.y;
    if (h.y > y1) y1 = h.y;
  }
  return model(doc, layout, hexes, hexsides, index, { x0, y0, x1, y1 });
}

// What both forms share: the panels' titles, the sheets' rectangles, the lookups.
function model(doc, layout, hexes, hexsides, index, { x0, y0, x1, y1 }) {
  const titles = layout.list.map((p) => ({ title: `sheet ${p.names.join(" + ")}`, x: p.x0 + p.dx, y: p.y0 + p.dy - 0.5 }));
  // Each sheet's rectangle in world units, for its name at its edges (where sheets join), and
  // whether it is its panel's only sheet (the panel's title names it then).
  const sheets = doc.sheets.map((s) => {
    const p = layout.bySheet.get(s.name);
    const [ax, ay] = center(s.origin[0] + s.first[0], s.origin[1] + s.first[1]);
    const [bx, by] = center(s.origin[0] + s.last[0], s.origin[1] + s.last[1]);
    return { name: s.name, alone: p.names.length === 1, x0: ax + p.dx - 1, y0: ay + p.dy - 1, x1: bx + p.dx + 1, y1: by + p.dy + 1 };
  });
  return {
    title: doc.title || "",
    hexes,
    hexsides,
    index, // .get(name): the hex's index, or undefined
    // A hexside's index by name, built when first asked (destroyed bridges are few).
    sideOf(name) {
      if (!this.sideIndex) this.sideIndex = new Map(hexsides.map((s, i) => [s.name, i]));
      return this.sideIndex.get(name) ?? -1;
    },
    // Whether hexes a and b (indices) share a hexside: their centres are one hex apart (the
    // theater lists only the hexsides that carry something).
    adjacent(a, b) {
      const p = hexes[a], q = hexes[b];
      return !!p && !!q && Math.abs((p.x - q.x) ** 2 + (p.y - q.y) ** 2 - 3) < 0.01;
    },
    panels: titles,
    hasSuez: hexsides.some((s) => s.suez), // a theater without the Suez Canal says nothing of it
    sheets,
    bounds: { x0: x0 - 1, y0: y0 - 4, x1: x1 + 1, y1: y1 + 1 },
  };
}

// ---- the compact form (docs/views.md, "The compact theater") ------------------------------------

const NO_FEATURES = Object.freeze([]);

// A column or row as a hex's name writes it: two digits (its last two).
const two = (n) => (n % 100 < 10 ? "0" : "") + (n % 100);

// A hex of the compact form, as small as it can be (100,000 of them are made at once): every
// field a hex of the JSON form has once completed (hex, col, row, x, y, terrain, coast, city,
// port, inland, airbase, place, water, wedges, zone, name), read from the theater's columns
// when asked for.
class Hex {
  constructor(t, i, terrain) {
    this.t = t;
    this.i = i;
    this.terrain = terrain;
    this.wedges = null;
  }
  get x() { return this.t.xs[this.i]; }
  get y() { return this.t.ys[this.i]; }
  get water() { return this.terrain === "all-sea" || this.terrain === "lake"; }
  get coast() { return this.t.words.coast[this.t.columns.coast[this.i]]; }
  get city() { return this.t.words.city[this.t.columns.city[this.i]]; }
  get port() { return this.t.words.port[this.t.columns.port[this.i]]; }
  get inland() { return (this.t.columns.flags[this.i] & 1) !== 0; }
  get airbase() { return (this.t.columns.flags[this.i] & 2) !== 0; }
  get place() { return this.t.places.get(this.i); }
  get zone() { return this.t.columns.zone[this.i]; }
  get name() { return this.t.nameOf(this.i); }
  get hex() { return this.name; }
  get col() { return this.t.columns.col[this.i]; }
  get row() { return this.t.columns.row[this.i]; }
}

// A hexside of the compact form: as the JSON form's once completed (hexside, a, b, dir, water,
// features, waterway, navigable, suez, name), read from the columns when asked for.
class Hexside {
  constructor(t, i) {
    this.t = t;
    this.i = i;
  }
  get a() { return this.t.sideColumns.a[this.i]; }
  get b() { return this.t.sideColumns.b[this.i]; }
  get dir() { return this.t.sideColumns.dir[this.i]; }
  get water() { return this.t.words.water[this.t.sideColumns.water[this.i]]; }
  get features() { return this.t.featuresOf(this.t.sideColumns.features[this.i]); }
  get navigable() { return !!this.way?.navigable; }
  get suez() { return this.way?.rule === "41.B"; }
  get waterway() { return this.t.sideColumns.waterway[this.i] < 0 ? undefined : this.t.sideColumns.waterway[this.i]; }
  get way() { return this.t.waterways[this.t.sideColumns.waterway[this.i]]; } // undefined: none
  get hexside() { return this.name; }
  get name() {
    const a = this.t.nameOf(this.a), b = this.t.nameOf(this.b);
    const sheet = a.slice(0, a.indexOf(":") + 1);
    return `${a}/${b.startsWith(sheet) ? b.slice(sheet.length) : b}`;
  }
}

// The compact form's columns, kept as they come; one small object per hex and hexside reads
// them (the map reads x and y from typed arrays), and hexes' names are looked up by their
// sheet, column and row.
function compactTheater(doc) {
  const layout = panels(doc.sheets);
  const names = doc.names, col = doc.hexes, sc = doc.hexsides;
  const n = col.count, m = sc.count;
  const sheetOf = doc.sheets.map((s) => layout.bySheet.get(s.name));
  const featureLists = new Map(); // the names of a set of features, by its bits (one list each)
  const t = {
    columns: col,
    sideColumns: sc,
    waterways: doc.waterways,
    words: { ...names, city: names.city.map((w) => (w === "none" ? "" : w)), port: names.port.map((w) => (w === "none" ? "" : w)) },
    places: new Map(col.places),
    xs: new Float64Array(n), // each hex's centre in world units, for the map
    ys: new Float64Array(n),
    // A hex's name: its sheet, a colon, its column and row on the sheet as two digits each.
    nameOf(i) {
      const s = doc.sheets[col.sheet[i]];
      return `${s.name}:${two(col.col[i] - s.origin[0])}${two(col.row[i] - s.origin[1])}`;
    },
    featuresOf(bits) {
      if (!bits) return NO_FEATURES;
      let list = featureLists.get(bits);
      if (!list) {
        list = Object.freeze(names.features.filter((_, k) => bits & (1 << k)));
        featureLists.set(bits, list);
      }
      return list;
    },
  };
  const hexes = new Array(n);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < n; ++i) {
    const c = col.col[i], r = col.row[i], p = sheetOf[col.sheet[i]];
    const x = c * 1.5 + p.dx, y = r * ROOT3 + (c % 2 === 0 ? ROOT3 / 2 : 0) + p.dy;
    t.xs[i] = x;
    t.ys[i] = y;
    hexes[i] = new Hex(t, i, names.terrain[col.terrain[i]]);
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const hexsides = new Array(m);
  for (let i = 0; i < m; ++i) hexsides[i] = new Hexside(t, i);
  // The coasts' wedges: only a coastal hex, or one beside it, has one.
  for (let i = 0; i < m; ++i) {
    const a = sc.a[i], b = sc.b[i];
    if (!sc.water[i] || (!col.coast[a] && !col.coast[b])) continue;
    coastWedge(hexes[a], hexsides[i], sc.dir[i]);
    coastWedge(hexes[b], hexsides[i], (sc.dir[i] + 3) % 6);
  }
  const index = { get: hexIndex(doc, t, n) };
  return Object.assign(t, model(doc, layout, hexes, hexsides, index, { x0, y0, x1, y1 }));
}

// A hex's index by its name: its sheet's grid of the hexes it holds, by column and row. A sheet
// wider or taller than 99 hexes has names that repeat (two digits each): then a map of names,
// made when first asked.
function hexIndex(doc, t, n) {
  const col = doc.hexes;
  const sheets = new Map(doc.sheets.map((s, k) => [s.name, k]));
  if (doc.sheets.some((s) => s.last[0] > 99 || s.last[1] > 99)) {
    let byName = null;
    return (name) => (byName ||= new Map(Array.from({ length: n }, (_, i) => [t.nameOf(i), i]))).get(name);
  }
  const grids = doc.sheets.map((s) => {
    const w = Math.max(0, s.last[0] - s.first[0] + 1), h = Math.max(0, s.last[1] - s.first[1] + 1);
    return { w, h, cells: new Int32Array(w * h).fill(-1) };
  });
  for (let i = 0; i < n; ++i) {
    const s = doc.sheets[col.sheet[i]], g = grids[col.sheet[i]];
    g.cells[col.col[i] - s.origin[0] - s.first[0] + (col.row[i] - s.origin[1] - s.first[1]) * g.w] = i;
  }
  const digit = (name, k) => {
    const d = name.charCodeAt(k) - 48;
    return d >= 0 && d <= 9 ? d : NaN;
  };
  return (name) => {
    if (typeof name !== "string") return undefined;
    const colon = name.indexOf(":");
    const k = colon < 0 ? undefined : sheets.get(name.slice(0, colon));
    if (k === undefined || name.length !== colon + 5) return undefined;
    const s = doc.sheets[k], g = grids[k];
    const c = digit(name, colon + 1) * 10 + digit(name, colon + 2) - s.first[0];
    const r = digit(name, colon + 3) * 10 + digit(name, colon + 4) - s.first[1];
    if (!(c >= 0 && c < g.w && r >= 0 && r < g.h)) return undefined;
    const i = g.cells[c + r * g.w];
    return i >= 0 ? i : undefined;
  };
}

// The position comes in either form too: the compact one (`?form=compact`, docs/views.md, "The
// compact position": the owners one character a hex, units' and zones' hexes as indices: what
// the page asks GET .../state for) or the JSON one (hexes by name: GET .../play's position).
const OWNERS = ["", "axis", "allied"]; // the compact form's '0', '1', '2'

export function normalizePosition(doc, t) {
  const hexOf = (name) => t.index.get(name) ?? -1;
  const compact = doc.form === "compact";
  // A unit's or a zone's hex: an index in the compact form (checked), a name in the other.
  const hexAt = compact ? (i) => (Number.isInteger(i) && i >= 0 && i < t.hexes.length ? i : -1) : hexOf;
  const owner = new Array(t.hexes.length).fill("");
  if (compact) {
    const by = doc.owner || "";
    for (let i = 0, n = Math.min(by.length, owner.length); i < n; ++i) owner[i] = OWNERS[by.charCodeAt(i) - 48] || "";
  } else {
    for (const [side, list] of Object.entries(doc.owner || {})) {
      for (const name of list) {
        const i = hexOf(name);
        if (i >= 0) owner[i] = side;
      }
    }
  }
  const set = (list, f) => new Set((list || []).map((x) => f(typeof x === "object" && x ? x.hex ?? x.hexside : x)).filter((i) => i >= 0));
  const zoc = {};
  for (const [side, list] of Object.entries(doc.zoc || {})) zoc[side] = set(list, hexAt);
  // Supply is `opsim supply --all`'s answer per side: a ring on each unit's hex.
  const supply = {};
  for (const [side, answer] of Object.entries(doc.supply || {})) {
    supply[side] = new Map((answer.units || []).filter((u) => u.hex).map((u) => [hexOf(u.hex), u.status]));
  }
  return {
    owner,
    floods: set(doc.floods, hexOf),
    ice: set(doc.ice_airfields, hexOf),
    bridges: set(doc.destroyed_bridges, (n) => (n ? t.sideOf(n) : -1)),
    suez: doc.suez || "open",
    units: (doc.units || []).map((u) => ({
      id: u.id,
      name: u.name || u.id,
      side: u.side,
      kind: u.kind || "ground",
      type: u.type || "",
      nationality: u.nationality || "",
      hex: u.hex === null || u.hex === undefined ? -1 : hexAt(u.hex),
      strength: u.strength || "",
      selected: false,
    })),
    zoc,
    supply,
  };
}
