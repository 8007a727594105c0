// The page without ?game=: the games on this server, a new game of a bundled scenario with its
// side links (the tokens are shown once: the server keeps only their hashes), the tactical page
// (tactical.html) and the workshop (edit.html).

import { el, para } from "./panels.js";

async function json(method, url, body) {
  const r = await fetch(url, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const doc = await r.json();
  if (!r.ok) throw new Error(doc.error ? `${doc.error.where ? `${doc.error.where}: ` : ""}${doc.error.message}` : `HTTP ${r.status}`);
  return doc;
}

export async function showLobby(main) {
  const error = document.getElementById("error");
  const fail = (e) => {
    document.getElementById("error-text").textContent = e.message;
    error.hidden = false;
  };
  document.getElementById("game-info").textContent = "Games on this server";
  const games = el("ul", { id: "games" });
  const scenario = el("select", { id: "new-scenario" });
  const created = el("div", { id: "created", "aria-live": "polite" });
  const form = el("form", { id: "new-game" }, el("label", {}, "Scenario ", scenario), el("button", { type: "submit" }, "New game"));
  main.replaceChildren(el("section", { class: "lobby" },
    el("h2", {}, "New game"), form, created,
    el("h2", {}, "Games"), games,
    para("A game made by the server opens from its side links; a log put in the games folder by hand is listed here and can be read by anyone.", "hint"),
    el("h2", {}, "Tactical boards"),
    el("p", {}, el("a", { href: "/tactical.html", id: "tactical-link" }, "Trace a line of sight or cost a path"),
      " on ASL's rice paddies (G8), panjis (G9) and beaches (G13), or a samurai-era field: the bundled boards, or a board file of yours."),
    el("h2", {}, "The workshop"),
    el("p", {}, el("a", { href: "/edit", id: "workshop-link" }, "Draw a theater, its order of battle and its campaign"),
      ": a bundled scenario, a file of yours or a blank theater, painted over your own map's scan, checked by the server as you go, saved and played.")));
  const list = async () => {
    const g = await json("GET", "/api/games");
    games.replaceChildren(...g.games.map((x) => el("li", {},
      x.error ? `${x.id}: cannot be read: ${x.error.message}` : x.hosted ? `${x.id} (${x.scenario}, ${x.turns_logged} player-turns; open it from a side link)`
        : el("a", { href: `/?game=${encodeURIComponent(x.id)}` }, `${x.id} (${x.scenario}, ${x.turns_logged} player-turns)`))));
    if (!g.games.length) games.replaceChildren(el("li", { class: "hint" }, "none yet"));
  };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const g = await json("POST", "/api/games", { scenario: scenario.value });
      created.replaceChildren(para(`Game ${g.game}: each side's link is its secret; the spectator's may be shared.`),
        el("ul", {}, Object.entries(g.links).map(([who, link]) => el("li", {}, el("a", { href: link }, who)))));
      await list();
    } catch (e) {
      fail(e);
    }
  });
  try {
    const s = await json("GET", "/api/scenarios");
    scenario.replaceChildren(...s.scenarios.map((x) => el("option", { value: x.name }, `${x.name}: ${x.title}`)));
    await list();
  } catch (e) {
    fail(e);
  }
}
