#!/usr/bin/python3
"""The workshop (web/edit.html, docs/editor.md) in real headless Chromium against a real
`opsim serve`.

usage: editor_test.py editor --opsim BIN --out DIR

Reaches /edit from the games list, opens the bundled scenario (its panels drawn as `opsim theater` groups its sheets), saves it unchanged (the text equals `opsim scenario format`'s),
paints a hex's terrain (undone by Ctrl+Z, redone by Ctrl+Y) and another by the keyboard alone, drags a minor-river chain along three
hexsides and a road from hex to hex, places a city and gives its hex to the Axis, puts a hex in weather zone B, puts a unit on a sea hex and sees the server's error marked on that hex,
drags the unit to land (16A:1015) and sees the check pass, saves the scenario and loads the saved file with
`opsim map --scenario FILE` (each change there), and starts a hosted game of it whose page shows the
unit. The map's own picture is loaded as an image underlay and calibrated by clicking two hex
centres on it; a third sits on the grid; kept as NAME.underlay.json (Keep underlay) and read back (Kept underlay) with the
same calibration. Then a new theater of two sheets side by side (one panel), all sea, with two islands, a rail ferry between them (undone and
redone), a hex's water split in two bodies (first wrongly: the server's error on the hex), a navigable waterway, an exit on the east
edge (a hex of 1A refused: 1B joins it there), a frozen weather zone, each by its tool's key; saved, and `opsim map` loads each.
Then the generated 100,000-hex scenario opened from the disk
(how long it takes is printed) and saved unchanged: `opsim scenario format`'s text of its file. Screenshots go to DIR; any SEVERE entry in the browser's console
fails it. Exit 77 when Chromium, its driver or Selenium is missing (unless OPSIM_REQUIRE_BROWSER).
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

from browser_test import Browser, Failure, Server, run_modes

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUNDLED = os.path.join(ROOT, "scenarios", "special-terrain.json")


class Workshop:
    """The workshop page in one browser, driven as a designer would."""

    def __init__(self, b, opsim):
        self.b, self.opsim = b, opsim

    def js(self, script, *args):
        return self.b.js("const w = window.opsimEditor; " + script, *args)

    def hex_terrain(self, hex_name):
        return self.js("return w.scn.hexes[w.scn.hexIndex(arguments[0])].terrain;", hex_name)

    def screen(self, wx, wy):
        """A world point as an offset from the canvas's centre (ActionChains' origin)."""
        return self.js("""const [x, y] = w.map.toScreen(arguments[0], arguments[1]);
            const r = w.map.canvas.getBoundingClientRect();
            return [Math.round(x - r.width / 2), Math.round(y - r.height / 2)];""", wx, wy)

    def centre_on(self, hex_name, scale=40):
        self.js("w.map.scale = arguments[1]; w.map.centerOn(w.scn.hexIndex(arguments[0])); w.map.draw();",
                hex_name, scale)

    def hex_xy(self, hex_name):
        return self.js("const h = w.scn.hexes[w.scn.hexIndex(arguments[0])]; return [h.x, h.y];", hex_name)

    def click_hex(self, hex_name):
        self.centre_on(hex_name)
        x, y = self.screen(*self.hex_xy(hex_name))
        canvas = self.b.d.find_element(By.CSS_SELECTOR, "#map canvas")
        ActionChains(self.b.d).move_to_element_with_offset(canvas, x, y).click().perform()

    def press(self, css):
        """Clicks a control of the side panel, scrolled to the middle first (the check's
        panel stays at the top)."""
        e = self.b.d.find_element(By.CSS_SELECTOR, css)
        self.b.js("arguments[0].scrollIntoView({block: 'center'});", e)
        e.click()

    def click_point(self, wx, wy):
        """A click at a world point (in view)."""
        canvas = self.b.d.find_element(By.CSS_SELECTOR, "#map canvas")
        ActionChains(self.b.d).move_to_element_with_offset(canvas, *self.screen(wx, wy)).click().perform()

    def side_mid(self, a, b):
        """The middle of the hexside between hexes a and b, in world units."""
        (ax, ay), (bx, by) = self.hex_xy(a), self.hex_xy(b)
        return ((ax + bx) / 2, (ay + by) / 2)

    def drag_through(self, points):
        """Presses at the first world point, moves through the others, releases."""
        canvas = self.b.d.find_element(By.CSS_SELECTOR, "#map canvas")
        xy = [self.screen(*p) for p in points]
        chain = ActionChains(self.b.d).move_to_element_with_offset(canvas, *xy[0]).click_and_hold()
        for x, y in xy[1:]:
            chain.move_to_element_with_offset(canvas, x, y)
        chain.release().perform()

    def focus_map(self):
        """The map focused without a click (a click would paint with the tool chosen)."""
        self.b.js("document.getElementById('map').focus();")

    def key(self, *keys):
        ActionChains(self.b.d).send_keys(*keys).perform()

    def ctrl(self, key):
        ActionChains(self.b.d).key_down(Keys.CONTROL).send_keys(key).key_up(Keys.CONTROL).perform()

    def checked(self):
        """Waits for the server's check of the document as it is now, and returns it."""
        self.b.wait("the check of the latest change", lambda: self.js(
            "return w.lastCheck !== null && w.checkedText === JSON.stringify(w.scn.doc);"))
        return self.js("return w.lastCheck;")

    def save(self):
        self.js("w.lastSaved = '';")
        self.b.d.find_element(By.ID, "save").click()
        self.b.wait("the saved text", lambda: self.js("return w.lastSaved;"))
        return self.js("return w.lastSaved;")

    def fill(self, field, value):
        e = self.b.d.find_element(By.ID, field)
        e.clear()
        e.send_keys(value)


