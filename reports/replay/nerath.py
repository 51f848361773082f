"""Conquest of Nerath: the map with each realm's units per region, castles, fleets, gold and VP,
and the battle under way with its dice.

Rebuilt from the log alone (nerathsim/RULES.md Part II (e)), as the referee of
tests/nerathsim/test_nerath_game_log_replay.py does: it starts at the `setup` event (the deal) and
every later event moves units, ships, gold or cards. During a battle each hit placed takes its
unit off the board at once; `battle_end` then sets what stands there.
"""
from __future__ import annotations

from collections import Counter


class Board:
    def __init__(self, record):
        ctx = record.context
        self.realms, self.names, self.is_sea = ctx["realms"], ctx["unit_names"], ctx["is_sea"]
        self.domain, self.castle = ctx["domain"], ctx["castle"]
        self.owner, self.vp, self.gold = list(ctx["owner"]), [0] * 4, [0] * 4
        self.units: dict = {}          # (region, realm) -> Counter of units
        self.ships: dict = {}          # id -> {realm, region, unit, cargo}
        self.hands = {r: Counter() for r in self.realms}
        self.guardians: dict = {}
        self.round, self.turn, self.realm, self.winner, self.timed_out = 0, 0, None, None, False
        self.battle = None             # the battle under way (or just ended): region, sides, rolls, outcome
        self.started = False

    def at(self, r, realm) -> Counter:
        return self.units.setdefault((int(r), realm), Counter())

    def _fleet(self, regions, ships):
        for sid in [sid for sid, sh in self.ships.items() if sh["region"] in regions]:
            del self.ships[sid]
        for sh in ships:
            self.ships[sh["id"]] = dict(sh, cargo=list(sh["cargo"]))

    def apply(self, e):  # noqa: C901 — one branch per event kind, in the order of RULES.md
        kind = e["event"]
        if kind == "setup":
            self.started = True
            self.owner, self.vp, self.gold = list(e["owner"]), list(e["vp"]), list(e["gold"])
            self.units = {}
            for r, by_realm in e["units"].items():
                for realm, counts in by_realm.items():
                    self.at(r, realm).update(counts)
            self.ships = {sh["id"]: dict(sh, cargo=list(sh["cargo"])) for sh in e["ships"]}
            self.hands = {realm: Counter(keys) for realm, keys in e["hand_cards"].items()}
            self.guardians = {int(r): list(keys) for r, keys in e["guardian_tokens"].items()}
            return
        if not self.started:
            return
        if kind == "turn":
            self.turn, self.realm, self.round = e["turn"], e["realm"], e.get("round", self.round)
            self.battle = None
        elif kind == "move":
            self.at(e["src"], e["realm"])[e["unit"]] -= e["count"]
            self.at(e["dst"], e["realm"])[e["unit"]] += e["count"]
        elif kind == "amok":
            self.at(e["src"], e["realm"])[e["unit"]] -= 1
            self.at(e["dst"], e["realm"])[e["unit"]] += 1
        elif kind == "embark":
            self.at(e["src"], e["realm"])[e["unit"]] -= 1
            self.ships[e["ship"]]["cargo"].append(e["unit"])
        elif kind == "sail":
            self.ships[e["ship"]]["region"] = e["dst"]
        elif kind == "unload":
            for u in e["units"]:
                self.at(e["dst"], e["realm"])[self.names[u] if isinstance(u, int) else u] += 1
            self.ships[e["ship"]]["cargo"] = []
        elif kind == "cargo_lost":
            self.ships[e["ship"]]["cargo"] = []
        elif kind == "flyers_lost":
            self.at(e["region"], e["realm"])[e["unit"]] -= e["count"]
        elif kind in ("battle", "dungeon"):
            defenders = e.get("defenders") or {"guardians": e.get("guardians")}
            self.battle = {"region": e["region"], "attacker": e["realm"], "dungeon": kind == "dungeon",
                           "sides": {e["realm"]: e.get("attacker") or e.get("heroes"), **defenders},
                           "roll": None, "hits": [], "outcome": None}
        elif kind == "roll" and self.battle is not None:
            self.battle = dict(self.battle, roll={"round": e["battle_round"], "step": e["step"], "dice": e["dice"],
                                                  "hits": e["hits"]}, hits=[])
        elif kind == "hit":
            if self.battle is not None:
                self.battle = dict(self.battle, hits=self.battle["hits"] + [[e["realm"], e["unit"]]])
            here = self.units.get((int(e["region"]), e["realm"]))
            if e.get("killed") and here is not None and here[e["unit"]] > 0:
                here[e["unit"]] -= 1
        elif kind == "battle_end":
            r = int(e["region"])
            for realm in self.realms:
                self.units[(r, realm)] = Counter(e["after"].get(realm, {}))
            self._fleet({r}, e["ships_after"])
            if self.battle is not None:
                self.battle = dict(self.battle, outcome=e["outcome"])
        elif kind == "retreat":
            r, dst = int(e["region"]), int(e["dst"])
            self.units[(r, e["realm"])] = Counter()
            for unit, c in e["units"].items():
                if not (self.is_sea[dst] and self.domain[unit] == "land"):
                    self.at(dst, e["realm"])[unit] += c
            self._fleet({r, dst}, e["ships_after"])
            if self.battle is not None:
                self.battle = dict(self.battle, outcome="retreat")
        elif kind == "capture":
            r, new = int(e["region"]), e["to_realm"]
            self.owner[r] = self.realms.index(new)
            self.vp[self.realms.index(e["realm"])] += e["vp"]
            for realm in self.realms:
                if realm != new and self.at(r, realm)[self.castle]:
                    self.at(r, new)[self.castle] += self.at(r, realm)[self.castle]
                    self.at(r, realm)[self.castle] = 0
        elif kind == "dungeon_won":
            self.units[(int(e["region"]), e["realm"])] = Counter(e["heroes"])
            self.gold[self.realms.index(e["realm"])] += e["gold"]
            self.guardians.pop(int(e["region"]), None)
            if self.battle is not None:
                self.battle = dict(self.battle, outcome="dungeon won")
        elif kind == "dungeon_lost":
            self.units[(int(e["region"]), e["realm"])] = Counter(e["heroes"])
            if self.battle is not None:
                self.battle = dict(self.battle, outcome="dungeon lost")
        elif kind == "dungeon_fled":
            self.units[(int(e["region"]), e["realm"])] = Counter(e["after"])
            self.at(e["dst"], e["realm"]).update(e["units"])
        elif kind == "guardians_placed":
            self.guardians[int(e["region"])] = list(e["tokens"])
        elif kind == "buy":
            p = self.realms.index(e["realm"])
            self.gold[p] = e["gold"]
            if e["ship"] >= 0 and self.domain[e["unit"]] == "sea":
                self.ships[e["ship"]] = {"id": e["ship"], "realm": e["realm"], "region": e["at"], "unit": e["unit"],
                                         "cargo": []}
            elif e["ship"] >= 0:
                self.ships[e["ship"]]["cargo"].append(e["unit"])
            else:
                self.at(e["at"], e["realm"])[e["unit"]] += 1
        elif kind == "income":
            self.gold[self.realms.index(e["realm"])] = e["total"]
        elif kind == "card_gold":
            self.gold[self.realms.index(e["realm"])] += e["gold"]
        elif kind == "card_vp":
            self.vp[self.realms.index(e["realm"])] += e["vp"]
        elif kind == "card_units":
            for sid in e["ships"]:
                self.ships[sid] = {"id": sid, "realm": e["realm"], "region": e["region"], "unit": e["unit"],
                                   "cargo": []}
            if not e["ships"]:
                self.at(e["region"], e["realm"])[e["unit"]] += e["count"]
        elif kind == "card_move":
            for unit, c in e["units"].items():
                self.at(e["src"], e["realm"])[unit] -= c
                self.at(e["dst"], e["realm"])[unit] += c
        elif kind == "draw":
            self.hands[e["realm"]][e["card"]] += 1
        elif kind == "treasure":
            p = self.realms.index(e["realm"])
            self.hands[e["realm"]][e["card"]] += 1
            self.vp[p] += e["gained_vp"]
            self.gold[p] += e["gained_gold"]
        elif kind in ("card", "card_cancelled", "reaction"):
            self.hands[e["realm"]][e["card"]] -= 1
        elif kind == "win":
            self.winner = e.get("realms") or e.get("winner") or e.get("realm")
        elif kind == "timeout":
            self.timed_out = True

    def units_at(self) -> dict:
        """{region: {realm: {unit: n}}} of every region with units (warships are in `ships`)."""
        out: dict = {}
        for (r, realm), counts in self.units.items():
            kept = {u: c for u, c in counts.items() if c}
            if kept:
                out.setdefault(r, {})[realm] = dict(sorted(kept.items()))
        return out

    def state(self) -> dict:
        """The flat board state the page draws (key -> JSON value)."""
        out = {"owner": list(self.owner), "gold": list(self.gold), "vp": list(self.vp), "turn": self.turn,
               "round": self.round, "realm": self.realm, "winner": self.winner, "timed_out": self.timed_out,
               "battle": self.battle, "hands": {r: sum((+h).values()) for r, h in self.hands.items()},
               "guardians": {str(r): len(g) for r, g in sorted(self.guardians.items()) if g},
               "ships": [[sh["realm"], sh["region"], sh["unit"], sorted(sh["cargo"])]
                         for _, sh in sorted(self.ships.items())]}
        for r, by_realm in self.units_at().items():
            out[f"u/{r}"] = by_realm
        return out
