#!/usr/bin/python3
"""The browser client (web/) in real headless Chromium against a real `opsim serve`.

usage: browser_test.py play|perf|steps|tactical|campaign --opsim BIN --out DIR

play: a hosted game of the bundled scenario, one browser per side. The Axis sees the map and
a unit, selects it and sees its reach, writes a move, a second move and an attack (with odds)
by clicking, dry-runs and submits; the orders arrive in the Allied browser without a reload;
the Allies reply with a flood; the played turn arrives in the Axis browser; the Axis steps the
replay. A screenshot after each step goes to DIR. Any SEVERE entry in either browser's console
(a JavaScript error, an uncaught exception or rejection, a failed request) fails the test.

steps: the same first player-turn played step by step (docs/api.md, "Steps"), one browser per
side: each move drawn at once in both windows with its trail, an undo, a refused step with its
rule, the phases ended by key and by button, an attack declared and its result in the combat
report and on the map, the Allies asked whether to flood, retreats and advances answered as the
game asks them (the dice are the server's), the turn logged and its summary shown in both. Before
the attack is declared its odds are previewed (and a refused attack's rule said); they are the
odds it is fought at. Then the replay takes player-turn 1 again step by step: the map at the move's
step and the step before it, each step in words, the attack's dice at its step.

tactical: the tactical page (web/tactical.html), reached from the lobby: the bundled boards listed;
on g8_2108 (paddies in season) a LOS traced by clicking two hexes, its verdict, Hindrances and TEM
with their rules and the thread drawn equal to `opsim tactical los --json`'s (and `render --los`'s);
EC mud and drained paddies change the answer, again as the CLI says; squads A and D clicked, A and C
typed, a hex off the overlay refused with the CLI's words (the last drawing dimmed), a seed of -1
refused (400) naming its field; on g9_3 (PTO, Double Time) a path clicked, a step
refused (G9.6), Backspace, the rest typed, each step's cost and rules as `opsim tactical move
--json`'s; a board file opened from the disk drawn and asked; a broken one's error named by its
file and line. No JavaScript error in the console.

campaign: the bundled campaign, low-countries-1940, one browser per side: the map names its cities;
the victory standing (B15.1) shown in both, the Allies holding all 19 objectives; the Axis's first
player-turn played step by step by clicking: the 7th Flieger's air drop on Utrecht and
Sturmabteilung Koch's behind
Eben-Emael from the order menu, the XVI Panzer Corps into Maastricht and the 1st Panzer through
Luxembourg by clicks, the attack on Eben-Emael with its odds previewed (6:1) and fought at them,
every decision answered as the game asks it, the player-turn logged in both windows, and the
standing then: Utrecht the Axis's (its star and its row), 3 points to 68; its row reached by the
keyboard shows its hex. No JavaScript error in either console.

perf: a generated 100,000-hex, 2,000-unit game, opened twice; prints the time until its first
view (about 10,000 hexes) is painted, and its stages, from the browser's performance API (the
page's own marks), and one redraw. It asserts no time (ctest runs it: speed is measured and
recorded, docs/performance.md, not tested). By hand, `--budget-ms 1000` opens it five times more
and checks the budget against the median of those later loads, from navigation to the painted
view, only if the figure is stable (the slowest of them within 1.25 times the fastest); if it is
not, it says so and exits 77 (not judged).

Exit 77 (ctest: skipped) when Chromium, its driver or Selenium is missing, unless
OPSIM_REQUIRE_BROWSER is set (scripts/test.sh sets it, having installed them): then exit 1.
"""
import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("browser_test.py: python3-selenium is not installed")
    sys.exit(1 if os.environ.get("OPSIM_REQUIRE_BROWSER") else 77)

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WAIT = 30  # seconds, for any one thing the page should do


class Failure(Exception):
    pass


