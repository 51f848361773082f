"""Maps as data: the board of Conquest of Nerath in a documented JSON format, loaded and validated.

The real board's region list is not public (shared/data/nerath-facts.md §8.1), so the
package ships the project's own reconstruction (`nerath`, the default) and a small test map
(`small`). A user who owns the game enters the real board by writing the same format (one
region per printed space) and passing its path as `Rules(map="/path/to/board.json")`.

File format (JSON, ``"format": "nerathsim-map/1"``)::

    {
      "format": "nerathsim-map/1",
      "name": "small",                         # short name (used in messages)
      "title": "...", "notes": ["...", ...],   # free text, shown by `describe_map`
      "realms": {                              # exactly the four realms
        "karkoth": {"gold": 6, "income": 5},   # starting gold; base income (reference card;
        ...                                    #   default: the sum of its starting regions' gold)
      },
      "regions": [
        {"name": "Kar", "type": "land",        # "land" or "sea"
         "owner": "karkoth",                   # land only: the realm holding it at the start
         "start_area": "karkoth",              # optional; the starting area it belongs to (default owner)
         "capital": true,                      # optional; exactly one per realm
         "castle": true,                       # optional; a castle of the owner stands there
         "dungeon": false,                     # optional; a dungeon entrance (no owner, no units)
         "gold": 2,                            # gold value of the region (land; default 0)
         "units": {"footsoldier": 2},          # land: the owner's units; or {"realm": {"unit": n}}
         "adjacent": ["Kmarch", "North Sea"]}, # neighbours, listed on both sides
        {"name": "North Sea", "type": "sea",
         "units": {"vailin": {"warship": 2, "footsoldier": 1}},   # land units at sea ride the warships
         "adjacent": ["Kar", ...]}
      ]
    }

Validation raises `MapError` (a ValueError) naming the map, the region and the problem:
unknown or asymmetric neighbours, a sea unit on land, a land unit at sea without room on
warships, a realm without (or with two) capitals, disconnected regions, unknown unit types,
units on a region their realm does not hold, castles or owners at sea or on dungeons, and
sizes no game can play: more than MAX_UNIT_COUNT units of a type on a region, or a gold
value, starting gold or income above MAX_GOLD.
"""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .battle.units import UnitTable
from .frozen import FrozenDict

FORMAT = "nerathsim-map/1"
#: realm names in the order of the seed's four-player table (Karkoth, Vailin, Iron Circle, Nerath)
REALMS = ("karkoth", "vailin", "iron_circle", "nerath")
MAP_DIR = Path(__file__).parent / "data" / "maps"
SHIPPED_MAPS = ("nerath", "small", "nerath_uncapped")
#: sizes beyond any printed board (the published one: a few units per region, gold 1-3, treasuries
#: under 50): a map above them is refused at load time instead of running out of memory or time
MAX_UNIT_COUNT = 1000   # units of one type on one region
MAX_GOLD = 1000         # a region's gold value, a realm's starting gold or base income

_REGION_KEYS = {"name", "type", "owner", "start_area", "capital", "castle", "dungeon", "gold", "units", "adjacent",
                "notes"}
_REALM_KEYS = {"gold", "income", "title", "colour", "color", "notes"}
_TOP_KEYS = {"format", "name", "title", "notes", "realms", "regions", "layout"}


class MapError(ValueError):
    """A map file that breaks the format; the message names the map, the region and the problem."""