def cli_format(opsim, path):
    """`opsim scenario format FILE`'s text."""
    r = subprocess.run([opsim, "scenario", "format", path], capture_output=True, text=True)
    if r.returncode != 0:
        raise Failure(f"opsim scenario format {path} exits {r.returncode}: {r.stderr}")
    return r.stdout


def panel_titles(w, want):
    """The map draws the panels `want` names ("sheet A + B", in order), each sheet where the
    server's grouping puts it."""
    titles = w.js("return w.scn.theater.panels.map((p) => p.title);")
    drawn = w.js("""const m = w.map, g = m.g, f = g.fillText, seen = [];
        g.fillText = function (t, ...a) { seen.push(t); return f.call(this, t, ...a); };
        try { m.fit(); m.draw(); } finally { g.fillText = f; }
        return seen;""")
    if titles != want or any(t not in drawn for t in want):
        raise Failure(f"the panels drawn are {titles} (on the canvas: {[t for t in drawn if t in titles]}), not {want}")


def cli_panels(opsim, scenario):
    """The panels' titles as `opsim theater --json` groups the sheets."""
    r = subprocess.run([opsim, "theater", "--scenario", scenario, "--json"], capture_output=True, text=True, check=True)
    names = []
    for s in json.loads(r.stdout)["sheets"]:
        if s["panel"] == len(names):
            names.append([])
        names[s["panel"]].append(s["name"])
    return ["sheet " + " + ".join(n) for n in names]


def bundled_round_trip(w, tmp):
    print("the bundled scenario opened at /edit and saved unchanged: opsim scenario format's text")
    b = w.b
    b.wait("the bundled scenarios listed", lambda: b.d.find_elements(By.CSS_SELECTOR, "#bundled option"))
    Select(b.d.find_element(By.ID, "bundled")).select_by_value("special-terrain")
    b.d.find_element(By.CSS_SELECTOR, "#open-bundled button").click()
    b.wait_for("#map[data-drawn]")
    b.wait_text("#doc-info", "3,033 hexes")
    want = cli_panels(w.opsim, BUNDLED)
    if len(want) < 2:
        raise Failure(f"the bundled scenario has one panel ({want}): its panels tell nothing")
    print(f"its {len(want)} panels drawn as the server groups its sheets")
    panel_titles(w, want)
    answer = w.checked()
    if not answer.get("ok"):
        raise Failure(f"the bundled scenario does not check: {answer}")
    b.wait_text("#check", "no error")
    b.step("open")
    saved = w.save()
    if saved != cli_format(w.opsim, BUNDLED):
        path = os.path.join(tmp, "saved-unchanged.json")
        with open(path, "w") as f:
            f.write(saved)
        raise Failure(f"saved unchanged, the text differs from opsim scenario format's (saved as {path})")