class Server:
    """`opsim serve` on 127.0.0.1, any free port, over a fresh games folder."""

    def __init__(self, opsim, games, url=None):
        self.proc = None
        if url:  # one already running (--server), for working on the client
            self.url = url.rstrip("/")
            return
        self.proc = subprocess.Popen(
            [opsim, "serve", "--games", games, "--port", "0", "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise Failure("opsim serve did not start: " + self.proc.stderr.read())
        self.url = json.loads(line)["url"].rstrip("/")

    def api(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            return json.loads(r.read())

    def stop(self):
        if not self.proc:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class Browser:
    """One headless Chromium, its console checked after every step."""

    def __init__(self, name, out, size=(1400, 900)):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--hide-scrollbars", f"--window-size={size[0]},{size[1]}"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.d = webdriver.Chrome(service=Service(DRIVER), options=options)
        self.d.set_script_timeout(WAIT)
        self.name, self.out, self.shots = name, out, 0

    def open(self, url):
        self.d.get(url)
        self.wait_for("#map[data-drawn]")

    def wait(self, what, predicate, timeout=WAIT):
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.1).until(lambda d: predicate())
        except TimeoutException:
            self.shot("timeout")
            error = self.d.find_element(By.ID, "error-text").text
            raise Failure(f"{self.name}: waited {timeout} s for {what}"
                          + (f"; the page's error area says: {error}" if error else ""))

    def wait_for(self, css, timeout=WAIT):
        return self.wait(css, lambda: self.d.find_elements(By.CSS_SELECTOR, css), timeout)[0]

    def wait_text(self, css, text):
        return self.wait(f"'{text}' in {css}", lambda: any(
            text in e.text for e in self.d.find_elements(By.CSS_SELECTOR, css)))

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def console(self, allow=None):
        """Fails on any SEVERE console entry since the last call (but those `allow` accepts)."""
        severe = [e for e in self.d.get_log("browser") if e["level"] == "SEVERE"
                  and not (allow and allow(e))]
        if severe:
            raise Failure(f"{self.name}: console errors: " + "; ".join(e["message"] for e in severe))

    def shot(self, step):
        self.shots += 1
        path = os.path.join(self.out, f"{self.name}-{self.shots:02d}-{step}.png")
        self.d.save_screenshot(path)
        print(f"  screenshot {path}")

    def step(self, name):
        self.shot(name)
        self.console()

    def click_hex(self, hex_name, shift=False):
        """Clicks the hex on the canvas (centred in view first), below any counter on it."""
        xy = self.js("""const c = window.opsim, i = c.theater.index.get(arguments[0]);
            if (i === undefined) return null;
            c.map.centerOn(i); c.map.draw();
            const [x, y] = c.map.toScreen(c.theater.hexes[i].x, c.theater.hexes[i].y);
            const r = c.map.canvas.getBoundingClientRect();
            // Below the centre, clear of a counter standing there.
            return [x - r.width / 2, y + 0.72 * c.map.scale - r.height / 2];""", hex_name)
        if xy is None:
            raise Failure(f"{self.name}: no hex {hex_name} on the page's theater")
        canvas = self.d.find_element(By.CSS_SELECTOR, "#map canvas")
        chain = ActionChains(self.d)
        if shift:
            chain.key_down(Keys.SHIFT)
        chain.move_to_element_with_offset(canvas, int(xy[0]), int(xy[1])).click()
        if shift:
            chain.key_up(Keys.SHIFT)
        chain.perform()

    def text(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css).text

    def click_at(self, element):
        """Clicks at an element's centre as a mouse would: on whatever is on top there."""
        ActionChains(self.d).move_to_element(element).click().perform()

    def canvas_words(self):
        """The words the map's next frame writes on the canvas."""
        return self.js("""const m = window.opsim.map, g = m.g, f = g.fillText, seen = [];
            g.fillText = function (t, ...a) { seen.push(t); return f.call(this, t, ...a); };
            try { m.draw(); } finally { g.fillText = f; }
            return seen;""")

    def click_unit(self, unit, ctrl=False):
        """Clicks a unit's counter, expanding its stack first when it is not on top."""
        self.js("const c = window.opsim, u = c.position.units.find(x => x.id === arguments[0]);"
                "c.map.centerOn(u.hex, 150); c.map.draw();", unit)
        css = f'.counter[data-unit="{unit}"]'
        counter = self.wait_for(css)
        if counter.get_attribute("data-count"):  # a stack: open it, then pick the unit
            counter.click()
            counter = self.wait_for(f'.stack.expanded {css}')
        if ctrl:
            ActionChains(self.d).key_down(Keys.CONTROL).click(counter).key_up(Keys.CONTROL).perform()
        else:
            counter.click()

    def quit(self):
        self.d.quit()


def counters_look(b):
    """Counters carry their type's symbol and their nationality's colour."""
    print("counters: a symbol for the unit type, a colour for the nationality")
    looks = b.js("""const look = (id) => { const c = document.querySelector(`.counter[data-unit="${id}"]`);
        return c && [getComputedStyle(c).backgroundColor, c.querySelectorAll('svg.symbol path').length]; };
        return [look('de-18a'), look('de-9pz'), look('nl-1')];""")
    (de_inf, de_arm, nl_inf) = looks
    if None in looks or min(x[1] for x in looks) < 2:
        raise Failure(f"axis: counters without a symbol: {looks}")
    if de_inf[0] != de_arm[0] or de_inf[0] == nl_inf[0]:
        raise Failure(f"axis: counters are not coloured by nationality: {looks}")
    paths = b.js("""const d = (id) => [...document.querySelectorAll(`.counter[data-unit="${id}"] svg.symbol path`)]
        .map((p) => p.getAttribute('d')).join(' ');
        return [d('de-18a'), d('de-9pz')];""")
    if paths[0] == paths[1]:
        raise Failure("axis: infantry and armour have the same symbol")


def legend_looks(b):
    """Each legend entry has its own look; red means a problem only."""
    print("the legend: each overlay its own look, red one meaning only")
    entries = b.js("return [...document.querySelectorAll('#legend li')].map((li) => [li.dataset.look, li.textContent])")
    looks = [e[0] for e in entries]
    if None in looks or len(set(looks)) != len(looks):
        raise Failure(f"axis: legend entries share a look: {entries}")
    color = lambda words: next(e[0].split(":")[1] for e in entries if words in e[1])
    if color("zone of control") == color("rail ferry"):
        raise Failure("axis: zones of control and rail ferries have one colour")
    alert = b.js("return import('/js/style.js').then((m) => m.STYLE.alert)")
    red = [e[1] for e in entries if alert in e[0]]
    if not red or any("red" not in words for words in red):
        raise Failure(f"axis: the alert red means something that is not a problem: {red}")


def readable_at_every_zoom(b):
    """At every zoom the map allows, counters' text is 7 px or more, or they are marks."""
    print("counters read at every zoom, or are marks")
    for scale in (8, 16, 20, 22, 26, 30, 34, 60, 120):
        state = b.js("""const m = window.opsim.map, u = window.opsim.position.units.find((x) => x.id === 'de-18a');
            m.scale = arguments[0]; m.centerOn(u.hex); m.draw();
            const texts = [...document.querySelectorAll('.counters .counter span')];
            return [m.host.dataset.counters, Math.min(...texts.map((t) => t.getBoundingClientRect().height))];""", scale)
        if state[0] != "marks" and state[1] < 7:
            raise Failure(f"axis: at {scale} px a hex, counter text is {state[1]:.1f} px tall")


def sheet_names_and_go(b):
    """Sheet names at the sheets' edges; Go zooms in to a readable scale."""
    print("sheet names where sheets join; Go zooms to read")
    # Sheets 1A and 2A join: the view on their join names both.
    b.js("""const m = window.opsim.map, t = window.opsim.theater;
        const [a, c] = ['1A', '2A'].map((n) => t.sheets.find((x) => x.name === n));
        m.scale = 10;
        m.cx = (Math.max(a.x0, c.x0) + Math.min(a.x1, c.x1)) / 2;
        m.cy = (Math.max(a.y0, c.y0) + Math.min(a.y1, c.y1)) / 2;""")
    words = b.canvas_words()
    if "sheet 1A" not in words or "sheet 2A" not in words:
        raise Failure(f"axis: the join of sheets 1A and 2A does not name both: {sorted(set(words))[:30]}")
    box = b.d.find_element(By.ID, "goto-hex")
    box.clear()
    box.send_keys("16A:1322", Keys.ENTER)
    b.wait("Go to zoom in", lambda: b.js("return window.opsim.map.scale") >= 34)
    b.wait_for('.counter[data-unit="de-18a"]')
    b.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)


def overview(b):
    """The overview shows the view, moves it by a click or the arrow keys."""
    print("the overview: click it, or its arrow keys, to move the view")
    mini = b.wait_for("#minimap[data-ready]")
    b.wait_text("#minimap-where", "view centred on")
    before = b.js("return [window.opsim.map.cx, window.opsim.map.cy]")
    ActionChains(b.d).move_to_element_with_offset(mini, -60, -30).click().perform()
    b.wait("a click on the overview to move the view", lambda: b.js("return window.opsim.map.cx") < before[0] - 5)
    after = b.js("return window.opsim.map.cx")
    mini.send_keys(Keys.ARROW_RIGHT)
    b.wait("the overview's arrow key to move the view", lambda: b.js("return window.opsim.map.cx") > after)
    b.step("overview")
    b.js("const c = window.opsim, u = c.position.units.find((x) => x.id === 'de-18a'); c.map.centerOn(u.hex, 150);")


def reply_retreats(b):
    """Retreat preferences by clicking a counter and hexes; a hex not next to it is refused in words;
    an error the server finds is said in the player's words, at its entry."""
    print("the reply: retreat preferences, a counter's click as its hex's, a far hex refused")
    b.d.find_element(By.XPATH, "//section[@id='reply-panel']//button[text()='Retreat preferences']").click()
    b.click_unit("nl-1")
    b.wait_text("#reply-list", "retreat from 16A:1122")
    b.click_hex("16A:1023")
    b.wait_text("#reply-error", "16A:1023 is not next to 16A:1122")
    b.click_hex("16A:1022")
    b.wait_text("#reply-list", "retreat from 16A:1122: prefer 16A:1022")
    b.step("reply-retreat")
    print("an error in a reply: the player's words, not the request's JSON path")
    b.js("const c = window.opsim; c.sendReply({reactions: [], retreats: [{hex: '16A:1122', prefer: ['16A:1022', '16A:1023']}]}, c.replyForm);")
    b.wait_text("#error-text", "is not next to")
    text = b.text("#error-text")
    if "request body" in text or "/retreats/" in text or "retreat from 16A:1122, preferred hex 2 (16A:1023)" not in text:
        raise Failure(f"allied: the error is not in the player's words: {text}")
    b.wait_for("#reply-list li[aria-invalid=true]")
    b.d.find_element(By.ID, "error-close").click()
    # The refused request is the browser's network log; any script error fails.
    b.console(allow=lambda e: e.get("source") == "network" and " 400 " in e["message"])


def hex_panel_words(b):
    """The hex panel says water areas and floods in words."""
    print("the hex panel: water areas and a flood in words")
    b.d.find_element(By.XPATH, "//section[@id='reply-panel']//button[text()='Stop marking']").click()
    box = b.d.find_element(By.ID, "goto-hex")
    box.clear()
    box.send_keys("16A:0827", Keys.ENTER)
    b.wait_text("#hex-panel", "water area")
    words = b.js("""return (async () => { const ui = await import('/js/panels.js');
        const doc = await window.opsim.api.hex('16A:0827');
        doc.flood = {kind: 'massive', from: '1940 May I', until: '1940 Jun I', counts_as: 'swamp', rule: '41.A.4.b',
                     why: '16A:0827 is flooded'};
        const box = document.createElement('div'); ui.hexPanel(box, doc, '');
        return box.textContent; })();""")
    if "massive flood" not in words or "counts as swamp" not in words:
        raise Failure(f"allied: the flood is not said in words: {words}")
    for bad in ("undefined", "{", "[object"):
        if bad in words or bad in b.text("#hex-panel"):
            raise Failure(f"allied: the hex panel shows '{bad}': {words}")


def play(opsim, out, url):
    games = tempfile.mkdtemp(prefix="opsim-browser-")
    server = Server(opsim, games, url)
    browsers = []
    try:
        game = server.api("POST", "/api/games", {"scenario": "special-terrain"})
        axis, allied = Browser("axis", out), Browser("allied", out)
        browsers += [axis, allied]

        print("the page without a game lists the games and makes a new one")
        axis.d.get(server.url + "/")
        axis.wait_text("#games", game["game"])
        axis.wait_for("#new-game button").click()
        axis.wait_for("#created a[href*='token=']")
        axis.step("lobby")

        print("a wrong token, or no such game: a page that says the link is not valid")
        for link in (f"/?game={game['game']}&token=0123", "/?game=nosuchgame&token=0123"):
            allied.d.get(server.url + link)
            allied.wait_for("#invalid-link")
            words = allied.text("#invalid-link").lower()
            if "this link is not valid for this game" not in words:
                raise Failure(f"allied: the invalid link's page says: {words}")
            enabled = allied.js("return [...document.querySelectorAll('button, input, select, textarea')]"
                                ".filter((e) => !e.disabled && e.offsetParent !== null).map((e) => e.outerHTML)")
            if enabled:
                raise Failure(f"allied: an invalid link leaves controls enabled: {enabled}")
            allied.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
            # The refused requests are the browser's network log; any script error fails.
            allied.console(allow=lambda e: e.get("source") == "network"
                           and (" 401 " in e["message"] or " 404 " in e["message"]))
        allied.shot("wrong-token")

        print("open the game as each side; see the map and a unit")
        axis.open(server.url + game["links"]["axis"])
        allied.open(server.url + game["links"]["allied"])
        axis.wait_for('.counter[data-unit="de-18a"]')
        allied.wait_for('.counter[data-unit="nl-1"]')
        axis.wait_text("#legend", "causeway")
        axis.step("map")
        allied.step("map")
        counters_look(axis)
        legend_looks(axis)
        readable_at_every_zoom(axis)
        sheet_names_and_go(axis)
        overview(axis)

        print("supply and zones of control on demand")
        allied.d.find_element(By.CSS_SELECTOR, "[data-overlay=supply][value=allied]").click()
        allied.d.find_element(By.CSS_SELECTOR, "[data-overlay=zoc][value=axis]").click()
        allied.wait("supply rings and zones of control", lambda: allied.js(
            "const p = window.opsim.position;"
            "return p.supply.allied && p.supply.allied.size > 0 && p.zoc.axis && p.zoc.axis.size > 0"))
        allied.step("supply-zoc")

        print("the Axis writes the whole player-turn's orders and sends them at once (by mail)")
        axis.wait_for("#play-bar:not([hidden]) #by-mail:enabled").click()
        axis.wait_for('body[data-mode="mail"]')

        print("select de-18a: its reach")
        axis.click_unit("de-18a")
        axis.wait("the reach overlay", lambda: axis.js(
            "return window.opsim.reach && window.opsim.reach.size") or 0)
        axis.wait_text("#selection-panel", "in reach")
        axis.step("reach")

        print("a move by clicking a destination, checked, added")
        axis.click_hex("16A:1222")
        axis.wait_text("#draft-verdict", "legal")
        axis.wait_for("#add-draft:enabled").click()
        axis.wait_text("#orders-list", "move de-18a 16A:1322-16A:1222")

        print("the planned move is drawn where it goes; a click there is on that hex's own units")
        ghost = axis.wait_for('.ghost[data-unit="de-18a"][data-hex="16A:1222"]')
        axis.click_at(ghost)
        axis.wait_text("#hex-panel", "16A:1222")
        if axis.js("return window.opsim.selection.length"):
            raise Failure("axis: a click on a planned move's picture selected " + str(axis.js("return window.opsim.selection")))
        axis.step("planned-move")

        print("a second move with a waypoint (shift-click), checked as it grows")
        axis.click_unit("de-9pz")
        axis.click_hex("16A:1322")
        axis.click_hex("16A:1221", shift=True)
        axis.wait_text("#draft-verdict", "legal")
        axis.wait_for("#add-draft:enabled").click()
        axis.wait_text("#orders-list", "move de-9pz 16A:1323-16A:1322-16A:1221")

        print("a refused path says its rule; Escape cancels it")
        axis.click_unit("de-18a")
        axis.click_hex("16A:1222")
        axis.click_hex("16A:1121", shift=True)
        axis.wait_text("#draft-verdict", "refused")
        axis.wait_text("#draft-verdict", "[B")
        axis.step("refused")
        axis.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        axis.wait("Escape to cancel the draft", lambda: axis.js("return window.opsim.draft === null"))

        print("an attack: attackers, target, odds")
        axis.click_unit("de-18a")
        axis.click_unit("de-9pz", ctrl=True)
        axis.click_hex("16A:1122")
        axis.wait_text("#selection-panel", "combat at 16A:1122")
        axis.wait_text("#draft-verdict", "legal")
        axis.step("attack-odds")
        axis.wait_for("#add-draft:enabled").click()
        axis.wait_text("#orders-list", "attack 16A:1122 with de-18a, de-9pz")

        print("an order from the menu, after the attack: an air drop, its hex clicked on the map;"
              " listed in play order, before the attack")
        axis.d.find_element(By.CSS_SELECTOR, "#order-menu summary").click()
        axis.d.find_element(By.CSS_SELECTOR, "#menu-kind option[value='air-drop']").click()
        axis.d.find_element(By.ID, "menu-units").send_keys("de-22la")
        axis.click_hex("16A:0723")
        axis.wait("the menu's Where filled from the map", lambda: axis.d.find_element(
            By.ID, "menu-where").get_attribute("value") == "16A:0723")
        axis.d.find_element(By.CSS_SELECTOR, "#menu-form button[type=submit]").click()
        axis.wait_text("#orders-list", "air drop de-22la on 16A:0723")
        axis.d.find_element(By.CSS_SELECTOR, "#order-menu summary").click()

        texts = [li.text for li in axis.d.find_elements(By.CSS_SELECTOR, "#orders-list li")]
        if not (texts[2].startswith("movement: air drop") and texts[3].startswith("combat: attack")):
            raise Failure(f"axis: the orders are not in play order: {texts}")

        print("dry run, then submit")
        axis.wait_for("#dry-run:enabled").click()
        axis.wait_text("#dry-run-verdict", "every order is legal")
        axis.step("dry-run")
        axis.wait_for("#submit:enabled").click()
        axis.wait_for('body[data-pending="moved"]')
        axis.wait_text("#notice", "You (the Axis) submitted the orders for player-turn 1")
        sent = axis.d.find_elements(By.CSS_SELECTOR, "#orders-list li.submitted")
        if len(sent) != 4 or not all("(submitted)" in li.text for li in sent):
            raise Failure("axis: the sent orders are not shown as submitted: "
                          + "; ".join(li.text for li in axis.d.find_elements(By.CSS_SELECTOR, "#orders-list li")))
        axis.step("submitted")

        print("the orders arrive in the Allied browser, live")
        allied.wait_for('body[data-pending="moved"]')
        allied.wait_for("#reply-panel:not([hidden])")
        allied.wait_text("#notice", "The Axis submitted the orders for player-turn 1: your reply is due")
        allied.step("orders-arrived")
        reply_retreats(allied)
        hex_panel_words(allied)

        print("the defender's reply: a flood of 16A:1122")
        allied.d.find_element(By.XPATH, "//section[@id='reply-panel']//button[text()='Flood a hex']").click()
        allied.click_hex("16A:1122")
        allied.wait_text("#reply-panel", "flood 16A:1122")
        allied.wait_for("#send-reply").click()
        allied.wait_for('body[data-turns="1"]')
        allied.step("replied")

        print("the played turn arrives in the Axis browser, live")
        axis.wait_for('body[data-turns="1"]')
        axis.wait_for('body[data-pending=""]')
        axis.wait_text("#notice", "The Allies replied: player-turn 1 is played")
        axis.step("turn-arrived")

        print("step the replay, phase by phase")
        unit_hex = ("const o = window.opsim; const u = o.position.units.find((u) => u.id === 'de-18a');"
                    " return u.hex < 0 ? null : o.theater.hexes[u.hex].hex;")

        def replay_step(label, at, events, hex_name):
            axis.wait_for("#replay-next" if at != "the start" else "#replay-first").click()
            axis.wait_text("#replay-at", at)
            axis.wait_text("#notice", f"Replay: {at}")
            for text in events:
                axis.wait_text("#replay-events", text)
            if hex_name:  # the combat's result, and so the advance, is the hosted dice's
                axis.wait("de-18a at " + hex_name, lambda: axis.js(unit_hex) == hex_name)
            axis.step(label)

        replay_step("replay-0", "the start", ["before the first player-turn"], "16A:1322")
        # The map as it stood after each phase, and that phase's events, rules and dice.
        replay_step("replay-1-initial", "player-turn 1, after its initial phase",
                    ["the initial phase", "Dice of the initial phase"], "16A:1322")
        replay_step("replay-1-movement", "player-turn 1, after its movement phase",
                    ["the movement phase", "German 18th Army moves 16A:1322-1222", "B4.10"], "16A:1222")
        replay_step("replay-1-combat", "player-turn 1, after its combat phase",
                    ["the combat phase", "B7.2", "flooding of 16A:1122"], None)
        replay_step("replay-1-exploitation", "player-turn 1, after its exploitation phase",
                    ["the exploitation phase"], None)
        if "German 18th Army moves" in axis.d.find_element(By.ID, "replay-events").text:
            raise Failure("axis: the exploitation phase lists the movement phase's events")

        print("the replay by step of a player-turn played from orders: its orders are its steps")
        body = axis.d.find_element(By.TAG_NAME, "body")
        body.send_keys(",")  # from the game now, back to the last step but one of player-turn 1
        axis.wait_text("#notice", "Replay: player-turn 1, step ")
        axis.wait_text("#replay-steps-h", "played from orders")
        axis.wait_text("#replay-step-list", "Axis moves de-18a 16A:1322 → 16A:1222")
        axis.wait_text("#replay-step-list", "Axis attacks 16A:1122")
        axis.wait_text("#replay-step-title", "Axis: end of the combat phase")
        axis.js("document.getElementById('replay-panel').scrollIntoView()")
        axis.step("replay-1-by-step")
        axis.wait_for("#replay-live").click()
        axis.wait_text("#notice", "the game now")

        print("the keyboard: Tab reaches a counter, arrows pan, Escape cancels")
        axis.js("document.getElementById('map').focus()")
        before = axis.js("return [window.opsim.map.cx, window.opsim.map.scale]")
        axis.d.switch_to.active_element.send_keys(Keys.ARROW_RIGHT, "+")
        after = axis.js("return [window.opsim.map.cx, window.opsim.map.scale]")
        if not (after[0] > before[0] and after[1] > before[1]):
            raise Failure(f"axis: arrow and + did not pan and zoom: {before} -> {after}")
        axis.d.switch_to.active_element.send_keys(Keys.TAB)
        counter = axis.d.switch_to.active_element
        if "counter" not in (counter.get_attribute("class") or ""):
            raise Failure("axis: Tab from the map does not reach a counter")
        hex_name = counter.find_element(By.XPATH, "..").get_attribute("data-hex")
        counter.send_keys(Keys.ENTER)  # opens its stack, or shows its hex
        axis.wait_text("#hex-panel", hex_name)
        axis.d.switch_to.active_element.send_keys(Keys.ESCAPE)
        axis.step("keyboard")
        print("play: passed")
    finally:
        for b in browsers:
            b.quit()
        server.stop()
        shutil.rmtree(games, ignore_errors=True)


class Table:
    """Step play's two windows: screenshots numbered across both (steps-NN-what-side.png), and
    each window's console checked at each. A refused step is a 422 answer: the network's line in
    the console for it is expected, any other SEVERE entry fails."""

    def __init__(self, out, axis, allied):
        self.out, self.n = out, 0
        self.sides = {"axis": axis, "allied": allied}

    def shot(self, label, *sides):
        self.n += 1
        for side in sides or ("axis", "allied"):
            b = self.sides[side]
            path = os.path.join(self.out, f"steps-{self.n:02d}-{label}-{side}.png")
            b.d.save_screenshot(path)
            print(f"  screenshot {path}")
        for b in self.sides.values():
            b.console(allow=lambda e: e.get("source") == "network" and " 422 " in e["message"])
            words = b.js("return ['play-bar', 'summary', 'combat-panel', 'turn-panel', 'selection-panel', 'replay-panel']"
                         ".map((id) => document.getElementById(id).innerText).join(' ')")
            for bad in ("undefined", "null", "[object", "NaN"):
                if bad in words:
                    raise Failure(f"{b.name}: the page says '{bad}': {words}")


def unit_hex(b, unit):
    return b.js("const o = window.opsim, u = o.position.units.find((x) => x.id === arguments[0]);"
                "return u && u.hex >= 0 ? o.theater.hexes[u.hex].name : null;", unit)


def play_state(b):
    return b.js("const p = window.opsim.play; return p && {steps: p.steps, turn: p.player_turn,"
                " waiting: p.prompt.waiting, side: p.prompt.side, phase: p.prompt.phase, can_undo: p.can_undo}")


def wait_prompt(b, side, waiting, phase=None):
    b.wait(f"the game to wait for {side}: {waiting} ({phase or 'any phase'})", lambda: (lambda s: s and s["side"] == side
           and s["waiting"] == waiting and (phase is None or s["phase"] == phase))(play_state(b)))


def take_move(t, b, unit, path):
    """Selects `unit` and clicks its path (shift-clicks for the waypoints, a plain click on the
    last hex): the move is taken at once. Returns True if taken, False if the rules refused it
    (then the refusal is said with its rule, and nothing moved)."""
    before = unit_hex(b, unit)
    b.click_unit(unit)
    for hex_name in path[1:-1]:
        b.click_hex(hex_name, shift=True)
    b.click_hex(path[-1])
    b.wait(f"{unit}'s move to be taken or refused", lambda: unit_hex(b, unit) == path[-1]
           or "refused" in b.text("#selection-panel"))
    if unit_hex(b, unit) == path[-1]:
        return True
    b.wait_text("#draft-verdict", "[B")
    if unit_hex(b, unit) != before:
        raise Failure(f"{b.name}: a refused move moved {unit}: {before} -> {unit_hex(b, unit)}")
    print(f"  the rules refused {unit}'s move: {b.text('#draft-verdict')}")
    b.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    return False


def replay_steps(t, b, moved):
    """The replay takes player-turn 1 again step by step, by key (. and ,), by the list and by
    the step slider: the map after each step, each step in words with its dice and events."""
    print("the replay, step by step: player-turn 1 taken again (. on, , back)")
    body = b.d.find_element(By.TAG_NAME, "body")
    b.wait_for("#replay-first").click()
    b.wait_text("#notice", "Replay: the start")
    body.send_keys(".")
    b.wait_text("#notice", "Replay: player-turn 1, step 0 of ")
    b.wait_text("#replay-step-title", "Step 0 of ")
    turn = b.js("return window.opsim.stepLogs.get(1)")
    if turn["played_by"] != "steps":
        raise Failure(f"{b.name}: player-turn 1 was played by steps, the log says {turn['played_by']}")
    said = [s["step"] for s in turn["steps"]]
    print(f"  {len(said)} steps: " + "; ".join(b.js(
        "return [...document.querySelectorAll('#replay-step-list li')].map((li) => li.textContent)")))
    b.js("document.getElementById('replay-panel').scrollIntoView()")

    def at_step(k, words=None):
        b.wait_text("#notice", f"Replay: player-turn 1, step {k} of {len(said)}")
        b.wait(f"the replay's map after step {k}", lambda: b.js(
            "const o = window.opsim; return !o.replayLoading && o.stepAt === arguments[0]", k))
        b.wait_for(f'#replay-step-list li[data-step="{k}"][aria-current="step"]')
        if words:
            b.wait_text("#replay-step-title", f"Step {k} of {len(said)}: {words}")
            text = b.d.find_element(By.ID, "replay-step-slider").get_attribute("aria-valuetext")
            if words not in text:
                raise Failure(f"{b.name}: the step slider says '{text}', not '{words}'")

    move = next((i + 1 for i, s in enumerate(said) if s.get("units") == ["de-18a"] and s.get("path")), None)
    if moved and move:
        for k in range(1, move):
            body.send_keys(".")
            at_step(k)
        if unit_hex(b, "de-18a") != "16A:1322":
            raise Failure(f"{b.name}: at step {move - 1}, before the move, de-18a is at {unit_hex(b, 'de-18a')}")
        t.shot("replay-before-move", "axis")
        body.send_keys(".")
        at_step(move, "Axis moves de-18a 16A:1322 → 16A:1222")
        b.wait("de-18a at 16A:1222 after the move's step", lambda: unit_hex(b, "de-18a") == "16A:1222")
        b.wait("the move's trail", lambda: b.js("return window.opsim.map.overlay.trails.length") >= 1)
        b.wait_text("#replay-step", "German 18th Army moves 16A:1322-1222")
        t.shot("replay-move", "axis")
        body.send_keys(",")
        at_step(move - 1)
        b.wait("de-18a back at 16A:1322 a step back", lambda: unit_hex(b, "de-18a") == "16A:1322")
    else:
        print("  de-18a did not move this player-turn: no move to step to")

    flood = next((i + 1 for i, s in enumerate(said) if "flood" in s or "massive-flood" in s), None)
    if flood:
        print(f"  the list's step {flood}: the Allies' answer to the attack, with its dice")
        b.d.find_element(By.CSS_SELECTOR, f'#replay-step-list li[data-step="{flood}"] button').click()
        at_step(flood, "Allies ")
        b.wait_text("#replay-step", "combat at 16A:1122")
        b.wait_for('.map-tag[data-hex="16A:1122"]')  # its result, or what it waits for next
        t.shot("replay-combat", "axis")

    print("  the step slider by keyboard: Home, the player-turn begun; End, its end")
    slider = b.d.find_element(By.ID, "replay-step-slider")
    slider.send_keys(Keys.HOME)
    at_step(0, "the player-turn begun")
    if moved and unit_hex(b, "de-18a") != "16A:1322":
        raise Failure(f"{b.name}: at step 0 de-18a is at {unit_hex(b, 'de-18a')}")
    slider.send_keys(Keys.END)
    at_step(len(said))
    b.wait_text("#replay-step", "Then: the player-turn is over")

    print("  the phase replay still: > after the initial phase, Now the game as it stands")
    body.send_keys(",")  # from the end, one step back
    at_step(len(said) - 1)
    b.wait_for("#replay-first").click()
    b.wait_text("#notice", "Replay: the start")
    body.send_keys(">")
    b.wait_text("#notice", "Replay: player-turn 1, after its initial phase")
    b.wait_text("#replay-events", "the initial phase")
    b.wait_for("#replay-live").click()
    b.wait_text("#notice", "the game now")
    b.wait("the play bar back", lambda: b.js("return !document.getElementById('play-bar').hidden"))
    t.shot("replay-now", "axis")


def answer_as_asked(t, axis, allied, target, label=""):
    """After an attack on `target` is declared, the game asks whoever must decide, as it comes:
    a flood (flooded), a retreat (the first legal hex, clicked on the map), an advance (the first
    unit); each prompt's screenshot is named after it, `label` first. Returns what was asked."""
    asked = set()
    for _ in range(12):
        axis.wait("the attack's next question, or its result", lambda: play_state(axis)["waiting"] != "order"
                  or axis.js("return document.getElementById('combat-body').textContent.includes(arguments[0])", target))
        s = play_state(axis)
        if s["waiting"] == "order":
            break
        decider = axis if s["side"] == "axis" else allied
        waiter = allied if decider is axis else axis
        wait_prompt(decider, s["side"], s["waiting"])
        wait_prompt(waiter, s["side"], s["waiting"])
        decider.wait_text("#prompt-text", "your decision")
        waiter.wait_text("#prompt-text", "waiting for")
        if not waiter.js("return document.getElementById('end-phase').disabled"):
            raise Failure(f"{waiter.name}: End phase enabled while the other side decides")
        steps_before = s["steps"]
        if s["waiting"] == "flood":
            print(f"  the Allies are asked to flood {target}: they flood it")
            waiter.wait_text("#prompt-text", f"flood {target}?")
            t.shot(label + "flood-prompt")
            decider.wait_for("#decision button[data-flood='flood']").click()
        elif s["waiting"] == "retreat":
            to = decider.js("return window.opsim.play.prompt.retreat_to")
            print(f"  a retreat: the legal hexes {to}, the rules' choice first; the defender clicks the first")
            shown = decider.js("return window.opsim.map.overlay.choices && window.opsim.map.overlay.choices.size")
            if shown != len(to):
                raise Failure(f"{decider.name}: {len(to)} retreat hexes, {shown} highlighted")
            if to:
                decider.wait_for(f'.map-tag.choice[data-hex="{to[0]}"]')
                decider.wait_text("#decision", "(the rules' choice)")
            t.shot(label + "retreat-prompt")
            if to:
                decider.click_hex(to[0])
            else:
                decider.wait_for("#decision button[data-retreat='rules']").click()
        elif s["waiting"] == "advance":
            units = decider.js("return window.opsim.play.prompt.units")
            print(f"  an advance: {units} may advance; the first does")
            boxes = decider.d.find_elements(By.CSS_SELECTOR, "#decision input[data-advance]")
            if [b.get_attribute("value") for b in boxes] != units:
                raise Failure(f"{decider.name}: the advance's checkboxes are not {units}")
            boxes[0].click()
            t.shot(label + "advance-prompt")
            decider.wait_for("#advance-go").click()
        else:
            raise Failure(f"the game waits for an unknown decision: {s}")
        asked.add(s["waiting"])
        axis.wait("the decision taken", lambda: play_state(axis)["steps"] > steps_before)
    return asked


@contextlib.contextmanager
def step_table(opsim, out, url, scenario):
    """A new hosted game of `scenario` open in step play in two browsers, one per side: the
    Table. The server, the browsers and the games folder are gone when the block ends."""
    games = tempfile.mkdtemp(prefix="opsim-browser-steps-")
    server = Server(opsim, games, url)
    browsers = []
    try:
        game = server.api("POST", "/api/games", {"scenario": scenario})
        axis, allied = Browser("axis", out), Browser("allied", out)
        browsers += [axis, allied]
        axis.open(server.url + game["links"]["axis"])
        allied.open(server.url + game["links"]["allied"])
        for b in (axis, allied):
            b.wait_for('body[data-mode="steps"]')
            b.wait_for("#play-bar:not([hidden])")
            b.js("window.notReloaded = true")
        yield Table(out, axis, allied)
    finally:
        for b in browsers:
            b.quit()
        server.stop()
        shutil.rmtree(games, ignore_errors=True)


def menu_air_drop(b, unit, hex_name):
    """Drops `unit` on `hex_name` from the order menu (the hex clicked on the map), as a step."""
    b.d.find_element(By.CSS_SELECTOR, "#order-menu summary").click()
    b.d.find_element(By.CSS_SELECTOR, "#menu-kind option[value='air-drop']").click()
    b.d.find_element(By.ID, "menu-units").clear()
    b.d.find_element(By.ID, "menu-units").send_keys(unit)
    b.click_hex(hex_name)
    b.wait("the menu's Where filled from the map", lambda: b.d.find_element(
        By.ID, "menu-where").get_attribute("value") == hex_name)
    steps_before = play_state(b)["steps"]
    b.d.find_element(By.CSS_SELECTOR, "#menu-form button[type=submit]").click()
    b.wait(f"the air drop of {unit} taken or refused", lambda: play_state(b)["steps"] > steps_before
           or b.text("#play-error"))
    b.d.find_element(By.CSS_SELECTOR, "#order-menu summary").click()


def end_first_player_turn(t, *said):
    """The Axis, in his combat phase of player-turn 1, ends it (Shift+E) and the exploitation
    phase (button): the player-turn is logged, and its summary, saying each of `said`, is shown
    in both windows, neither of them reloaded."""
    axis = t.sides["axis"]
    axis.d.find_element(By.TAG_NAME, "body").send_keys("E")
    wait_prompt(axis, "axis", "order", "exploitation")
    axis.wait_for("#end-phase:enabled").click()
    for b in t.sides.values():
        b.wait_for('body[data-summary="1"]')
        b.wait_text("#summary", "Player-turn 1 is over")
        for words in said:
            b.wait_text("#summary", words)
        b.wait_text("#summary", "Next: player-turn 2, Allied initial phase")
        b.wait_for('body[data-turns="1"]')
        if not b.js("return window.notReloaded === true"):
            raise Failure(f"{b.name}: the page was reloaded")


def steps(opsim, out, url):
    print("both sides open the game: step play, the Axis to act, the Allies waiting")
    with step_table(opsim, out, url, "special-terrain") as t:
        axis, allied = t.sides["axis"], t.sides["allied"]
        # Not begun: nothing drawn is shown, and the Axis may still send all orders at once.
        axis.wait_text("#prompt-text", "Axis initial phase — your player-turn: begin it")
        allied.wait_text("#prompt-text", "waiting for the Axis to begin the player-turn")
        if axis.js("return !document.getElementById('victory-panel').hidden || window.opsim.map.objectives.length"):
            raise Failure("axis: special-terrain has no victory conditions, yet the page shows a standing")
        if axis.js("return document.getElementById('by-mail').disabled"):
            raise Failure("axis: 'send all orders at once' is disabled before the player-turn is begun")
        if axis.js("return document.querySelectorAll('#turn-events li').length") != 0:
            raise Failure("axis: the player-turn's events (its weather) are shown before it is begun")
        axis.wait_for("#begin-turn")
        t.shot("begin")
        print("the Axis begins the player-turn by key (B): its weather is rolled and shown")
        axis.d.find_element(By.TAG_NAME, "body").send_keys("b")
        axis.wait_text("#prompt-text", "Axis initial phase — your initial orders")
        allied.wait_text("#prompt-text", "Axis initial phase — waiting for the Axis")
        axis.wait("'send all orders at once' locked once begun",
                  lambda: axis.js("return document.getElementById('by-mail').disabled"))
        if not allied.js("return document.getElementById('end-phase').disabled && document.getElementById('undo').disabled"):
            raise Failure("allied: End phase or Undo is enabled while the game waits for the Axis")
        allied.wait_text("#play-why", "End phase: the game waits for the Axis")
        if "mine" not in axis.d.find_element(By.ID, "play-bar").get_attribute("class"):
            raise Failure("axis: the play bar does not show that it is the Axis's turn to act")
        t.shot("start")

        print("the Axis ends the initial phase by key (Shift+E)")
        axis.d.find_element(By.TAG_NAME, "body").send_keys("E")
        wait_prompt(axis, "axis", "order", "movement")
        axis.wait_text("#prompt-text", "Axis movement phase — your move")
        allied.wait_text("#prompt-text", "Axis movement phase — waiting for the Axis")

        print("a move taken at once: de-18a 16A:1322-16A:1222, drawn in both windows with its trail")
        moved = take_move(t, axis, "de-18a", ["16A:1322", "16A:1222"])
        if moved:
            for b in (axis, allied):
                b.wait(f"de-18a drawn at 16A:1222 in the {b.name} window", lambda: unit_hex(b, "de-18a") == "16A:1222")
                b.wait_for('.stack[data-hex="16A:1222"] .counter[data-unit="de-18a"]')
                b.wait("the move's trail", lambda: b.js("return window.opsim.map.overlay.trails.length") == 1)
                b.wait_text("#turn-events", "German 18th Army moves 16A:1322-1222")
            axis.wait_text("#notice", "You (the Axis): German 18th Army moves 16A:1322-1222")
            allied.wait_text("#notice", "The Axis: German 18th Army moves 16A:1322-1222")
            t.shot("moved")

            print("undo (U) takes it back, in both windows")
            if not axis.js("return !document.getElementById('undo').disabled"):
                raise Failure("axis: Undo is disabled after a move")
            axis.d.find_element(By.TAG_NAME, "body").send_keys("u")
            for b in (axis, allied):
                b.wait(f"de-18a back at 16A:1322 in the {b.name} window", lambda: unit_hex(b, "de-18a") == "16A:1322")
                b.wait("no trail", lambda: b.js("return window.opsim.map.overlay.trails.length") == 0)
            allied.wait_text("#notice", "The Axis took back the last step")
            axis.wait("Undo disabled, saying why", lambda: axis.js("return document.getElementById('undo').disabled"))
            axis.wait_text("#play-why", "Undo:")
            t.shot("undone")
            moved = take_move(t, axis, "de-18a", ["16A:1322", "16A:1222"])

        print("a refused step: de-18a again, having moved; its rule said, nothing moved")
        where = unit_hex(axis, "de-18a")
        axis.click_unit("de-18a")
        if where == "16A:1222":  # the reach of the position in play: none, and why (B4.10)
            axis.wait_text("#selection-panel", "has already moved this phase")
            axis.wait_text("#selection-panel", "[B4.10]")
        axis.click_hex("16A:1121" if where == "16A:1222" else "16A:1221")
        axis.wait_text("#draft-verdict", "refused")
        axis.wait_text("#draft-verdict", "[B")
        axis.wait_text("#play-error", "refused")
        axis.wait_text("#play-error", "[B")
        if axis.js("return !document.getElementById('error').hidden"):
            raise Failure("axis: a refused step is shown as an error, not as the rules' answer")
        if unit_hex(axis, "de-18a") != where:
            raise Failure("axis: a refused step moved de-18a")
        t.shot("refused")
        axis.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)

        print("de-9pz by a waypoint (shift-click) and the last hex")
        take_move(t, axis, "de-9pz", ["16A:1323", "16A:1322", "16A:1221"])

        print("an air drop from the menu, as a step: de-22la on 16A:0723")
        menu_air_drop(axis, "de-22la", "16A:0723")
        allied.wait("the Allied window follows every step", lambda: play_state(allied)["steps"] == play_state(axis)["steps"])
        t.shot("moves")

        print("the Axis ends the movement phase (button)")
        axis.wait_for("#end-phase:enabled").click()
        wait_prompt(axis, "axis", "order", "combat")
        allied.wait_text("#prompt-text", "Axis combat phase — waiting for the Axis")

        print("an attack the rules refuse, previewed: a unit not next to 16A:1122; its rule said")
        far = axis.js("""const o = window.opsim, t = o.theater, h = t.index.get('16A:1122');
            const u = o.position.units.find((u) => u.side === 'axis' && u.kind === 'ground' && u.hex >= 0
              && u.hex !== h && !t.adjacent(u.hex, h)); return u ? u.id : null;""")
        if far:
            axis.click_unit(far)
            axis.click_hex("16A:1122")
            axis.wait_for("#attack-odds[data-refused]")
            axis.wait_text("#attack-odds", "The rules refuse this attack: ")
            axis.wait_text("#attack-odds", "[B7.1]")
            print(f"  {far}: {axis.text('#attack-odds')}")
            axis.d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)

        print("an attack on 16A:1122, declared by the units next to it, its odds previewed first")
        attackers = axis.js("""const o = window.opsim, t = o.theater, h = t.index.get('16A:1122');
            return o.position.units.filter((u) => u.side === 'axis' && u.kind === 'ground' && u.hex >= 0
              && t.adjacent(u.hex, h)).map((u) => u.id);""")
        if not attackers:
            raise Failure("axis: no Axis unit next to 16A:1122 (the weather refused every move?)")
        for i, unit in enumerate(attackers):
            axis.click_unit(unit, ctrl=i > 0)
        axis.click_hex("16A:1122")
        axis.wait_text("#selection-panel", "Attack 16A:1122 with " + ", ".join(attackers))
        preview = axis.wait("the attack's odds previewed", lambda: axis.js(
            "const p = document.getElementById('attack-odds'); return p && p.dataset.odds"))
        words = axis.text("#attack-odds")
        print(f"  the preview: {words}")
        if f"Would be fought at {preview} — " not in words or "[B7.2]" not in words:
            raise Failure(f"axis: the odds preview does not say the odds in words: {words}")
        floods = axis.js("return window.opsim.draft.preview.odds.floods")
        if floods and "may try to flood 16A:1122 first" not in words:
            raise Failure(f"axis: the preview does not say the Allies may flood first: {words}")
        if allied.js("return !!document.getElementById('attack-odds')"):
            raise Failure("allied: the Axis's odds preview is shown in the Allied window")
        axis.js("document.getElementById('selection-panel').scrollIntoView()")
        t.shot("odds-preview", "axis")
        axis.wait_for("#add-draft:enabled").click()

        print("the game asks whoever must decide, as it comes: a flood, a retreat, an advance")
        asked = answer_as_asked(t, axis, allied, "16A:1122")
        if "flood" not in asked:
            raise Failure(f"the Allies were never asked to flood 16A:1122 (asked: {asked})")

        print("the combat report: odds, die and result, in both windows and on the map")
        for b in (axis, allied):
            b.wait("the attack's row in the combat report", lambda: b.js(
                "const r = [...document.querySelectorAll('#combat-report tbody tr[data-hex=\"16A:1122\"] td')]"
                ".map((td) => td.textContent); return r.length === 5 && /^\\d+:\\d+$/.test(r[2])"
                " && /^[1-6]( \\(|$)/.test(r[3]) && r[4].length > 0"))
            b.wait_for('.map-tag.result[data-hex="16A:1122"]')
        report = axis.js("return [...document.querySelectorAll('#combat-report tbody tr[data-hex=\"16A:1122\"] td')]"
                         ".map((td) => td.textContent)")
        print(f"  the combat report: {report}")
        # A flood that succeeds makes the hex swamp for the attack (41.A.4), which may change the
        # odds; else the attack is fought at the odds previewed.
        flood = axis.js("const r = window.opsim.play.rolls.find((r) => r.purpose === 'flooding of 16A:1122');"
                        "return r ? r.decided : null")
        print(f"  the flood: {flood or 'none'}; previewed {preview}, fought at {report[2]}")
        if not (flood or "").startswith("S") and report[2] != preview:
            raise Failure(f"axis: previewed at {preview}, fought at {report[2]} (flood: {flood})")
        t.shot("combat-report")

        print("the Axis ends the combat phase (Shift+E) and the exploitation phase (button): the turn is logged")
        end_first_player_turn(t, "Attacks", "16A:1122", report[4])
        if moved:
            axis.wait_text("#summary", "German 18th Army moves 16A:1322-1222")
        t.shot("summary")

        print("the next player-turn begins: the Allies to act, the Axis waiting")
        allied.d.switch_to.active_element.send_keys(Keys.ESCAPE)
        allied.wait("the summary closed", lambda: allied.js("return document.getElementById('summary').hidden"))
        allied.wait_text("#prompt-text", "Allied initial phase — your player-turn: begin it")
        axis.wait_text("#prompt-text", "waiting for the Allies to begin the player-turn")
        print("the Allies begin theirs with the button")
        allied.wait_for("#begin-turn")
        allied.click_at(allied.d.find_element(By.ID, "begin-turn"))
        allied.wait_text("#prompt-text", "Allied initial phase — your initial orders")
        axis.wait_text("#prompt-text", "Allied initial phase — waiting for the Allies")
        allied.wait_for("#end-phase:enabled")
        if not axis.js("return document.getElementById('end-phase').disabled"):
            raise Failure("axis: End phase enabled in the Allies' player-turn")
        t.shot("next-turn")
        replay_steps(t, axis, moved)
        print("steps: passed")


