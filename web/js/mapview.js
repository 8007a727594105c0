// The map: terrain, hexsides and overlays on one canvas, counters as buttons over it. Only
// what is in view is drawn (a spatial index of cells), so a 100,000-hex theater pans and zooms
// as a small one does. World units: a hex's radius is 1; flat-topped hexes as `opsim render`.

import { TERRAIN_COLORS, STYLE, PLAY_STYLE, SIDE_COLORS, SYMBOL_BOX, counterColor, paintStar, paintSymbol, symbolOf } from "./style.js";

const ROOT3 = Math.sqrt(3);
const CELL = 16; // world units per cell of the spatial index
const MIN_SCALE = 0.5, MAX_SCALE = 120; // pixels per world unit
const COUNTER_SCALE = 22; // below this, units are marks on the canvas (colour and symbol), not buttons
const COUNTER_FULL = 34; // from this scale up, counters are full size; below, shrunk to fit a hex
const COUNTER_MIN_SHRINK = 0.8; // no smaller: their smallest text stays 7 px or more
export const READABLE_SCALE = COUNTER_FULL; // "Go" zooms in to at least this
const MAX_COUNTERS = 700;

// Corner k of the hex centred at (x, y): 0 east, then clockwise on screen.
function corner(x, y, k) {
  const a = (Math.PI / 3) * k;
  return [x + Math.cos(a), y + Math.sin(a)];
}
// The corners bounding the hexside in direction d (N NE SE S SW NW) from the hex at (x, y).
const FIRST_CORNER = [4, 5, 0, 1, 2, 3];
function sideCorners(x, y, d) {
  const k = FIRST_CORNER[d];
  return [corner(x, y, k), corner(x, y, (k + 1) % 6)];
}

const OUTLINE_SCALE = 6; // pixels per world unit from which hexes are outlined (and drawn as paths)

// The coastal water of hex `hx` toward its hexside in direction `dir`: a wedge from near its
// centre to the hexside's corners, [corner, corner, apex].
function wedge(hx, dir) {
  const [[ax, ay], [bx, by]] = sideCorners(hx.x, hx.y, dir);
  return [[ax, ay], [bx, by], [hx.x * 0.35 + ((ax + bx) / 2) * 0.65, hx.y * 0.35 + ((ay + by) / 2) * 0.65]];
}

// The part of a row (at height y) inside a triangle: sets out to [left, right] (left > right:
// none).
function span(tri, y, out) {
  let a = Infinity, b = -Infinity;
  for (let k = 0; k < 3; ++k) {
    const p = tri[k], q = tri[k === 2 ? 0 : k + 1];
    if ((y < p[1]) === (y < q[1])) continue;
    const x = p[0] + ((y - p[1]) / (q[1] - p[1])) * (q[0] - p[0]);
    if (x < a) a = x;
    if (x > b) b = x;
  }
  out[0] = a;
  out[1] = b;
}

// Every colour rasterHexes sets: each terrain's (index: by terrain, its number; the background
// last), unhatched and under each side's hatch at 40%, for each of the hatch tile's 8 x 8 pixels
// (table: shadeOf(colour, side) + tile row * 8 + tile column).
function shades(hatches) {
  const colors = [...Object.values(TERRAIN_COLORS), STYLE.background].map((c) => abgr(c));
  const index = Object.fromEntries(Object.keys(TERRAIN_COLORS).map((k, n) => [k, n]));
  const tiles = [null, hatches.axis, hatches.allied].map((c) => c?.getContext("2d").getImageData(0, 0, 8, 8).data);
  const table = new Uint32Array(3 * colors.length * 64);
  tiles.forEach((tile, side) => colors.forEach((c, n) => {
    for (let k = 0; k < 64; ++k) {
      const a = tile ? (tile[k * 4 + 3] / 255) * 0.4 : 0;
      const mix = (shift, j) => Math.round(((c >>> shift) & 255) * (1 - a) + (tile ? tile[k * 4 + j] : 0) * a) << shift;
      table[shadeOf(n, side) + k] = (0xff000000 | mix(16, 2) | mix(8, 1) | mix(0, 0)) >>> 0;
    }
  }));
  return { index, table };
}
const SHADE_COLORS = 64 * 3; // table entries a colour takes: its 64 tile pixels for each of 3 sides
function shadeOf(color, side) {
  return color * SHADE_COLORS + side * 64;
}

// A colour "#rrggbb" as an ImageData pixel (little-endian: alpha, blue, green, red).
function abgr(hex) {
  const n = parseInt(hex.slice(1), 16);
  return (0xff000000 | ((n & 255) << 16) | (n & 0xff00) | ((n >> 16) & 255)) >>> 0;
}

// A hex's outline as a path's text (SVG's): a cell's hexes become one Path2D made from one text,
// which costs far less than a Path2D's calls one by one (about 10,000 hexes in a first view).
const HALF_ROOT3 = String(ROOT3 / 2);
function hexText({ x, y }) {
  return `M${x + 1} ${y}l-.5 ${HALF_ROOT3}h-1l-.5 -${HALF_ROOT3}l.5 -${HALF_ROOT3}h1z`;
}
// One Path2D of a list of texts (none: an empty path).
function pathOf(texts) {
  return new Path2D(texts.join(""));
}

// Adds a hex's outline to a path (a context or a Path2D).
function addHex(path, { x, y }) {
  path.moveTo(x + 1, y);
  path.lineTo(x + 0.5, y + ROOT3 / 2);
  path.lineTo(x - 0.5, y + ROOT3 / 2);
  path.lineTo(x - 1, y);
  path.lineTo(x - 0.5, y - ROOT3 / 2);
  path.lineTo(x + 0.5, y - ROOT3 / 2);
  path.closePath();
}

// The hexside lines, in drawing order: along the hexside (water, rivers, canals, borders), then
// across it, centre to centre (roads, rail, causeways, ferries). Width: `px` pixels, at least
// `world` units.
const has = (name) => (sd) => sd.features.includes(name);
const SIDE_LINES = [
  { along: true, test: (sd) => sd.navigable, color: STYLE.waterway, px: 2, world: 0.3 },
  { along: true, test: (sd, t) => sd.water === "all-sea" && !t.hexes[sd.a].water && !t.hexes[sd.b].water,
    color: STYLE.seaSide, px: 1.5, world: 0.15 },
  { along: true, test: has("major-river"), color: STYLE.majorRiver, px: 1.8, world: 0.2 },
  { along: true, test: has("minor-river"), color: STYLE.minorRiver, px: 1, world: 0.1 },
  { along: true, test: has("canal"), color: STYLE.canal, px: 1.2, world: 0.13, dash: [0.25, 0.12] },
  { along: true, test: has("border"), color: STYLE.border, px: 1, world: 0.07, dash: [0.3, 0.1, 0.05, 0.1] },
  { along: false, test: has("road"), color: STYLE.road, px: 1, world: 0.1 },
  { along: false, test: has("railroad"), color: STYLE.rail, px: 1, world: 0.08, dash: [0.2, 0.13] },
  { along: false, test: has("causeway"), color: STYLE.causeway, px: 1.5, world: 0.2 },
  { along: false, test: has("rail-ferry"), color: STYLE.railFerry, px: 1.2, world: 0.13, dash: [0.33, 0.2] },
];