def paint(w):
    b = w.b
    print("terrain: 16A:1127 painted rough (keys 2, r), Ctrl+Z, Ctrl+Y")
    w.focus_map()
    w.key("2", "r")
    if w.js("return w.tool;") != "brush" or w.js("return w.terrain;") != "r":
        raise Failure("keys 2 and r did not choose the terrain brush and rough")
    w.click_hex("16A:1127")
    b.wait("16A:1127 rough", lambda: w.hex_terrain("16A:1127") == "rough")
    row = w.js("return w.scn.doc.sheets[0].terrain[27 - 14];")
    if row[10] != "r":
        raise Failure(f"16A:1127 is rough on the map, not in the terrain grid: {row}")
    w.ctrl("z")
    b.wait("16A:1127 clear again (undo)", lambda: w.hex_terrain("16A:1127") == "clear")
    w.ctrl("y")
    b.wait("16A:1127 rough again (redo)", lambda: w.hex_terrain("16A:1127") == "rough")
    print("without a mouse: Go to 16A:1327, f (forest), Enter on the map")
    w.fill("goto-hex", "16A:1327")
    b.d.find_element(By.ID, "goto-hex").send_keys(Keys.ENTER)
    w.focus_map()
    w.key("f", Keys.ENTER)
    b.wait("16A:1327 forest", lambda: w.hex_terrain("16A:1327") == "forest")
    b.step("terrain")

    print("a minor river dragged along three hexsides of 16A:1028 (its N, NE and SE)")
    w.key("4")
    Select(b.d.find_element(By.ID, "side-kind")).select_by_value("minor-river")
    centre = w.hex_xy("16A:1028")
    w.centre_on("16A:1028", 60)
    mids = []
    for n in ("16A:1027", "16A:1128", "16A:1129"):
        x, y = w.hex_xy(n)
        mids.append(((centre[0] + x) / 2, (centre[1] + y) / 2))
    w.drag_through(mids)
    missing = w.js("""return arguments[0].filter((n) => {
        const s = w.scn.side(w.scn.hexIndex('16A:1028'), w.scn.hexIndex(n), false);
        return !s || !s.features.includes('minor-river'); });""", ["16A:1027", "16A:1128", "16A:1129"])
    if missing:
        rivers = w.js("return w.scn.doc.hexsides['minor-river'].slice(-5);")
        raise Failure(f"the river drag left out 16A:1028's hexsides to {missing}: the last minor rivers are {rivers}")
    b.step("river")

    print("a road dragged from hex to hex: 16A:1226, 1227, 1228")
    Select(b.d.find_element(By.ID, "side-kind")).select_by_value("road")
    w.drag_through([w.hex_xy(n) for n in ("16A:1226", "16A:1227", "16A:1228")])
    roads = w.js("""return ['16A:1226', '16A:1228'].map((n) => w.scn.side(w.scn.hexIndex('16A:1227'), w.scn.hexIndex(n), false))
        .map((s) => !!s && s.features.includes('road'));""")
    if roads != [True, True]:
        raise Failure(f"the road drag through 16A:1227: its hexsides to 1226 and 1228 have a road: {roads}")

    print("a city placed on 16A:1229")
    w.key("5")
    w.fill("place-name", "Testburg")
    Select(b.d.find_element(By.ID, "place-city")).select_by_value("dot")
    w.click_hex("16A:1229")
    place = w.js("return w.scn.placeAt(w.scn.hexIndex('16A:1229'));")
    if place != {"hex": "16A:1229", "name": "Testburg", "city": "dot"}:
        raise Failure(f"the place on 16A:1229 is {place}")
    b.step("city")

    print("control: 16A:1229 given to the Axis (tool 8)")
    w.key("8")
    Select(b.d.find_element(By.ID, "control-side")).select_by_value("axis")
    w.click_hex("16A:1229")
    owner = w.js("""const c = w.scn.doc.state.control, i = w.scn.hexIndex('16A:1229');
        return Object.keys(c).filter((k) => w.scn.hexesOfList(c[k]).includes(i));""")
    if owner != ["axis"]:
        raise Failure(f"16A:1229 is controlled by {owner} after it was given to the Axis")
    if w.js("return w.map.position.owner[w.scn.hexIndex('16A:1229')];") != "axis":
        raise Failure("16A:1229 is not drawn as the Axis's")

    print("weather zone: 16A:1128 put in zone B (tool 0)")
    w.key("0")
    w.fill("zone-letter", "B")
    w.click_hex("16A:1128")
    if w.js("return w.scn.zoneOf(w.scn.hexIndex('16A:1128'));") != "B":
        raise Failure("16A:1128 is not in weather zone B")
    if "weather zone" not in b.text("#hex-body") or w.js("return w.scn.doc.sheets[0].zones[28 - 14][10];") != "B":
        raise Failure("zone B is not in sheet 16A's zones grid at 16A:1128")