class Tactical:
    """The tactical page (web/tactical.html) in one browser, and `opsim tactical` beside it: every
    answer the page shows is compared with the CLI's --json for the same question."""

    REFUSED = staticmethod(lambda e: e.get("source") == "network" and (" 400 " in e["message"] or " 422 " in e["message"]))

    def __init__(self, opsim, b):
        self.opsim, self.b = opsim, b

    def cli(self, *args):
        r = subprocess.run([self.opsim, "tactical", *args, "--json"], capture_output=True, text=True)
        doc = json.loads(r.stdout)
        if r.returncode != 0 and "error" not in doc:
            raise Failure(f"opsim tactical {' '.join(args)}: exit {r.returncode}: {r.stderr}")
        return doc

    def asked(self):
        return int(self.b.js("return Number(document.body.dataset.asked || 0)"))

    def answered(self, act, what):
        """Does `act` and waits until the page has the answer of the question it asked."""
        before = self.asked()
        act()
        self.b.wait(what, lambda: self.asked() > before and not self.b.js("return 'busy' in document.body.dataset"))

    def choose(self, css, value, what):
        select = Select(self.b.d.find_element(By.CSS_SELECTOR, css))
        if select.first_selected_option.get_attribute("value") != value:
            self.answered(lambda: select.select_by_value(value), what)

    def click_hex(self, hex_name):
        """Clicks a hex's drawing where its coordinate is printed (the page takes the topmost
        unit or hex there, as a player's click)."""
        self.answered(lambda: self.b.click_at(self.b.wait_for(f'#board svg text.coord[data-hex="{hex_name}"]')),
                      f"the answer after a click on {hex_name}")

    def type_into(self, css, text):
        box = self.b.d.find_element(By.CSS_SELECTOR, css)
        box.send_keys(Keys.CONTROL, "a")
        self.answered(lambda: box.send_keys(text, Keys.ENTER), f"the answer to {css} = {text}")

    def rows(self, cls):
        return self.b.js("return [...document.querySelectorAll(arguments[0])].map((tr) =>"
                         " [...tr.querySelectorAll('td')].map((td) => td.textContent))", f"#answer tr.{cls}")

    def los_equal(self, args):
        """The LOS answer shown equals `opsim tactical los ARGS --json`'s: the verdict, each
        Hindrance and TEM item with its rule, and the thread drawn on the board."""
        a = self.cli("los", *args)
        sign = lambda n: f"+{n}" if n > 0 else str(n)
        ends = f"LOS {a['from']['at']} (Level {a['from']['level']}) → {a['to']['at']} (Level {a['to']['level']})"
        want = (f"{ends}: clear, Hindrance {sign(a['hindrance'])}; vs {a['attack']}, TEM {sign(a['tem'])}" if a["los"]
                else f"{ends}: NO LOS, blocked: {a['blocked']['what']} [{a['blocked']['rule']}]")
        verdict = self.b.text("#verdict")
        if verdict != want:
            raise Failure(f"tactical: the verdict shown is '{verdict}', the CLI's answer '{want}' (los {args})")
        item = lambda f: [f["what"], sign(f["amount"]) if f["amount"] else "", f["rule"]]
        for cls, key in (("hindrance", "hindrances"), ("tem", "tem_items")):
            shown, cli = self.rows(cls), [item(f) for f in a[key]] or [["none"]]
            if shown != cli:
                raise Failure(f"tactical: the {key} shown {shown} are not the CLI's {cli} (los {args})")
        thread = self.b.text("#answer p")
        if not all(h in thread for h in a["path"]):
            raise Failure(f"tactical: the thread's hexes {a['path']} are not all in '{thread}'")
        # The board drawn with the thread, as `opsim tactical render --los` draws it.
        drawn = self.b.js("const t = document.querySelector('#board svg .los-answer .verdict'); return t && t.textContent")
        with tempfile.TemporaryDirectory() as tmp:
            svg = os.path.join(tmp, "los.svg")
            at = args.index("--from")
            render = list(args[:at]) + ["--los", f"{args[at + 1]},{args[at + 3]}"] + list(args[at + 4:])
            subprocess.run([self.opsim, "tactical", "render", *render, "--out", svg], check=True, stdout=subprocess.DEVNULL)
            want_drawn = ET.parse(svg).getroot().find(".//{http://www.w3.org/2000/svg}text[@class='verdict']").text
        if drawn != want_drawn or not self.b.d.find_elements(By.CSS_SELECTOR, "#board svg .thread"):
            raise Failure(f"tactical: the board's thread says '{drawn}', the CLI's drawing '{want_drawn}'")
        print(f"  {want}: {len(a['hindrances'])} Hindrance and {len(a['tem_items'])} TEM items, as the CLI says")
        return a

    def move_equal(self, args):
        """The path shown equals `opsim tactical move ARGS --json`'s: each step's hex, cost and rules,
        and the verdict."""
        a = self.cli("move", *args)
        shown = self.b.js("return [...document.querySelectorAll('#move-steps tr.step')].map((tr) => ({"
                          "to: tr.querySelector('.to').firstChild.textContent, cost: tr.querySelector('.cost').textContent,"
                          "rules: [...tr.querySelectorAll('.why .rule')].map((r) => r.textContent)}))")
        want = [{"to": s["to"], "cost": "" if i == 0 else "refused" if "refusal" in s else f"{s['cost_text']} {a['points']}",
                 "rules": [f"[{c['rule']}]" for c in s["charges"]] + [f"[{n['rule']}]" for n in s["notes"]]
                 + ([f"[{s['refusal']['rule']}]"] if "refusal" in s else [])} for i, s in enumerate(a["steps"])]
        if shown != want:
            raise Failure(f"tactical: the steps shown {shown} are not the CLI's {want} (move {args})")
        verdict = self.b.text("#verdict")
        want_verdict = (f"{a['unit']}: legal, {a['total_text']} {a['points']} in total" + (", CX" if a["cx"] else "")
                        if a["legal"] else f"{a['unit']}: illegal: {a['refusal']['message']} [{a['refusal']['rule']}]")
        if verdict != want_verdict:
            raise Failure(f"tactical: the verdict shown is '{verdict}', the CLI's '{want_verdict}'")
        print(f"  {verdict}: {len(want)} steps, as the CLI says")
        return a

    def error_equal(self, args, folder=None):
        """The error shown is the CLI's for the same question: where, message and rule (a board
        file's named by its file name and line, never a server path)."""
        e = self.cli(*args)["error"]
        where = e.get("where", "")
        if folder:  # the CLI was given the file's path; the page sends its name
            where = where.replace(folder + os.sep, "")
        want = f"{where}: {e['message']}" if where else e["message"]
        if e.get("rule"):
            want += f" [{e['rule']}]"
        self.b.wait("the error shown", lambda: self.b.js("return !document.getElementById('error').hidden"))
        shown = self.b.text("#error-text")
        if not shown.startswith(want):
            raise Failure(f"tactical: the error shown is '{shown}', the CLI's '{want}'")
        live = self.b.js("const e = document.getElementById('error'); return [e.getAttribute('role'), e.getAttribute('aria-live')]")
        if live != ["alert", "assertive"]:
            raise Failure(f"tactical: the error area is not announced (role, aria-live: {live})")
        print(f"  the error shown: {shown.splitlines()[0]}")