// A grid of cells, each listing the items whose point (xOf(i), yOf(i)) falls in it
// (compressed: offsets + ids).
class CellIndex {
  constructor(bounds, count, xOf, yOf) {
    this.x0 = bounds.x0 - 2;
    this.y0 = bounds.y0 - 2;
    this.cols = Math.max(1, Math.ceil((bounds.x1 - this.x0 + 2) / CELL));
    this.rows = Math.max(1, Math.ceil((bounds.y1 - this.y0 + 2) / CELL));
    const cellOf = new Int32Array(count);
    const start = new Int32Array(this.cols * this.rows + 1);
    for (let i = 0; i < count; ++i) {
      const c = this.cell(xOf(i), yOf(i));
      cellOf[i] = c;
      ++start[c + 1];
    }
    for (let c = 0; c < this.cols * this.rows; ++c) start[c + 1] += start[c];
    const fill = start.slice(0, -1);
    this.ids = new Int32Array(count);
    for (let i = 0; i < count; ++i) this.ids[fill[cellOf[i]]++] = i;
    this.start = start;
  }
  cell(x, y) {
    const cx = Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.x0) / CELL)));
    const cy = Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.y0) / CELL)));
    return cx + cy * this.cols;
  }
  // The cells meeting the rectangle.
  cells(x0, y0, x1, y1) {
    const out = [];
    const c0 = Math.max(0, Math.floor((x0 - this.x0) / CELL));
    const c1 = Math.min(this.cols - 1, Math.floor((x1 - this.x0) / CELL));
    const r0 = Math.max(0, Math.floor((y0 - this.y0) / CELL));
    const r1 = Math.min(this.rows - 1, Math.floor((y1 - this.y0) / CELL));
    for (let r = r0; r <= r1; ++r) {
      for (let c = c0; c <= c1; ++c) out.push(c + r * this.cols);
    }
    return out;
  }
  items(k) {
    return this.ids.subarray(this.start[k], this.start[k + 1]);
  }
  // Calls f(id) for every item in the cells meeting the rectangle.
  each(x0, y0, x1, y1, f) {
    const c0 = Math.max(0, Math.floor((x0 - this.x0) / CELL));
    const c1 = Math.min(this.cols - 1, Math.floor((x1 - this.x0) / CELL));
    const r0 = Math.max(0, Math.floor((y0 - this.y0) / CELL));
    const r1 = Math.min(this.rows - 1, Math.floor((y1 - this.y0) / CELL));
    for (let r = r0; r <= r1; ++r) {
      for (let c = c0; c <= c1; ++c) {
        const k = c + r * this.cols;
        for (let j = this.start[k]; j < this.start[k + 1]; ++j) f(this.ids[j]);
      }
    }
  }
}

function hatch(color, slant) {
  const c = document.createElement("canvas");
  c.width = c.height = 8;
  const g = c.getContext("2d");
  g.strokeStyle = color;
  g.lineWidth = 1.2;
  g.beginPath();
  if (slant > 0) {
    g.moveTo(0, 8); g.lineTo(8, 0); g.moveTo(-2, 2); g.lineTo(2, -2); g.moveTo(6, 10); g.lineTo(10, 6);
  } else {
    g.moveTo(0, 0); g.lineTo(8, 8); g.moveTo(-2, 6); g.lineTo(2, 10); g.moveTo(6, -2); g.lineTo(10, 2);
  }
  g.stroke();
  return c;
}

export class MapView {
  // `host` holds the canvas and the counters' layer; `on` receives hexClick(hex, event),
  // stackClick(hex, units, button) and unitClick(unit, button). A page that draws on the map (the
  // workshop) also gives press(event, x, y): true takes that drag from panning, and its moves
  // and end go to drag(event, x, y) and release(event, x, y); hover(x, y) follows the pointer.
  constructor(host, on) {
    this.host = host;
    this.on = on;
    this.canvas = host.querySelector("canvas");
    this.layer = host.querySelector(".counters");
    this.g = this.canvas.getContext("2d");
    this.scale = 20;
    this.cx = 0; // the world point at the canvas's centre
    this.cy = 0;
    this.theater = null;
    this.position = null;
    // trails: the moves of the player-turn in play, [{path: [hex], side}]; choices: hexes offered
    // for a decision (a retreat's), Map hex -> label.
    // edges: hexsides drawn thick along their edge, [[a, b, colour]] (the workshop's).
    this.overlay = { reach: null, path: [], selected: -1, zoc: {}, supply: {}, target: -1, trails: [], choices: null, edges: [] };
    this.tags = []; // words over hexes: [{hex, text, kind}] (a combat's result)
    // The scenario's objectives (B15.1), a star in their owner's colour: [{hex, owner, points}].
    this.objectives = [];
    this.expanded = -1; // the hex whose stack is shown expanded
    // An image under the hexsides: {image, opacity, matrix: [a, b, c, d, e, f]}, image pixels to
    // world units as a canvas transform (the workshop's scan of a map).
    this.underlay = null;
    this.counters = new Map(); // hex -> button
    this.pending = false;
    this.held = false;
    this.frames = 0;
    this.hatches = { axis: hatch(STYLE.axisHatch, 1), allied: hatch(STYLE.alliedHatch, -1) };
    this.listen();
    new ResizeObserver(() => this.redraw()).observe(host);
  }

  setTheater(t) {
    this.theater = t;
    this.cellCache = [];
    this.ownerCache = [];
    const h = t.hexes;
    // The hexes' centres, for the loops over every hex in view: the compact theater's typed
    // arrays (model.js), else the workshop's hexes' (whose places never change).
    const xs = (this.xs = t.xs || Float64Array.from(h, (hx) => hx.x));
    const ys = (this.ys = t.ys || Float64Array.from(h, (hx) => hx.y));
    this.hexIndex = new CellIndex(t.bounds, h.length, (i) => xs[i], (i) => ys[i]);
    this.indexHexsides();
  }

  // Indexes the theater's hexsides again, after some were added (the workshop's edits).
  indexHexsides() {
    const t = this.theater, h = t.hexes, s = t.hexsides;
    this.cellCache = [];
    // Each hexside at its midpoint: from the compact theater's columns when it has them.
    const a = t.sideColumns?.a || s.map((sd) => sd.a), b = t.sideColumns?.b || s.map((sd) => sd.b);
    const xs = this.xs, ys = this.ys;
    this.sideIndex = new CellIndex(t.bounds, s.length,
      (i) => (xs[a[i]] + xs[b[i]]) / 2, (i) => (ys[a[i]] + ys[b[i]]) / 2);
    this.redraw();
  }

