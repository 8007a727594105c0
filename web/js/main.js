// The page: reads ?game=ID&token=T, loads the theater once and the position at the turn shown,
// and wires the map, the panels, step play, the orders, the replay and the live stream together.
// Every rule is the server's: the page asks /check, /reach and /odds, takes steps with /step,
// and shows what they answer.

import { Api, ApiError } from "./api.js";
import { MapView } from "./mapview.js";
import { Minimap } from "./minimap.js";
import { placeOf } from "./errors.js";
import { normalizeTheater, normalizePosition } from "./model.js";
import { OrdersDraft, describe, menuOrder, phaseOf } from "./orders.js";
import * as ui from "./panels.js";
import * as steps from "./steps.js";
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
    this.stepAt = null; // with `at` (not `phase`): the number of its steps taken, or null
    this.logs = new Map(); // logged player-turns with their phases' ranges, by number
    this.stepLogs = new Map(); // logged player-turns with their steps (log?steps), by number
    this.replayThen = null; // /state's "step" for the step shown: what the game waited for then
    this.previews = new Map(); // the odds of attacks asked (POST /preview), by attack and step count
    this.theater = null;
    this.position = null;
    this.selection = []; // unit ids
    this.selectionHex = -1;
    this.reach = null;
    this.draft = null; // {phase, order, path: [hex], answer}
    this.orders = new OrdersDraft();
    this.submitted = null; // {number, items}: the orders this page sent, while they wait
    this.show = { supply: new Set(), zoc: new Set() };
    this.play = null; // the player-turn in play (GET /play, without its position), or null
    this.byMail = false; // this page writes the whole player-turn's orders at once (orders, reply)
    this.summarized = new Set(); // the player-turns whose summary was shown
    this.busy = false; // a step on its way
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
    // No frame until the view is placed below: a frame drawn meanwhile (around the theater's
    // origin, while the position is read) would be thrown away, and delay the first view.
    this.map.held = true;
    this.map.setTheater(this.theater);
    // The "go to" box shows a hex of this theater as its example.
    if (this.theater.hexes.length) $("goto-hex").placeholder = this.theater.hexes[0].name;
    performance.mark("opsim:theater-indexed");
    try {
      await this.loadPosition(position);
    } finally {
      this.map.held = false;
      this.map.redraw(); // one frame, of the view placed below (or, failing, of the theater)
    }
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
    // The player-turn in play, after the first view (it costs that view nothing).
    if (this.status.hosted && !this.pending) this.refresh().catch((e) => this.fail(e));
  }

  fetchPosition() {
    return this.api.state(this.at ?? undefined, [...this.show.supply], [...this.show.zoc], this.phase ?? undefined,
      this.stepAt ?? undefined);
  }

  // The position at the turn shown (`fetched`: its answer already asked for).
  async loadPosition(fetched) {
    const doc = await (fetched || this.positionDoc());
    this.position = normalizePosition(doc, this.theater);
    for (const u of this.position.units) u.selected = this.selection.includes(u.id);
    this.map.setPosition(this.position);
    this.map.setOverlay({ zoc: this.position.zoc, supply: this.position.supply });
  }

  // The position shown: the replayed one, else the one in play (GET /play), else the latest
  // logged. In play, the supply and zones of control shown are the position in play's.
  async positionDoc() {
    if (this.replaying || !this.playPosition) return this.fetchPosition();
    if (!this.show.supply.size && !this.show.zoc.size) return this.playPosition;
    return (await this.api.play([...this.show.supply], [...this.show.zoc])).position;
  }

  // The game now: its status, the player-turn in play and the position. Calls while one runs
  // are folded into one more run after it (a step's answer and its live event come together).
  refresh() {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        do {
          this.refreshAgain = false;
          await this.refreshOnce();
        } while (this.refreshAgain);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  async refreshOnce() {
    this.status = await this.api.status();
    this.latest = this.status.turns_logged;
    this.noteSubmitted();
    await this.loadPlay();
    await this.loadPosition();
    if (this.hex >= 0 && !this.replaying) this.showHex(this.hex);
    this.renderAll();
  }

  // GET /play for a hosted game with no orders waiting for their reply (then the player-turn is
  // played from them: 409).
  async loadPlay() {
    const before = this.play;
    if (!this.status.hosted || this.pending) {
      this.play = this.playPosition = null;
      return;
    }
    let doc;
    try {
      doc = await this.api.play();
    } catch (e) {
      if (e instanceof ApiError && e.code === "wrong-turn") {
        this.play = this.playPosition = null;
        return;
      }
      throw e;
    }
    this.playPosition = doc.position;
    delete doc.position;
    this.play = doc;
    this.byMail = this.byMail && doc.steps === 0;
    const words = this.stepNotice(before, doc);
    if (words) this.say(words);
  }

  // What the last step did, in words, from the play before it and after: who, and its events.
  stepNotice(old, now) {
    if (!old || !now || old.player_turn !== now.player_turn || old.steps === now.steps) return "";
    const actor = (side) => (side === this.role ? `You (${SIDE[side]})` : cap(SIDE[side]));
    if (now.steps < old.steps) return `${actor(now.side)} took back the last step`;
    const fresh = (now.events || []).slice((old.events || []).length).filter((e) => e.kind !== "owner");
    const ended = old.prompt.phase !== now.prompt.phase ? `ended the ${old.prompt.phase} phase` : "";
    const what = fresh.map((e) => `${e.text}${e.rule ? ` [${e.rule}]` : ""}`).join("; ");
    const asked = old.prompt.waiting === "order" && now.prompt.waiting === "flood"
      ? `attacks ${now.prompt.hex} with ${(now.prompt.units || []).join(", ")}: ${SIDE[now.prompt.side]} ${now.prompt.side === "allied" ? "are" : "is"} asked to flood it or not` : "";
    return `${actor(old.prompt.side)}: ${[what, ended, asked].filter(Boolean).join("; ") || "took a step"}`;
  }

  // ---- who may do what ----------------------------------------------------------------------

  get role() { return this.status?.role || "public"; }
  get phasing() { return this.status?.next?.phasing; }
  get pending() { return this.status?.pending || null; }
  get replaying() { return this.at !== null; }
  // Whether the player-turn is played step by step on this page: a hosted game, no orders
  // pending, and steps taken or this page not writing its orders at once.
  get stepping() {
    return !!this.play && !this.replaying && !this.pending && (this.play.steps > 0 || !this.byMail);
  }
  // The side this page takes a step for now (the game waits for it), or null.
  get actor() {
    return this.stepping && this.play.prompt?.side === this.role ? this.role : null;
  }
  // The side whose orders this page writes at once (by mail), or null.
  get mover() {
    if (this.replaying || this.pending || !this.status?.hosted || this.stepping) return null;
    return this.role === this.phasing ? this.role : null;
  }
  // The side whose units a click selects and moves: the mover's, or the actor's with an order due.
  get writer() {
    return this.mover || (this.actor && this.play.prompt.waiting === "order" ? this.actor : null);
  }
  get replier() {
    if (this.replaying || !this.pending || this.pending.stage !== "moved") return null;
    return this.role !== "spectator" && this.role !== "public" && this.role !== this.phasing ? this.role : null;
  }

  // ---- the map's clicks ---------------------------------------------------------------------

  unitClick(u, e) {
    if (this.replierMarking(u.hex, e)) return; // the reply marks the counter's hex
    if (this.retreatChoice(u.hex)) return;
    const mine = this.writer && u.side === this.writer;
    if (!mine) {
      if (this.selection.length && this.writer) return this.hexClick(u.hex, e, -1);
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
    if (this.retreatChoice(hex)) return;
    if (this.writer && this.selection.length && hex !== this.selectionHex) {
      const enemy = this.map.unitsAt(hex).some((u) => u.side !== this.writer);
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
      const objective = this.status.victory?.objectives.find((o) => o.hex === name);
      if (this.hex === hex) ui.hexPanel($("hex-panel").querySelector(".body"), doc, this.sideName(), objective);
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
    const noReach = (text) => {
      this.reach = null;
      this.map.setOverlay({ reach: null, path: [] });
      const box = $("selection-panel").querySelector(".reach");
      if (box) box.textContent = text;
    };
    if (this.stepping) {
      // The reach of the position in play, in the phase in play (the server's in_play).
      const phase = this.play.prompt.phase;
      if (phase !== "movement" && phase !== "exploitation") {
        return noReach(phase === "combat" ? "combat phase: click an enemy hex next to it to attack" : "");
      }
    }
    try {
      const r = await this.api.reach(this.stepping ? { units: ids, in_play: true } : { units: ids });
      if (ids.join() !== this.selection.join()) return;
      this.reach = new Map();
      for (const h of r.hexes || []) {
        const i = this.theater.index.get(h.hex);
        if (i !== undefined) this.reach.set(i, h);
      }
      this.map.setOverlay({ reach: this.reach, path: [], target: -1 });
      ui.reachSummary($("selection-panel").querySelector(".reach"), r);
    } catch (e) {
      if (ids.join() !== this.selection.join()) return;
      // A stack that may not move now (it moved this phase, B4.10): the rules' answer, in words.
      if (this.stepping && e instanceof ApiError && e.code === "rule-violation") return noReach(e.message);
      noReach("");
      this.fail(e);
    }
  }

  draftMove(hex, waypoint) {
    const t = this.theater;
    const from = this.selectionHex;
    let path;
    // In step play, a path built by shift-clicks ends with the plain click that takes the move.
    const building = this.stepping ? this.draft?.order.path && this.draft.path.length > 1 && !this.draft.answer?.error : waypoint;
    if (building && this.draft?.order.path) {
      path = [...this.draft.path, hex];
    } else {
      const r = this.reach?.get(hex);
      path = r ? r.path.map((n) => t.index.get(n)) : [from, hex];
    }
    const order = { units: [...this.selection], path: path.map((i) => t.hexes[i].name) };
    this.draft = { phase: $("menu-exploit").checked ? "exploitation" : "movement", order, path };
    this.map.setOverlay({ path, target: -1, pathLegal: null });
    if (!this.stepping) this.checkDraft();
    else if (!waypoint) this.addDraft();
    else this.updateSelection();
  }

  draftAttack(hex) {
    const order = { attack: this.theater.hexes[hex].name, units: [...this.selection] };
    this.draft = { phase: "combat", order, path: [] };
    this.map.setOverlay({ path: [], target: hex, pathLegal: null });
    if (this.stepping) {
      // Declared with its button (/check sees no steps); its odds are the server's preview.
      this.updateSelection();
      this.previewAttack(this.draft);
    } else {
      this.checkDraft();
    }
  }

  // The odds the drafted attack would be fought at if declared now (POST /preview), or the rules'
  // refusal of it, in the Selection panel. Asked once per attack and step count (a new selection
  // is a new draft), a moment after the click: clicks in a row ask once.
  previewAttack(draft) {
    const p = this.play?.prompt;
    if (!draft || !this.actor || p?.waiting !== "order" || p.phase !== "combat") return;
    const attack = { attack: draft.order.attack, units: [...draft.order.units] };
    const key = `${this.play.player_turn}|${this.play.steps}|${attack.attack}|${[...attack.units].sort().join(",")}`;
    const known = this.previews.get(key);
    draft.preview = known || { asking: true };
    this.updateSelection();
    if (known) return;
    clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(async () => {
      if (this.draft !== draft) return;
      let answer;
      try {
        answer = { odds: await this.api.preview(attack) };
      } catch (e) {
        // A refusal is the rules' answer, said in the panel; anything else is an error.
        if (!(e instanceof ApiError && e.code === "rule-violation")) {
          if (this.draft === draft) {
            draft.preview = null;
            this.updateSelection();
          }
          return this.fail(e, { what: `The odds of the attack on ${attack.attack}` });
        }
        console.warn("opsim: preview refused:", e.message);
        answer = { refused: e };
      }
      if (this.previews.size > 100) this.previews.clear();
      this.previews.set(key, answer);
      if (this.draft !== draft) return;
      draft.preview = answer;
      this.updateSelection();
    }, 150);
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
    if (this.stepping) return this.takeDraft();
    this.orders.add(this.draft.phase, this.draft.order);
    this.say(`added: ${describe(this.draft.order)}`);
    this.clearSelection();
    this.renderOrders();
  }

  updateSelection() {
    const body = $("selection-panel").querySelector(".body");
    ui.selectionPanel(body, {
      mover: this.writer,
      step: this.stepping,
      idle: this.stepping ? this.idleWords() : "",
      units: this.selection.map((id) => this.position.units.find((u) => u.id === id)).filter(Boolean),
      draft: this.draft,
      oddsWords: (odds) => steps.previewBody(odds, this.writer),
      onAdd: () => this.addDraft(),
      onCancel: () => this.clearSelection(),
      onUndoWaypoint: () => {
        const path = this.draft.path.slice(0, -1);
        this.draft = { ...this.draft, path, order: { ...this.draft.order, path: path.map((i) => this.theater.hexes[i].name) } };
        this.map.setOverlay({ path, pathLegal: null });
        if (this.stepping) this.updateSelection(); else this.checkDraft();
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
    const stepping = this.stepping;
    $("orders-panel").dataset.mode = stepping ? "steps" : "mail";
    $("orders-h").textContent = stepping ? "More orders" : "Orders";
    const take = $("menu-form").querySelector("button");
    take.textContent = stepping ? "Take this step" : "Check and add";
    take.disabled = stepping ? !this.writer : !can;
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
      if (this.stepping) return await this.takeDraft();
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

  // ---- step play ------------------------------------------------------------------------------

  // Takes the draft (a move, an attack, a menu order) as one step; refused, it stays drafted
  // with the server's words in the Selection panel, and nothing moves.
  async takeDraft() {
    const draft = this.draft;
    if (!draft || this.busy) return;
    const order = { ...draft.order };
    draft.answer = { sending: true };
    this.updateSelection();
    if (await this.takeStep(order, describe(order))) {
      this.clearSelection();
    } else if (this.draft === draft) {
      draft.answer = { error: this.lastError };
      this.map.setOverlay({ pathLegal: false });
      this.updateSelection();
    }
  }

  // POST /step; the page then shows the game as GET /play answers it. Returns whether it was
  // taken. A refusal is said under the play bar's buttons and in the error area, with its rule.
  async takeStep(step, words) {
    if (this.busy) return false;
    this.busy = true;
    this.renderPlay();
    $("play-error").textContent = "";
    try {
      const r = await this.api.step(step);
      this.lastError = null;
      $("play-error").textContent = "";
      $("error").hidden = true;
      await this.refresh();
      if (r.step?.logged) await this.showSummary(r.step.player_turn);
      return true;
    } catch (e) {
      this.lastError = e;
      // A step the rules refuse is an answer, said under the buttons (and a move's in the
      // Selection panel); anything else is an error.
      if (e instanceof ApiError && e.code === "rule-violation") {
        $("play-error").textContent = `${words ? `${cap(words)}: ` : ""}refused: ${e.message}. Nothing changed.`;
        console.warn("opsim: refused:", e.message);
      } else {
        this.fail(e, { what: words ? `Your step (${words})` : "Your step" });
      }
      return false;
    } finally {
      this.busy = false;
      this.renderPlay();
    }
  }

  async undo() {
    if (this.busy || $("undo").disabled) return;
    this.busy = true;
    this.renderPlay();
    $("play-error").textContent = "";
    try {
      await this.api.undo();
      $("draft-verdict")?.remove();
      this.clearSelection();
      $("error").hidden = true;
      await this.refresh();
    } catch (e) {
      $("play-error").textContent = `Undo refused: ${e.message}`;
      this.fail(e, { what: "Undo" });
    } finally {
      this.busy = false;
      this.renderPlay();
    }
  }

  // The mover begins his player-turn step by step: its weather is rolled and shown, and from
  // then on it is played by steps (docs/api.md, "Steps").
  async beginTurn() {
    if (this.busy) return;
    this.busy = true;
    this.renderPlay();
    $("play-error").textContent = "";
    try {
      await this.api.begin();
      $("error").hidden = true;
      await this.refresh();
    } catch (e) {
      this.fail(e, { what: "Beginning the player-turn" });
    } finally {
      this.busy = false;
      this.renderPlay();
    }
  }

  endPhase() {
    if (this.busy || $("end-phase").disabled) return;
    this.clearSelection();
    return this.takeStep({ "end-phase": true }, `end the ${this.play.prompt.phase} phase`);
  }

  // A click on a hex offered for the retreat the game asks of this page: that retreat, taken.
  retreatChoice(hex) {
    const p = this.actor && this.play.prompt;
    if (!p || p.waiting !== "retreat") return false;
    const name = this.theater.hexes[hex].name;
    if (!(p.retreat_to || []).includes(name)) {
      $("play-error").textContent = `${name} is not one of the hexes the stack at ${p.hex} may retreat into: ${(p.retreat_to || []).join(", ") || "none"} (B7.5)`;
      return false;
    }
    this.takeStep({ hex: p.hex, prefer: [name] }, `retreat from ${p.hex} to ${name}`);
    return true;
  }

  // What the Selection panel says when this page has no order to give.
  idleWords() {
    const w = steps.promptWords(this.play, this.role);
    if (this.actor) return `${w.headline}${/[?.!]$/.test(w.headline) ? "" : "."} Answer in the bar above the map.`;
    return `${cap(w.headline)}. Nothing to do until then: your page follows each step as it is taken.`;
  }

  // The play bar (what the game waits for, Undo, End phase, the decision asked of this page),
  // the combat report, the player-turn's events, and the map's trails and results.
  renderPlay() {
    const bar = $("play-bar");
    const on = !!this.play && !this.replaying && !this.pending;
    bar.hidden = !on;
    document.body.dataset.mode = this.stepping ? "steps" : this.mover || this.pending ? "mail" : "";
    $("combat-panel").hidden = $("turn-panel").hidden = !this.stepping;
    if (!this.stepping) {
      this.map.setOverlay({ trails: [], choices: null });
      this.map.setTags([]);
    }
    if (!on) return;
    const p = this.play, prompt = p.prompt || {}, w = steps.promptWords(p, this.role);
    Object.assign(document.body.dataset, { waiting: prompt.waiting || "", waitingSide: prompt.side || "",
      steps: String(p.steps), playerTurn: String(p.player_turn) });
    $("prompt-text").textContent = `Player-turn ${p.player_turn}, ${p.date} · ${w.headline}`;
    $("prompt-detail").textContent = w.detail ? `The server: ${w.detail}` : "";
    bar.classList.toggle("mine", w.mine && this.stepping);
    const busy = this.busy ? "a step is on its way to the server" : "";
    const undoWhy = !this.stepping ? "orders are sent all at once: uncheck the box to play step by step"
      : this.role !== p.side ? `only ${SIDE[p.side]} take back their own steps (B1.4)`
        : busy || (p.can_undo ? "" : p.steps ? "nothing to take back since the last die, decision of the other side or end of a phase (B1.4)" : "no step taken yet");
    const endWhy = !this.stepping ? "orders are sent all at once"
      : !this.actor ? (this.role === "spectator" || this.role === "public" ? "a spectator takes no step" : `the game waits for ${SIDE[prompt.side]}`)
        : prompt.waiting === "begin" ? "begin the player-turn first"
          : prompt.waiting !== "order" ? "answer the question first" : busy;
    $("undo").disabled = !!undoWhy;
    $("undo").title = undoWhy || "Take back the last step (U or Ctrl+Z)";
    $("end-phase").disabled = !!endWhy;
    $("end-phase").title = endWhy || "End the phase (Shift+E)";
    $("end-phase").textContent = `End the ${prompt.phase || ""} phase (Shift+E)`;
    $("play-why").textContent = [undoWhy && `Undo: ${undoWhy}.`, endWhy && `End phase: ${endWhy}.`].filter(Boolean).join(" ");
    const mail = $("by-mail");
    mail.closest("label").hidden = this.role !== p.side;
    mail.checked = !this.stepping;
    mail.disabled = p.begun !== false;
    mail.title = p.begun !== false ? "this player-turn is begun: it is played step by step to its end" : "";
    // The decision asked of this page, drawn again only when the question changes.
    const key = `${p.player_turn}|${p.steps}|${prompt.waiting}|${this.actor}`;
    if (this.decisionKey !== key) {
      this.decisionKey = key;
      const box = $("decision");
      if (this.actor && prompt.waiting === "begin") {
        box.replaceChildren(
          ui.para("Begin your player-turn to play it step by step: its weather is rolled (B2.1) and shown, and from then on it is played by steps. Or check \"send all orders at once\" and write them.", "hint"),
          ui.el("div", { class: "buttons" }, ui.el("button", { type: "button", class: "primary", id: "begin-turn",
            "aria-keyshortcuts": "B", disabled: !this.stepping, onclick: () => this.beginTurn() },
          "Begin the player-turn (B)")));
        box.querySelector("button")?.focus({ preventScroll: true });
      } else if (this.actor && prompt.waiting !== "order") {
        steps.decisionForm(box, prompt, (step) => this.takeStep(step, describe(step)));
        box.querySelector("button")?.focus({ preventScroll: true });
      } else if (this.actor) {
        const how = { movement: "Click a counter of yours, then a hex: the move is taken at once. Shift-click first for waypoints.",
          exploitation: "Click a motorized counter that did not attack, then a hex: the move is taken at once.",
          combat: "Click your attackers (Ctrl-click for other hexes), then the enemy hex, then Declare attack.",
          initial: "Initial orders (Suez, ice airfields) are under More orders; or end the phase." }[prompt.phase] || "";
        box.replaceChildren(ui.para(how, "hint"));
      } else {
        box.replaceChildren();
      }
    }
    if (!this.stepping) return;
    // The map: each move's trail, each attack's result, a retreat's hexes.
    const t = this.theater, ix = (n) => t.index.get(n);
    const sideOf = (id) => this.position?.units.find((u) => u.id === id)?.side || p.side;
    const trails = steps.trailsOf(p.events, sideOf).map((tr) => ({ side: tr.side, path: tr.path.map(ix).filter((i) => i !== undefined) }));
    const report = steps.combatReport(p.events, p.rolls, prompt);
    const tags = steps.resultTags(report).map((x) => ({ ...x, hex: ix(x.hex) })).filter((x) => x.hex !== undefined);
    let choices = null;
    if (prompt.waiting === "retreat") {
      choices = new Map();
      (prompt.retreat_to || []).forEach((h, i) => {
        if (ix(h) === undefined) return;
        choices.set(ix(h), i);
        tags.push({ hex: ix(h), kind: "choice", text: i === 0 ? "retreat here?\nrules' choice" : "retreat here?" });
      });
    }
    this.map.setOverlay({ trails, choices });
    const movedIds = new Set(steps.movedUnits(p.events));
    let changed = false;
    for (const u of this.position?.units || []) {
      if (!!u.moved !== movedIds.has(u.id)) changed = true;
      u.moved = movedIds.has(u.id);
    }
    if (changed) this.map.setPosition(this.position);
    this.map.setTags(tags);
    steps.combatTable($("combat-body"), report);
    const list = $("turn-events");
    const shown = list.children.length;
    list.replaceChildren(...(p.events || []).map((e, i) => ui.el("li", { "data-kind": e.kind, class: i >= shown && shown ? "new" : null },
      e.text, e.rule ? ui.el("span", { class: "rule" }, ` [${e.rule}]`) : null)));
    list.scrollTop = list.scrollHeight;
  }

  // The end of a player-turn played step by step: its moves, attacks and eliminations, from the
  // log, in a box over the map until closed.
  async showSummary(n) {
    if (!n || this.summarized.has(n)) return;
    this.summarized.add(n);
    const doc = await this.api.log(n);
    const turn = (doc.turns || []).find((x) => x.number === n) || (doc.turns || [])[0];
    if (!turn) return;
    const next = this.play ? steps.promptWords(this.play, this.role).headline : "";
    $("summary-title").textContent = `Player-turn ${n} is over: ${SIDE[turn.side] || turn.side}, ${turn.date}`;
    $("summary-body").replaceChildren(...steps.summaryBody(turn),
      ...(next ? [ui.para(`Next: player-turn ${this.play.player_turn}, ${next}.`, "next")] : []));
    const box = $("summary");
    box.hidden = false;
    document.body.dataset.summary = String(n);
    $("summary-close").focus({ preventScroll: true });
  }

  closeSummary() {
    $("summary").hidden = true;
    document.body.dataset.summary = "";
    $("map").focus({ preventScroll: true });
  }

  // ---- replay ---------------------------------------------------------------------------------

  // The replay steps through every phase: step 0 is the start, and step 4(n-1)+k+1 the position
  // after phase k of player-turn n (after its exploitation phase: after the player-turn). Within
  // logged player-turn n it also goes step by step (`stepAt`: the position after that many of its
  // steps); the phase slider then stands after the last phase ended.
  get step() {
    if (this.at === null) return this.latest * PHASES.length;
    if (this.at === 0) return 0;
    if (this.stepAt !== null) return (this.at - 1) * PHASES.length + this.phasesEnded(this.at, this.stepAt);
    return (this.at - 1) * PHASES.length + (this.phase ? PHASES.indexOf(this.phase) : PHASES.length - 1) + 1;
  }

  stepText(step) {
    if (step === 0) return "the start";
    const n = Math.ceil(step / PHASES.length);
    return `player-turn ${n}, after its ${PHASES[(step - 1) % PHASES.length]} phase`;
  }

  // The phases of logged player-turn n ended in its first k steps.
  phasesEnded(n, k) {
    const steps = this.stepLogs.get(n)?.steps || [];
    return steps.slice(0, k).filter((s) => s.step?.["end-phase"]).length;
  }

  // Where the replay stands, in words: "player-turn 1, after its movement phase", or by step
  // "player-turn 1, step 3 of 14, in its movement phase".
  replayText() {
    const turn = this.stepLogs.get(this.at);
    if (this.stepAt === null || !turn) return this.stepText(this.step);
    const of = (turn.steps || []).length, ended = this.phasesEnded(this.at, this.stepAt);
    const where = this.stepAt === 0 ? "begun" : this.stepAt === of ? "at its end" : `in its ${PHASES[ended]} phase`;
    return `player-turn ${this.at}, step ${this.stepAt} of ${of}, ${where}`;
  }

  // The step `k` of logged player-turn n in words (0: the player-turn begun).
  stepWordsAt(n, k) {
    const turn = this.stepLogs.get(n);
    if (!turn || k === null) return "";
    if (k === 0) return "the player-turn begun, its weather rolled";
    const entry = turn.steps[k - 1];
    return steps.stepWords(entry.step, entry.side, steps.stepPhases(turn.steps)[k - 1], describe);
  }

  // The logged player-turn n with its steps (GET /log?turn=N&steps=true), asked once.
  async stepLog(n) {
    if (!this.stepLogs.has(n)) {
      const doc = await this.api.log(n, false, true);
      const turn = (doc.turns || []).find((x) => x.number === n) || (doc.turns || [])[0];
      if (!turn) throw new Error(`the log has no player-turn ${n}`);
      turn.steps ||= [];
      this.stepLogs.set(n, turn);
    }
    return this.stepLogs.get(n);
  }

  // The phase replay: the position after a phase (the slider's step).
  goTo(step) {
    step = Math.max(0, Math.min(this.latest * PHASES.length, step));
    const n = Math.ceil(step / PHASES.length);
    const k = (step - 1) % PHASES.length;
    this.at = step === this.latest * PHASES.length ? null : n;
    // After the last phase the position is the one after the player-turn: no phase to ask for.
    this.phase = step > 0 && k < PHASES.length - 1 ? PHASES[k] : null;
    this.stepAt = null;
    return this.showReplay();
  }

  // The step replay: the position after `k` steps of logged player-turn n (k < 0: counted from
  // its end, -1 being the end).
  async goToStep(n, k) {
    try {
      const turn = await this.stepLog(n);
      const of = turn.steps.length;
      this.at = n;
      this.phase = null;
      this.stepAt = Math.max(0, Math.min(of, k < 0 ? of + 1 + k : k));
    } catch (e) {
      return this.fail(e, { what: `The steps of player-turn ${n}` });
    }
    return this.showReplay();
  }

  // One step on (d = 1) or back (-1) from where the replay stands, into the player-turn after
  // or before at its ends: from the game now, back to the latest logged player-turn's last step
  // but one; from the start, on to player-turn 1 begun.
  async replayStepBy(d) {
    if (!this.latest) return this.say("Replay: no player-turn is logged yet: nothing to step through");
    if (this.at === null) {
      if (d > 0) return this.say("Replay: this is the game now; press , (comma) to step back through the last player-turn");
      return this.goToStep(this.latest, -2);
    }
    if (this.at === 0) {
      if (d < 0) return this.say("Replay: the start, before the first player-turn");
      return this.goToStep(1, 0);
    }
    const n = this.at;
    let turn;
    try {
      turn = await this.stepLog(n);
    } catch (e) {
      return this.fail(e, { what: `The steps of player-turn ${n}` });
    }
    const k = this.stepAt ?? this.replayStepOf(n) ?? 0;
    const to = k + d;
    if (to < 0) return n > 1 ? this.goToStep(n - 1, -1) : this.goTo(0);
    if (to > turn.steps.length) return n < this.latest ? this.goToStep(n + 1, 0) : this.goTo(this.latest * PHASES.length);
    return this.goToStep(n, to);
  }

  // One phase on (d = 1) or back (-1). Between two phases' ends (by step), back is the end of the
  // phase before.
  replayPhaseBy(d) {
    const s = this.step;
    if (d < 0 && this.stepAt !== null && this.at > 0) {
      const ended = this.phasesEnded(this.at, this.stepAt);
      const ends = steps.phaseEnds(this.stepLogs.get(this.at)?.steps);
      if (!(ended > 0 && ends[ended - 1] === this.stepAt)) return this.goTo(s);
    }
    return this.goTo(s + d);
  }

  // The replay's place in player-turn n as a number of its steps: the step shown, or the step
  // the phase shown ended with; null when the replay is not in n.
  replayStepOf(n) {
    const turn = this.stepLogs.get(n);
    if (!turn || this.at !== n) return null;
    if (this.stepAt !== null) return this.stepAt;
    const ends = steps.phaseEnds(turn.steps);
    return ends[this.phase ? PHASES.indexOf(this.phase) : PHASES.length - 1];
  }

  // Shows the replay where it stands now (at, phase, stepAt): the position, then the words. A
  // place asked while one loads is shown after it, the last asked only: a key held down costs
  // one request at a time.
  showReplay() {
    if (!$("summary").hidden) this.closeSummary(); // it covers the map the replay shows
    this.replayDirty = true;
    if (this.replayLoading) return this.replayLoading;
    this.replayLoading = (async () => {
      try {
        while (this.replayDirty) {
          this.replayDirty = false;
          await this.showReplayOnce();
        }
      } finally {
        this.replayLoading = null;
      }
    })();
    return this.replayLoading;
  }

  async showReplayOnce() {
    const step = this.step, n = this.at, k = this.stepAt;
    const shown = step ? Math.ceil(step / PHASES.length) : 0; // the player-turn whose phase is shown
    this.clearSelection();
    try {
      const doc = await this.positionDoc();
      if (this.replayDirty) return; // a newer place is asked: this one is not shown
      this.replayThen = doc.step || null;
      // The player-turn's phases and steps, asked once each; the steps' failure leaves the phases.
      await Promise.all([
        k === null && shown && !this.logs.has(shown) ? this.api.log(shown, true).then((l) => this.logs.set(shown, l)) : null,
        n ? this.stepLog(n).catch((e) => { this.stepLogError = { n, e }; }) : null]);
      if (this.replayDirty) return;
      await this.loadPosition(Promise.resolve(doc));
      this.renderAll();
      const events = $("replay-events");
      events.hidden = k !== null;
      if (step === 0) {
        events.replaceChildren(ui.para("The position before the first player-turn."));
      } else if (k === null) {
        ui.replayEvents(events, this.logs.get(shown), shown, describe, this.phase || PHASES[PHASES.length - 1]);
      }
      if (this.stepLogError?.n === n) {
        const e = this.stepLogError.e;
        this.stepLogError = null;
        this.fail(e, { what: `The steps of player-turn ${n}` });
      }
      const words = k !== null ? `: ${this.stepWordsAt(n, k)}` : "";
      this.say(this.replaying ? `Replay: ${this.replayText()}${words}; the map shows the position ${k ? "after it" : "then"}.`
        : `Replay: ${step ? `${this.stepText(step)}: ` : ""}the game now; the map shows the position as it stands.`);
      if (k !== null) this.showReplayStepHex(n, k);
    } catch (e) {
      this.fail(e);
    }
  }

  // The step replay's map: the moves taken so far in the player-turn with their trails, each
  // attack's result over its hex, the units moved outlined, and the step's hex kept in view.
  renderReplayMarks() {
    const turn = this.at ? this.stepLogs.get(this.at) : null;
    if (!this.replaying || this.stepAt === null || !turn || !this.position) return;
    const k = this.stepAt, range = k ? turn.steps[k - 1] : turn.begun || {};
    if (!range.events) return; // a log of another rules version: its events are not told by step
    const events = (turn.events || []).slice(0, range.events[1]);
    const rolls = (turn.rolls || []).slice(0, range.rolls ? range.rolls[1] : 0);
    const t = this.theater, ix = (name) => t.index.get(name);
    const sideOf = (id) => this.position.units.find((u) => u.id === id)?.side || turn.side;
    const trails = steps.trailsOf(events, sideOf).map((tr) => ({ side: tr.side, path: tr.path.map(ix).filter((i) => i !== undefined) }));
    const report = steps.combatReport(events, rolls, this.replayThen?.prompt);
    const tags = steps.resultTags(report).map((x) => ({ ...x, hex: ix(x.hex) })).filter((x) => x.hex !== undefined);
    this.map.setOverlay({ trails });
    this.map.setTags(tags);
    const moved = new Set(steps.movedUnits(events));
    for (const u of this.position.units) u.moved = moved.has(u.id);
    this.map.setPosition(this.position);
  }

  // The hex of step k (where a move ended, the hex attacked, the stack retreating), kept in view.
  showReplayStepHex(n, k) {
    const s = k ? this.stepLogs.get(n)?.steps[k - 1]?.step : null;
    if (!s) return;
    const name = s.path ? s.path[s.path.length - 1] : s.attack || s.flood || s["massive-flood"] || s.hex
      || this.replayThen?.prompt?.hex;
    const hex = typeof name === "string" ? this.theater.index.get(name) : undefined;
    if (hex === undefined) return;
    if (!this.map.inView(hex, 40)) this.map.centerOn(hex);
  }

  // The replay's steps: the slider and list of the player-turn shown, and the step's words.
  renderReplaySteps() {
    const n = this.replaying && this.at > 0 ? this.at : 0;
    const turn = n ? this.stepLogs.get(n) : null;
    const slider = $("replay-step-slider");
    $("replay-step-label").hidden = !turn;
    $("replay-step-prev").disabled = !this.latest || this.at === 0;
    $("replay-step-next").disabled = !this.latest || !this.replaying;
    const box = $("replay-step"), list = $("replay-step-list");
    if (!turn) {
      $("replay-steps-h").textContent = "Step by step";
      box.replaceChildren(ui.para(this.latest
        ? "A logged player-turn, step by step: press , (comma) to step back from the game now, . (period) to step on from the start, or choose a phase above."
        : "No player-turn is logged yet.", "hint"));
      list.replaceChildren();
      return;
    }
    const of = turn.steps.length, k = this.replayStepOf(n);
    $("replay-steps-h").textContent = `Step by step: player-turn ${n}, ${turn.side === "axis" ? "Axis" : "Allied"}, ${of} steps`
      + (turn.played_by === "orders" ? " (played from orders: the steps are its orders, in order)" : "");
    slider.max = String(of);
    slider.value = String(k ?? 0);
    const words = k !== null ? `player-turn ${n}, step ${k} of ${of}: ${this.stepWordsAt(n, k)}` : `player-turn ${n}`;
    slider.setAttribute("aria-valuetext", words);
    $("replay-step-at").textContent = k !== null ? `${k} of ${of}` : "";
    const go = (i) => this.goToStep(n, i);
    steps.replayStepList(list, turn, k ?? -1, go, describe);
    if (this.stepAt !== null) {
      box.replaceChildren(...steps.replayStepBody(turn, this.stepAt, this.replayThen, describe));
    } else {
      box.replaceChildren(ui.para(k !== null
        ? `The ${this.phase || "exploitation"} phase ended with step ${k} of ${of}. Press . or , (or the buttons) to go on or back one step from there.`
        : "Press . or , (or the buttons) to go through the steps.", "hint"));
    }
  }

  // ---- live -----------------------------------------------------------------------------------

  listen() {
    const source = this.api.events();
    const changed = async (what, ev) => {
      let n = "";
      try { n = JSON.parse(ev.data).number; } catch { /* an event without data still refreshes */ }
      const byMail = what === "pending" || this.lastPending?.number === n;
      await this.refresh();
      if (what === "step") return; // the refresh says what the step did
      if (what === "turn" && !byMail) {
        this.say(`Player-turn ${n} is logged: its summary is shown over the map`);
        await this.showSummary(n);
        return;
      }
      this.say(this.liveNotice(what, n));
    };
    for (const what of ["pending", "step", "turn"]) {
      source.addEventListener(what, (ev) => changed(what, ev).catch((e) => this.fail(e)));
    }
    source.onopen = () => {
      // Back after a lost connection: what happened meanwhile was not pushed.
      if (document.body.dataset.live === "retrying") this.refresh().catch((e) => this.fail(e));
      document.body.dataset.live = "open";
    };
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
    const p = this.play && !this.pending ? this.play : null;
    const when = this.replaying ? `replaying: ${this.replayText()} (of ${this.latest} player-turns)`
      : p ? `${p.date}: player-turn ${p.player_turn}, ${p.side} phasing${p.steps ? `, ${p.steps} step${p.steps > 1 ? "s" : ""} taken` : ""}`
        : `${next.date}: ${next.phasing} to move`;
    $("game-info").textContent = `${this.status.scenario || ""} · ${when}${this.pending ? ` · ${this.pending.text}` : ""}`;
    $("role").textContent = { axis: "You play the Axis", allied: "You play the Allies", spectator: "Spectator", public: "Reading (no token)" }[this.role] || "";
    document.body.dataset.role = this.role;
    document.body.dataset.turns = String(this.latest);
    document.body.dataset.pending = this.pending ? this.pending.stage : "";
    if (this.pending) this.lastPending = this.pending; // who moved, for the notice when played
    const slider = $("replay-slider");
    slider.max = String(this.latest * PHASES.length);
    slider.value = String(this.step);
    slider.setAttribute("aria-valuetext", this.replayText());
    $("replay-at").textContent = this.stepAt !== null ? this.replayText()
      : `${this.replayText()} (${this.step} of ${this.latest * PHASES.length})`;
    $("map-state").textContent = ui.mapStateText(this.position, this.theater);
    this.renderVictory();
    this.renderOrders();
    this.renderReply();
    this.renderPlay();
    this.renderReplaySteps();
    this.renderReplayMarks();
    this.updateSelection();
  }

  // The victory standing (B15.1) of a scenario that has one: the panel, and the objectives'
  // stars on the map. It is the status's, the game as logged.
  renderVictory() {
    const v = this.status.victory;
    const key = v ? `${this.latest} ${JSON.stringify(v)}` : "";
    if (key === this.victoryShown) return; // unchanged: the list keeps its focus and state
    this.victoryShown = key;
    $("victory-panel").hidden = !v;
    document.body.dataset.victory = v ? `${v.points.axis}-${v.points.allied}` : "";
    const ix = (name) => this.theater.index.get(name);
    this.map.setObjectives(v ? v.objectives.filter((o) => ix(o.hex) !== undefined)
      .map((o) => ({ hex: ix(o.hex), owner: o.owner || "", points: o.points })) : []);
    if (!v) return;
    ui.victoryPanel($("victory-panel").querySelector(".body"), v, this.latest, (name) => {
      this.map.showReadable(ix(name));
      this.showHex(ix(name));
    });
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
    $("undo").addEventListener("click", () => this.undo());
    $("end-phase").addEventListener("click", () => this.endPhase());
    $("summary-close").addEventListener("click", () => this.closeSummary());
    $("by-mail").addEventListener("change", (ev) => {
      this.byMail = ev.target.checked;
      this.clearSelection();
      this.renderAll();
      this.say(this.byMail ? "Orders are written for the whole player-turn and sent at once; the other side replies"
        : "Step play: each move is taken at once");
    });
    $("replay-first").addEventListener("click", () => this.goTo(0));
    $("replay-prev").addEventListener("click", () => this.replayPhaseBy(-1));
    $("replay-next").addEventListener("click", () => this.replayPhaseBy(1));
    $("replay-live").addEventListener("click", () => this.goTo(this.latest * PHASES.length));
    $("replay-slider").addEventListener("change", (ev) => this.goTo(Number(ev.target.value)));
    $("replay-step-prev").addEventListener("click", () => this.replayStepBy(-1));
    $("replay-step-next").addEventListener("click", () => this.replayStepBy(1));
    $("replay-step-slider").addEventListener("change", (ev) => {
      if (this.replaying && this.at > 0) this.goToStep(this.at, Number(ev.target.value));
    });
    for (const box of document.querySelectorAll("[data-overlay]")) {
      box.addEventListener("change", async () => {
        const set = this.show[box.dataset.overlay];
        if (box.checked) set.add(box.value); else set.delete(box.value);
        try { await this.loadPosition(); } catch (e) { this.fail(e); }
      });
    }
    document.addEventListener("keydown", (ev) => {
      if (!this.theater) return;
      // Step play's keys, but not while typing in a field.
      const typing = ev.target.closest?.("input:not([type=checkbox]):not([type=range]), select, textarea");
      if (!typing && !ev.altKey && !ev.metaKey) {
        const undo = (ev.key === "u" && !ev.ctrlKey) || (ev.key === "z" && ev.ctrlKey);
        if (ev.key === "b" && !ev.ctrlKey && this.actor && this.stepping && this.play?.prompt?.waiting === "begin") {
          ev.preventDefault();
          this.beginTurn();
          return;
        }
        if (undo || (ev.key === "E" && !ev.ctrlKey)) {
          ev.preventDefault();
          if (undo) this.undo(); else this.endPhase();
          return;
        }
        // The replay: . and , one step on and back, > and < one phase.
        const by = { ".": [1, "step"], ",": [-1, "step"], ">": [1, "phase"], "<": [-1, "phase"] }[ev.key];
        if (by && !ev.ctrlKey) {
          ev.preventDefault();
          if (by[1] === "step") this.replayStepBy(by[0]); else this.replayPhaseBy(by[0]);
          return;
        }
      }
      if (ev.key !== "Escape") return;
      if (!$("summary").hidden) return this.closeSummary();
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
