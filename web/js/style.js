// The map's colours and counter symbols, from web/palette.json: the one copy, which
// `opsim render` embeds at build time, so a printed position and the browser agree. Colour is
// never the only signal: the legend pairs each with a shape or a word, and each counter names its
// side and strength in words.

import palette from "../palette.json" with { type: "json" };

export const TERRAIN_COLORS = palette.terrain;
export const STYLE = palette.style;
// A unit type's symbol (NATO style): SVG path data in a box of SYMBOL_BOX units, stroked or filled.
export const SYMBOL_BOX = palette.symbols.box;

// The symbol of a unit: its type for ground units, else "air" or "naval"; null if none.
export function symbolOf(u) {
  return palette.symbols[u.kind === "ground" ? u.type : u.kind] || null;
}

// A counter's colour: its nationality's, else its side's.
export function counterColor(u) {
  return palette.nationality[u.nationality] || palette.side[u.side] || "#ffffff";
}

export const SIDE_COLORS = palette.side;
// Step play's marks (the page's own, not `opsim render`'s): each move's trail in its side's
// colour, the hexes offered for a decision (a retreat's), outlined dashed.
export const PLAY_STYLE = {
  trailAxis: "#1f3b8c",
  trailAllied: "#00796b",
  choice: "#2e7d32",
  choiceFill: "rgba(46, 125, 50, 0.28)",
};
export const NATIONALITY_COLORS = palette.nationality;
export const SYMBOLS = palette.symbols;

// Draws a symbol on a canvas in the box (x, y, w, h), its frame included, in `ink`.
export function paintSymbol(g, sym, x, y, w, h, ink = "#000") {
  const [bw, bh] = SYMBOL_BOX;
  g.save();
  g.translate(x, y);
  g.scale(w / bw, h / bh);
  g.strokeStyle = g.fillStyle = ink;
  g.lineWidth = Math.max(1, bw / w);
  g.strokeRect(0, 0, bw, bh);
  for (const d of sym?.stroke || []) g.stroke(new Path2D(d));
  for (const d of sym?.fill || []) g.fill(new Path2D(d));
  g.restore();
}

// An objective's mark (B15.1): a five-pointed star at (x, y) of radius r, filled with its
// owner's colour (white: no one's) and outlined in ink `width` wide.
export function paintStar(g, x, y, r, fill, width) {
  g.beginPath();
  for (let k = 0; k < 10; ++k) {
    const a = -Math.PI / 2 + (k * Math.PI) / 5, d = k % 2 ? r * 0.45 : r;
    g.lineTo(x + d * Math.cos(a), y + d * Math.sin(a));
  }
  g.closePath();
  g.fillStyle = fill;
  g.fill();
  g.lineWidth = width;
  g.strokeStyle = STYLE.ink;
  g.setLineDash([]);
  g.stroke();
}
