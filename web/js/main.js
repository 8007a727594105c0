// The page: reads ?game=ID&token=T, loads the theater once and the position at the turn shown,
// and wires the map, the panels, the orders, the replay and the live stream together. Every
// rule is the server's: the page asks /check, /reach and /odds, and shows what they answer.

import { Api, ApiError } from "./api.js";
import { MapView } from "./mapview.js";
import { Minimap } from "./minimap.js";
import { placeOf } from "./errors.js";
import { normalizeTheater, normalizePosition } from "./model.js";
import { OrdersDraft, describe, menuOrder, phaseOf } from "./orders.js";
import * as ui from "./panels.js";
import { showLobby } from "./lobby.js";

const $ = (id) => document.getElementById(id);
// A player-turn's phases, in order, as the server names them (docs/api.md).
const PHASES = ["initial", "movement", "combat", "exploitation"];
const SIDE = { axis: "the Axis", allied: "the Allies" };
const other = (side) => (side === "axis" ? "allied" : "axis");
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

class Client {
  constructor(api) {
    this.api = api;
    this.status = null; // the game now (GET /api/games/ID)
    this.latest = 0; // player-turns logged
    this.at = null; // the replayed player-turn, or null: the game now
    this.phase = null; // with `at`: the phase it stands after, or null: the whole player-turn
    this.logs = new Map(); // logged player-turns with their phases' ranges, by number
    this.theater = null;
    this.position = null;
    this.selection = []; // unit ids
    this.selectionHex = -1;
    this.reach = null;
    this.draft = null; // {phase, order, path: [hex], answer}
    this.orders = new OrdersDraft();
    this.submitted = null; // {number, items}: the orders this page sent, while they wait
    this.show = { supply: new Set(), zoc: new Set() };
    this.hex = -1; // the hex in the hex panel
    this.hexside = -1;
    this.map = new MapView($("map"), {
      hexClick: (hex, e, side) => this.hexClick(hex, e, side),
      stackClick: (hex) => this.showHex(hex),
      unitClick: (u, e) => this.unitClick(u, e),
    });
    this.minimap = new Minimap($("minimap"), this.map, $("minimap-where"));
  }

  // ---- loading ------------------------------------------------------------------------------

  async start() {
    // The performance marks time each stage of the first view (tests/browser reads them).
    performance.mark("opsim:start");
    const position = this.fetchPosition(); // meanwhile
    position.catch(() => {}); // its error is the status's too, answered below
    const [status, theater] = await Promise.all([this.api.status(), this.api.theater()]);
    this.status = status;
    this.latest = this.status.turns_logged;
    this.noteSubmitted();
    performance.mark("opsim:theater-fetched");
    this.theater = normalizeTheater(theater);
    this.map.setTheater(this.theater);
    performance.mark("opsim:theater-indexed");
    await this.loadPosition(position);
    performance.mark("opsim:position-loaded");
    // The map opens on the player's first unit (else any): a big theater with about 10,000
    // hexes in view, a small one close enough to read the counters.
    const units = this.position.units.filter((u) => u.hex >= 0);
    const first = units.find((u) => u.side === this.role) || units[0];
    const big = this.theater.hexes.length > 10000;
    if (first) this.map.centerOn(first.hex, big ? 10000 : 150);
    else this.map.fit();
    this.map.onDrawn = (hexes, drawMs) => {
      this.map.onDrawn = null;
      performance.mark("opsim:drawn");
      // After the frame is painted: a task queued in the frame's callback runs after it.
      setTimeout(() => {
        performance.mark("opsim:painted");
        const detail = { hexes, drawMs };
        performance.measure("opsim:first-view", { start: "opsim:start", end: "opsim:painted", detail });
        performance.measure("opsim:navigation-to-first-view", { end: "opsim:painted", detail });
        performance.measure("opsim:fetch", { start: "opsim:start", end: "opsim:theater-fetched" });
        performance.measure("opsim:index", { start: "opsim:theater-fetched", end: "opsim:theater-indexed" });
        performance.measure("opsim:position", { start: "opsim:theater-indexed", end: "opsim:position-loaded" });
        performance.measure("opsim:draw", { start: "opsim:position-loaded", end: "opsim:painted" });
        // The overview after the first view: it costs that view nothing.
        setTimeout(() => {
          this.minimap.build();
          this.map.onView = () => this.minimap.update();
        });
      });
    };
    this.renderAll();
    this.listen();
    ui.drawLegend($("legend"));
  }

