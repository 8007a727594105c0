#!/usr/bin/env python3
"""Builds scenarios/low-countries-1940.json from geography.json and order-of-battle.json.

Every hex, hexside, place and unit of the bundled campaign comes from the latitudes and
longitudes in those two files (public knowledge), projected here onto opsim's grid of
flat-topped 16-mile hexes (docs/scenario-format.md, "Sheets and the global grid"):

  - a sinusoidal projection about the grid's central meridian, hex centres 25.75 km apart;
  - a hex is land, lake, sea or off the theater by where its centre lies;
  - rivers and canals run along hexsides: each polyline goes from hex corner to hex corner,
    the path nearest its line;
  - roads and railroads run hex to hex between their towns, the path nearest the line;
  - places and supply sources go to the hex their point lies in; units stand in the hexes
    order-of-battle.json names.

  python3 build.py            writes ../../low-countries-1940.json
  python3 build.py --check    exits 1 if the committed file differs from what this writes

Standard library only. The output is deterministic: the same inputs give the same bytes.
"""
import heapq
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.normpath(os.path.join(HERE, "..", "..", "low-countries-1940.json"))


def fail(message):
    sys.exit("build.py: " + message)


class Grid:
    """The sheet's hexes: flat-topped, in vertical columns, even columns half a hex lower."""

    def __init__(self, g):
        self.sheet = g["sheet"]
        self.d = g["hex-km"]  # centre to centre
        self.r = self.d / math.sqrt(3)  # centre to corner
        self.lon0 = g["central-meridian"]
        self.north = g["north"]
        self.west = g["west-km"]
        self.cols = g["columns"]
        self.rows = g["rows"]

    def project(self, lat, lon):
        x = (lon - self.lon0) * 111.32 * math.cos(math.radians(lat)) - self.west
        y = (self.north - lat) * 111.2
        return x, y

    def centre(self, c, r):
        return c * 1.5 * self.r, (r + (0.5 if c % 2 == 0 else 0.0)) * self.d

    def hexes(self):
        return [(c, r) for r in range(1, self.rows + 1) for c in range(1, self.cols + 1)]

    def on_map(self, h):
        return 1 <= h[0] <= self.cols and 1 <= h[1] <= self.rows

    def at(self, lat, lon):
        x, y = self.project(lat, lon)
        c0 = round(x / (1.5 * self.r))
        best = None
        for c in range(c0 - 1, c0 + 2):
            r0 = round(y / self.d - (0.5 if c % 2 == 0 else 0.0))
            for r in range(r0 - 1, r0 + 2):
                cx, cy = self.centre(c, r)
                dist = (cx - x) ** 2 + (cy - y) ** 2
                if best is None or dist < best[0]:
                    best = (dist, (c, r))
        h = best[1]
        if not self.on_map(h):
            fail(f"point {lat}, {lon} is off the grid")
        return h

    @staticmethod
    def neighbours(h):
        c, r = h
        if c % 2 == 0:
            return [(c, r - 1), (c + 1, r), (c + 1, r + 1), (c, r + 1), (c - 1, r + 1), (c - 1, r)]
        return [(c, r - 1), (c + 1, r - 1), (c + 1, r), (c, r + 1), (c - 1, r), (c - 1, r - 1)]

    @staticmethod
    def corners(h):
        """The six corners, on an integer lattice of half a corner radius by half a hex."""
        c, r = h
        x, y = 3 * c, 2 * r + (1 if c % 2 == 0 else 0)
        return [(x - 1, y - 1), (x + 1, y - 1), (x + 2, y), (x + 1, y + 1), (x - 1, y + 1), (x - 2, y)]

    def corner_km(self, v):
        return v[0] * self.r / 2, v[1] * self.d / 2

    def hex(self, token):
        if not token.startswith(self.sheet + ":") or len(token) != len(self.sheet) + 5:
            fail(f"{token} is not a hex of sheet {self.sheet}")
        h = (int(token[-4:-2]), int(token[-2:]))
        if not self.on_map(h):
            fail(f"{token} is off the sheet")
        return h

    def token(self, h):
        return f"{self.sheet}:{h[0]:02d}{h[1]:02d}"

    def side_token(self, a, b):
        a, b = sorted([a, b])
        return f"{self.sheet}:{a[0]:02d}{a[1]:02d}/{b[0]:02d}{b[1]:02d}"


def inside(point, polygon):
    x, y = point
    result = False
    for i in range(len(polygon)):
        x1, y1 = polygon[i - 1]
        x2, y2 = polygon[i]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result