def tactical(opsim, out, url):
    games = tempfile.mkdtemp(prefix="opsim-browser-tactical-")
    server = Server(opsim, games, url)
    b = None
    try:
        b = Browser("tactical", out, size=(1500, 1000))
        t = Tactical(opsim, b)
        print("the lobby links the tactical page; it lists the bundled boards")
        b.d.get(server.url + "/")
        t.answered(lambda: b.wait_for("#tactical-link").click(), "the first board drawn")
        names = b.js("return [...document.querySelectorAll('#board-name option')].map((o) => o.value)")
        want = [x["name"] for x in t.cli("boards")["boards"]]
        if names != want:
            raise Failure(f"tactical: the boards listed {names} are not the CLI's {want}")

        print("g8_2108, paddies in season: a LOS by two clicks across the RP overlay")
        t.choose("#board-name", "g8_2108", "g8_2108 drawn")
        t.choose('#settings [data-key="paddy"]', "in-season", "the board in season")
        t.click_hex("oJ1")
        t.click_hex("oM4")
        ends = [b.d.find_element(By.ID, i).get_attribute("value") for i in ("los-from", "los-to")]
        if ends != ["oJ1", "oM4"]:
            raise Failure(f"tactical: the clicks filled From and To with {ends}")
        g8 = ["--board", "g8_2108", "--paddy", "in-season"]
        moderate = t.los_equal(g8 + ["--from", "oJ1", "--to", "oM4"])
        b.step("los-in-season")

        print("EC mud: the paddy's mud TEM (G8.5) changes the answer")
        t.choose('#settings [data-key="ec"]', "mud", "the answer with EC mud")
        mud = t.los_equal(g8 + ["--ec", "mud", "--from", "oJ1", "--to", "oM4"])
        if mud["tem"] == moderate["tem"]:
            raise Failure(f"tactical: EC mud left the TEM at {mud['tem']}")
        b.step("los-mud")
        print("paddies drained: no Hindrance")
        t.choose('#settings [data-key="paddy"]', "drained", "the answer with paddies drained")
        drained = t.los_equal(["--board", "g8_2108", "--paddy", "drained", "--ec", "mud", "--from", "oJ1", "--to", "oM4"])
        if drained["hindrance"] == mud["hindrance"]:
            raise Failure(f"tactical: draining the paddies left the Hindrance at {drained['hindrance']}")

        print("units clicked: squad A to squad D, along hexside oL4-oL5 (the G8.2108 EX)")
        t.choose('#settings [data-key="paddy"]', "in-season", "the board in season again")
        t.choose('#settings [data-key="ec"]', "", "the board's EC")
        for unit in ("A", "D"):
            t.answered(lambda: b.click_at(b.wait_for(f'#board svg [data-unit="{unit}"]')), f"squad {unit} clicked")
        ends = [b.d.find_element(By.ID, i).get_attribute("value") for i in ("los-from", "los-to")]
        if ends != ["A", "D"]:
            raise Failure(f"tactical: the units' clicks filled From and To with {ends}")
        t.los_equal(g8 + ["--from", "A", "--to", "D"])

        print("by keyboard: squads A to C typed (the G8.4 EX), then a hex off the overlay refused")
        b.d.find_element(By.ID, "los-from").send_keys(Keys.CONTROL, "a")
        b.d.find_element(By.ID, "los-from").send_keys("A")
        t.type_into("#los-to", "C")
        t.los_equal(g8 + ["--from", "A", "--to", "C"])
        t.type_into("#los-to", "oZ9")
        t.error_equal(["los"] + g8 + ["--from", "A", "--to", "oZ9"])
        if not b.d.find_elements(By.CSS_SELECTOR, "#board[data-stale]") or "No answer" not in b.text("#board-status"):
            raise Failure("tactical: the last drawing is not said to be of an earlier question")
        b.shot("los-refused")
        b.console(allow=Tactical.REFUSED)
        b.d.switch_to.active_element.send_keys(Keys.ESCAPE)
        b.wait("the error dismissed by Escape", lambda: b.js("return document.getElementById('error').hidden"))
        t.type_into("#los-to", "C")
        print("a malformed question (HTTP 400): the field named in words and marked")
        seed = b.d.find_element(By.CSS_SELECTOR, '#settings [data-key="seed"]')
        t.answered(lambda: (seed.send_keys("-1"), seed.send_keys(Keys.TAB)), "the seed -1")
        b.wait_text("#error-text", "Seed (DYO dr, Panji MC): expected an integer")
        b.wait_text("#error-text", "HTTP 400")
        b.shot("field-refused")
        if seed.get_attribute("aria-invalid") != "true":
            raise Failure("tactical: the seed refused is not marked")
        b.console(allow=Tactical.REFUSED)
        seed.send_keys(Keys.BACKSPACE, Keys.BACKSPACE)
        t.answered(lambda: seed.send_keys(Keys.TAB), "the seed cleared")
        if seed.get_attribute("aria-invalid") or not b.js("return document.getElementById('error').hidden"):
            raise Failure(f"tactical: the error stays once the question is answered: {b.text('#error-text')} (seed {seed.get_attribute('value')!r}, {seed.get_attribute('aria-invalid')})")

        print("g9_3 with PTO: a path by clicks, a step refused, one step back, the rest typed")
        t.choose("#board-name", "g9_3", "g9_3 drawn")
        b.d.find_element(By.TAG_NAME, "body").send_keys("m")
        b.wait("the movement form", lambda: b.js("return !document.getElementById('move-form').hidden"))
        t.answered(lambda: b.d.find_element(By.CSS_SELECTOR, '#settings [data-key="pto"]').click(), "PTO on")
        t.answered(lambda: b.d.find_element(By.ID, "move-double-time").click(), "Double Time on")
        for h in ("37EE8", "37DD7", "37CC8"):
            t.click_hex(h)
        g9 = ["--board", "g9_3", "--pto", "--double-time"]
        t.move_equal(g9 + ["--path", "37EE8,37DD7,37CC8"])
        b.step("path-refused")
        board = b.d.find_element(By.ID, "board")
        t.answered(lambda: board.send_keys(Keys.BACKSPACE), "back one step (Backspace)")
        path = b.d.find_element(By.ID, "move-path")
        path.send_keys(Keys.END)
        t.answered(lambda: path.send_keys(",37DD7:beneath,37CC8", Keys.ENTER), "the path typed")
        t.move_equal(g9 + ["--path", "37EE8,37DD7,37DD7:beneath,37CC8"])
        b.step("path-legal")
        # A unit clicked starts the path where it stands, its place in the hex included (data-at).
        b.d.find_element(By.ID, "move-clear").click()
        b.wait("the path cleared", lambda: path.get_attribute("value") == "")
        t.answered(lambda: b.click_at(b.wait_for('#board svg [data-unit="E"]')), "squad E clicked")
        if path.get_attribute("value") != "37DD7:beneath":
            raise Failure(f"tactical: squad E (beneath the panji in 37DD7) clicked starts the path at {path.get_attribute('value')!r}")
        t.click_hex("37CC8")
        t.move_equal(g9 + ["--path", "37DD7:beneath,37CC8"])

        with tempfile.TemporaryDirectory() as tmp:
            print("a board file from the disk: drawn, and asked")
            mine = os.path.join(tmp, "my_paddies.json")
            shutil.copy(os.path.join(os.path.dirname(__file__), "..", "..", "scenarios", "tactical", "g8_2108.json"), mine)
            b.d.find_element(By.TAG_NAME, "body").send_keys("l")
            t.answered(lambda: b.d.find_element(By.ID, "board-file").send_keys(mine), "the file drawn")
            b.wait_text("#board-status", "my_paddies.json")
            title = b.js("return document.querySelector('#board svg .title text').textContent")
            if title != "G8.2108 illustration: paddies on an RP overlay":
                raise Failure(f"tactical: the file's drawing is titled '{title}'")
            if b.js("return [...document.querySelectorAll('#settings [data-key]')].some((c) => c.type === 'checkbox' ? c.checked : c.value)"):
                raise Failure("tactical: another board's settings are kept for the file")
            t.choose('#settings [data-key="paddy"]', "in-season", "the file in season")
            t.click_hex("oM5")
            t.click_hex("oL2")
            t.los_equal(["--board", mine, "--paddy", "in-season", "--from", "oM5", "--to", "oL2"])
            b.step("file")
            print("a bundled board, then the file again from the list")
            t.choose("#board-name", "g9_3", "g9_3 drawn again")
            t.choose("#board-name", "file:", "the file drawn again")
            b.wait_text("#board-status", "my_paddies.json")
            if not b.d.find_elements(By.CSS_SELECTOR, '#board svg polygon.hex[data-hex="oM5"]'):
                raise Failure("tactical: the file chosen again from the list is not drawn")

            print("a broken board file: its error with the file's name and line")
            broken = os.path.join(tmp, "broken_board.json")
            with open(mine) as f:
                lines = f.read().splitlines(True)
            lines[4] = '  "ruleset": 7,\n'
            with open(broken, "w") as f:
                f.writelines(lines)
            t.answered(lambda: b.d.find_element(By.ID, "board-file").send_keys(broken), "the broken file's answer")
            t.error_equal(["render", "--board", broken, "--paddy", "in-season", "--out", os.path.join(tmp, "x.svg")], folder=tmp)
            b.shot("file-broken")
            b.console(allow=Tactical.REFUSED)
        words = b.js("return document.querySelector('aside').innerText")
        for bad in ("undefined", "null", "[object", "NaN"):
            if bad in words:
                raise Failure(f"tactical: the page says '{bad}'")
        print("tactical: passed")
    finally:
        if b:
            b.quit()
        server.stop()
        shutil.rmtree(games, ignore_errors=True)


