// The map's colours, the same as `opsim render` uses where it draws the same thing, so a
// printed position and the browser agree. Colour is never the only signal: the legend pairs
// each with a shape or a word.

export const TERRAIN_COLORS = {
  clear: "#e8e0b0",
  rough: "#c8a878",
  forest: "#8fbf7f",
  swamp: "#9fc8b8",
  mountain: "#a08060",
  "canal-intensive": "#d8e8a0",
  prohibited: "#707070",
  "all-sea": "#6fa8dc",
  lake: "#9fc5e8",
};

export const STYLE = {
  background: "#fafafa",
  hexEdge: "#999999",
  ink: "#000000",
  faint: "#555555",
  port: "#0b5394",
  waterway: "#00a0a0",
  seaSide: "#1c4587",
  majorRiver: "#1f5fbf",
  minorRiver: "#3d85c6",
  canal: "#20b0d0",
  border: "#cc0000",
  road: "#b45f06",
  rail: "#202020",
  causeway: "#cc0000",
  railFerry: "#9900cc",
  axisHatch: "#404040",
  alliedHatch: "#a61c00",
  flood: "rgba(60, 120, 216, 0.35)",
  alert: "#cc0000",
  supplied: "#38761d",
  zocAxis: "#7f00ff",
  zocAllied: "#e69138",
  reach: "rgba(255, 220, 0, 0.35)",
  path: "#e00000",
  selected: "#ff6d01",
  axisCounter: "#9e9e9e",
  alliedCounter: "#e6b8af",
};