  fetchPosition() {
    return this.api.state(this.at ?? undefined, [...this.show.supply], [...this.show.zoc], this.phase ?? undefined);
  }

  // The position at the turn shown (`fetched`: its answer already asked for).
  async loadPosition(fetched) {
    const doc = await (fetched || this.fetchPosition());
    this.position = normalizePosition(doc, this.theater);
    for (const u of this.position.units) u.selected = this.selection.includes(u.id);
    this.map.setPosition(this.position);
    this.map.setOverlay({ zoc: this.position.zoc, supply: this.position.supply });
  }

  async refresh() {
    this.status = await this.api.status();
    this.latest = this.status.turns_logged;
    this.noteSubmitted();
    await this.loadPosition();
    this.renderAll();
  }

  // ---- who may do what ----------------------------------------------------------------------

  get role() { return this.status?.role || "public"; }
  get phasing() { return this.status?.next?.phasing; }
  get pending() { return this.status?.pending || null; }
  get replaying() { return this.at !== null; }
  // The side whose orders this page writes, or null.
  get mover() {
    if (this.replaying || this.pending || !this.status?.hosted) return null;
    return this.role === this.phasing ? this.role : null;
  }
  get replier() {
    if (this.replaying || !this.pending || this.pending.stage !== "moved") return null;
    return this.role !== "spectator" && this.role !== "public" && this.role !== this.phasing ? this.role : null;
  }

  // ---- the map's clicks ---------------------------------------------------------------------

  unitClick(u, e) {
    if (this.replierMarking(u.hex, e)) return; // the reply marks the counter's hex
    const mine = this.mover && u.side === this.mover;
    if (!mine) {
      if (this.selection.length && this.mover) return this.hexClick(u.hex, e, -1);
      return this.showHex(u.hex);
    }
    // Ctrl-click adds a unit of another hex (attackers from several hexes); a plain click on
    // another hex starts a new selection there.
    const adding = e.ctrlKey || e.metaKey;
    if (!adding && this.selectionHex !== u.hex) this.selection = [];
    if (!adding || this.selectionHex < 0) this.selectionHex = u.hex;
    this.selection = this.selection.includes(u.id)
      ? this.selection.filter((id) => id !== u.id) : [...this.selection, u.id];
    if (!this.selection.length) this.selectionHex = -1;
    this.draft = null;
    this.showHex(u.hex);
    this.updateSelection();
    this.loadReach();
  }

  hexClick(hex, e, hexside) {
    this.hexside = hexside;
    if (this.replierMarking(hex, e)) return;
    if (this.mover && this.selection.length && hex !== this.selectionHex) {
      const enemy = this.map.unitsAt(hex).some((u) => u.side !== this.mover);
      if (enemy) this.draftAttack(hex);
      else this.draftMove(hex, e.shiftKey);
    }
    this.showHex(hex);
  }

  async showHex(hex) {
    this.hex = hex;
    this.map.setOverlay({ selected: hex });
    const name = this.theater.hexes[hex].name;
    $("goto-hex").value = name;
    this.fillMenuWhere(name);
    try {
      const doc = await this.api.hex(name, this.at ?? undefined);
      if (this.hex === hex) ui.hexPanel($("hex-panel").querySelector(".body"), doc, this.sideName());
    } catch (e) {
      this.fail(e);
    }
  }

  sideName() {
    return this.hexside >= 0 ? this.theater.hexsides[this.hexside].name : "";
  }

  // ---- selection, reach, drafts --------------------------------------------------------------

  clearSelection() {
    this.selection = [];
    this.selectionHex = -1;
    this.reach = null;
    this.draft = null;
    this.map.expanded = -1;
    if (this.position?.units.some((u) => u.selected)) {
      for (const u of this.position.units) u.selected = false; // no counter left marked
      this.map.setPosition(this.position);
    }
    this.map.setOverlay({ reach: null, path: [], target: -1, pathLegal: null });
    this.updateSelection();
  }

