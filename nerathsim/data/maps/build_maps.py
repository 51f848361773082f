"""Regenerate nerath.json and small.json (run: python nerathsim/data/maps/build_maps.py).

The JSON files are the data the simulator reads; this script is only how they were made.
The `nerath` reconstruction is drawn on a 12 x 12 grid of cells: each cell belongs to one
region, and two regions are adjacent when two of their cells share an edge, plus four
"crossings" over the two straits. That keeps the adjacency symmetric and the map planar
like a printed board. Edit the grid or the tables below and rerun to change the map.
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent

# rows 1..10, cols 1..10 of the 12 x 12 grid; the outer ring is sea (see outer()).
GRID = """
K01 K02 K03 K04 K05 sns V01 V02 V03 V04
K06 K07 K08 K09 K10 sns V05 V06 V07 V08
K11 K12 K13 K14 ikb sns ivs V09 V10 V11
K15 K16 ikb ikb ikb imn ivs ivs V12 V13
W01 W02 ing imw ISL TOH ims iib E01 E02
W03 W04 ing imw imw ims ims iib E03 E04
N01 N02 ing ing PEN iib iib iib I01 I02
N03 N04 N05 N06 PEN sss I03 I04 I05 I06
N07 N08 N09 N10 N11 sss I07 I08 I09 I10
N12 N13 N14 N15 N16 sss I11 I12 I13 I14
"""


def outer(row: int, col: int) -> str:
    """The eight outer sea zones around the board."""
    if row == 0:
        return "onw" if col <= 2 else ("onn" if col <= 8 else "one")
    if row == 11:
        return "osw" if col <= 2 else ("oss" if col <= 8 else "ose")
    if col == 0:
        return "onw" if row <= 2 else ("oww" if row <= 8 else "osw")
    return "one" if row <= 2 else ("oee" if row <= 8 else "ose")


# code -> region name (several codes may name one region: a region of several cells)
NAMES = {
    # outer seas
    "onw": "Sea of Shadows", "onn": "Northern Reach", "one": "Sea of Stars", "oee": "Eastern Deep",
    "ose": "Sea of Fire", "oss": "Southern Reach", "osw": "Sea of Storms", "oww": "Western Deep",
    # straits and the central sea around the Isle of Dread
    "sns": "Northern Narrows", "sss": "Southern Narrows", "ikb": "Karkoth Bight", "ivs": "Vailin Sound",
    "iib": "Iron Bay", "ing": "Nerath Gulf", "imn": "Inner Sea North", "imw": "Inner Sea West",
    "ims": "Inner Sea South",
    # Karkoth (north-west)
    "K01": "Shadowfen", "K02": "Bone Marches", "K03": "Bone Marches", "K04": "Wailing Heath", "K05": "Dreadgate",
    "K06": "Ghoulwood", "K07": "Karkoth", "K08": "Cairn Moor", "K09": "Temple of Elemental Evil",
    "K10": "Ashen Gate", "K11": "Deadfall Hills", "K15": "Deadfall Hills", "K12": "Gloomwood",
    "K13": "Hammerfast", "K14": "Dusk Coast", "K16": "Grave Coast", "W01": "Bleakmoor", "W02": "Corpse Ford",
    # Vailin (north-east)
    "V01": "Seagate", "V02": "Pearl Strand", "V03": "Lanternport", "V04": "Starfall Point", "V05": "Windrise",
    "V06": "Gardmore Abbey", "V07": "Vailin", "V08": "Silverbay", "V09": "Elderglade", "V10": "Moonwood",
    "V11": "Goblin Hold", "V12": "Amber Coast", "V13": "Sunspire", "E01": "Highmeadow", "E02": "Goldmarket",
    "ISL": "Isle of Dread", "TOH": "Tomb of Horrors",
    # Iron Circle (south-east)
    "I01": "Brimstone Pass", "I02": "Scorch Coast", "I03": "Redfang Hills", "I04": "Warcamp",
    "I05": "Trollhaunt Warrens", "I06": "Rustwood", "I07": "Ashgate", "I08": "Skullcrag", "I09": "Irongate",
    "I10": "Sulfur Flats", "I11": "Mercenary Coast", "I12": "Amber Port", "I13": "Cinder Peaks",
    "I14": "Demonfall", "E03": "Hobgoblin March", "E04": "Redcliff",
    # Nerath (south-west)
    "N01": "Harkenwold", "N02": "Gardbury Downs", "N03": "Witchlight Fens", "N07": "Witchlight Fens",
    "N04": "Winterhaven", "N05": "Fallcrest", "N06": "Moonstair", "N08": "Nentir Vale", "N09": "Harken Forest",
    "N14": "Harken Forest", "N10": "Kiris Dahn", "N11": "Stonemarch", "N12": "Dawnforge Mountains",
    "N13": "Dawnforge Mountains", "N15": "Thunderspire Labyrinth", "N16": "Southpoint", "W03": "Dragonwatch",
    "W04": "Greyfield", "PEN": "Raven Peninsula",
}
SEAS = {"onw", "onn", "one", "oee", "ose", "oss", "osw", "oww", "sns", "sss", "ikb", "ivs", "iib", "ing", "imn",
        "imw", "ims"}
# land crossings over the two narrows (the land on both sides touches; ships pass between)
CROSSINGS = [("Dreadgate", "Seagate"), ("Ashen Gate", "Windrise"), ("Stonemarch", "Ashgate"),
             ("Raven Peninsula", "Redfang Hills")]
DUNGEONS = {"Temple of Elemental Evil", "Gardmore Abbey", "Tomb of Horrors", "Trollhaunt Warrens",
            "Thunderspire Labyrinth"}

K, V, I, N = "karkoth", "vailin", "iron_circle", "nerath"
# region: (owner, gold, capital, castle, units)
LAND = {
    # Karkoth — "aggressive starting position": strong stacks on both fronts and in its enclave
    "Karkoth": (K, 3, True, True, {"footsoldier": 1, "wizard": 1, "dragon": 1}),
    "Ashen Gate": (K, 2, False, True, {"footsoldier": 3, "siege_engine": 1, "monster": 1}),
    "Dreadgate": (K, 1, False, False, {"footsoldier": 2, "monster": 1}),
    "Corpse Ford": (K, 1, False, True, {"footsoldier": 2, "siege_engine": 1, "fighter": 1}),
    "Bleakmoor": (K, 0, False, False, {"footsoldier": 1, "monster": 1}),
    "Bone Marches": (K, 1, False, False, {"footsoldier": 1}),
    "Wailing Heath": (K, 0, False, False, {"footsoldier": 1}),
    "Cairn Moor": (K, 1, False, False, {"footsoldier": 1}),
    "Gloomwood": (K, 1, False, False, {"footsoldier": 1}),
    "Deadfall Hills": (K, 1, False, False, {"footsoldier": 1}),
    "Ghoulwood": (K, 1, False, False, {"footsoldier": 1}),
    "Shadowfen": (K, 0, False, False, {"footsoldier": 1}),
    "Dusk Coast": (K, 1, False, False, {"footsoldier": 1, "fighter": 1}),
    "Grave Coast": (K, 0, False, False, {"footsoldier": 1}),
    "Kiris Dahn": (K, 1, False, False, {"footsoldier": 2}),                        # enclave in Nerath
    # Vailin — prosperous trade (highest income), strongest navy
    "Vailin": (V, 3, True, True, {"footsoldier": 2, "wizard": 1, "fighter": 1, "storm_elemental": 1}),
    "Seagate": (V, 1, False, True, {"footsoldier": 2, "fighter": 1, "siege_engine": 1}),
    "Windrise": (V, 0, False, False, {"footsoldier": 2, "siege_engine": 1}),
    "Highmeadow": (V, 1, False, True, {"footsoldier": 2, "siege_engine": 1, "fighter": 1}),
    "Goldmarket": (V, 2, False, False, {"footsoldier": 1, "fighter": 1}),
    "Silverbay": (V, 2, False, True, {"footsoldier": 1}),
    "Pearl Strand": (V, 1, False, False, {"footsoldier": 1}),
    "Lanternport": (V, 1, False, False, {"footsoldier": 1}),
    "Starfall Point": (V, 0, False, False, {"footsoldier": 1}),
    "Elderglade": (V, 1, False, False, {"footsoldier": 1}),
    "Moonwood": (V, 1, False, False, {"footsoldier": 1}),
    "Amber Coast": (V, 1, False, False, {"footsoldier": 1}),
    "Sunspire": (V, 0, False, False, {"footsoldier": 1}),
    "Isle of Dread": (V, 1, False, False, {"footsoldier": 1, "fighter": 1}),
    "Amber Port": (V, 1, False, False, {"footsoldier": 2}),                         # enclave in Iron Circle
    # Iron Circle — strongest armies
    "Irongate": (I, 3, True, True, {"footsoldier": 2, "siege_engine": 1, "monster": 1, "wizard": 1, "dragon": 1}),
    "Ashgate": (I, 1, False, True, {"footsoldier": 2, "siege_engine": 1, "monster": 1}),
    "Hobgoblin March": (I, 1, False, True, {"footsoldier": 2, "siege_engine": 1, "monster": 1}),
    "Warcamp": (I, 2, False, True, {"footsoldier": 1, "siege_engine": 1, "monster": 1}),
    "Redcliff": (I, 0, False, False, {"footsoldier": 1}),
    "Brimstone Pass": (I, 1, False, False, {"footsoldier": 2, "fighter": 1}),
    "Redfang Hills": (I, 1, False, False, {"footsoldier": 1}),
    "Scorch Coast": (I, 1, False, False, {"footsoldier": 1}),
    "Rustwood": (I, 1, False, False, {"footsoldier": 1}),
    "Skullcrag": (I, 1, False, False, {"footsoldier": 1}),
    "Sulfur Flats": (I, 0, False, False, {"footsoldier": 1}),
    "Mercenary Coast": (I, 1, False, False, {"footsoldier": 1}),
    "Cinder Peaks": (I, 1, False, False, {"footsoldier": 1}),
    "Demonfall": (I, 0, False, False, {"footsoldier": 1}),
    "Goblin Hold": (I, 1, False, False, {"footsoldier": 2}),                      # enclave in Vailin
    # Nerath — weakest territory (fewest regions, lowest income); heroes
    "Fallcrest": (N, 3, True, True, {"footsoldier": 2, "wizard": 1, "fighter": 1, "dragon": 1}),
    "Dragonwatch": (N, 1, False, True, {"footsoldier": 2, "fighter": 1, "siege_engine": 1}),
    "Stonemarch": (N, 1, False, True, {"footsoldier": 2, "siege_engine": 1, "fighter": 1}),
    "Greyfield": (N, 0, False, False, {"footsoldier": 2}),
    "Harkenwold": (N, 1, False, False, {"footsoldier": 1}),
    "Gardbury Downs": (N, 1, False, False, {"footsoldier": 1}),
    "Witchlight Fens": (N, 1, False, False, {"footsoldier": 1}),
    "Winterhaven": (N, 1, False, False, {"footsoldier": 1}),
    "Moonstair": (N, 1, False, False, {"footsoldier": 1, "storm_elemental": 1}),
    "Harken Forest": (N, 1, False, False, {"footsoldier": 1}),
    "Dawnforge Mountains": (N, 1, False, False, {"footsoldier": 1}),
    "Southpoint": (N, 0, False, False, {"footsoldier": 1}),
    "Raven Peninsula": (N, 0, False, False, {"footsoldier": 1, "fighter": 1}),
    "Hammerfast": (N, 1, False, False, {"footsoldier": 2}),                        # enclave in Karkoth
    # the rulebook calls the Nentir Vale a region: Nerath land, not a dungeon
    "Nentir Vale": (N, 0, False, False, {"footsoldier": 1}),
}

# The box (facts 1.2, S1): 63 figures per realm — 20 footsoldiers, 6 siege engines, 6 fighters,
# 6 wizards, and 25 monsters, castles, storm elementals, dragons and warships together.
BOX_PER_REALM = {"footsoldier": 20, "siege_engine": 6, "fighter": 6, "wizard": 6}
BOX_OTHER_PER_REALM = 25   # monster + castle + storm_elemental + dragon + warship
# `nerath_uncapped` (rules version nerath-game-1.4 and before): 25-27 footsoldiers per realm, more
# than the box holds, and the Nentir Vale a dungeon. Region: footsoldiers it had then.
UNCAPPED_FOOTSOLDIERS = {
    "Karkoth": 2, "Ashen Gate": 4, "Dreadgate": 3, "Corpse Ford": 3, "Bleakmoor": 2,
    "Seagate": 3, "Windrise": 3, "Highmeadow": 3, "Sunspire": 2, "Goldmarket": 2,
    "Irongate": 3, "Ashgate": 3, "Hobgoblin March": 3, "Warcamp": 2, "Redcliff": 2, "Redfang Hills": 2,
    "Skullcrag": 2,
    "Fallcrest": 3, "Dragonwatch": 3, "Stonemarch": 3, "Greyfield": 3, "Harkenwold": 2, "Moonstair": 2,
    "Harken Forest": 2, "Raven Peninsula": 2,
}
UNCAPPED_NO_MONSTER = ("Hobgoblin March", "Warcamp")   # monsters added in 1.5 (Iron Circle keeps the strongest armies)
SEA_UNITS = {
    "Karkoth Bight": {K: {"warship": 2}},
    "Vailin Sound": {V: {"warship": 2, "storm_elemental": 1}},
    "Sea of Stars": {V: {"warship": 2}},
    "Northern Reach": {V: {"warship": 1}},
    "Iron Bay": {V: {"warship": 1}, },
    "Southern Reach": {I: {"warship": 1}},
    "Eastern Deep": {I: {"warship": 1}},
    "Nerath Gulf": {N: {"warship": 1}},
    "Sea of Storms": {N: {"warship": 1}},
}
REALMS = {K: {"gold": 10}, V: {"gold": 12}, I: {"gold": 10}, N: {"gold": 14}}

NERATH_NOTES = [
    "A RECONSTRUCTION, not the printed board. The real board's regions, adjacency, gold values and "
    "starting forces are not public (shared/data/nerath-facts.md section 8); this map is the project's own, "
    "built to honour every known fact: about 80 regions (WoT: 'around 100 map regions'), four realms in the "
    "corners around a central sea with an island (the Isle of Dread) and a broad peninsula (DES), two land "
    "masses - Karkoth+Vailin in the north, Nerath+Iron Circle in the south - joined by narrow isthmuses so "
    "that each realm borders both enemies and never its ally (DAE, TT), enemy enclaves inside each kingdom "
    "(DES), every territory owned and garrisoned at the start (TWBG), named dungeons (WIZ, RPG1, FINEST), "
    "and starting forces and gold that follow the realm profiles of the rulebook (S1, EVS): Karkoth an "
    "aggressive start, Vailin the strongest navy and richest trade, Iron Circle the strongest armies, "
    "Nerath the weakest territory. Every realm starts with no more pieces than the box holds (facts 1.2: "
    "20 footsoldiers, 6 siege engines, 6 fighters, 6 wizards and 25 other figures per realm); the Nentir "
    "Vale is a Nerath region, not a dungeon (rules version nerath-game-1.5).",
    "To play on the real board, write the same format with one region per printed space (its owner, "
    "capital, castle, dungeon entrance, gold value, starting units from the reference cards and its "
    "neighbours) and pass the file: Rules(map='/path/to/board.json'). The loader checks it.",
    "Layout: a 12 x 12 grid of cells (the 'layout' key, rows top to bottom); regions whose cells share an "
    "edge are adjacent, plus four land crossings over the Northern and Southern Narrows "
    "(Dreadgate-Seagate, Ashen Gate-Windrise, Stonemarch-Ashgate, Raven Peninsula-Redfang Hills).",
]


def box_count(realm: str, land: dict, sea_units: dict) -> dict:
    """Starting figures of `realm` by unit type (castles included) — to check against the box."""
    out: dict = {}
    for owner, _gold, _capital, castle, units in land.values():
        if owner == realm:
            out["castle"] = out.get("castle", 0) + castle
            for u, n in units.items():
                out[u] = out.get(u, 0) + n
    for fleets in sea_units.values():
        for u, n in fleets.get(realm, {}).items():
            out[u] = out.get(u, 0) + n
    return out


def check_box(land: dict, sea_units: dict) -> None:
    for realm in (K, V, I, N):
        c = box_count(realm, land, sea_units)
        for u, cap in BOX_PER_REALM.items():
            assert c.get(u, 0) <= cap, (realm, u, c.get(u, 0), cap)
        other = sum(n for u, n in c.items() if u not in BOX_PER_REALM)
        assert other <= BOX_OTHER_PER_REALM, (realm, other)


def build_nerath(uncapped: bool = False) -> dict:
    """The `nerath` reconstruction; `uncapped=True` the map of rules version nerath-game-1.4 and
    before (`nerath_uncapped`: more footsoldiers than the box holds, the Nentir Vale a dungeon)."""
    land = dict(LAND)
    dungeons = set(DUNGEONS)
    if uncapped:
        del land["Nentir Vale"]
        dungeons.add("Nentir Vale")
        for name, n in UNCAPPED_FOOTSOLDIERS.items():
            o, g, cap, cas, units = land[name]
            land[name] = (o, g, cap, cas, {**units, "footsoldier": n})
        for name in UNCAPPED_NO_MONSTER:
            o, g, cap, cas, units = land[name]
            land[name] = (o, g, cap, cas, {u: n for u, n in units.items() if u != "monster"})
    else:
        check_box(land, SEA_UNITS)
    rows = [line.split() for line in GRID.strip().splitlines()]
    assert len(rows) == 10 and all(len(r) == 10 for r in rows)
    cell = {}
    for r in range(12):
        for c in range(12):
            cell[(r, c)] = rows[r - 1][c - 1] if 1 <= r <= 10 and 1 <= c <= 10 else outer(r, c)
    adj: dict[str, set] = {}
    order: list[str] = []
    for r in range(12):
        for c in range(12):
            name = NAMES[cell[(r, c)]]
            if name not in adj:
                adj[name] = set()
                order.append(name)
            for dr, dc in ((0, 1), (1, 0)):
                if (r + dr, c + dc) in cell:
                    other = NAMES[cell[(r + dr, c + dc)]]
                    if other != name:
                        adj[name].add(other)
                        adj.setdefault(other, set()).add(name)
    for a, b in CROSSINGS:
        adj[a].add(b)
        adj[b].add(a)
    sea_names = {NAMES[c] for c in SEAS}
    regions = []
    # file order: realms' land first (by realm), then dungeons, then seas — readable, and stable
    land_order = [n for n in land]
    for name in land_order + sorted(dungeons) + [NAMES[c] for c in ("onw", "onn", "one", "oee", "ose", "oss",
                                                                      "osw", "oww", "sns", "sss", "ikb", "ivs",
                                                                      "iib", "ing", "imn", "imw", "ims")]:
        reg = {"name": name}
        if name in sea_names:
            reg["type"] = "sea"
            if name in SEA_UNITS:
                reg["units"] = SEA_UNITS[name]
        elif name in dungeons:
            reg["type"] = "land"
            reg["dungeon"] = True
        else:
            owner, gold, capital, castle, units = land[name]
            reg.update({"type": "land", "owner": owner, "gold": gold})
            if capital:
                reg["capital"] = True
            if castle:
                reg["castle"] = True
            reg["units"] = units
        reg["adjacent"] = sorted(adj[name])
        regions.append(reg)
    assert len(regions) == len(adj), (len(regions), len(adj))
    layout = [" ".join(cell[(r, c)] for c in range(12)) for r in range(12)]
    notes = NERATH_NOTES
    if uncapped:
        notes = ["The map of rules version nerath-game-1.4 and before: 25-27 footsoldiers per realm (the box "
                 "holds 20) and the Nentir Vale a dungeon. Kept to reproduce old results; `nerath` is the default."
                 ] + NERATH_NOTES
    return {
        "format": "nerathsim-map/1",
        "name": "nerath_uncapped" if uncapped else "nerath",
        "title": "Nerath (reconstruction, uncapped 1.4 forces)" if uncapped else "Nerath (reconstruction)",
        "notes": notes,
        "layout": layout,
        "realms": REALMS,
        "regions": regions,
    }


def build_small() -> dict:
    """A 17-region test map: each realm a capital and two marches, one island, one dungeon, three seas."""
    adj = {
        "Kar": ["Kmarch", "Kcoast", "North Sea"],
        "Kmarch": ["Kar", "Vmarch", "Kcoast", "North Sea", "Inner Sea"],
        "Kcoast": ["Kar", "Kmarch", "Ncoast", "Inner Sea"],
        "Vale": ["Vmarch", "Vcoast", "North Sea"],
        "Vmarch": ["Vale", "Kmarch", "Vcoast", "North Sea", "Inner Sea"],
        "Vcoast": ["Vale", "Vmarch", "Icoast", "Inner Sea"],
        "Iron": ["Imarch", "Icoast", "South Sea"],
        "Imarch": ["Iron", "Nmarch", "Icoast", "South Sea", "Inner Sea", "Crypt"],
        "Icoast": ["Iron", "Imarch", "Vcoast", "Inner Sea"],
        "Nera": ["Nmarch", "Ncoast", "South Sea"],
        "Nmarch": ["Nera", "Imarch", "Ncoast", "South Sea", "Inner Sea", "Crypt"],
        "Ncoast": ["Nera", "Nmarch", "Kcoast", "Inner Sea"],
        "Isle": ["Inner Sea"],
        "Crypt": ["Nmarch", "Imarch"],
        "North Sea": ["Kar", "Kmarch", "Vale", "Vmarch", "Inner Sea"],
        "Inner Sea": ["Kmarch", "Kcoast", "Vmarch", "Vcoast", "Imarch", "Icoast", "Nmarch", "Ncoast", "Isle",
                      "North Sea", "South Sea"],
        "South Sea": ["Iron", "Imarch", "Nera", "Nmarch", "Inner Sea"],
    }
    land = {
        "Kar": (K, 2, True, True, {"footsoldier": 2, "fighter": 1}),
        "Kmarch": (K, 1, False, False, {"footsoldier": 1, "monster": 1}),
        "Kcoast": (K, 1, False, True, {"footsoldier": 1}),
        "Vale": (V, 2, True, True, {"footsoldier": 2, "wizard": 1}),
        "Vmarch": (V, 1, False, False, {"footsoldier": 2}),
        "Vcoast": (V, 1, False, True, {"footsoldier": 1}),
        "Isle": (V, 1, False, False, {"footsoldier": 1}),
        "Iron": (I, 2, True, True, {"footsoldier": 2, "siege_engine": 1}),
        "Imarch": (I, 1, False, False, {"footsoldier": 1, "monster": 1}),
        "Icoast": (I, 1, False, False, {"footsoldier": 1}),
        "Nera": (N, 2, True, True, {"footsoldier": 2, "dragon": 1}),
        "Nmarch": (N, 1, False, False, {"footsoldier": 2}),
        "Ncoast": (N, 1, False, False, {"footsoldier": 1}),
    }
    regions = []
    for name, nb in adj.items():
        reg = {"name": name}
        if name.endswith("Sea"):
            reg["type"] = "sea"
        elif name == "Crypt":
            reg.update({"type": "land", "dungeon": True})
        else:
            owner, gold, capital, castle, units = land[name]
            reg.update({"type": "land", "owner": owner, "gold": gold})
            if capital:
                reg["capital"] = True
            if castle:
                reg["castle"] = True
            reg["units"] = units
        reg["adjacent"] = nb
        regions.append(reg)
    regions[-3]["units"] = {V: {"warship": 1}}            # North Sea
    regions[-2]["units"] = {V: {"warship": 1, "footsoldier": 1}, }   # Inner Sea
    regions[-1]["units"] = {I: {"warship": 1}}            # South Sea
    return {
        "format": "nerathsim-map/1",
        "name": "small",
        "title": "Small test map",
        "notes": ["A 17-region map for scenario tests and quick games; not a Conquest of Nerath board.",
                  "A ring: Kar-Kmarch=Vmarch-Vale, Vcoast=Icoast, Iron-Imarch=Nmarch-Nera, Ncoast=Kcoast "
                  "(= marks the borders between enemies); the Inner Sea in the middle with the Isle, joined to the "
                  "North and South Seas outside; the Crypt (a dungeon) between Nmarch and Imarch."],
        "realms": {K: {"gold": 6}, V: {"gold": 6}, I: {"gold": 6}, N: {"gold": 6}},
        "regions": regions,
    }


def main() -> None:
    for name, data in (("nerath", build_nerath()), ("nerath_uncapped", build_nerath(uncapped=True)),
                       ("small", build_small())):
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path} ({len(data['regions'])} regions)")


if __name__ == "__main__":
    main()