  // Draws again the cells around these hexes (by index), whose terrain, coast or hexsides the
  // workshop changed: a cell's paths are otherwise built once.
  repaint(hexes) {
    for (const i of hexes) {
      const { x, y } = this.theater.hexes[i];
      for (const k of this.hexIndex.cells(x - 1.5, y - 1.5, x + 1.5, y + 1.5)) this.cellCache[k] = null;
    }
    this.redraw();
  }

  setPosition(p) {
    this.position = p;
    this.ownerCache = [];
    this.stacks = new Map(); // hex -> the units standing there (their own hex)
    for (const u of p.units) {
      if (u.hex < 0) continue;
      if (!this.stacks.has(u.hex)) this.stacks.set(u.hex, []);
      this.stacks.get(u.hex).push(u);
    }
    this.redraw();
  }

  // The units whose own hex is `hex`: what a click on that hex acts on. Previews drawn there
  // from elsewhere are not among them.
  unitsAt(hex) {
    return this.stacks?.get(hex) || [];
  }

  // Counters drawn where they are planned to go, not where they stand: [{unit, hex}]. They are
  // pictures (no button, not clickable): a click there is a click on the hex and its own units.
  setPreviews(list) {
    this.previews = list;
    this.redraw();
  }

  // Words on a label over a hex, above its counters (a combat's result, a retreat's choice): DOM,
  // so they read at any zoom; pictures, not buttons (a click there is a click on the hex).
  setTags(list) {
    this.tags = list;
    this.redraw();
  }

  setObjectives(list) {
    this.objectives = list;
    this.redraw();
  }

  setOverlay(part) {
    Object.assign(this.overlay, part);
    this.redraw();
  }

  // Centres the view on a hex, at a scale showing about `hexes` hexes (when given).
  centerOn(hex, hexes) {
    const h = this.theater.hexes[hex];
    this.cx = h.x;
    this.cy = h.y;
    if (hexes) {
      const area = this.canvas.clientWidth * this.canvas.clientHeight;
      this.scale = clamp(Math.sqrt(area / (hexes * 1.5 * ROOT3)), MIN_SCALE, MAX_SCALE);
    }
    // Kept inside the theater where it is larger than the view, so the view is all map.
    const b = this.theater.bounds;
    const hw = this.canvas.clientWidth / 2 / this.scale, hh = this.canvas.clientHeight / 2 / this.scale;
    if (b.x1 - b.x0 > 2 * hw) this.cx = clamp(this.cx, b.x0 + hw, b.x1 - hw);
    if (b.y1 - b.y0 > 2 * hh) this.cy = clamp(this.cy, b.y0 + hh, b.y1 - hh);
    this.redraw();
  }

  // Whether a hex's centre is in view, `margin` pixels inside the edges.
  inView(hex, margin = 0) {
    const h = this.theater.hexes[hex];
    const [x, y] = this.toScreen(h.x, h.y);
    return x >= margin && y >= margin && x <= this.canvas.clientWidth - margin && y <= this.canvas.clientHeight - margin;
  }

  // Centres the view on a hex, zoomed in far enough that its counters read (not out).
  showReadable(hex) {
    this.scale = Math.max(this.scale, READABLE_SCALE);
    this.centerOn(hex);
  }

  fit() {
    const b = this.theater.bounds;
    this.cx = (b.x0 + b.x1) / 2;
    this.cy = (b.y0 + b.y1) / 2;
    const w = Math.max(1, this.canvas.clientWidth), h = Math.max(1, this.canvas.clientHeight);
    this.scale = clamp(Math.min(w / (b.x1 - b.x0 + 2), h / (b.y1 - b.y0 + 2)), MIN_SCALE, MAX_SCALE);
    this.redraw();
  }

  pan(dx, dy) {
    this.cx += dx / this.scale;
    this.cy += dy / this.scale;
    this.redraw();
  }

  zoom(factor, px, py) {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    px ??= w / 2;
    py ??= h / 2;
    const [wx, wy] = this.toWorld(px, py);
    this.scale = clamp(this.scale * factor, MIN_SCALE, MAX_SCALE);
    this.cx = wx - (px - w / 2) / this.scale;
    this.cy = wy - (py - h / 2) / this.scale;
    this.redraw();
  }

  toWorld(px, py) {
    return [this.cx + (px - this.canvas.clientWidth / 2) / this.scale,
      this.cy + (py - this.canvas.clientHeight / 2) / this.scale];
  }
  toScreen(x, y) {
    return [(x - this.cx) * this.scale + this.canvas.clientWidth / 2,
      (y - this.cy) * this.scale + this.canvas.clientHeight / 2];
  }

  // The hex under a canvas point, or -1.
  hexAt(px, py) {
    const [x, y] = this.toWorld(px, py);
    let best = -1, bestD = 1.0;
    this.hexIndex.each(x - 1, y - 1, x + 1, y + 1, (i) => {
      const h = this.theater.hexes[i];
      const d = (h.x - x) ** 2 + (h.y - y) ** 2;
      if (d < bestD) { bestD = d; best = i; }
    });
    return best;
  }

  // The hexside nearest a canvas point (within a third of a hex), or -1.
  hexsideAt(px, py) {
    const [x, y] = this.toWorld(px, py);
    const t = this.theater;
    let best = -1, bestD = 0.12;
    this.sideIndex.each(x - 1, y - 1, x + 1, y + 1, (i) => {
      const s = t.hexsides[i];
      const a = t.hexes[s.a], b = t.hexes[s.b];
      const d = ((a.x + b.x) / 2 - x) ** 2 + ((a.y + b.y) / 2 - y) ** 2;
      if (d < bestD) { bestD = d; best = i; }
    });
    return best;
  }

