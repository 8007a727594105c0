// The orders the player is writing: a list by phase, turned into an orders file
// (docs/orders-format.md) for the dry run and the submit. The browser decides no rule: every
// order is judged by the server's check.

const PHASES = ["initial", "movement", "combat", "exploitation"];

export class OrdersDraft {
  constructor() {
    this.items = []; // {phase, order}
  }

  // Kept in play order: by phase, and within a phase as given.
  add(phase, order) {
    const k = PHASES.indexOf(phase);
    const at = this.items.findIndex((i) => PHASES.indexOf(i.phase) > k);
    this.items.splice(at < 0 ? this.items.length : at, 0, { phase, order });
  }

  remove(index) {
    this.items.splice(index, 1);
  }

  clear() {
    this.items = [];
  }

  // The orders file for `side` and the game turn `turn`, with `extra` ({phase, order}) last
  // when given (a draft being checked as it would be played after the others).
  file(side, turn, extra) {
    const f = { opsim: "orders", version: 1, side, turn };
    const all = extra ? [...this.items, extra] : this.items;
    for (const phase of PHASES) {
      const list = all.filter((i) => i.phase === phase).map((i) => i.order);
      if (list.length) f[phase] = list;
    }
    return f;
  }

  // The index in the dry run's `orders` answer of each item (the file is by phase).
  answerIndex(extra) {
    const all = extra ? [...this.items, extra] : this.items;
    const order = [];
    for (const phase of PHASES) {
      all.forEach((item, i) => {
        if (item.phase === phase) order.push(i);
      });
    }
    const at = new Array(all.length);
    order.forEach((item, k) => {
      at[item] = k;
    });
    return at;
  }
}

// An order in words, for the list.
export function describe(order) {
  if (order.path && (order.units || order.unit)) {
    return `move ${(order.units || [order.unit]).join(", ")} ${order.path.join("-")}${order.exit ? " and exit" : ""}`;
  }
  if (order.rail) return `rail ${order.rail.join(", ")} ${order.path.join("-")}`;
  if (order.naval) {
    return `naval ${order.naval.join(", ")} ${order.path.join("-")}${order.carry ? ` carrying ${order.carry.join(", ")}` : ""}`;
  }
  if (order.attack) {
    return `attack ${order.attack} with ${order.units.join(", ")}${order["if-flooded"] === "call-off" ? " (call off if flooded)" : ""}`;
  }
  if (order["air-drop"]) return `air drop ${order["air-drop"]} on ${order.hex}`;
  if (order.rebase) return `rebase ${order.rebase} to ${order.hex}`;
  if (order["destroy-bridge"]) return `destroy bridge ${order["destroy-bridge"]} (${order.unit})`;
  if (order["build-bridge"]) return `build bridge ${order["build-bridge"]} (${order.unit})`;
  if (order.suez) return `Suez Canal: ${order.suez}`;
  if (order.flood) return `flood ${order.flood}`;
  if (order["massive-flood"]) return `massive flood ${order["massive-flood"]}`;
  if (order.prefer) return `retreat from ${order.hex}: prefer ${order.prefer.join(", ")}`;
  if (order["ice-airfield"]) return `ice airfield ${order["ice-airfield"]} (${order.unit})`;
  return JSON.stringify(order);
}

// An order from the "more orders" menu: kind, units (ids), where (hex, hexside or path).
export function menuOrder(kind, units, where, carry) {
  const path = where.split(/[\s,]+/).filter(Boolean);
  const need = (ok, what) => {
    if (!ok) throw new Error(`${kind}: ${what}`);
  };
  switch (kind) {
    case "naval":
      need(units.length && path.length, "give the naval units and the path's waypoints");
      return { naval: units, path, ...(carry.length ? { carry } : {}) };
    case "rail":
      need(units.length && path.length > 1, "give the units and the path (two hexes or more)");
      return { rail: units, path };
    case "air-drop":
    case "rebase":
      need(units.length === 1 && path.length === 1, "give one air unit and one hex");
      return { [kind]: units[0], hex: path[0] };
    case "destroy-bridge":
    case "build-bridge":
      need(units.length === 1 && path.length === 1 && path[0].includes("/"),
        "give one unit and one hexside (16A:0727/0827)");
      return { [kind]: path[0], unit: units[0] };
    case "suez-close":
      return { suez: "close" };
    case "suez-reopen":
      return { suez: "reopen" };
    case "ice-airfield":
      need(units.length === 1 && path.length === 1, "give one unit and its hex");
      return { "ice-airfield": path[0], unit: units[0] };
    default:
      throw new Error(`unknown order kind '${kind}'`);
  }
}

export function phaseOf(kind, exploitation) {
  if (kind === "suez-close" || kind === "suez-reopen" || kind === "ice-airfield") return "initial";
  return exploitation ? "exploitation" : "movement";
}