  async loadReach() {
    for (const u of this.position.units) u.selected = this.selection.includes(u.id);
    this.map.setPosition(this.position);
    if (!this.selection.length) return this.clearSelection();
    const ids = [...this.selection];
    const hexes = new Set(this.position.units.filter((u) => ids.includes(u.id)).map((u) => u.hex));
    if (hexes.size > 1) {
      // Units of several hexes have no reach together: they are attackers (B7).
      this.reach = null;
      this.map.setOverlay({ reach: null, path: [] });
      const box = $("selection-panel").querySelector(".reach");
      if (box) box.textContent = "units of several hexes: click an enemy hex to attack it";
      return;
    }
    try {
      const r = await this.api.reach({ units: ids });
      if (ids.join() !== this.selection.join()) return;
      this.reach = new Map();
      for (const h of r.hexes || []) {
        const i = this.theater.index.get(h.hex);
        if (i !== undefined) this.reach.set(i, h);
      }
      this.map.setOverlay({ reach: this.reach, path: [], target: -1 });
      ui.reachSummary($("selection-panel").querySelector(".reach"), r);
    } catch (e) {
      this.reach = null;
      this.map.setOverlay({ reach: null });
      this.fail(e);
    }
  }

  draftMove(hex, waypoint) {
    const t = this.theater;
    const from = this.selectionHex;
    let path;
    if (waypoint && this.draft?.order.path) {
      path = [...this.draft.path, hex];
    } else {
      const r = this.reach?.get(hex);
      path = r ? r.path.map((n) => t.index.get(n)) : [from, hex];
    }
    const order = { units: [...this.selection], path: path.map((i) => t.hexes[i].name) };
    this.draft = { phase: $("menu-exploit").checked ? "exploitation" : "movement", order, path };
    this.map.setOverlay({ path, target: -1, pathLegal: null });
    this.checkDraft();
  }

  draftAttack(hex) {
    const order = { attack: this.theater.hexes[hex].name, units: [...this.selection] };
    this.draft = { phase: "combat", order, path: [] };
    this.map.setOverlay({ path: [], target: hex, pathLegal: null });
    this.checkDraft();
  }

  // The draft judged as it would be played after the orders already listed (the dry run).
  async checkDraft() {
    const draft = this.draft;
    this.updateSelection();
    try {
      const answer = await this.api.check({ orders: this.orders.file(this.mover, this.status.next.date, draft) });
      if (this.draft !== draft) return;
      const k = this.orders.answerIndex(draft)[this.orders.items.length];
      draft.answer = { dry: answer, own: answer.orders?.[k] };
      this.map.setOverlay({ pathLegal: draft.answer.own ? draft.answer.own.legal : null });
      this.updateSelection();
    } catch (e) {
      if (this.draft !== draft) return;
      draft.answer = { error: e };
      this.map.setOverlay({ pathLegal: false });
      this.updateSelection();
    }
  }

  addDraft() {
    if (!this.draft) return;
    this.orders.add(this.draft.phase, this.draft.order);
    this.say(`added: ${describe(this.draft.order)}`);
    this.clearSelection();
    this.renderOrders();
  }

  updateSelection() {
    const body = $("selection-panel").querySelector(".body");
    ui.selectionPanel(body, {
      mover: this.mover,
      units: this.selection.map((id) => this.position.units.find((u) => u.id === id)).filter(Boolean),
      draft: this.draft,
      onAdd: () => this.addDraft(),
      onCancel: () => this.clearSelection(),
      onUndoWaypoint: () => {
        const path = this.draft.path.slice(0, -1);
        this.draft = { ...this.draft, path, order: { ...this.draft.order, path: path.map((i) => this.theater.hexes[i].name) } };
        this.map.setOverlay({ path, pathLegal: null });
        this.checkDraft();
      },
      onIfFlooded: (v) => {
        if (this.draft?.order.attack) {
          this.draft.order["if-flooded"] = v;
        }
      },
    });
  }

  // ---- the orders list ------------------------------------------------------------------------

  // The orders this page sent, while they wait for the reply (kept over a reload).
  get shownSubmitted() {
    const s = this.submitted;
    return s && this.pending && this.pending.number === s.number && !this.replaying ? s : null;
  }

  // The orders this page sent (`sent`, else none new), kept in the session's storage while they
  // wait, so that a reload still shows them; forgotten once nothing is pending.
  noteSubmitted(sent = null) {
    const key = `opsim:${this.api.game}:${this.role}:submitted`;
    if (sent) sessionStorage.setItem(key, JSON.stringify(sent));
    else if (!this.pending) sessionStorage.removeItem(key);
    try { this.submitted = JSON.parse(sessionStorage.getItem(key)); } catch { this.submitted = null; }
  }

