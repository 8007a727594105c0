// The theater and position answers (docs/views.md) turned into what the map draws: arrays by
// hex and hexside index, world positions, and sets for the position's markers. Sheets that
// touch on the global grid form one panel; panels are stacked top to bottom, as
// `opsim render` lays them out.

const ROOT3 = Math.sqrt(3);

// A hex's centre on the global grid: flat-topped, even columns half a hex lower.
function center(col, row) {
  return [col * 1.5, row * ROOT3 + (col % 2 === 0 ? ROOT3 / 2 : 0)];
}

function panels(sheets) {
  const parent = sheets.map((_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const win = (s) => [s.origin[0] + s.first[0], s.origin[1] + s.first[1], s.origin[0] + s.last[0], s.origin[1] + s.last[1]];
  for (let i = 0; i < sheets.length; ++i) {
    for (let j = i + 1; j < sheets.length; ++j) {
      const a = win(sheets[i]), b = win(sheets[j]);
      if (a[0] <= b[2] + 1 && b[0] <= a[2] + 1 && a[1] <= b[3] + 1 && b[1] <= a[3] + 1) parent[find(i)] = find(j);
    }
  }
  const groups = new Map(); // root -> panel
  let height = 0;
  sheets.forEach((s, i) => {
    const root = find(i);
    if (!groups.has(root)) groups.set(root, { names: [], x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity });
    const p = groups.get(root);
    const w = win(s);
    const [ax, ay] = center(w[0], w[1]);
    const [bx, by] = center(w[2], w[3]);
    p.names.push(s.name);
    p.x0 = Math.min(p.x0, ax - 2);
    p.y0 = Math.min(p.y0, ay - 2);
    p.x1 = Math.max(p.x1, bx + 2);
    p.y1 = Math.max(p.y1, by + 2);
  });
  // Panels are laid out in rows (shelves) about as wide as the whole is tall times 1.6, so that
  // a theater of far-apart sheets fills a screen rather than a tall strip.
  const list = [...groups.values()];
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
  const bySheet = new Map();
  sheets.forEach((s, i) => bySheet.set(s.name, groups.get(find(i))));
  return { bySheet, list };
}

export function normalizeTheater(doc) {
  const layout = panels(doc.sheets);
  const index = new Map();
  const hexes = doc.hexes.map((h, i) => {
    const name = h.hex;
    index.set(name, i);
    const sheet = name.slice(0, name.indexOf(":"));
    const p = layout.bySheet.get(sheet);
    const [x, y] = center(h.col, h.row);
    return {
      name,
      number: name.slice(name.indexOf(":") + 1),
      x: x + p.dx,
      y: y + p.dy,
      terrain: h.terrain,
      coast: h.coast || "none",
      water: h.terrain === "all-sea" || h.terrain === "lake",
      city: h.city || "",
      port: h.port || "",
      inlandPort: !!h.inland,
      airbase: !!h.airbase,
      place: h.place || "",
      wedges: null,
    };
  });
  const sideIndex = new Map();
  const hexsides = doc.hexsides.map((s, i) => {
    sideIndex.set(s.hexside, i);
    const way = s.waterway === undefined ? null : doc.waterways[s.waterway];
    return {
      name: s.hexside,
      a: s.a,
      b: s.b,
      dir: s.dir,
      features: s.features || [],
      water: s.water || "none",
      navigable: !!way?.navigable,
      suez: way?.rule === "41.B",
    };
  });
  // The water of a coastal hex is drawn as wedges toward its sea (or lake) hexsides.
  for (const s of hexsides) {
    for (const [h, dir] of [[hexes[s.a], s.dir], [hexes[s.b], (s.dir + 3) % 6]]) {
      if (h.coast === "none") continue;
      const sea = h.coast === "partial-sea";
      if (sea ? s.water !== "all-sea" && s.water !== "partial-sea" : s.water !== "lake") continue;
      (h.wedges ||= []).push({ dir, kind: sea ? "sea" : "lake" });
    }
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const h of hexes) {
    x0 = Math.min(x0, h.x);
    y0 = Math.min(y0, h.y);
    x1 = Math.max(x1, h.x);
    y1 = Math.max(y1, h.y);
  }
  const titles = layout.list.map((p) => ({ title: `sheet ${p.names.join(" + ")}`, x: p.x0 + p.dx, y: p.y0 + p.dy - 0.5 }));
  return {
    title: doc.title || "",
    hexes,
    hexsides,
    index,
    sideIndex,
    panels: titles,
    bounds: { x0: x0 - 1, y0: y0 - 4, x1: x1 + 1, y1: y1 + 1 },
  };
}

export function normalizePosition(doc, t) {
  const hexOf = (name) => t.index.get(name) ?? -1;
  const owner = new Array(t.hexes.length).fill("");
  for (const [side, list] of Object.entries(doc.owner || {})) {
    for (const name of list) {
      const i = hexOf(name);
      if (i >= 0) owner[i] = side;
    }
  }
  const set = (list, f) => new Set((list || []).map((x) => f(typeof x === "string" ? x : x.hex ?? x.hexside)).filter((i) => i >= 0));
  const zoc = {};
  for (const [side, list] of Object.entries(doc.zoc || {})) zoc[side] = set(list, hexOf);
  // Supply is `opsim supply --all`'s answer per side: a ring on each unit's hex.
  const supply = {};
  for (const [side, answer] of Object.entries(doc.supply || {})) {
    supply[side] = new Map((answer.units || []).filter((u) => u.hex).map((u) => [hexOf(u.hex), u.status]));
  }
  return {
    owner,
    floods: set(doc.floods, hexOf),
    ice: set(doc.ice_airfields, hexOf),
    bridges: set(doc.destroyed_bridges, (n) => t.sideIndex.get(n) ?? -1),
    suez: doc.suez || "open",
    units: (doc.units || []).map((u) => ({
      id: u.id,
      name: u.name || u.id,
      side: u.side,
      kind: u.kind || "ground",
      hex: u.hex ? hexOf(u.hex) : -1,
      strength: u.strength || "",
      selected: false,
    })),
    zoc,
    supply,
  };
}