def unit_on_sea(w):
    b = w.b
    print("a unit put on the sea hex 16A:0114: the server's error, marked on its hex")
    w.key("6")
    for field, value in (("unit-id", "t-1"), ("unit-name", "Test Infantry"), ("unit-nat", "german"),
                         ("unit-attack", "3"), ("unit-defense", "3"), ("unit-mp", "4"), ("unit-re", "2")):
        w.fill(field, value)
    w.focus_map()  # out of the form, so that keys reach the page
    w.click_hex("16A:0114")
    answer = w.checked()
    error = answer.get("error") or {}
    if answer.get("ok") or error.get("hex") != "16A:0114":
        raise Failure(f"a unit on the sea: the check says {answer}")
    b.wait_for('.map-tag.error[data-hex="16A:0114"]')
    words = b.text("#check")
    if error["message"] not in words or (error.get("rule") and error["rule"] not in words):
        raise Failure(f"the check panel says '{words}', not the server's {error}")
    b.d.find_element(By.ID, "check-goto").click()
    b.wait("the view on 16A:0114", lambda: w.js("return w.selected === w.scn.hexIndex('16A:0114');"))
    b.step("error-on-sea")

    print("the unit dragged to 16A:1015: the check passes")
    # Both hexes in view, the counters still buttons.
    w.js("const a = w.scn.hexes[w.scn.hexIndex('16A:0114')], b = w.scn.hexes[w.scn.hexIndex('16A:1015')];"
         "w.map.scale = 30; w.map.cx = (a.x + b.x) / 2; w.map.cy = (a.y + b.y) / 2; w.map.draw();")
    counter = b.wait_for('.counter[data-unit="t-1"]')
    canvas = b.d.find_element(By.CSS_SELECTOR, "#map canvas")
    to = w.screen(*w.hex_xy("16A:1015"))
    ActionChains(b.d).click_and_hold(counter).move_by_offset(10, 10).move_to_element_with_offset(canvas, *to).release().perform()
    b.wait("t-1 on 16A:1015", lambda: w.js(
        "return w.scn.doc.campaign.units.find((u) => u.id === 't-1')?.hex;") == "16A:1015")
    answer = w.checked()
    if not answer.get("ok"):
        raise Failure(f"the unit on land: the check still says {answer}")
    if b.d.find_elements(By.CSS_SELECTOR, ".map-tag.error"):
        raise Failure("the error's mark stays on the map after the check passed")
    b.step("fixed")

    print("t-1 made a reinforcement (B16.1): it arrives in Jun I 1940; the check passes")
    w.js("w.pickUnit('t-1');")
    w.fill("unit-arrives", "Jun I 1940")
    b.d.find_element(By.ID, "unit-apply").click()
    b.wait("t-1 arrives in Jun I 1940", lambda: w.js(
        "return w.scn.doc.campaign.units.find((u) => u.id === 't-1')?.arrives;") == "Jun I 1940")
    answer = w.checked()
    if not answer.get("ok"):
        raise Failure(f"a reinforcement: the check says {answer}")