@dataclass(frozen=True, eq=False)
class Board:
    """A validated map. Regions are indices 0..n-1 (file order); realms are indices into REALMS.

    Everything is a tuple so that a Board can be shared by every game that uses it.
    """

    name: str
    title: str
    notes: tuple[str, ...]
    names: tuple[str, ...]
    is_sea: tuple[bool, ...]
    is_dungeon: tuple[bool, ...]
    owner: tuple[int, ...]            # starting owner realm, -1 for seas and dungeons
    start_area: tuple[int, ...]       # realm whose starting area holds the region, -1 none
    capital_of: tuple[int, ...]       # realm whose capital it is, -1 none
    castle: tuple[bool, ...]          # a castle stands there at the start
    gold: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]
    units: tuple[tuple[tuple[int, str, int], ...], ...]  # per region: (realm, unit name, count)
    realm_gold: tuple[int, ...]
    realm_income: tuple[int, ...]
    source: str = ""
    index: dict = field(default_factory=dict, repr=False)
    #: {realm: {unit: count}}: each realm's starting units on its own land (every land or flying unit
    #: type but the castle; units at sea not counted). None: counted from `units`. A Board made with
    #: other counts (``dataclasses.replace(board, realm_units=...)``, the re-balancing knob
    #: ``map.realm_units.<realm>.<unit>``) moves `units` to them: see `place_realm_units`.
    realm_units: dict | None = None

    def __post_init__(self):
        # read-only derived data, built once: nothing a game or a policy reaches through the board changes
        set_ = object.__setattr__
        set_(self, "index", FrozenDict(self.index))
        wanted = self.realm_units
        if wanted is not None:
            _check_counts(self.name, wanted)
        counted = _count_units(self.units, self.owner, self.is_sea, wanted)
        if wanted is not None and _plain(wanted) != _plain(counted):
            set_(self, "units", place_realm_units(self, wanted))
            counted = _count_units(self.units, self.owner, self.is_sea, wanted)
        set_(self, "realm_units", counted)
        n = len(self.names)
        set_(self, "_land", tuple(r for r in range(n) if not self.is_sea[r] and not self.is_dungeon[r]))
        set_(self, "_sea", tuple(r for r in range(n) if self.is_sea[r]))
        rings = []
        for r in range(n):
            one = tuple(self.adj[r])
            seen = {r, *one}
            two = []
            for x in one:
                for y in self.adj[x]:
                    if y not in seen:
                        seen.add(y)
                        two.append(y)
            rings.append((one, tuple(two)))
        set_(self, "_rings", tuple(rings))

    @property
    def land_regions(self) -> tuple[int, ...]:
        """Land regions a realm can hold (not seas, not dungeons)."""
        return self._land

    @property
    def sea_regions(self) -> tuple[int, ...]:
        return self._sea

    def rings(self, r: int) -> tuple:
        """(regions one step from r, regions exactly two steps from r)."""
        return self._rings[r]

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def capitals(self) -> tuple[int, ...]:
        """Region of each realm's capital."""
        return tuple(self.capital_of.index(p) for p in range(len(REALMS)))

    @property
    def coastal(self) -> tuple[bool, ...]:
        """Land regions that border a sea."""
        return tuple(not self.is_sea[r] and any(self.is_sea[x] for x in self.adj[r]) for r in range(self.n))

    def region(self, name_or_index) -> int:
        """Region index from a name (exact, then case-insensitive) or an index."""
        if isinstance(name_or_index, bool):
            raise ValueError(f"map {self.name!r}: region must be a name or an index, got {name_or_index!r}")
        if isinstance(name_or_index, int):
            if 0 <= name_or_index < self.n:
                return name_or_index
            raise ValueError(f"map {self.name!r}: region index {name_or_index} out of range 0..{self.n - 1}")
        if isinstance(name_or_index, str):
            r = self.index.get(name_or_index)
            if r is None:
                r = self.index.get(name_or_index.strip().lower())
            if r is not None:
                return r
            raise ValueError(f"map {self.name!r}: unknown region {name_or_index!r}")
        raise ValueError(f"map {self.name!r}: region must be a name or an index, got {name_or_index!r}")

    def distances(self, src: int) -> list[int]:
        """Steps from `src` to every region over the whole graph (land and sea)."""
        dist = [-1] * self.n
        dist[src] = 0
        q = deque([src])
        while q:
            r = q.popleft()
            for x in self.adj[r]:
                if dist[x] < 0:
                    dist[x] = dist[r] + 1
                    q.append(x)
        return dist

    def kind(self, r: int) -> str:
        return "sea" if self.is_sea[r] else ("dungeon" if self.is_dungeon[r] else "land")

    def __repr__(self):
        land = sum(1 for r in range(self.n) if not self.is_sea[r] and not self.is_dungeon[r])
        return (f"Board({self.name!r}: {self.n} regions — {land} land, {sum(self.is_dungeon)} dungeons, "
                f"{sum(self.is_sea)} sea)")


# ---------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------
def map_path(name_or_path) -> Path:
    """Path of a shipped map ('nerath', 'small') or of a user's file."""
    s = str(name_or_path)
    if s in SHIPPED_MAPS:
        return MAP_DIR / f"{s}.json"
    return Path(s)