  renderOrders() {
    const sent = this.shownSubmitted;
    ui.ordersList($("orders-list"), sent ? sent.items : this.orders.items, describe, (i) => {
      this.orders.remove(i);
      this.renderOrders();
    }, !!sent);
    this.showPreviews(sent ? sent.items : this.orders.items);
    const can = !!this.mover;
    $("dry-run").disabled = !can || !this.orders.items.length;
    $("submit").disabled = !can || !this.orders.items.length;
    $("clear-orders").disabled = !this.orders.items.length;
    $("menu-form").querySelector("button").disabled = !can;
  }

  // Each listed move's (or air drop's, rebase's) units drawn, faded, where it ends (not while
  // replaying).
  showPreviews(items) {
    const t = this.theater, units = this.position?.units || [];
    const previews = [];
    for (const { order } of this.replaying ? [] : items) {
      const ids = order.path ? order.units || (order.unit ? [order.unit] : order.rail || order.naval)
        : [order["air-drop"] || order.rebase].filter(Boolean);
      if (!ids?.length) continue;
      const end = t.index.get(order.path ? order.path[order.path.length - 1] : order.hex);
      if (end === undefined) continue;
      for (const id of ids) {
        const unit = units.find((u) => u.id === id);
        if (unit && unit.hex !== end) previews.push({ unit, hex: end });
      }
    }
    this.map.setPreviews(previews);
  }

  async dryRun() {
    try {
      const answer = await this.api.check({ orders: this.orders.file(this.mover, this.status.next.date) });
      ui.dryRun($("dry-run-result"), answer);
      return answer;
    } catch (e) {
      this.fail(e);
      return null;
    }
  }

  async submit() {
    const answer = await this.dryRun();
    if (!answer) return;
    if (!answer.legal) {
      this.fail(new Error("the dry run finds problems (listed under the orders): fix them before submitting"));
      return;
    }
    const file = this.orders.file(this.mover, this.status.next.date);
    try {
      const sent = await this.api.orders(file);
      this.noteSubmitted({ number: sent.number, items: this.orders.items });
      this.orders.clear();
      this.clearSelection();
      $("dry-run-result").replaceChildren();
      this.say(this.liveNotice("pending", sent.number));
      await this.refresh();
    } catch (e) {
      this.fail(e, { body: file, mark: (pointer, text) => ui.markInvalid($("orders-list"), pointer, text) });
    }
  }

  async menuAdd(ev) {
    ev.preventDefault();
    const kind = $("menu-kind").value;
    const ids = (s) => s.split(/[\s,]+/).filter(Boolean);
    try {
      const units = ids($("menu-units").value);
      const order = menuOrder(kind, units, $("menu-where").value, ids($("menu-carry").value));
      this.draft = { phase: phaseOf(kind, $("menu-exploit").checked), order, path: [] };
      await this.checkDraft();
      if (this.draft?.answer?.own?.legal) this.addDraft();
    } catch (e) {
      this.fail(e);
    }
  }

  fillMenuWhere(hexName) {
    if (!$("order-menu").open) return;
    const where = $("menu-where");
    const kind = $("menu-kind").value;
    if (kind === "destroy-bridge" || kind === "build-bridge") where.value = this.sideName() || where.value;
    else if (kind === "naval" || kind === "rail") where.value = where.value ? `${where.value}, ${hexName}` : hexName;
    else where.value = hexName;
    if (this.selection.length && !$("menu-units").value) $("menu-units").value = this.selection.join(", ");
  }

  // ---- the defender's reply ------------------------------------------------------------------

  replierMarking(hex, e) {
    if (!this.replier || !this.replyForm) return false;
    return this.replyForm.click(this.theater.hexes[hex].name, e);
  }

  renderReply() {
    const panel = $("reply-panel");
    panel.hidden = !this.replier;
    if (!this.replier) {
      this.replyForm = null;
      return;
    }
    if (this.replyForm && this.replyForm.number === this.pending.number) return;
    const t = this.theater;
    const form = ui.replyForm(panel.querySelector(".body"), this.pending, {
      nextTo: (a, b) => t.adjacent(t.index.get(a), t.index.get(b)),
      send: (body) => this.sendReply(body, form),
    });
    this.replyForm = form;
  }

  async sendReply(body, form) {
    try {
      const r = await this.api.reply(body);
      this.say(this.liveNotice("turn", r.number));
      this.replyForm = null;
      await this.refresh();
    } catch (e) {
      this.fail(e, { what: "Your reply", body, mark: (pointer, text) => form?.invalid(pointer, text) });
    }
  }

