// The overview: the whole theater small, in its terrain colours, with a box where the map's view
// is. A click (or the arrow keys, once focused) moves the view there. The terrain is drawn once,
// after the map's first view, into an image; each redraw of the map only moves the box.

import { TERRAIN_COLORS, STYLE } from "./style.js";

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export class Minimap {
  // `canvas` is the overview's element, `map` the MapView it steers, `where` an element that
  // says in words which hex the view is centred on.
  constructor(canvas, map, where) {
    this.canvas = canvas;
    this.map = map;
    this.where = where;
    this.image = null;
    canvas.addEventListener("click", (e) => {
      const r = canvas.getBoundingClientRect();
      this.moveTo(...this.toWorld(e.clientX - r.left, e.clientY - r.top));
    });
    canvas.addEventListener("keydown", (e) => {
      if (!this.image) return;
      const b = this.map.theater.bounds, dx = (b.x1 - b.x0) / 10, dy = (b.y1 - b.y0) / 10;
      const step = { ArrowLeft: [-dx, 0], ArrowRight: [dx, 0], ArrowUp: [0, -dy], ArrowDown: [0, dy] }[e.key];
      if (!step || e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      this.moveTo(this.map.cx + step[0], this.map.cy + step[1]);
    });
  }

  // Draws the theater's terrain into the overview's image (about 100 ms for 100,000 hexes).
  build() {
    const t = this.map.theater, b = t.bounds;
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    if (!w || !h) return;
    this.canvas.width = w;
    this.canvas.height = h;
    this.k = Math.min(w / (b.x1 - b.x0), h / (b.y1 - b.y0)); // pixels per world unit
    this.ox = (w - (b.x1 - b.x0) * this.k) / 2;
    this.oy = (h - (b.y1 - b.y0) * this.k) / 2;
    const img = new ImageData(w, h);
    const colors = Object.fromEntries(Object.entries(TERRAIN_COLORS).map(([k, c]) => [k, rgb(c)]));
    const bg = rgb(STYLE.background);
    for (let i = 0; i < w * h; ++i) img.data.set([...bg, 255], i * 4);
    const r = Math.max(0.5, this.k * 0.9); // a hex's half-width in pixels, at least half of one
    for (const hex of t.hexes) {
      const c = colors[hex.terrain] || bg;
      const [px, py] = this.toPixel(hex.x, hex.y);
      const y1 = Math.min(h, Math.ceil(py + r)), x1 = Math.min(w, Math.ceil(px + r));
      for (let y = Math.max(0, Math.floor(py - r)); y < y1; ++y) {
        for (let x = Math.max(0, Math.floor(px - r)); x < x1; ++x) img.data.set(c, (y * w + x) * 4);
      }
    }
    this.image = img;
    this.canvas.dataset.ready = "true";
    this.update();
  }

  toPixel(x, y) {
    const b = this.map.theater.bounds;
    return [this.ox + (x - b.x0) * this.k, this.oy + (y - b.y0) * this.k];
  }

  toWorld(px, py) {
    const b = this.map.theater.bounds;
    return [b.x0 + (px - this.ox) / this.k, b.y0 + (py - this.oy) / this.k];
  }

  moveTo(x, y) {
    const b = this.map.theater.bounds;
    this.map.cx = Math.min(b.x1, Math.max(b.x0, x));
    this.map.cy = Math.min(b.y1, Math.max(b.y0, y));
    this.map.redraw();
  }

  // The box of the map's view, and its centre in words.
  update() {
    if (!this.image) return;
    const g = this.canvas.getContext("2d"), m = this.map;
    g.putImageData(this.image, 0, 0);
    const [ax, ay] = this.toPixel(...m.toWorld(0, 0));
    const [bx, by] = this.toPixel(...m.toWorld(m.canvas.clientWidth, m.canvas.clientHeight));
    g.lineWidth = 2;
    g.strokeStyle = STYLE.ink;
    g.strokeRect(ax, ay, Math.max(3, bx - ax), Math.max(3, by - ay));
    g.strokeStyle = STYLE.background;
    g.lineWidth = 1;
    g.strokeRect(ax - 1.5, ay - 1.5, Math.max(3, bx - ax) + 3, Math.max(3, by - ay) + 3);
    const hex = m.hexAt(m.canvas.clientWidth / 2, m.canvas.clientHeight / 2);
    const text = hex >= 0 ? `view centred on ${m.theater.hexes[hex].name}` : "view centred off the map";
    if (this.where.textContent !== text) this.where.textContent = text;
  }
}