def load_map(name_or_path="nerath", units: UnitTable | None = None) -> Board:
    """Load and validate a map: a shipped name ('nerath', 'small') or a path to a JSON file."""
    units = units or UnitTable.published()
    return _load_cached(str(name_or_path), units)


@lru_cache(maxsize=32)
def _load_cached(name_or_path: str, units: UnitTable) -> Board:
    path = map_path(name_or_path)
    label = name_or_path
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        known = ", ".join(SHIPPED_MAPS)
        raise MapError(f"map {label!r}: cannot read {path} ({exc.strerror or exc}); shipped maps: {known}, "
                       f"or give the path of a JSON map file") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"map {label!r}: {path} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
                       f"{exc.msg})") from None
    return parse_map(data, units, source=str(path))


def parse_map(data: dict, units: UnitTable | None = None, source: str = "") -> Board:
    """Validate map data (the parsed JSON) and build a Board."""
    units = units or UnitTable.published()
    if not isinstance(data, dict):
        raise MapError(f"map: the top level must be a JSON object, got {type(data).__name__}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise MapError("map: 'name' must be a non-empty string")

    def err(msg: str):
        raise MapError(f"map {name!r}: {msg}")

    if data.get("format") != FORMAT:
        err(f"'format' must be {FORMAT!r}, got {data.get('format')!r}")
    extra = set(data) - _TOP_KEYS
    if extra:
        err(f"unknown top-level key(s) {', '.join(sorted(extra))}; allowed: {', '.join(sorted(_TOP_KEYS))}")
    notes = data.get("notes", ())
    if isinstance(notes, str):
        notes = (notes,)
    if not isinstance(notes, (list, tuple)) or not all(isinstance(x, str) for x in notes):
        err("'notes' must be a string or a list of strings")

    # realms ------------------------------------------------------------------------------
    realms = data.get("realms")
    if not isinstance(realms, dict):
        err("'realms' must be an object {realm: {gold, income}}")
    unknown = [k for k in realms if k not in REALMS]
    if unknown:
        err(f"unknown realm(s) {', '.join(map(repr, unknown))}; realms: {', '.join(REALMS)}")
    missing = [k for k in REALMS if k not in realms]
    if missing:
        err(f"realm(s) {', '.join(missing)} missing from 'realms' (a map has all four realms)")
    for rn, info in realms.items():
        if not isinstance(info, dict):
            err(f"realm {rn!r}: must be an object with 'gold' and optionally 'income'")
        bad = set(info) - _REALM_KEYS
        if bad:
            err(f"realm {rn!r}: unknown key(s) {', '.join(sorted(bad))}; allowed: gold, income, title, colour, notes")
        for k in ("gold", "income"):
            v = info.get(k, 0)
            if k == "gold" and k not in info:
                err(f"realm {rn!r}: 'gold' (starting gold) is required")
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                err(f"realm {rn!r}: {k!r} must be a non-negative integer, got {v!r}")
            if v > MAX_GOLD:
                err(f"realm {rn!r}: {k!r} is {v:,}, above the limit of {MAX_GOLD:,} (nerathsim.maps.MAX_GOLD)")

    # regions -----------------------------------------------------------------------------
    regions = data.get("regions")
    if not isinstance(regions, list) or not regions:
        err("'regions' must be a non-empty list of region objects")
    names: list[str] = []
    index: dict[str, int] = {}
    for i, reg in enumerate(regions):
        if not isinstance(reg, dict):
            err(f"region #{i}: must be an object, got {reg!r}")
        rn = reg.get("name")
        if not isinstance(rn, str) or not rn.strip():
            err(f"region #{i}: 'name' must be a non-empty string")
        if rn in index:
            err(f"region {rn!r} is listed twice")
        if rn.lower() in index and index[rn.lower()] != i:
            err(f"region {rn!r}: name differs from another region only by case")
        index[rn] = i
        index.setdefault(rn.lower(), i)
        names.append(rn)
    n = len(names)
    is_sea, is_dungeon, owner, start_area, capital_of, castle, gold = [], [], [], [], [], [], []
    adj: list[tuple[int, ...]] = []
    start_units: list[tuple] = []
    for i, reg in enumerate(regions):
        rn = names[i]

        def rerr(msg: str, rn=rn):
            err(f"region {rn!r}: {msg}")

        bad = set(reg) - _REGION_KEYS
        if bad:
            rerr(f"unknown key(s) {', '.join(sorted(bad))}; allowed: {', '.join(sorted(_REGION_KEYS))}")
        kind = reg.get("type")
        if kind not in ("land", "sea"):
            rerr(f"'type' must be 'land' or 'sea', got {kind!r}")
        sea = kind == "sea"
        for flag in ("capital", "castle", "dungeon"):
            if not isinstance(reg.get(flag, False), bool):
                rerr(f"{flag!r} must be true or false, got {reg.get(flag)!r}")
        dungeon = bool(reg.get("dungeon", False))
        if sea and dungeon:
            rerr("a dungeon entrance must be a land region, not sea")
        own = reg.get("owner")
        if sea or dungeon:
            if own is not None:
                rerr(f"a {'sea' if sea else 'dungeon'} region has no owner (got owner {own!r})")
            for flag in ("capital", "castle"):
                if reg.get(flag):
                    rerr(f"a {'sea' if sea else 'dungeon'} region cannot hold a {flag}")
            o = -1
        else:
            if own not in REALMS:
                rerr(f"a land region needs an 'owner' among {', '.join(REALMS)}, got {own!r} "
                     f"(every territory starts owned; use \"dungeon\": true for a dungeon entrance)")
            o = REALMS.index(own)
        sa = reg.get("start_area", own if o >= 0 else None)
        if sa is not None and sa not in REALMS:
            rerr(f"'start_area' must be one of {', '.join(REALMS)}, got {sa!r}")
        if (sea or dungeon) and sa is not None:
            rerr("a sea or dungeon region belongs to no starting area")
        g = reg.get("gold", 0)
        if isinstance(g, bool) or not isinstance(g, int) or g < 0:
            rerr(f"'gold' must be a non-negative integer, got {g!r}")
        if g > MAX_GOLD:
            rerr(f"'gold' is {g:,}, above the limit of {MAX_GOLD:,} (nerathsim.maps.MAX_GOLD)")
        if (sea or dungeon) and g:
            rerr("only land regions that a realm can hold have a gold value")
        is_sea.append(sea)
        is_dungeon.append(dungeon)
        owner.append(o)
        start_area.append(REALMS.index(sa) if sa is not None else -1)
        capital_of.append(o if reg.get("capital", False) else -1)
        castle.append(bool(reg.get("castle", False)))
        gold.append(g)
        nb = reg.get("adjacent")
        if not isinstance(nb, list) or not nb:
            rerr("'adjacent' must be a non-empty list of region names")
        out = []
        for x in nb:
            if not isinstance(x, str) or x not in index:
                rerr(f"neighbour {x!r} is not a region of the map")
            j = index[x]
            if j == i:
                rerr("lists itself as a neighbour")
            if j in out:
                rerr(f"lists neighbour {x!r} twice")
            out.append(j)
        adj.append(tuple(out))
        start_units.append(_parse_units(reg.get("units", {}), rn, o, sea, dungeon, units, rerr))
    for i in range(n):
        for j in adj[i]:
            if i not in adj[j]:
                err(f"region {names[i]!r} lists {names[j]!r} as a neighbour but {names[j]!r} does not list "
                    f"{names[i]!r} (adjacency must be symmetric)")
    # capitals
    for p, rn in enumerate(REALMS):
        caps = [names[r] for r in range(n) if capital_of[r] == p]
        if not caps:
            err(f"realm {rn!r} has no capital (mark one of its regions \"capital\": true)")
        if len(caps) > 1:
            err(f"realm {rn!r} has {len(caps)} capitals ({', '.join(caps)}); it needs exactly one")
        if not castle[capital_of.index(p)]:
            err(f"region {caps[0]!r}: the capital of {rn} needs a castle (\"castle\": true)")
    # connectivity
    seen = {0}
    q = deque([0])
    while q:
        r = q.popleft()
        for x in adj[r]:
            if x not in seen:
                seen.add(x)
                q.append(x)
    if len(seen) < n:
        cut = [names[r] for r in range(n) if r not in seen]
        err(f"regions {', '.join(map(repr, cut[:8]))}{' …' if len(cut) > 8 else ''} are not connected to "
            f"{names[0]!r} (the map must be one connected graph)")
    # land units at sea ride the warships
    for r in range(n):
        if not is_sea[r]:
            continue
        per_realm: dict[int, list[int]] = {}
        for p, uname, c in start_units[r]:
            u = units[uname]
            slot = per_realm.setdefault(p, [0, 0])
            if u.domain == "land":
                slot[0] += c
            slot[1] += u.capacity * c if u.domain == "sea" else 0
        for p, (land, cap) in per_realm.items():
            if land > cap:
                err(f"region {names[r]!r} (sea): {land} land unit(s) of {REALMS[p]} but its warships there "
                    f"carry only {cap}")
    realm_gold = tuple(realms[rn]["gold"] for rn in REALMS)
    kinds = {rn: {u.name: 0 for u in units.units if u.domain != "sea" and not u.places_units} for rn in REALMS}
    realm_income = tuple(
        realms[rn]["income"] if "income" in realms[rn] else sum(gold[r] for r in range(n) if owner[r] == p)
        for p, rn in enumerate(REALMS))
    return Board(
        name=name, title=str(data.get("title", name)), notes=tuple(notes), names=tuple(names),
        is_sea=tuple(is_sea), is_dungeon=tuple(is_dungeon), owner=tuple(owner), start_area=tuple(start_area),
        capital_of=tuple(capital_of), castle=tuple(castle), gold=tuple(gold), adj=tuple(adj),
        units=tuple(start_units), realm_gold=realm_gold, realm_income=realm_income, source=source, index=index,
        realm_units=_count_units(start_units, owner, is_sea, kinds),
    )


def _parse_units(spec, rn, owner, sea, dungeon, table: UnitTable, rerr) -> tuple:
    if spec in (None, {}):
        return ()
    if not isinstance(spec, dict):
        rerr(f"'units' must be an object, got {spec!r}")
    if all(isinstance(v, dict) for v in spec.values()):
        per_realm = spec
    elif all(not isinstance(v, dict) for v in spec.values()):
        if owner < 0:
            rerr("units on a sea region must be given per realm: {\"vailin\": {\"warship\": 2}}")
        per_realm = {REALMS[owner]: spec}
    else:
        rerr("'units' mixes {unit: count} and {realm: {unit: count}} forms")
    out = []
    for realm, counts in per_realm.items():
        if realm not in REALMS:
            rerr(f"units of unknown realm {realm!r}; realms: {', '.join(REALMS)}")
        p = REALMS.index(realm)
        if dungeon:
            rerr("a dungeon entrance holds no units at the start (guardians come from the guardian tokens)")
        if not sea and p != owner:
            rerr(f"units of {realm} stand on land held by {REALMS[owner]} (starting units stand on their "
                 f"realm's own regions)")
        for uname, c in counts.items():
            try:
                key = table.canonical(uname)
            except ValueError:
                rerr(f"unknown unit type {uname!r}; units: {', '.join(table.names)}")
            if isinstance(c, bool) or not isinstance(c, int) or c <= 0:
                rerr(f"count of {key!r} must be a positive integer, got {c!r}")
            if c > MAX_UNIT_COUNT:
                rerr(f"{c:,} {key} is above the limit of {MAX_UNIT_COUNT:,} units of a type on a region "
                     f"(nerathsim.maps.MAX_UNIT_COUNT)")
            u = table[key]
            if u.captured and u.places_units:
                rerr(f"{key} is not a starting unit here; mark the region \"castle\": true instead")
            if not sea and u.domain == "sea":
                rerr(f"{key} is a sea unit and cannot stand on land")
            if sea and u.domain == "land" and not u.carriable:
                rerr(f"{key} cannot be at sea")
            out.append((p, key, c))
    return tuple(out)


# ---------------------------------------------------------------------------------------
# Starting units per realm (the re-balancing knob map.realm_units.<realm>.<unit>)
# ---------------------------------------------------------------------------------------
def _count_units(rows, owner, is_sea, kinds=None) -> FrozenDict:
    """{realm: {unit: count}} of each realm's units on its own land regions (`rows`: per region
    (realm, unit, count) triples). kinds: {realm: unit names} to count (with zeros), else the types present."""
    out = {rn: dict.fromkeys(kinds[rn], 0) if kinds is not None and rn in kinds else {} for rn in REALMS}
    for r, row in enumerate(rows):
        if is_sea[r] or owner[r] < 0:
            continue
        for p, name, c in row:
            counts = out[REALMS[p]]
            if kinds is None or name in counts:
                counts[name] = counts.get(name, 0) + c
    return FrozenDict({rn: FrozenDict(counts) for rn, counts in out.items()})


def _plain(counts) -> dict:
    return {rn: dict(c) for rn, c in counts.items()}


def place_realm_units(board: Board, wanted) -> tuple:
    """`board.units` moved to the counts `wanted` ({realm: {unit: count}} on each realm's own land).

    A realm's extra units of a type stand on its capital (as if bought and placed there before the
    first turn); fewer are taken one at a time from its land region holding the most of that type
    (ties: the region listed last in the map file), so garrisons thin evenly and a region may end
    empty (still owned). Units at sea are never touched. A count that is not a whole number >= 0, one
    that puts more than MAX_UNIT_COUNT of a type on the capital, or an unknown realm raises `MapError`."""
    _check_counts(board.name, wanted)
    rows = [list(row) for row in board.units]
    have = _count_units(board.units, board.owner, board.is_sea, wanted)
    for realm, counts in wanted.items():
        p = REALMS.index(realm)
        land = [r for r in range(board.n) if board.owner[r] == p and not board.is_sea[r]]
        for name, want in counts.items():
            diff = want - have[realm].get(name, 0)
            if diff > 0:
                capital = board.capitals[p]
                _add(rows, capital, p, name, diff)
                if _held(rows[capital], p, name) > MAX_UNIT_COUNT:
                    raise MapError(f"map {board.name!r}: realm_units: {realm} {name} {want:,} puts "
                                   f"{_held(rows[capital], p, name):,} on the capital {board.names[capital]!r}, above "
                                   f"the limit of {MAX_UNIT_COUNT:,} units of a type on a region "
                                   f"(nerathsim.maps.MAX_UNIT_COUNT)")
            for _ in range(-diff):
                region = max(land, key=lambda r: (_held(rows[r], p, name), r))
                _add(rows, region, p, name, -1)
    return tuple(tuple(row) for row in rows)


def _check_counts(map_name: str, wanted) -> None:
    label = f"map {map_name!r}: realm_units"
    if not isinstance(wanted, dict):
        raise MapError(f"{label} must be {{realm: {{unit: count}}}}, got {wanted!r}")
    for realm, counts in wanted.items():
        if realm not in REALMS:
            raise MapError(f"{label}: unknown realm {realm!r}; realms: {', '.join(REALMS)}")
        if not isinstance(counts, dict):
            raise MapError(f"{label}[{realm!r}] must be {{unit: count}}, got {counts!r}")
        for name, want in counts.items():
            if isinstance(want, bool) or not isinstance(want, int) or want < 0:
                raise MapError(f"{label}: {realm} {name} must be a whole number >= 0, got {want!r}")


def _held(row, p: int, name: str) -> int:
    return sum(c for q, u, c in row if q == p and u == name)


def _add(rows: list, r: int, p: int, name: str, delta: int) -> None:
    row = rows[r]
    for i, (q, u, c) in enumerate(row):
        if q == p and u == name:
            if c + delta:
                row[i] = (q, u, c + delta)
            else:
                del row[i]
            return
    row.append((p, name, delta))


def describe_map(board: Board) -> str:
    """A short text summary: title, notes, and per realm its regions, capital, castles, gold and forces."""
    lines = [f"{board.title} ({board.name}): {board!r}"]
    lines += [f"  note: {x}" for x in board.notes]
    for p, rn in enumerate(REALMS):
        regs = [r for r in range(board.n) if board.owner[r] == p]
        forces: dict[str, int] = {}
        for r in range(board.n):
            for q, u, c in board.units[r]:
                if q == p:
                    forces[u] = forces.get(u, 0) + c
        castles = sum(1 for r in regs if board.castle[r])
        lines.append(f"  {rn}: {len(regs)} regions, capital {board.names[board.capitals[p]]}, {castles} castles, "
                     f"gold {board.realm_gold[p]}, income {board.realm_income[p]}, forces "
                     + ", ".join(f"{c} {u}" for u, c in forces.items()))
    return "\n".join(lines)
