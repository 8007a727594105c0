// The game API (docs/api.md) as the page uses it: one token, JSON in and out, and every
// error answer turned into an ApiError carrying the server's message, where and rule. The
// tactical endpoints (no game, no token) are TacticalApi's.

export class ApiError extends Error {
  // The message is the server's words with the rule; `where` (docs/api.md: "request body:51:
  // /retreats/0/prefer/1", "?phase") is kept apart, for the page to point at its own field
  // (`pointer`: the JSON path in the body sent, or "").
  constructor(status, error) {
    const rule = error.rule ? ` [${error.rule}]` : "";
    super(`${error.message}${rule}`);
    this.status = status;
    this.code = error.code || "error";
    this.rule = error.rule || "";
    this.where = error.where || "";
    this.pointer = /^request body:\d+: (\/.*)$/.exec(this.where)?.[1] || "";
  }
}

// JSON over HTTP under one base path, with an optional bearer token.
class JsonApi {
  constructor(base, token = "") {
    this.base = base;
    this.token = token;
  }

  // `body`: an object sent as JSON, or with `raw` a text sent as it is (a scenario file's).
  async request(method, path, body, raw = false) {
    const headers = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(this.base + path, {
        method,
        headers,
        body: body === undefined || raw ? body : JSON.stringify(body),
      });
    } catch (e) {
      throw new ApiError(0, { code: "io-error", message: `the server did not answer (${e.message})` });
    }
    const text = await response.text();
    let doc = null;
    try {
      doc = text ? JSON.parse(text) : {};
    } catch {
      throw new ApiError(response.status, {
        code: "internal",
        message: `${method} ${path}: the server's answer is not JSON (HTTP ${response.status})`,
      });
    }
    if (!response.ok) {
      throw new ApiError(response.status, doc.error || { message: `HTTP ${response.status}` });
    }
    return doc;
  }

  get(path, params = {}) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      for (const item of Array.isArray(v) ? v : [v]) {
        if (item !== undefined && item !== null) q.append(k, item);
      }
    }
    const s = q.toString();
    return this.request("GET", s ? `${path}?${s}` : path);
  }

  post(path, body, raw = false) {
    return this.request("POST", path, body, raw);
  }
}

export class Api extends JsonApi {
  constructor(game, token) {
    super(`/api/games/${encodeURIComponent(game)}`, token);
    this.game = game;
  }

  status(at) { return this.get("", { at }); }
  // The compact form (docs/views.md): columns, not an object per hex; model.js reads either.
  theater() { return this.get("/theater", { form: "compact" }); }
  // `phase`, with `at`: the position after that phase of logged player-turn `at`; `step`, with
  // `at` (not with `phase`): the position after that many of its steps.
  // The compact form (docs/views.md): hexes as indices, the owners one character a hex.
  state(at, supply = [], zoc = [], phase = undefined, step = undefined) {
    return this.get("/state", { at, supply, zoc, phase, step, form: "compact" });
  }
  hex(hex, at) { return this.get(`/hex/${encodeURIComponent(hex)}`, { at }); }
  reach(body) { return this.post("/reach", body); }
  check(body) { return this.post("/check", body); }
  // `phases`: also each phase's events and rolls, as [from, to) ranges (the server replays the
  // turn); `steps` (with `turn`): also its steps, each with its ranges (taken again step by step).
  log(turn, phases = false, steps = false) {
    return this.get("/log", { turn, phases: phases ? "true" : undefined, steps: steps ? "true" : undefined });
  }
  orders(file) { return this.post("/orders", file); }
  reply(body) { return this.post("/reply", body); }
  // Step play (docs/api.md, "Steps"): the player-turn in play, one step, the last step back.
  play(supply = [], zoc = []) { return this.get("/play", { supply, zoc }); }
  step(step) { return this.post("/step", { step }); }
  undo() { return this.request("POST", "/undo"); }
  // The mover begins his player-turn by steps (its weather is rolled); no orders after that.
  begin() { return this.request("POST", "/begin"); }
  // The odds an attack would be fought at if declared now (B7.2); nothing is taken or drawn.
  preview(attack) { return this.post("/preview", { step: attack }); }

  // The game's live changes (Server-Sent Events); EventSource cannot send headers, so the
  // token goes in the query.
  events() {
    const q = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return new EventSource(`${this.base}/events${q}`);
  }
}

// The tactical boards' questions (docs/api.md, "The tactical module"): each one flat JSON object,
// the CLI's options with `-` written `_` (docs/tactical.md); no game and no token.
export class TacticalApi extends JsonApi {
  constructor() {
    super("/api/tactical");
  }

  boards() { return this.get("/boards"); }
  los(question) { return this.post("/los", question); }
  move(question) { return this.post("/move", question); }
  // {svg, board, los?, move?}: the board drawn as `opsim tactical render` draws it.
  render(question) { return this.post("/render", question); }
}

// The workshop's questions (docs/api.md, "Scenarios (the workshop)"): no game and no token. A
// scenario goes to check and format as its file's text, as it would be on disk; its sheets go to
// panels as the theater lists them.
export class ScenarioApi extends JsonApi {
  constructor() {
    super("/api");
  }

  scenarios() { return this.get("/scenarios"); }
  // A bundled scenario's file (its JSON).
  scenario(name) { return this.get(`/scenarios/${encodeURIComponent(name)}`); }
  // {ok: true, stats} or {ok: false, error: {code, message, where, rule, line, path, hex, hexside}}.
  check(text) { return this.post("/scenario/check", text, true); }
  // {text}: the file as `opsim scenario format` lays it out.
  format(text) { return this.post("/scenario/format", text, true); }
  // The panel each sheet is drawn in, in the order of `sheets` ([{name, origin, first, last}]).
  async panels(sheets) { return (await this.post("/scenario/panels", { sheets })).panels; }
  // A hosted game of the scenario: {game, links, ...} (docs/api.md, POST /api/games).
  play(doc) { return this.post("/games", { scenario_json: doc }); }
}