  // ---- replay ---------------------------------------------------------------------------------

  // The replay steps through every phase: step 0 is the start, and step 4(n-1)+k+1 the position
  // after phase k of player-turn n (after its exploitation phase: after the player-turn).
  get step() {
    if (this.at === null) return this.latest * PHASES.length;
    if (this.at === 0) return 0;
    return (this.at - 1) * PHASES.length + (this.phase ? PHASES.indexOf(this.phase) : PHASES.length - 1) + 1;
  }

  stepText(step) {
    if (step === 0) return "the start";
    const n = Math.ceil(step / PHASES.length);
    return `player-turn ${n}, after its ${PHASES[(step - 1) % PHASES.length]} phase`;
  }

  async goTo(step) {
    step = Math.max(0, Math.min(this.latest * PHASES.length, step));
    const n = Math.ceil(step / PHASES.length);
    const k = (step - 1) % PHASES.length;
    this.at = step === this.latest * PHASES.length ? null : n;
    // After the last phase the position is the one after the player-turn: no phase to ask for.
    this.phase = step > 0 && k < PHASES.length - 1 ? PHASES[k] : null;
    this.clearSelection();
    try {
      await this.loadPosition();
      this.renderAll();
      const events = $("replay-events");
      if (step === 0) {
        events.replaceChildren(ui.para("The position before the first player-turn."));
      } else {
        if (!this.logs.has(n)) this.logs.set(n, await this.api.log(n, true));
        ui.replayEvents(events, this.logs.get(n), n, describe, PHASES[k]);
      }
      this.say(`Replay: ${this.stepText(step)}; the map shows the position then.`);
    } catch (e) {
      this.fail(e);
    }
  }

  // ---- live -----------------------------------------------------------------------------------

  listen() {
    const source = this.api.events();
    const changed = async (what, ev) => {
      let n = "";
      try { n = JSON.parse(ev.data).number; } catch { /* an event without data still refreshes */ }
      const wasReplaying = this.replaying;
      this.status = await this.api.status();
      this.latest = this.status.turns_logged;
      this.noteSubmitted();
      if (!wasReplaying) {
        await this.loadPosition();
        if (this.hex >= 0) this.showHex(this.hex);
      }
      this.renderAll();
      this.say(this.liveNotice(what, n));
    };
    source.addEventListener("pending", (ev) => changed("pending", ev).catch((e) => this.fail(e)));
    source.addEventListener("turn", (ev) => changed("turn", ev).catch((e) => this.fail(e)));
    source.onopen = () => document.body.dataset.live = "open";
    source.onerror = () => document.body.dataset.live = "retrying";
    this.source = source;
  }

  // Who acted, in words: "The Axis submitted the orders for player-turn 1: your reply is due".
  liveNotice(what, n) {
    const actor = (side) => (side === this.role ? `You (${SIDE[side]})` : cap(SIDE[side]));
    if (what === "turn") {
      const mover = this.lastPending?.number === n ? this.lastPending.side : null;
      return `${actor(mover ? other(mover) : other(this.phasing))} replied: player-turn ${n} is played: the map shows it`;
    }
    const mover = this.pending?.side || this.phasing;
    const then = this.replier ? "your reply is due" : `waiting for the reply of ${SIDE[other(mover)]}`;
    return `${actor(mover)} submitted the orders for player-turn ${n}: ${then}`;
  }

  // ---- text around the map --------------------------------------------------------------------

  renderAll() {
    const s = this.status;
    const next = s.next || {};
    const when = this.replaying ? `replaying: ${this.stepText(this.step)} (of ${this.latest} player-turns)` : `${next.date}: ${next.phasing} to move`;
    $("game-info").textContent = `${this.status.scenario || ""} · ${when}${this.pending ? ` · ${this.pending.text}` : ""}`;
    $("role").textContent = { axis: "You play the Axis", allied: "You play the Allies", spectator: "Spectator", public: "Reading (no token)" }[this.role] || "";
    document.body.dataset.role = this.role;
    document.body.dataset.turns = String(this.latest);
    document.body.dataset.pending = this.pending ? this.pending.stage : "";
    if (this.pending) this.lastPending = this.pending; // who moved, for the notice when played
    const slider = $("replay-slider");
    slider.max = String(this.latest * PHASES.length);
    slider.value = String(this.step);
    slider.setAttribute("aria-valuetext", this.stepText(this.step));
    $("replay-at").textContent = `${this.stepText(this.step)} (step ${this.step} of ${this.latest * PHASES.length})`;
    $("map-state").textContent = ui.mapStateText(this.position);
    this.renderOrders();
    this.renderReply();
    this.updateSelection();
  }