def segment_distance(p, a, b):
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def nearest_path(start, goal, steps, position, line):
    """Dijkstra from start to goal over steps(node), each step costing its length plus twice its
    end's distance from the straight line: the path that keeps nearest the line."""
    a, b = position(line[0]), position(line[1])
    queue = [(0.0, start)]
    cost = {start: 0.0}
    back = {}
    while queue:
        here_cost, here = heapq.heappop(queue)
        if here == goal:
            break
        if here_cost > cost[here]:
            continue
        for nxt in steps(here):
            p = position(nxt)
            step = math.dist(position(here), p) + 2 * segment_distance(p, a, b)
            if here_cost + step < cost.get(nxt, math.inf):
                cost[nxt] = here_cost + step
                back[nxt] = here
                heapq.heappush(queue, (cost[nxt], nxt))
    if goal not in cost:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(back[path[-1]])
    return path[::-1]


class Builder:
    def __init__(self, geo, oob):
        self.geo = geo
        self.oob = oob
        self.g = Grid(geo["grid"])
        self.terrain = {}
        self.coast = {}
        self.country = {}
        self.features = {}  # hexside token -> set of kinds
        self.water = {}  # hexside token -> explicit water
        self.places = {}  # hex -> place
        self.points = {}  # name -> (lat, lon)

    def poly(self, points):
        return [self.g.project(lat, lon) for lat, lon in points]

    def land(self, h):
        return self.terrain.get(h, ".") not in "~=."

    # --- hexes -----------------------------------------------------------------------------
    def classify(self):
        """Each hex by its centre; the hexes of places and of the Afsluitdijk's ends are land
        whatever their centres say (a coastal town's hex is land at this scale)."""
        g = self.g
        dike = self.geo["afsluitdijk"]
        forced = {g.at(*p["at"]) for p in self.geo["places"]}
        forced |= {g.at(*dike["from"]), g.at(*dike["to"])}
        land = self.poly(self.geo["land"])
        outside = [self.poly(p) for p in self.geo["not-theater"].values()]
        lakes = [self.poly(p) for p in self.geo["lakes"].values()]
        regions = [(t["code"], self.poly(t["polygon"])) for t in self.geo["terrain"]]
        countries = [(c["name"], self.poly(c["polygon"])) for c in self.geo["countries"]]
        for h in g.hexes():
            p = g.centre(*h)
            if any(inside(p, o) for o in outside):
                self.terrain[h] = "."
            elif h not in forced and any(inside(p, lake) for lake in lakes):
                self.terrain[h] = "="
            elif h in forced or inside(p, land):
                self.terrain[h] = next((code for code, poly in regions if inside(p, poly)), "c")
                self.country[h] = next(name for name, poly in countries if inside(p, poly))
            else:
                self.terrain[h] = "~"
        # Open sea far from the coast is left off the theater.
        reach = self.geo["grid"]["sea-reach"]
        near = {h for h in g.hexes() if self.land(h)}
        for _ in range(reach):
            near |= {n for h in near for n in g.neighbours(h) if g.on_map(n)}
        for h in g.hexes():
            if self.terrain[h] == "~" and h not in near:
                self.terrain[h] = "."
        for h in g.hexes():
            if not self.land(h):
                continue
            around = [self.terrain.get(n, ".") for n in g.neighbours(h)]
            self.coast[h] = "s" if "~" in around else ("l" if "=" in around else ".")

    def causeway(self):
        dike = self.geo["afsluitdijk"]
        a, b = self.g.at(*dike["from"]), self.g.at(*dike["to"])
        if b not in self.g.neighbours(a) or not (self.land(a) and self.land(b)):
            fail(f"the Afsluitdijk's ends {self.g.token(a)} and {self.g.token(b)} are not two "
                 "neighbouring land hexes")
        # Both ends touch the IJsselmeer; the hexside between them is its water, which the
        # road on the dike crosses (41.A.1).
        self.coast[a] = self.coast[b] = "l"
        side = self.g.side_token(a, b)
        self.water[side] = "lake"
        self.features.setdefault(side, set()).add("road")
        self.dike = (a, b)
        self.points["Den Oever"] = tuple(dike["from"])
        self.points["Zurich"] = tuple(dike["to"])

    # --- hexsides ---------------------------------------------------------------------------
    def corner_graph(self):
        """Corners joined by the hexsides between two land hexes."""
        self.edges = {}
        self.between = {}
        for h in self.g.hexes():
            if not self.land(h):
                continue
            corners = Grid.corners(h)
            for i, n in enumerate(Grid.neighbours(h)):
                if self.g.on_map(n) and self.land(n) and {h, n} != set(self.dike):
                    u, v = corners[i], corners[(i + 1) % 6]
                    self.edges.setdefault(u, set()).add(v)
                    self.edges.setdefault(v, set()).add(u)
                    self.between[frozenset((u, v))] = (h, n)

    def line_of(self, line):
        """The hexsides along a polyline, in order, each meeting the next at a corner."""
        pts = [self.g.project(lat, lon) for lat, lon in line["points"]]
        corners = sorted(self.edges)

        def snap(p):
            return min(corners, key=lambda v: (math.dist(self.g.corner_km(v), p), v))

        sides = []
        for a, b in zip(pts, pts[1:]):
            path = nearest_path(snap(a), snap(b), lambda v: sorted(self.edges[v]),
                                self.g.corner_km, (snap(a), snap(b)))
            if path is None:
                fail(f"{line['name']}: no line of hexsides from {a} to {b}")
            for u, v in zip(path, path[1:]):
                h, n = self.between[frozenset((u, v))]
                sides.append(self.g.side_token(h, n))
        return sides

    def rivers(self):
        for kind, rivers in self.geo["rivers"].items():
            for river in rivers:
                for s in self.line_of(river):
                    self.features.setdefault(s, set()).add(kind)

    def waterways(self):
        """Navigable waterways: the river mouths that lead to the inland ports (B6.3)."""
        ways = []
        for way in self.geo["waterways"]:
            sides = self.line_of(way)
            for s in sides:
                if not self.features.get(s, set()) & {"major-river", "minor-river", "canal"}:
                    fail(f"waterway {way['name']}: {s} carries no river or canal")
            ways.append({"name": way["name"], "navigable": True, "hexsides": sides})
        return ways

    def hex_of(self, name):
        if name not in self.points:
            fail(f"no place or town named {name!r}")
        h = self.g.at(*self.points[name])
        if not self.land(h):
            fail(f"{name} falls in {self.g.token(h)}, which is not land")
        return h

    def route(self, kind, names):
        def steps(h):
            return [n for n in Grid.neighbours(h) if self.g.on_map(n) and self.land(n)
                    and {h, n} != set(self.dike)]

        chain = [self.hex_of(names[0])]
        for a, b in zip(names, names[1:]):
            ha, hb = self.hex_of(a), self.hex_of(b)
            if {ha, hb} == set(self.dike):
                path = [ha, hb]
            else:
                path = nearest_path(ha, hb, steps, lambda h: self.g.centre(*h), (ha, hb))
            if path is None:
                fail(f"{kind} {a} to {b}: no land path")
            chain += path[1:]
        for h, n in zip(chain, chain[1:]):
            if h != n:
                self.features.setdefault(self.g.side_token(h, n), set()).add(kind)

    def borders(self):
        for h in self.g.hexes():
            for n in Grid.neighbours(h):
                if h < n and h in self.country and n in self.country:
                    if self.country[h] != self.country[n]:
                        self.features.setdefault(self.g.side_token(h, n), set()).add("border")

    # --- places, units ----------------------------------------------------------------------
    def place(self):
        for name, at in self.geo["towns"].items():
            self.points[name] = tuple(at)
        for p in self.geo["places"]:
            self.points[p["name"]] = tuple(p["at"])
            h = self.hex_of(p["name"])
            if h in self.places:
                fail(f"{p['name']} and {self.places[h]['name']} fall in one hex, {self.g.token(h)}")
            if "port" in p and not p.get("inland") and self.coast[h] != "s":
                fail(f"{p['name']}'s port in {self.g.token(h)} has no sea coast")
            self.places[h] = p

    def units(self):
        side_of = self.oob["nationalities"]
        stacks = {}
        units = []
        for u in self.oob["units"]:
            h = self.g.hex(u["hex"])
            if not self.land(h):
                fail(f"unit {u['id']} stands in {self.g.token(h)}, which is not land")
            side = side_of[u["nationality"]]
            owner = next(c["side"] for c in self.geo["countries"] if c["name"] == self.country[h])
            if owner != side:
                fail(f"unit {u['id']} stands in {self.g.token(h)}, which its side does not own")
            if "arrives" not in u:  # a reinforcement counts for stacking once it enters (B16.1)
                key = (h, side)
                stacks[key] = stacks.get(key, 0) + u["re"]
                if stacks[key] > 3:
                    fail(f"unit {u['id']}: {stacks[key]} REs in {self.g.token(h)} break stacking "
                         "(B3.2)")
            unit = {k: u[k] for k in ("id", "name", "nationality", "type", "attack", "defense",
                                      "mp", "re")}
            unit["hex"] = self.g.token(h)
            if "arrives" in u:
                unit["arrives"] = u["arrives"]
            units.append(unit)
        air = []
        for a in self.oob["air"]:
            h = self.hex_of(a["base"])
            if not self.places[h].get("airbase"):
                fail(f"air unit {a['id']}: {a['base']} has no airbase")
            air.append({"id": a["id"], "name": a["name"], "nationality": a["nationality"],
                        "hex": self.g.token(h)})
        return units, air

    # --- the file ---------------------------------------------------------------------------
    def scenario(self):
        self.classify()
        self.causeway()
        self.place()
        self.corner_graph()
        self.rivers()
        for kind in ("road", "railroad"):
            for line in self.geo[kind + "s"]:
                self.route(kind, line)
        self.borders()
        waterways = self.waterways()
        units, air = self.units()
        g = self.g
        grid = [[self.terrain[(c, r)] for c in range(1, g.cols + 1)] for r in range(1, g.rows + 1)]
        coast = [[self.coast.get((c, r), ".") for c in range(1, g.cols + 1)]
                 for r in range(1, g.rows + 1)]
        hexsides = {}
        for kind in ("major-river", "minor-river", "canal", "road", "railroad", "border"):
            hexsides[kind] = sorted(s for s, kinds in self.features.items() if kind in kinds)
        hexsides["lake"] = sorted(s for s, w in self.water.items() if w == "lake")
        places = []
        for h in sorted(self.places, key=lambda h: (h[1], h[0])):
            p = self.places[h]
            place = {"hex": g.token(h), "name": p["name"]}
            for key in ("city", "port", "inland", "airbase"):
                if key in p:
                    place[key] = p[key]
            places.append(place)
        land = [h for h in g.hexes() if self.land(h)]
        side = {c["name"]: c["side"] for c in self.geo["countries"]}
        control = {s: [g.token(h) for h in land if side[self.country[h]] == s]
                   for s in ("axis", "allied")}
        sources = {s: [g.token(self.hex_of(n)) for n in names]
                   for s, names in self.geo["supply-sources"].items()}
        campaign = {k: self.oob[k] for k in ("start", "first", "nationalities", "srp",
                                            "relief-pool", "rail-capacity",
                                            "netherlands-surrendered")}
        campaign["supply-sources"] = sources
        campaign["units"] = units
        campaign["air"] = air
        v = self.oob["victory"]
        campaign["victory"] = {
            "end": v["end"],
            "objectives": [{"hex": g.token(self.hex_of(name)), "name": name, "points": points}
                           for name, points in v["objectives"]],
            "levels": v["levels"]}
        return {
            "opsim": "scenario",
            "version": 1,
            "name": "low-countries-1940",
            "title": "The Low Countries and France, May-June 1940",
            "notes": self.oob["notes"] + [
                f"{len(land)} land hexes on one sheet, {g.sheet}, with opsim's own numbering "
                f"({g.cols} columns by {g.rows} rows, 16-mile hexes). Generated by "
                "scenarios/sources/low-countries-1940/build.py from the latitudes and longitudes "
                "in geography.json and order-of-battle.json beside it; edit those and rerun it."],
            "sheets": [{"name": g.sheet, "size": [g.cols, g.rows], "origin": [0, 0],
                        "first": [1, 1], "zone": self.geo["grid"]["zone"],
                        "terrain": ["".join(row) for row in grid],
                        "coast": ["".join(row) for row in coast]}],
            "places": places,
            "hexsides": hexsides,
            "waterways": waterways,
            "areas": [{"name": "Netherlands", "role": "netherlands",
                       "hexes": [g.token(h) for h in land if self.country[h] == "netherlands"]}],
            "state": {"control": control},
            "campaign": campaign,
        }