  // Draws at the next frame (once, however often asked), unless `held` (the page placing its
  // first view).
  redraw() {
    if (this.pending || !this.theater || this.held) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  draw() {
    const t0 = performance.now();
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    const g = this.g;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = STYLE.background;
    g.fillRect(0, 0, w, h);
    const s = this.scale;
    g.setTransform(dpr * s, 0, 0, dpr * s, dpr * (w / 2 - this.cx * s), dpr * (h / 2 - this.cy * s));
    const [x0, y0] = this.toWorld(0, 0);
    const [x1, y1] = this.toWorld(w, h);
    const view = [], xs = this.xs, ys = this.ys;
    this.hexIndex.each(x0 - 1, y0 - 1, x1 + 1, y1 + 1, (i) => {
      if (xs[i] > x0 - 1 && xs[i] < x1 + 1 && ys[i] > y0 - 1 && ys[i] < y1 + 1) view.push(i);
    });
    const sides = [];
    this.sideIndex.each(x0 - 1, y0 - 1, x1 + 1, y1 + 1, (i) => sides.push(i));
    const cells = this.hexIndex.cells(x0 - 1, y0 - 1, x1 + 1, y1 + 1);
    // Zoomed out (hexes a few pixels wide, no outlines), the hexes and their owners' hatching are
    // set pixel by pixel: a 10,000-hex view costs a few milliseconds, not a path per hex.
    const raster = s < OUTLINE_SCALE && !this.underlay;
    if (raster) this.rasterHexes(view, w, h, dpr);
    else this.drawHexes(cells);
    this.drawUnderlay();
    this.drawHexsides(cells);
    this.drawState(view, sides, cells, raster);
    this.drawOverlays(view);
    this.drawLabels(view);
    this.drawObjectives();
    this.drawSheets(x0, y0, x1, y1);
    g.setTransform(1, 0, 0, 1, 0, 0);
    this.drawCounters(x0, y0, x1, y1);
    this.host.dataset.drawn = String(++this.frames);
    this.host.dataset.hexesDrawn = String(view.length);
    if (this.onDrawn) this.onDrawn(view.length, performance.now() - t0);
    if (this.onView) this.onView();
  }

  hexPath(ids, f) {
    this.g.beginPath();
    for (const i of ids) {
      if (!f || f(i)) addHex(this.g, this.theater.hexes[i]);
    }
  }

  // The theater never changes, so each cell's terrain, water, outlines and hexside lines are
  // built once as paths (world units) and only filled or stroked again when in view; its
  // terrain when first drawn as paths (zoomed out it is set pixel by pixel), its outlines when
  // first drawn (zoomed out they are not).
  cell(k) {
    let c = this.cellCache[k];
    if (c) return c;
    const t = this.theater;
    const sides = new Map(); // texts, by the line they draw
    for (const i of this.sideIndex.items(k)) {
      const sd = t.hexsides[i];
      const a = t.hexes[sd.a], b = t.hexes[sd.b];
      for (const line of SIDE_LINES) {
        if (!line.test(sd, t)) continue;
        let list = sides.get(line);
        if (!list) sides.set(line, (list = []));
        if (line.along) {
          const [[ax, ay], [bx, by]] = sideCorners(a.x, a.y, sd.dir);
          list.push(`M${ax} ${ay}L${bx} ${by}`);
        } else {
          list.push(`M${a.x} ${a.y}L${b.x} ${b.y}`);
        }
      }
    }
    c = { terrain: null, sea: null, lake: null, outline: null, sides: new Map() };
    for (const [line, list] of sides) c.sides.set(line, pathOf(list));
    this.cellCache[k] = c;
    return c;
  }

  // A cell's terrain and coastal water as paths, by terrain.
  cellTerrain(k) {
    const c = this.cell(k);
    if (c.terrain) return c;
    const t = this.theater;
    const terrain = new Map(), sea = [], lake = []; // texts, by what they draw
    for (const i of this.hexIndex.items(k)) {
      const hx = t.hexes[i];
      let list = terrain.get(hx.terrain);
      if (!list) terrain.set(hx.terrain, (list = []));
      list.push(hexText(hx));
      for (const wd of hx.wedges || []) {
        const [[ax, ay], [bx, by], [mx, my]] = wedge(hx, wd.dir);
        (wd.kind === "sea" ? sea : lake).push(`M${mx} ${my}L${ax} ${ay}L${bx} ${by}z`);
      }
    }
    c.terrain = new Map();
    for (const [name, list] of terrain) c.terrain.set(name, pathOf(list));
    c.sea = pathOf(sea);
    c.lake = pathOf(lake);
    return c;
  }

  // The view's hexes set pixel by pixel into the canvas (device pixels): each hex's terrain and
  // its coastal water's wedges, hatched for its owner as drawState hatches (at 40%, the hatch's
  // tiles anchored where its pattern is): every pixel's colour is looked up, made once a
  // terrain, tile pixel and side (`shades`).
  rasterHexes(view, w, h, dpr) {
    const t = this.theater, p = this.position, s = this.scale * dpr;
    const W = this.canvas.width, H = this.canvas.height;
    if (this.raster?.width !== W || this.raster?.height !== H) {
      this.raster = new ImageData(W, H);
      this.rasterPixels = new Uint32Array(this.raster.data.buffer);
    }
    const px = this.rasterPixels;
    this.shades ||= shades(this.hatches);
    const { index, table } = this.shades;
    px.fill(abgr(STYLE.background));
    const ox = (w / 2 - this.cx * this.scale) * dpr, oy = (h / 2 - this.cy * this.scale) * dpr; // world 0,0
    const hh = (ROOT3 / 2) * s, inv = 1 / dpr;
    // A shade's tile row (`tile`: its place in the table) across the canvas, made once a draw:
    // pixel x of a row hatched so is its entry x.
    const stripes = new Map();
    const stripe = (tile) => {
      let row = stripes.get(tile);
      if (row) return row;
      row = new Uint32Array(W);
      const period = Number.isInteger(dpr) ? Math.min(W, 8 * dpr) : W;
      for (let x = 0; x < period; ++x) row[x] = table[tile + (Math.floor((x - ox) * inv) & 7)];
      for (let n = period; n < W; n *= 2) row.copyWithin(n, 0, Math.min(n, W - n));
      stripes.set(tile, row);
      return row;
    };
    // The pixels of rows y0..y1 inside a wedge (pixel centres inside: edges(y, out) sets out
    // to the row's [left, right]), in colour `base` of the table; a hex's are set likewise below.
    const out = [0, 0];
    const rows = (base, y0, y1, edges) => {
      for (let y = Math.max(0, Math.ceil(y0 - 0.5)); y <= Math.min(H - 1, Math.floor(y1 - 0.5)); ++y) {
        edges(y + 0.5, out);
        const a = out[0], b = out[1];
        if (!(b >= a)) continue;
        const row = y * W, tile = base + ((Math.floor((y - oy) * inv) & 7) << 3);
        for (let x = Math.max(0, Math.ceil(a - 0.5)), end = Math.min(W - 1, Math.floor(b - 0.5)); x <= end; ++x) {
          px[row + x] = table[tile + (Math.floor((x - ox) * inv) & 7)];
        }
      }
    };
    for (const i of view) {
      const hx = t.hexes[i];
      const side = p ? (p.owner[i] === "axis" ? 1 : p.owner[i] === "allied" ? 2 : 0) : 0;
      const cx = ox + this.xs[i] * s, cy = oy + this.ys[i] * s;
      // A hex's rows are copied whole (native copies, not a loop per pixel: the first view's
      // code runs before the engine has compiled it), from the row of its shade (`stripe`).
      const base = shadeOf(index[hx.terrain] ?? 0, side);
      for (let y = Math.max(0, Math.ceil(cy - hh - 0.5)); y <= Math.min(H - 1, Math.floor(cy + hh - 0.5)); ++y) {
        const half = s - Math.abs(y + 0.5 - cy) / ROOT3;
        const a = Math.max(0, Math.ceil(cx - half - 0.5)), b = Math.min(W - 1, Math.floor(cx + half - 0.5));
        if (b < a) continue;
        const tile = base + ((Math.floor((y - oy) * inv) & 7) << 3);
        if (side) px.set(stripe(tile).subarray(a, b + 1), y * W + a);
        else px.fill(table[tile], y * W + a, y * W + b + 1);
      }
      for (const wd of hx.wedges || []) {
        const tri = wedge(hx, wd.dir).map(([x, y]) => [ox + x * s, oy + y * s]);
        const ys = tri.map((q) => q[1]);
        rows(shadeOf(index[wd.kind === "sea" ? "all-sea" : "lake"], side), Math.min(...ys), Math.max(...ys),
          (y, edge) => span(tri, y, edge));
      }
    }
    this.g.putImageData(this.raster, 0, 0);
  }

  drawHexes(cells) {
    const g = this.g;
    const geo = cells.map((k) => this.cellTerrain(k));
    for (const [terrain, color] of Object.entries(TERRAIN_COLORS)) {
      g.fillStyle = color;
      for (const c of geo) {
        const path = c.terrain.get(terrain);
        if (path) g.fill(path);
      }
    }
    // The water of coastal hexes: wedges toward their sea or lake hexsides.
    g.fillStyle = TERRAIN_COLORS["all-sea"];
    for (const c of geo) g.fill(c.sea);
    g.fillStyle = TERRAIN_COLORS.lake;
    for (const c of geo) g.fill(c.lake);
    if (this.scale >= OUTLINE_SCALE) { // below, hexes are a few pixels: edges would hide the terrain
      g.strokeStyle = STYLE.hexEdge;
      g.lineWidth = 1 / this.scale;
      cells.forEach((k, n) => {
        const c = geo[n];
        c.outline ||= pathOf(Array.from(this.hexIndex.items(k), (i) => hexText(this.theater.hexes[i])));
        g.stroke(c.outline);
      });
    }
  }

  drawUnderlay() {
    const u = this.underlay;
    if (!u) return;
    const g = this.g;
    g.save();
    g.globalAlpha = u.opacity;
    g.transform(...u.matrix);
    g.drawImage(u.image, 0, 0);
    g.restore();
  }

  drawHexsides(cells) {
    const g = this.g, px = 1 / this.scale;
    const geo = cells.map((k) => this.cell(k));
    g.lineCap = "round";
    for (const line of SIDE_LINES) {
      g.strokeStyle = line.color;
      g.lineWidth = Math.max(line.px * px, line.world);
      g.setLineDash(line.dash || []);
      for (const c of geo) {
        const path = c.sides.get(line);
        if (path) g.stroke(path);
      }
    }
    g.setLineDash([]);
  }

  stroke(color, width, dash) {
    const g = this.g;
    g.strokeStyle = color;
    g.lineWidth = width;
    g.lineCap = "round";
    g.setLineDash(dash || []);
    g.stroke();
    g.setLineDash([]);
  }

  // `rastered`: the owners' hatching is set already (rasterHexes).
  drawState(view, sides, cells, rastered) {
    const g = this.g, t = this.theater, p = this.position;
    if (!p) return;
    // Ownership: hatched, one slant a side, so it reads without colour; its paths are kept
    // per cell until the position changes.
    g.globalAlpha = 0.4;
    for (const side of rastered ? [] : ["axis", "allied"]) {
      const pattern = g.createPattern(this.hatches[side], "repeat");
      pattern.setTransform(new DOMMatrix().scale(1 / this.scale));
      g.fillStyle = pattern;
      for (const k of cells) {
        let own = this.ownerCache[k];
        if (!own) {
          const texts = { axis: [], allied: [] };
          for (const i of this.hexIndex.items(k)) texts[p.owner[i]]?.push(hexText(t.hexes[i]));
          own = this.ownerCache[k] = { axis: pathOf(texts.axis), allied: pathOf(texts.allied) };
        }
        g.fill(own[side]);
      }
    }
    g.globalAlpha = 1;
    g.beginPath();
    for (const i of view) {
      if (!p.floods.has(i)) continue;
      g.moveTo(t.hexes[i].x + 0.8, t.hexes[i].y);
      g.arc(t.hexes[i].x, t.hexes[i].y, 0.8, 0, 2 * Math.PI);
    }
    g.fillStyle = STYLE.flood;
    g.fill();
    // Destroyed bridges (B14) and the Suez Canal when not open (41.B): a cross on the hexside.
    const marked = [];
    for (const i of sides) {
      if (p.bridges.has(i)) marked.push([i, "bridge out"]);
      else if (p.suez !== "open" && t.hexsides[i].suez) marked.push([i, `Suez ${p.suez}`]);
    }
    g.beginPath();
    for (const [i] of marked) {
      const sd = t.hexsides[i], a = t.hexes[sd.a];
      const [[ax, ay], [bx, by]] = sideCorners(a.x, a.y, sd.dir);
      const mx = (ax + bx) / 2, my = (ay + by) / 2;
      g.moveTo(mx - 0.22, my - 0.22); g.lineTo(mx + 0.22, my + 0.22);
      g.moveTo(mx - 0.22, my + 0.22); g.lineTo(mx + 0.22, my - 0.22);
    }
    this.stroke(STYLE.alert, 0.1);
    if (this.scale >= 14) {
      for (const [i, words] of marked) {
        const sd = t.hexsides[i], a = t.hexes[sd.a];
        const [[ax, ay], [bx, by]] = sideCorners(a.x, a.y, sd.dir);
        this.text(words, (ax + bx) / 2, (ay + by) / 2 - 0.3, 0.26, STYLE.alert);
      }
    }
  }

  drawOverlays(view) {
    const g = this.g, t = this.theater, o = this.overlay;
    if (o.reach) {
      this.hexPath(view, (i) => o.reach.has(i));
      g.fillStyle = STYLE.reach;
      g.fill();
      if (this.scale >= 14) {
        for (const i of view) {
          const r = o.reach.get(i);
          if (r) this.text(`${r.cost} MP${r.stop ? " ■" : ""}`, t.hexes[i].x, t.hexes[i].y + 0.45, 0.3, STYLE.ink);
        }
      }
    }
    for (const [side, set] of Object.entries(o.zoc)) {
      this.hexPath(view, (i) => set.has(i));
      const axis = side === "axis"; // Axis dashed, Allied dotted: told apart without colour
      this.stroke(axis ? STYLE.zocAxis : STYLE.zocAllied, 0.09, axis ? [0.2, 0.15] : [0.05, 0.12]);
    }
    for (const [side, map] of Object.entries(o.supply)) {
      for (const i of view) {
        const status = map.get(i);
        if (!status) continue;
        const { x, y } = t.hexes[i];
        g.beginPath();
        g.arc(x, y, side === "axis" ? 0.9 : 0.82, 0, 2 * Math.PI);
        this.stroke(status === "supplied" ? STYLE.supplied : STYLE.alert, 0.09);
        if (status !== "supplied" && this.scale >= 14) this.text(status, x, y + 0.75, 0.24, STYLE.alert);
      }
    }
    if (o.path.length > 1) {
      g.beginPath();
      o.path.forEach((i, n) => {
        const { x, y } = t.hexes[i];
        if (n === 0) g.moveTo(x, y); else g.lineTo(x, y);
      });
      this.stroke(o.pathLegal === false ? STYLE.alert : STYLE.path, Math.max(3 / this.scale, 0.15),
        o.pathLegal === false ? [0.3, 0.2] : null);
    }
    this.drawTrails(o.trails || []);
    if (o.choices) {
      this.hexPath([...o.choices.keys()]);
      g.fillStyle = PLAY_STYLE.choiceFill;
      g.fill();
      this.stroke(PLAY_STYLE.choice, Math.max(3 / this.scale, 0.12), [0.18, 0.1]);
    }
    for (const [a, b, color] of o.edges) {
      // The edge two neighbours share: through their centres' midpoint, across the line joining them.
      const p = t.hexes[a], q = t.hexes[b], mx = (p.x + q.x) / 2, my = (p.y + q.y) / 2;
      const len = Math.hypot(q.x - p.x, q.y - p.y) || 1, ux = (p.y - q.y) / len / 2, uy = (q.x - p.x) / len / 2;
      g.beginPath();
      g.moveTo(mx - ux, my - uy);
      g.lineTo(mx + ux, my + uy);
      this.stroke(color, Math.max(5 / this.scale, 0.16));
    }
    for (const [hex, color] of [[o.target, STYLE.path], [o.selected, STYLE.selected]]) {
      if (hex < 0) continue;
      this.hexPath([hex]);
      this.stroke(color, Math.max(3 / this.scale, 0.12));
    }
  }

  // Each move taken this player-turn: a line through its hexes on a white casing, a dot where it
  // began and an arrowhead where it ended, in its side's colour.
  drawTrails(trails) {
    const g = this.g, t = this.theater, s = this.scale;
    for (const { path, side } of trails) {
      if (path.length < 2) continue;
      const color = side === "allied" ? PLAY_STYLE.trailAllied : PLAY_STYLE.trailAxis;
      const line = () => {
        g.beginPath();
        path.forEach((i, n) => (n ? g.lineTo(t.hexes[i].x, t.hexes[i].y) : g.moveTo(t.hexes[i].x, t.hexes[i].y)));
      };
      line();
      this.stroke("rgba(255, 255, 255, 0.85)", Math.max(7 / s, 0.3));
      line();
      this.stroke(color, Math.max(3.5 / s, 0.14));
      const a = t.hexes[path[0]], b = t.hexes[path[path.length - 2]], c = t.hexes[path[path.length - 1]];
      g.beginPath();
      g.arc(a.x, a.y, Math.max(5 / s, 0.16), 0, 2 * Math.PI);
      g.fillStyle = color;
      g.fill();
      // The arrowhead stops short of the end hex's centre, where a counter may stand.
      const dx = c.x - b.x, dy = c.y - b.y, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
      const tipX = c.x - ux * 0.45, tipY = c.y - uy * 0.45, size = Math.max(12 / s, 0.4);
      g.beginPath();
      g.moveTo(tipX, tipY);
      g.lineTo(tipX - ux * size - uy * size * 0.55, tipY - uy * size + ux * size * 0.55);
      g.lineTo(tipX - ux * size + uy * size * 0.55, tipY - uy * size - ux * size * 0.55);
      g.closePath();
      g.fill();
    }
  }

  text(words, x, y, size, color, align = "center") {
    const g = this.g;
    g.font = `${size}px sans-serif`;
    g.textAlign = align;
    g.fillStyle = color;
    g.fillText(words, x, y);
  }

  drawLabels(view) {
    const g = this.g, t = this.theater, p = this.position, s = this.scale;
    if (s < 7) {
      for (const pn of t.panels) this.text(pn.title, pn.x, pn.y, 14 / s, STYLE.ink, "left");
      return;
    }
    g.textBaseline = "middle";
    for (const i of view) {
      const hx = t.hexes[i];
      if (s >= 22) this.text(hx.name.slice(hx.name.indexOf(":") + 1), hx.x, hx.y - 0.62, 0.28, STYLE.faint);
      if (hx.city === "dot") {
        g.beginPath();
        g.arc(hx.x, hx.y, 0.17, 0, 2 * Math.PI);
        g.fillStyle = STYLE.ink;
        g.fill();
      } else if (hx.city) {
        g.fillStyle = hx.city === "full-hex-major" ? STYLE.ink : STYLE.city;
        g.fillRect(hx.x - 0.28, hx.y - 0.28, 0.56, 0.56);
      }
      if (s >= 14) {
        if (hx.port) this.text(hx.inland ? "iP" : "P", hx.x + 0.55, hx.y + 0.1, 0.42, STYLE.port);
        if (hx.airbase) this.text("A", hx.x - 0.55, hx.y + 0.1, 0.42, STYLE.airbase);
        if (p && p.ice.has(i)) this.text("ice AF", hx.x, hx.y + 0.45, 0.3, STYLE.port);
      }
      if (hx.place && s >= 10) this.text(hx.place, hx.x, hx.y + 0.78, 0.34, STYLE.ink);
    }
    for (const pn of t.panels) this.text(pn.title, pn.x, pn.y, 0.8, STYLE.ink, "left");
    g.textBaseline = "alphabetic";
  }

  // Each objective: a star in its owner's colour left of the hex's number, above the counters'
  // place, with its points and its owner in words right of the number (colour is not the only
  // sign); zoomed out, a star on the hex.
  drawObjectives() {
    const t = this.theater, s = this.scale, near = s >= 14;
    for (const { hex, owner, points } of this.objectives) {
      const hx = t.hexes[hex];
      const x = near ? hx.x - 0.5 : hx.x, y = near ? hx.y - 0.6 : hx.y;
      paintStar(this.g, x, y, near ? 0.18 : 5 / s, SIDE_COLORS[owner] || "#ffffff", Math.max(1 / s, 0.03));
      if (near) {
        // Right of the hex's number where it is drawn (drawLabels), with a gap: "3205 4 Al", not
        // "32054 Al".
        this.g.font = "0.28px sans-serif";
        const after = s >= 22 ? this.g.measureText(hx.name.slice(hx.name.indexOf(":") + 1)).width / 2 + 0.1 : 0.34;
        this.g.textBaseline = "middle";
        this.text(`${points} ${owner === "axis" ? "Ax" : owner === "allied" ? "Al" : "—"}`, hx.x + after, y, 0.24, STYLE.ink, "left");
        this.g.textBaseline = "alphabetic";
      }
    }
  }

  // Each sheet's edge, dashed, and its name:
  // - a sheet wholly in view: once, inside its top edge, unless it is its panel's only sheet
  //   (the panel's title above it names it);
  // - a sheet the view cuts: inside each of its edges in view, near the view's middle, so that
  //   where sheets join both names face each other across the line.
  // A name is drawn only where the sheet's part in view has room for it beside the others, so
  // that names never lie over each other on a small sheet seen whole.
  drawSheets(x0, y0, x1, y1) {
    const g = this.g, s = this.scale;
    if (s < 2) return;
    const size = 13 / s, pad = 1.6 * size;
    const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
    g.lineWidth = 1 / s;
    g.strokeStyle = STYLE.sheetEdge;
    g.setLineDash([1 / s, 3 / s]);
    g.font = `bold ${size}px sans-serif`;
    for (const sh of this.theater.sheets) {
      if (sh.x1 < x0 || sh.x0 > x1 || sh.y1 < y0 || sh.y0 > y1) continue;
      g.strokeRect(sh.x0, sh.y0, sh.x1 - sh.x0, sh.y1 - sh.y0);
      const words = `sheet ${sh.name}`;
      const w = g.measureText(words).width + 0.4 * size; // with its box
      const wide = Math.min(sh.x1, x1) - Math.max(sh.x0, x0), high = Math.min(sh.y1, y1) - Math.max(sh.y0, y0);
      const cx = clamp(mx, sh.x0 + w / 2 + pad, sh.x1 - w / 2 - pad), cy = clamp(my, sh.y0 + 3.5 * size, sh.y1 - 3.5 * size);
      const label = (x, y, align) => this.boxedText(words, x, y, size, align);
      if (sh.x0 >= x0 && sh.x1 <= x1 && sh.y0 >= y0 && sh.y1 <= y1) {
        if (!sh.alone && wide >= w + pad) label((sh.x0 + sh.x1) / 2, sh.y0 + pad, "center");
        continue;
      }
      if (wide >= w + pad && high >= 4 * size) {
        if (sh.y0 > y0) label(cx, sh.y0 + pad, "center");
        if (sh.y1 < y1) label(cx, sh.y1 - pad, "center");
      }
      if (wide >= 2 * w + 2 * pad && high >= 7 * size) {
        if (sh.x0 > x0) label(sh.x0 + pad / 2, cy, "left");
        if (sh.x1 < x1) label(sh.x1 - pad / 2, cy, "right");
      }
    }
    g.setLineDash([]);
  }

  // Text on a white box, so it reads over any terrain.
  boxedText(words, x, y, size, align) {
    const g = this.g;
    g.font = `bold ${size}px sans-serif`;
    g.textAlign = align;
    g.textBaseline = "middle";
    const w = g.measureText(words).width;
    const left = align === "left" ? x : align === "right" ? x - w : x - w / 2;
    g.fillStyle = "rgba(255, 255, 255, 0.85)";
    g.fillRect(left - size * 0.2, y - size * 0.65, w + size * 0.4, size * 1.3);
    g.fillStyle = STYLE.sheetEdge;
    g.fillText(words, x, y);
    g.textBaseline = "alphabetic";
  }

  // Counters: a button per stack in view (its top unit, the count), the expanded stack's
  // every unit as its own button; marks on the canvas (colour and symbol) when zoomed out too far
  // for text. Previews (planned moves) are drawn over them as pictures.
  drawCounters(x0, y0, x1, y1) {
    const t = this.theater;
    const inView = [];
    if (this.stacks) {
      for (const [hex, units] of this.stacks) {
        const { x, y } = t.hexes[hex];
        if (x > x0 - 1 && x < x1 + 1 && y > y0 - 1 && y < y1 + 1) inView.push([hex, units]);
      }
    }
    const asButtons = this.scale >= COUNTER_SCALE && inView.length <= MAX_COUNTERS;
    this.host.dataset.counters = asButtons ? String(inView.length) : "marks";
    if (!asButtons) this.drawMarks(inView);
    const keep = new Set();
    const shrink = Math.max(COUNTER_MIN_SHRINK, Math.min(1, this.scale / COUNTER_FULL)).toFixed(2);
    if (asButtons) {
      inView.sort((a, b) => t.hexes[a[0]].y - t.hexes[b[0]].y || t.hexes[a[0]].x - t.hexes[b[0]].x);
      for (const [hex, units] of inView) {
        keep.add(hex);
        let b = this.counters.get(hex);
        if (!b) {
          b = this.makeStack(hex);
          this.counters.set(hex, b);
        }
        this.fillStack(b, hex, units);
        const [sx, sy] = this.toScreen(t.hexes[hex].x, t.hexes[hex].y);
        b.style.transform = `translate(${Math.round(sx)}px, ${Math.round(sy)}px) scale(${shrink})`;
        this.layer.appendChild(b); // keeps the Tab order top to bottom, left to right
      }
    }
    for (const [hex, b] of this.counters) {
      if (!keep.has(hex)) {
        if (b.contains(document.activeElement)) this.host.focus();
        b.remove();
        this.counters.delete(hex);
      }
    }
    this.drawPreviews(asButtons ? shrink : 0);
    this.drawTags(asButtons ? Number(shrink) : 0);
  }

  // The tags over their hexes, just above a counter standing there (`shrink`: the counters'
  // scale, 0 when they are marks).
  drawTags(shrink) {
    const t = this.theater;
    this.tagBoxes ||= new Map();
    const keep = new Set();
    for (const { hex, text, kind } of this.tags) {
      const key = `${hex}|${kind}|${text}`;
      keep.add(key);
      let b = this.tagBoxes.get(key);
      if (!b) {
        b = document.createElement("div");
        b.className = `map-tag ${kind || ""}`;
        b.dataset.hex = t.hexes[hex].name;
        b.textContent = text;
        b.setAttribute("aria-hidden", "true"); // its words are in the panels too
        this.tagBoxes.set(key, b);
      }
      const [sx, cy] = this.toScreen(t.hexes[hex].x, t.hexes[hex].y);
      const sy = cy - (shrink ? 20 * shrink + 1 : 0.3 * this.scale);
      b.style.transform = `translate(${Math.round(sx)}px, ${Math.round(sy)}px) translate(-50%, -100%)`;
      this.layer.appendChild(b);
    }
    for (const [key, b] of this.tagBoxes) {
      if (!keep.has(key)) {
        b.remove();
        this.tagBoxes.delete(key);
      }
    }
  }

  // Each stack as a small counter on the canvas: its top unit's colour and, when large enough,
  // its symbol.
  drawMarks(inView) {
    const g = this.g, t = this.theater, dpr = window.devicePixelRatio || 1;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    const w = clamp(this.scale * 1.3, 5, 26), h = (w * SYMBOL_BOX[1]) / SYMBOL_BOX[0] + 2;
    g.lineWidth = 1;
    for (const [hex, units] of inView) {
      const [sx, sy] = this.toScreen(t.hexes[hex].x, t.hexes[hex].y);
      g.fillStyle = counterColor(units[0]);
      g.strokeStyle = STYLE.ink;
      g.fillRect(sx - w / 2, sy - h / 2, w, h);
      g.strokeRect(sx - w / 2, sy - h / 2, w, h);
      if (w >= 14) paintSymbol(g, symbolOf(units[0]), sx - w / 2 + 2, sy - h / 2 + 1, w - 4, h - 2);
    }
    g.setTransform(1, 0, 0, 1, 0, 0);
  }

  // The previews as faded counters (pointer-events: none) at the hex they are planned for.
  drawPreviews(shrink) {
    const t = this.theater;
    this.ghosts ||= new Map();
    const keep = new Set();
    for (const { unit, hex } of shrink ? this.previews || [] : []) {
      const key = `${unit.id}@${hex}`;
      keep.add(key);
      let b = this.ghosts.get(key);
      if (!b) {
        b = counterFace(unit, "div");
        b.classList.add("ghost");
        b.setAttribute("aria-hidden", "true");
        b.dataset.hex = t.hexes[hex].name;
        this.ghosts.set(key, b);
      }
      const [sx, sy] = this.toScreen(t.hexes[hex].x, t.hexes[hex].y);
      b.style.transform = `translate(${Math.round(sx)}px, ${Math.round(sy)}px) scale(${shrink})`;
      this.layer.appendChild(b);
    }
    for (const [key, b] of this.ghosts) {
      if (!keep.has(key)) {
        b.remove();
        this.ghosts.delete(key);
      }
    }
  }

  makeStack(hex) {
    const box = document.createElement("div");
    box.className = "stack";
    box.dataset.hex = this.theater.hexes[hex].name;
    return box;
  }

  fillStack(box, hex, units) {
    const expanded = this.expanded === hex && units.length > 1;
    const key = `${expanded}|${units.map((u) => u.id + u.strength + (u.selected ? "*" : "") + (u.moved ? "m" : "")).join(",")}`;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren();
    box.classList.toggle("expanded", expanded);
    const shown = expanded ? units : [units[0]];
    for (const u of shown) {
      const b = counterButton(u);
      if (!expanded && units.length > 1) {
        b.dataset.count = String(units.length);
        b.setAttribute("aria-label", `stack of ${units.length} at ${box.dataset.hex}: ${units.map((v) => v.id).join(", ")}`);
        b.setAttribute("aria-expanded", "false");
        const badge = document.createElement("span");
        badge.className = "count";
        badge.textContent = String(units.length);
        b.append(badge);
        b.addEventListener("click", (e) => {
          this.expanded = hex;
          this.on.stackClick(hex, units, e);
          this.redraw();
          requestAnimationFrame(() => box.querySelector("button")?.focus());
        });
      } else {
        b.addEventListener("click", (e) => this.on.unitClick(u, e));
      }
      box.append(b);
    }
  }

  listen() {
    const c = this.host;
    let drag = null;
    const at = (e) => {
      const r = this.canvas.getBoundingClientRect();
      return [e.clientX - r.left, e.clientY - r.top];
    };
    c.addEventListener("pointerdown", (e) => {
      if (e.target !== this.canvas) return;
      this.host.focus({ preventScroll: true }); // the keys pan and zoom the map clicked
      drag = { x: e.clientX, y: e.clientY, moved: false, drawing: !!this.on.press?.(e, ...at(e)) };
      this.canvas.setPointerCapture(e.pointerId);
    });
    c.addEventListener("pointermove", (e) => {
      if (this.on.hover && e.target === this.canvas) this.on.hover(...at(e));
      if (drag?.drawing) {
        this.on.drag(e, ...at(e));
        return;
      }
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      drag.moved = true;
      drag.x = e.clientX;
      drag.y = e.clientY;
      this.pan(-dx, -dy);
    });
    c.addEventListener("pointerup", (e) => {
      if (!drag) return;
      if (drag.drawing) {
        drag = null;
        this.on.release(e, ...at(e));
        return;
      }
      const moved = drag.moved;
      drag = null;
      if (moved) return;
      const r = this.canvas.getBoundingClientRect();
      const hex = this.hexAt(e.clientX - r.left, e.clientY - r.top);
      if (this.expanded >= 0) {
        this.expanded = -1;
        this.redraw();
      }
      if (hex >= 0) this.on.hexClick(hex, e, this.hexsideAt(e.clientX - r.left, e.clientY - r.top));
    });
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = this.canvas.getBoundingClientRect();
      this.zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    c.addEventListener("keydown", (e) => {
      const step = 80;
      const keys = {
        ArrowLeft: () => this.pan(-step, 0), ArrowRight: () => this.pan(step, 0),
        ArrowUp: () => this.pan(0, -step), ArrowDown: () => this.pan(0, step),
        "+": () => this.zoom(1.25), "=": () => this.zoom(1.25), "-": () => this.zoom(0.8),
      };
      if (keys[e.key] && !e.altKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        keys[e.key]();
      }
    });
  }
}

const SVG = "http://www.w3.org/2000/svg";

// A unit's symbol as an inline SVG (the palette's paths), for a counter's face.
function symbolSvg(u) {
  const sym = symbolOf(u);
  const [w, h] = SYMBOL_BOX;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "symbol");
  svg.setAttribute("viewBox", `-0.5 -0.5 ${w + 1} ${h + 1}`);
  svg.setAttribute("aria-hidden", "true");
  const add = (d, fill) => {
    const p = document.createElementNS(SVG, "path");
    p.setAttribute("d", d);
    p.setAttribute(fill ? "fill" : "stroke", "currentColor");
    if (!fill) p.setAttribute("fill", "none");
    svg.append(p);
  };
  add(`M0,0H${w}V${h}H0Z`, false);
  for (const d of sym?.stroke || []) add(d, false);
  for (const d of sym?.fill || []) add(d, true);
  return svg;
}

// A counter's face: the id, the type symbol, the side and strength, in its nationality's colour.
function counterFace(u, tag) {
  const b = document.createElement(tag);
  b.className = `counter ${u.kind} ${u.side}${u.selected ? " selected" : ""}${u.moved ? " moved" : ""}`;
  b.dataset.unit = u.id;
  b.style.background = counterColor(u);
  const id = document.createElement("span");
  id.className = "id";
  id.textContent = u.id;
  const str = document.createElement("span");
  str.className = "str";
  str.textContent = `${u.side === "axis" ? "Ax" : "Al"} ${u.strength}`;
  b.append(id, symbolSvg(u), str);
  return b;
}

function counterButton(u) {
  const b = counterFace(u, "button");
  b.type = "button";
  const what = u.kind === "ground" ? `${u.nationality} ${u.type}` : `${u.nationality} ${u.kind}`;
  b.title = `${u.name} (${u.side === "axis" ? "Axis" : "Allied"} ${what.trim()})${u.moved ? ", moved this player-turn" : ""}`;
  b.setAttribute("aria-pressed", u.selected ? "true" : "false");
  return b;
}

function clamp(v, lo, hi) {
  return Math.min(hi, Math.max(lo, v));
}