def victory_standing(axis, allied, axis_points, allied_points, name, hex_name, owner):
    """Both windows show the victory standing (B15.1): the points, the result as it stands, and
    the objective `name` held by `owner`, in the list and as its star on the map."""
    for b in (axis, allied):
        b.wait_text("#victory-standing", f"Axis {axis_points} points, Allied {allied_points}: as it stands, ")
        b.wait_text("#victory-standing", "[B15.1]")
        row = b.wait(f"{name} in the objectives' list", lambda: b.js(
            "const li = [...document.querySelectorAll('#victory-objectives li')].find((x) => x.textContent.startsWith(arguments[0]));"
            "return li && {owner: li.dataset.owner, text: li.textContent}", name))
        if row["owner"] != owner:
            raise Failure(f"{b.name}: {name} is listed as {row['text']}, not held by {owner}")
        star = b.js("const o = window.opsim, s = o.map.objectives.find((x) => o.theater.hexes[x.hex].name === arguments[0]);"
                    "return s && s.owner", hex_name)
        if star != owner:
            raise Failure(f"{b.name}: {name}'s star on the map is {star!r}, not {owner}")


def objective_by_keyboard(b, hex_name):
    """An objective's button, reached by Tab and pressed by Enter, shows its hex."""
    b.d.find_element(By.CSS_SELECTOR, "#victory-objectives summary").send_keys(Keys.ENTER)
    button = b.wait_for(f'#victory-objectives button[data-hex="{hex_name}"]')
    button.send_keys(Keys.ENTER)
    b.wait_text("#hex-panel", hex_name)
    b.wait_text("#hex-panel", "points [B15.1]")