  say(text) {
    $("notice").textContent = text;
  }

  // Shows an error in the player's words. `context`: `body`, what was sent, so that the error's
  // place in it (its `where`) is named as the page lists it, and `mark(pointer, text)` marks that
  // entry; `what`, the form it came from.
  fail(e, context = {}) {
    let text = e instanceof Error ? e.message : String(e);
    if (e instanceof ApiError && e.pointer && context.body) {
      const place = placeOf(e.pointer, context.body);
      if (place) text = `${place}: ${text}`;
      context.mark?.(e.pointer, e.message);
    }
    if (context.what) text = `${context.what}: ${text}`;
    $("error-text").textContent = text;
    $("error").hidden = false;
    // A warning: an answered refusal is not a page error.
    console.warn("opsim:", text, e instanceof ApiError && e.where ? `(where: ${e.where})` : "");
  }

  // The page for a link that is not one of the game's (a wrong or revoked token, or no such
  // game): said in words, and nothing to press.
  invalidLink(e) {
    document.querySelector("main").replaceChildren(ui.el("section", { id: "invalid-link", role: "alert" },
      ui.el("h2", {}, "This link is not valid for this game"),
      ui.para("The server does not know this link's token for this game, or the game itself. A side's link holds that side's secret: ask whoever made the game for the link again. Nothing here can be played or read."),
      ui.para(`The server said: ${e.message}`, "hint"),
      ui.el("p", {}, ui.el("a", { href: "/" }, "The games on this server"))));
    $("game-info").textContent = "not a valid link";
    $("error").hidden = true;
    document.body.dataset.invalid = "true";
  }

  wire() {
    $("error-close").addEventListener("click", () => { $("error").hidden = true; });
    $("zoom-in").addEventListener("click", () => this.map.zoom(1.25));
    $("zoom-out").addEventListener("click", () => this.map.zoom(0.8));
    $("zoom-fit").addEventListener("click", () => this.map.fit());
    $("goto").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const i = this.theater.index.get($("goto-hex").value.trim());
      if (i === undefined) return this.fail(new Error(`no hex '${$("goto-hex").value.trim()}' on this theater`));
      this.map.showReadable(i);
      this.hexClick(i, { shiftKey: false }, -1);
    });
    $("dry-run").addEventListener("click", () => this.dryRun());
    $("submit").addEventListener("click", () => this.submit());
    $("clear-orders").addEventListener("click", () => {
      this.orders.clear();
      this.renderOrders();
      $("dry-run-result").replaceChildren();
    });
    $("menu-form").addEventListener("submit", (ev) => this.menuAdd(ev));
    $("replay-first").addEventListener("click", () => this.goTo(0));
    $("replay-prev").addEventListener("click", () => this.goTo(this.step - 1));
    $("replay-next").addEventListener("click", () => this.goTo(this.step + 1));
    $("replay-live").addEventListener("click", () => this.goTo(this.latest * PHASES.length));
    $("replay-slider").addEventListener("change", (ev) => this.goTo(Number(ev.target.value)));
    for (const box of document.querySelectorAll("[data-overlay]")) {
      box.addEventListener("change", async () => {
        const set = this.show[box.dataset.overlay];
        if (box.checked) set.add(box.value); else set.delete(box.value);
        try { await this.loadPosition(); } catch (e) { this.fail(e); }
      });
    }
    document.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape" || !this.theater) return;
      if (!$("error").hidden) $("error").hidden = true;
      if (this.map.expanded >= 0) {
        this.map.expanded = -1;
        this.map.redraw();
      }
      this.clearSelection();
    });
  }
}

async function main() {
  const params = new URLSearchParams(location.search);
  const game = params.get("game");
  if (!game) return showLobby(document.querySelector("main"));
  const client = new Client(new Api(game, params.get("token") || ""));
  window.opsim = client; // for the browser tests and the console
  client.wire();
  try {
    await client.start();
  } catch (e) {
    if (e instanceof ApiError && (e.code === "unauthorized" || e.code === "not-found")) client.invalidLink(e);
    else client.fail(e);
  }
}

main();