def dump(value, indent=0):
    """JSON laid out for people: objects one key a line, lists of scalars and small objects on
    one line, lists of objects one a line."""
    pad = "  " * indent
    inner = "  " * (indent + 1)
    if isinstance(value, dict):
        flat = json.dumps(value, ensure_ascii=False)
        if indent >= 2 and all(not isinstance(v, (dict, list)) or not v for v in value.values()):
            return flat
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dump(v, indent + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            if value and isinstance(value[0], str) and len(value[0]) > 20:
                return "[\n" + ",\n".join(inner + json.dumps(v, ensure_ascii=False)
                                          for v in value) + "\n" + pad + "]"
            return json.dumps(value, ensure_ascii=False)
        return "[\n" + ",\n".join(inner + dump(v, indent + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def main():
    with open(os.path.join(HERE, "geography.json"), encoding="utf-8") as f:
        geo = json.load(f)
    with open(os.path.join(HERE, "order-of-battle.json"), encoding="utf-8") as f:
        oob = json.load(f)
    text = dump(Builder(geo, oob).scenario()) + "\n"
    if sys.argv[1:] == ["--check"]:
        with open(OUTPUT, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit(f"build.py: {OUTPUT} is not what build.py writes: rerun build.py")
        return
    if sys.argv[1:]:
        sys.exit("usage: build.py [--check]")
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