def campaign(opsim, out, url):
    print("both sides open the campaign: the Low Countries on 10 May 1940, the Axis to act")
    with step_table(opsim, out, url, "low-countries-1940") as t:
        axis, allied = t.sides["axis"], t.sides["allied"]
        for b in (axis, allied):
            for place in ("Amsterdam", "Rotterdam", "Den Helder", "Groningen"):
                if place not in b.canvas_words():
                    raise Failure(f"{b.name}: the map does not name {place}")
        axis.wait_text("#prompt-text", "Axis initial phase — your player-turn: begin it")
        victory_standing(axis, allied, 0, 71, "Utrecht", "LC:3307", "allied")
        t.shot("campaign-open")

        print("the Axis begins (B) and ends the initial phase (Shift+E)")
        body = axis.d.find_element(By.TAG_NAME, "body")
        body.send_keys("b")
        axis.wait_text("#prompt-text", "Axis initial phase — your initial orders")
        body.send_keys("E")
        wait_prompt(axis, "axis", "order", "movement")

        print("Sturmabteilung Koch lands behind Eben-Emael (LC:3313), an air drop from the menu")
        menu_air_drop(axis, "de-koch", "LC:3313")
        if unit_hex(axis, "de-koch") != "LC:3313":
            raise Failure(f"axis: de-koch's air drop was refused: {axis.text('#play-error')}")

        print("the 7th Flieger Division lands in Utrecht (LC:3307), an objective no one defends")
        menu_air_drop(axis, "de-7fl", "LC:3307")
        if unit_hex(axis, "de-7fl") != "LC:3307":
            raise Failure(f"axis: de-7fl's air drop was refused: {axis.text('#play-error')}")

        print("the XVI Panzer Corps from Aachen into Maastricht, the 1st Panzer through Luxembourg")
        for unit in ("de-3pz", "de-4pz", "de-20mot"):
            if not take_move(t, axis, unit, ["LC:3612", "LC:3512"]):
                raise Failure(f"axis: {unit}'s move to Maastricht was refused")
        if not take_move(t, axis, "de-1pz", ["LC:3815", "LC:3716", "LC:3616"]):
            raise Failure("axis: de-1pz's move through Luxembourg was refused")
        for b in (axis, allied):
            b.wait(f"the moves drawn in the {b.name} window", lambda: unit_hex(b, "de-3pz") == "LC:3512"
                   and unit_hex(b, "de-1pz") == "LC:3616")
        t.shot("campaign-moved")
        axis.wait_for("#end-phase:enabled").click()
        wait_prompt(axis, "axis", "order", "combat")

        print("the attack on Eben-Emael from Maastricht and from behind, its odds previewed")
        for i, unit in enumerate(("de-koch", "de-3pz", "de-4pz", "de-20mot")):
            axis.click_unit(unit, ctrl=i > 0)
        axis.click_hex("LC:3412")
        preview = axis.wait("the attack's odds previewed", lambda: axis.js(
            "const p = document.getElementById('attack-odds'); return p && p.dataset.odds"))
        print(f"  the preview: {axis.text('#attack-odds')}")
        if preview != "6:1":
            raise Failure(f"axis: 18 to 3 on clear terrain is 6:1, the preview says {preview}")
        t.shot("campaign-odds", "axis")
        axis.wait_for("#add-draft:enabled").click()
        answer_as_asked(t, axis, allied, "LC:3412", "campaign-")
        for b in (axis, allied):
            b.wait("the attack's row in the combat report", lambda: b.js(
                "const r = [...document.querySelectorAll('#combat-report tbody tr[data-hex=\"LC:3412\"] td')]"
                ".map((td) => td.textContent); return r.length === 5 && r[2] === '6:1' && r[4].length > 0"))
        t.shot("campaign-combat")

        print("the Axis ends combat and exploitation: the player-turn is logged, the Allies to act")
        end_first_player_turn(t, "LC:3412")
        t.shot("campaign-summary")
        print("the standing once the player-turn is logged: Utrecht is the Axis's, 3 points")
        victory_standing(axis, allied, 3, 68, "Utrecht", "LC:3307", "axis")
        for b in (axis, allied):
            b.d.find_element(By.ID, "summary-close").click()
        objective_by_keyboard(allied, "LC:3307")
        t.shot("campaign-standing")
        print("campaign: passed")