def save_and_play(w, server, tmp):
    b = w.b
    print("saved: opsim map loads the file, with each change")
    text = w.save()
    path = os.path.join(tmp, "special-terrain.json")
    with open(path, "w") as f:
        f.write(text)
    def hex_of(hex_name):
        r = subprocess.run([w.opsim, "map", "--scenario", path, "--hex", hex_name, "--json"], capture_output=True, text=True)
        if r.returncode != 0:
            raise Failure(f"opsim map --scenario {path} exits {r.returncode}: {r.stderr}")
        return json.loads(r.stdout)
    if hex_of("16A:1127")["terrain"] != "rough":
        raise Failure("opsim map: 16A:1127 of the saved file is not rough")
    city = hex_of("16A:1229")
    if "Testburg" not in json.dumps(city) or city.get("owner") != "axis":
        raise Failure(f"opsim map: 16A:1229 of the saved file is not the Axis's Testburg: {city}")
    rivers = sorted(s["dir"] for s in hex_of("16A:1028")["hexsides"] if "minor-river" in s["features"])
    if rivers != ["N", "NE", "SE"]:
        raise Failure(f"opsim map: 16A:1028's minor rivers in the saved file are {rivers}, not N, NE, SE")
    if hex_of("16A:1128").get("weather_zone") != "B":
        raise Failure("opsim map: 16A:1128 of the saved file is not in weather zone B")
    roads = sorted(s["dir"] for s in hex_of("16A:1227")["hexsides"] if "road" in s["features"])
    if roads != ["N", "S"] or "16A:1226-1227-1228" not in text:
        raise Failure(f"the saved file's road through 16A:1227: on its {roads} hexsides, as one chain: "
                      f"{'16A:1226-1227-1228' in text}")
    if '"arrives": "Jun I 1940"' not in text:
        raise Failure("the saved file does not carry t-1's arrival")
    if '"id": "t-1"' not in text:
        raise Failure("the saved file has no unit t-1")

    print("Play this: a hosted game of it, the unit on its page")
    b.d.find_element(By.ID, "play").click()
    link = b.wait_for("#play-list a").get_attribute("href")
    b.step("played")
    main = b.d.current_window_handle
    b.d.switch_to.new_window("tab")
    b.d.get(link)
    b.wait_for("#map[data-drawn]")
    b.wait("unit t-1 in the game", lambda: b.js(
        "return window.opsim?.position?.units.some((u) => u.id === 't-1');"))
    b.step("game")
    b.d.close()
    b.d.switch_to.window(main)


def underlay(w, tmp):
    """The map's own picture as the scan: calibrated on two hexes, the third sits on the grid."""
    b = w.b
    print("an image underlay (the map's own picture), calibrated on 16A:0216 and 16A:1329, checked on 16A:1118")
    w.centre_on("16A:0722", 20)
    hexes = ["16A:0216", "16A:1329", "16A:1118"]
    data, pixels = w.js("""const dpr = window.devicePixelRatio || 1;
        return [w.map.canvas.toDataURL('image/png'), arguments[0].map((n) => {
          const h = w.scn.hexes[w.scn.hexIndex(n)], [x, y] = w.map.toScreen(h.x, h.y);
          return [x * dpr, y * dpr]; })];""", hexes)
    scan = os.path.join(tmp, "scan.png")
    with open(scan, "wb") as f:
        f.write(base64.b64decode(data.split(",", 1)[1]))
    w.key("9")
    b.d.find_element(By.ID, "underlay-file").send_keys(scan)
    b.wait_text("#cal-status", "click the centre of")
    for field, value in zip(("cal-a", "cal-b", "cal-c"), hexes):
        w.fill(field, value)
    w.focus_map()
    canvas = b.d.find_element(By.CSS_SELECTOR, "#map canvas")
    for (u, v), want in zip(pixels, ("Now the centre of", "Calibrated on", "the grid sits on the scan")):
        # Where that pixel of the image is now: the view centred on it, zoomed in.
        w.js("""const [a, b, c, d, e, f] = w.map.underlay.matrix, u = arguments[0], v = arguments[1];
            w.map.scale = 40; w.map.cx = a * u + c * v + e; w.map.cy = b * u + d * v + f; w.map.draw();""", u, v)
        ActionChains(b.d).move_to_element_with_offset(canvas, 0, 0).click().perform()
        b.wait_text("#cal-status", want)
    b.step("underlay")
    off = float(b.text("#cal-status").split(" the scan's centre is ")[1].split(" ")[0])
    if off >= 0.2:
        raise Failure(f"the calibrated underlay is {off} hex off the grid")

    print("Keep underlay: the image and its calibration as special-terrain.underlay.json; read back, as calibrated")
    matrix = w.js("return w.map.underlay.matrix;")
    w.press("#underlay-keep")
    keep = json.loads(b.wait("the kept underlay", lambda: w.js("return w.keptUnderlay && JSON.stringify(w.keptUnderlay);")))
    cal = keep.get("calibration") or {}
    if (keep.get("opsim"), keep.get("scenario"), keep.get("image")) != ("underlay", "special-terrain", "scan.png") \
            or not keep.get("data", "").startswith("data:image/png;base64,") \
            or [cal.get("first", {}).get("hex"), cal.get("second", {}).get("hex")] != hexes[:2]:
        raise Failure(f"the kept underlay is not the scan with its calibration: {dict(keep, data=keep.get('data', '')[:40])}")
    kept = os.path.join(tmp, "special-terrain.underlay.json")
    with open(kept, "w") as f:
        json.dump(keep, f)
    w.js("w.map.underlay = null; w.underlaySource = null; w.calibration = null; w.map.redraw();")
    b.d.find_element(By.ID, "underlay-kept").send_keys(kept)
    b.wait_text("#cal-status", "as kept")
    again = w.js("return w.map.underlay.matrix;")
    if any(abs(x - y) > 1e-9 * max(1, abs(x)) for x, y in zip(matrix, again)):
        raise Failure(f"the kept underlay read back sits elsewhere: {again}, calibrated {matrix}")
    b.step("underlay-kept")
    w.js("w.map.underlay = null; w.map.redraw();")


