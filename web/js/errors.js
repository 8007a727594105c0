// An API error's place in what the page sent, in the player's words: the error's `where`
// (docs/api.md) points into the body by JSON path ("/retreats/0/prefer/1"), and the page names
// that entry as its lists show it ("retreat from 16A:1122, preferred hex 2 (16A:1023)").

import { describe } from "./orders.js";

// The entry of `body` (an orders file or a reply) at `pointer`, in words; "" if none.
export function placeOf(pointer, body) {
  const [list, i, key, j] = pointer.split("/").slice(1);
  const entry = body?.[list]?.[Number(i)];
  if (!entry || typeof entry !== "object") return "";
  if (list === "retreats") {
    const k = Number(j);
    return key === "prefer" && j !== undefined ? `retreat from ${entry.hex}, preferred hex ${k + 1} (${entry.prefer[k]})`
      : `retreat from ${entry.hex}`;
  }
  if (list === "reactions") return `${Object.keys(entry)[0]} ${Object.values(entry)[0]}`;
  return `${list} order ${Number(i) + 1} (${describe(entry)})`;
}