def perf(opsim, out, url):
    games = tempfile.mkdtemp(prefix="opsim-browser-perf-")
    scenario = os.path.join(games, "generated.json")
    subprocess.run([opsim, "generate", "--hexes", "100000", "--units", "2000", "--seed", "1",
                    "--out", scenario], check=True, stdout=subprocess.DEVNULL)
    server = Server(opsim, games, url)
    browser = None
    budget = ARGS.budget_ms if ARGS else None
    try:
        with open(scenario) as f:
            game = server.api("POST", "/api/games", {"scenario_json": json.load(f)})
        browser = Browser("perf", out)
        # Twice: the first load makes the server build the theater's JSON (once per scenario),
        # the second is what every later page gets; with a budget, five more to judge it by.
        loads = ["first load", "second load"] + [f"later load {n}" for n in range(1, 6) if budget]
        later = []
        for load in loads:
            browser.open(server.url + game["links"]["spectator"])
            browser.wait("the first view's measure", lambda: browser.js(
                "return performance.getEntriesByName('opsim:first-view').length"), 60)
            m = browser.js("""const d = (n) => performance.getEntriesByName('opsim:' + n)[0].duration;
                return {first: d('first-view'), nav: d('navigation-to-first-view'), fetch: d('fetch'),
                        index: d('index'), position: d('position'), draw: d('draw'),
                        hexes: performance.getEntriesByName('opsim:first-view')[0].detail.hexes,
                        drawMs: performance.getEntriesByName('opsim:first-view')[0].detail.drawMs,
                        total: window.opsim.theater.hexes.length};""")
            print(f"perf, {load}: a {m['hexes']}-hex view of a {m['total']}-hex theater painted "
                  f"{m['nav']:.0f} ms after navigation, {m['first']:.0f} ms after the page's "
                  f"script started (theater and status fetched {m['fetch']:.0f} ms, indexed "
                  f"{m['index']:.0f} ms, the position {m['position']:.0f} ms more, drawn and painted "
                  f"{m['draw']:.0f} ms, of which drawing {m['drawMs']:.0f} ms); target 1000 ms")
            if load.startswith("later"):
                later.append(m["nav"])
        # One redraw of the same view, as a pan or zoom makes.
        redraw = browser.js("""const v = window.opsim.map, t = performance.now();
            v.draw(); return [performance.now() - t, Number(v.host.dataset.hexesDrawn)];""")
        print(f"perf: a redraw of the view (a pan or zoom) {redraw[0]:.0f} ms ({redraw[1]} hexes)")
        browser.step("generated")
        # The map after a pan (by the keys) and after zooming in (to where hexes are outlined)
        # and out: screenshots to compare with the first view's.
        browser.d.find_element(By.ID, "map").click()
        for key in (Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN):
            browser.d.find_element(By.ID, "map").send_keys(key)
        browser.step("generated-panned")
        for factor, name in ((1.6, "generated-zoomed-in"), (0.4, "generated-zoomed-out")):
            drawn = browser.js("return window.opsim.map.host.dataset.drawn;")
            browser.js("window.opsim.map.zoom(arguments[0]);", factor)
            browser.wait("the map redrawn", lambda: browser.js(
                "return window.opsim.map.host.dataset.drawn;") != drawn)
            browser.step(name)
        if budget:
            median = sorted(later)[len(later) // 2]
            spread = f"median {median:.0f} ms of {', '.join(f'{v:.0f}' for v in later)} ms"
            if max(later) > 1.25 * min(later):
                print(f"perf: the first view's time is not stable ({spread}): the budget of "
                      f"{budget:.0f} ms is not judged")
                raise NotJudged()
            if median > budget:
                raise Failure(f"the first view took {spread}, over the budget of {budget:.0f} ms")
            print(f"perf: the first view within the budget of {budget:.0f} ms ({spread})")
    finally:
        if browser:
            browser.quit()
        server.stop()
        shutil.rmtree(games, ignore_errors=True)


class NotJudged(Exception):
    """A measure too unstable to judge against its budget (exit 77)."""


ARGS = None  # the command line, as run_modes read it


def run_modes(modes, doc):
    """A browser test file's command line, MODE --opsim BIN --out DIR [--server URL]: runs
    modes[MODE](opsim, out, server); 77 when Chromium or its driver is missing."""
    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("what", choices=list(modes))
    p.add_argument("--opsim", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--server", help="use this running opsim serve (its address) instead of starting one")
    p.add_argument("--budget-ms", type=float,
                   help="perf: judge the first view's time against this budget (not in ctest)")
    a = p.parse_args()
    global ARGS
    ARGS = a
    name = os.path.basename(sys.argv[0])
    for path in (CHROMIUM, DRIVER):
        if not os.path.exists(path):
            print(f"{name}: {path} is not installed")
            return 1 if os.environ.get("OPSIM_REQUIRE_BROWSER") else 77
    os.makedirs(a.out, exist_ok=True)
    # ctest's timeout sends SIGTERM: unwind, so the server and the browsers are stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(f"{name}: terminated"))
    try:
        modes[a.what](a.opsim, a.out, a.server)
    except Failure as e:
        print(f"{name} {a.what}: FAILED: {e}", file=sys.stderr)
        return 1
    except NotJudged:
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(run_modes({"play": play, "perf": perf, "steps": steps, "tactical": tactical,
                        "campaign": campaign}, __doc__))