def side_has(w, a, b, feature):
    return w.js("const s = w.scn.side(w.scn.hexIndex(arguments[0]), w.scn.hexIndex(arguments[1]), false);"
                "return !!s && s.features.includes(arguments[2]);", a, b, feature)


def error_on(w, hex_name):
    """The server's check refuses the document: its error marked on `hex_name`. Returns it."""
    answer = w.checked()
    if answer.get("ok"):
        raise Failure(f"the check passes; an error on {hex_name} was expected")
    w.b.wait_for(f'.map-tag.error[data-hex="{hex_name}"]')
    return answer["error"]["message"]


def passes(w, what):
    answer = w.checked()
    if not answer.get("ok"):
        raise Failure(f"{what}: the check says {answer}")


def blank_theater(w, tmp):
    """A new theater of two sheets; the water areas, waterways, rail ferries, exits and frozen
    zones painted by their tools, each checked by the server; saved, and `opsim map` loads it."""
    b = w.b
    print("a new theater of two sheets, all sea: 1A 12x9 and 1B 12x9 east of it (1A 11 columns wide refused: they would not join)")
    b.d.find_element(By.CSS_SELECTOR, "#new-theater summary").click()
    w.fill("new-name", "straits")
    w.fill("new-sheets", "1A 11x9\n1B 12x9 east of 1A")
    b.d.find_element(By.CSS_SELECTOR, "#new-form button").click()
    b.wait_text("#error-text", 'sheet line 2 ("1B 12x9 east of 1A"): sheets side by side join only across an even number of columns (1A has 11)')
    w.fill("new-sheets", "1A 12x9\n1B 12x9 east of 1A")
    Select(b.d.find_element(By.ID, "new-fill")).select_by_value("sea")
    b.d.find_element(By.CSS_SELECTOR, "#new-form button").click()
    b.wait_text("#doc-info", "216 hexes")
    sheets = w.js("return w.scn.doc.sheets.map((s) => [s.name, s.size, s.origin]);")
    if sheets != [["1A", [12, 9], [0, 0]], ["1B", [12, 9], [12, 0]]]:
        raise Failure(f"the new theater's sheets are {sheets}")
    panel_titles(w, ["sheet 1A + 1B"])

    print("two islands painted with the brush of seven: around 1A:0405 and 1A:0805")
    w.focus_map()
    w.key("2", "c")
    Select(b.d.find_element(By.ID, "brush-size")).select_by_value("1")
    for h in ("1A:0405", "1A:0805"):
        w.click_hex(h)
    b.wait("the islands", lambda: w.hex_terrain("1A:0505") == "clear" and w.hex_terrain("1A:0705") == "clear")
    Select(b.d.find_element(By.ID, "brush-size")).select_by_value("0")
    passes(w, "a blank theater with two islands")

    print("a rail ferry (key T) dragged 1A:0505, 0605, 0705; Ctrl+Z takes it back, Ctrl+Y puts it back")
    w.focus_map()
    w.key("t")
    w.fill("ferry-name", "Straits ferry")
    w.centre_on("1A:0605")
    w.drag_through([w.hex_xy(h) for h in ("1A:0505", "1A:0605", "1A:0705")])
    ferry = [{"name": "Straits ferry", "line": "1A:0505-0605-0705"}]
    b.wait("the rail ferry", lambda: w.js("return w.scn.doc['rail-ferries'];") == ferry)
    if not side_has(w, "1A:0605", "1A:0705", "rail-ferry"):
        raise Failure("the rail ferry's hexside 1A:0605/0705 is not drawn as one")
    w.focus_map()
    w.ctrl("z")
    b.wait("no rail ferry (undo)", lambda: w.js("return w.scn.doc['rail-ferries'] === undefined;")
           and not side_has(w, "1A:0605", "1A:0705", "rail-ferry"))
    w.ctrl("y")
    b.wait("the rail ferry again (redo)", lambda: w.js("return w.scn.doc['rail-ferries'];") == ferry)
    passes(w, "the rail ferry")

    print("1A:0605's water in two bodies (key B): one side left out, the server's error on the hex; then whole")
    w.key("b")
    w.fill("water-bodies", "north: N NE NW; south: S SW")
    w.click_hex("1A:0605")
    said = error_on(w, "1A:0605")
    if "untouched" not in b.text("#check"):
        raise Failure(f"the water areas' error: {said}")
    b.step("water-areas-error")
    w.fill("water-bodies", "north: N NE NW; south: S SW SE")
    w.click_hex("1A:0605")
    passes(w, "1A:0605's two bodies of water")

    print("a navigable waterway (key W) added and dragged along 1A:0605's N and NE hexsides")
    w.focus_map()
    w.key("w")
    w.fill("waterway-name", "Strait")
    w.press("#waterway-navigable")
    w.press("#waterway-add")
    w.centre_on("1A:0605", 60)
    w.drag_through([w.side_mid("1A:0605", "1A:0604"), w.side_mid("1A:0605", "1A:0705")])
    way = w.js("return w.scn.doc.waterways;")
    if way != [{"name": "Strait", "navigable": True, "hexsides": ["1A:0604/0605", "1A:0605/0705"]}]:
        raise Failure(f"the waterway dragged is {way}")
    if w.js("return w.map.overlay.edges.length;") < 2:
        raise Failure("the waterway's hexsides are not outlined")
    passes(w, "the waterway")

    print("an exit (key Q) off the east edge: 1A:1205 refused (1B joins it there), marked; 1B:1205 taken")
    w.focus_map()
    w.key("q")
    w.fill("exit-name", "east edge")
    Select(b.d.find_element(By.ID, "exit-side")).select_by_value("axis")
    Select(b.d.find_element(By.ID, "exit-edge")).select_by_value("east")
    w.fill("exit-total", "east")
    w.press("#exit-new button")
    w.click_hex("1A:1205")
    error_on(w, "1A:1205")
    b.step("exit-error")
    w.focus_map()
    w.key("e")
    w.click_hex("1A:1205")
    w.key("e")
    w.click_hex("1B:1205")
    exits = w.js("return w.scn.doc.exits[0].hexes;")
    if exits != ["1B:1205"]:
        raise Failure(f"the exit's hexes are {exits}")
    passes(w, "the exit on 1B's east edge")

    print("weather zone B on 1B:0505, frozen at the start")
    w.key("0")
    w.fill("zone-letter", "B")
    w.click_hex("1B:0505")
    w.press("#zone-frozen")
    if w.js("return w.scn.doc.state['frozen-zones'];") != ["B"]:
        raise Failure("zone B is not frozen at the start")
    passes(w, "zone B frozen")
    b.step("tools")

    print("saved: opsim map loads the file, with its ferry, water areas, waterway, exit and frozen zone")
    text = w.save()
    path = os.path.join(tmp, "straits.json")
    with open(path, "w") as f:
        f.write(text)
    r = subprocess.run([w.opsim, "map", "--scenario", path, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        raise Failure(f"opsim map --scenario {path} exits {r.returncode}: {r.stderr}")
    m = json.loads(r.stdout)
    got = ([s["name"] for s in m["sheets"]], m["rail_ferries"], [x["name"] for x in m["waterways"]],
           [(x["name"], x["hexes"]) for x in m["exits"]], sorted(m["weather_zones"]))
    want = (["1A", "1B"], [{"from": "1A:0505", "name": "Straits ferry", "to": "1A:0705"}], ["Strait"], [("east edge", 1)], ["A", "B"])
    if got != want or '"frozen-zones": ["B"]' not in text:
        raise Failure(f"opsim map of the saved file: {got}, not {want} (frozen: {'frozen-zones' in text})")
    h = json.loads(subprocess.run([w.opsim, "map", "--scenario", path, "--hex", "1A:0605", "--json"],
                                  capture_output=True, text=True, check=True).stdout)
    ferried = sorted(s["dir"] for s in h["hexsides"] if "rail-ferry" in s["features"])
    bodies = [(a["name"], sorted(a["sides"])) for a in h["water_areas"]]
    if ferried != ["NE", "NW"] or bodies != [("north", ["N", "NE", "NW"]), ("south", ["S", "SE", "SW"])]:
        raise Failure(f"opsim map: 1A:0605's rail-ferry hexsides are {ferried}, its water areas {bodies}")


def generated(w, tmp):
    b = w.b
    print("the generated 100,000-hex scenario opened from the disk")
    gen = os.path.join(tmp, "generated.json")
    subprocess.run([w.opsim, "generate", "--hexes", "100000", "--units", "2000", "--seed", "1", "--out", gen],
                   check=True, stdout=subprocess.DEVNULL)
    w.js("w.openedMs = 0;")
    b.d.find_element(By.ID, "open-file").send_keys(gen)
    b.wait("the generated theater drawn", lambda: w.js("return w.openedMs;"), 120)
    hexes, ms = w.js("return [w.scn.hexes.length, w.openedMs];")
    if hexes < 100000:
        raise Failure(f"the generated theater has {hexes} hexes in the workshop")
    print(f"editor: the {hexes}-hex generated scenario opened and drawn in {ms:.0f} ms")
    answer = w.checked()
    if not answer.get("ok"):
        raise Failure(f"the generated scenario does not check in the workshop: {answer}")
    if w.save() != cli_format(w.opsim, gen):
        raise Failure("the generated scenario saved unchanged differs from opsim scenario format's text")
    # A brush stroke on it, as a click makes: the edit, the cells built again and the view drawn.
    paint_ms, check_ms = w.js("""const i = w.scn.hexes.findIndex((h) => h.terrain === 'clear'), t = performance.now();
        w.map.centerOn(i); w.begin(); w.take(w.scn.setTerrain(i, 'rough')); w.end(); w.map.draw();
        const painted = performance.now() - t, c = performance.now();
        return w.api.check(JSON.stringify(w.scn.doc)).then(() => [painted, performance.now() - c]);""")
    print(f"editor: on it, a hex painted and the view drawn again in {paint_ms:.0f} ms; "
          f"the server's check of the whole document {check_ms:.0f} ms")
    b.step("generated")


def run(opsim, out, url):
    games = tempfile.mkdtemp(prefix="opsim-browser-editor-")
    server = Server(opsim, games, url)
    b = None
    try:
        b = Browser("editor", out, size=(1500, 950))
        w = Workshop(b, opsim)
        print("the games list links the workshop, at /edit")
        b.d.get(server.url + "/")
        b.wait_for("#workshop-link").click()
        b.wait("the workshop", lambda: b.d.current_url.endswith("/edit"))
        bundled_round_trip(w, games)
        paint(w)
        unit_on_sea(w)
        save_and_play(w, server, games)
        underlay(w, games)
        blank_theater(w, games)
        generated(w, games)
        words = b.js("return document.querySelector('aside').innerText")
        for bad in ("undefined", "[object", "NaN"):
            if bad in words:
                raise Failure(f"editor: the page says '{bad}'")
        print("editor: passed")
    finally:
        if b:
            b.quit()
        server.stop()
        shutil.rmtree(games, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run_modes({"editor": run}, __doc__))
