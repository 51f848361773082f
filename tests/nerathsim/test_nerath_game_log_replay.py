"""A referee rebuilds a whole game from its log alone.

`Referee` below is an independent replayer: it knows the map's land and sea and the unit table's
domains, starts from the `setup` event (the initial deal) and applies every event; it never calls
the engine. At the end, units per region and realm, warships with their cargo, gold, VP, region
owners, event-card hands and guardian tokens must equal the engine's final state.
"""
from collections import Counter

import numpy as np
import pytest

from nerathsim import engine as E
from nerathsim.game import LegalActions
from nerathsim.maps import REALMS
from nerathsim.observation import observe
from nerathsim.policies import POLICIES
from nerathsim.rules import Rules


class Referee:
    def __init__(self, rules, setup):
        self.rules = rules
        self.names = rules.units.names
        self.is_sea = rules.board.is_sea
        self.domain = {u.name: u.domain for u in rules.units.units}
        self.castle = next(u.name for u in rules.units.units if u.places_units)
        self.owner = list(setup["owner"])
        self.vp = list(setup["vp"])
        self.gold = list(setup["gold"])
        self.units = {}
        for r, by_realm in setup["units"].items():
            for realm, counts in by_realm.items():
                self.at(r, realm).update(counts)
        self.ships = {sh["id"]: dict(sh, cargo=list(sh["cargo"])) for sh in setup["ships"]}
        self.hands = {realm: Counter(keys) for realm, keys in setup["hand_cards"].items()}
        self.guardians = {r: list(keys) for r, keys in setup["guardian_tokens"].items()}

    def at(self, r, realm) -> Counter:
        return self.units.setdefault((r, realm), Counter())

    def set_at(self, r, realm, counts):
        self.units[(r, realm)] = Counter(counts)

    def fleet(self, regions, ships):
        for sid in [sid for sid, sh in self.ships.items() if sh["region"] in regions]:
            del self.ships[sid]
        for sh in ships:
            self.ships[sh["id"]] = dict(sh, cargo=list(sh["cargo"]))

    def apply(self, e):
        getattr(self, "on_" + e["event"], lambda e: None)(e)

    # --- movement ---
    def on_move(self, e):
        self.at(e["src"], e["realm"])[e["unit"]] -= e["count"]
        self.at(e["dst"], e["realm"])[e["unit"]] += e["count"]

    on_amok = lambda self, e: self.on_move(dict(e, count=1))   # noqa: E731

    def on_embark(self, e):
        self.at(e["src"], e["realm"])[e["unit"]] -= 1
        self.ships[e["ship"]]["cargo"].append(e["unit"])

    def on_sail(self, e):
        self.ships[e["ship"]]["region"] = e["dst"]

    def on_unload(self, e):
        for u in e["units"]:
            self.at(e["dst"], e["realm"])[self.names[u]] += 1
        self.ships[e["ship"]]["cargo"] = []

    def on_cargo_lost(self, e):
        self.ships[e["ship"]]["cargo"] = []

    def on_flyers_lost(self, e):
        self.at(e["region"], e["realm"])[e["unit"]] -= e["count"]

    # --- battles and conquest ---
    def on_battle_end(self, e):
        r = e["region"]
        for realm in REALMS:
            self.set_at(r, realm, e["after"].get(realm, {}))
        self.fleet({r}, e["ships_after"])

    def on_retreat(self, e):
        r, dst = e["region"], e["dst"]
        self.set_at(r, e["realm"], {})
        for unit, c in e["units"].items():
            if not (self.is_sea[dst] and self.domain[unit] == "land"):   # land units went aboard: in the fleet
                self.at(dst, e["realm"])[unit] += c
        self.fleet({r, dst}, e["ships_after"])

    def on_capture(self, e):
        r, new = e["region"], e["to_realm"]
        self.owner[r] = REALMS.index(new)
        self.vp[REALMS.index(e["realm"])] += e["vp"]
        for realm in REALMS:                                # castles change hands with the region
            if realm != new and self.at(r, realm)[self.castle]:
                self.at(r, new)[self.castle] += self.at(r, realm)[self.castle]
                self.at(r, realm)[self.castle] = 0

    # --- dungeons ---
    def on_dungeon_won(self, e):
        self.set_at(e["region"], e["realm"], e["heroes"])
        self.gold[REALMS.index(e["realm"])] += e["gold"]
        self.guardians.pop(e["region"], None)

    def on_dungeon_lost(self, e):
        self.set_at(e["region"], e["realm"], e["heroes"])

    def on_dungeon_fled(self, e):
        self.set_at(e["region"], e["realm"], e["after"])
        self.at(e["dst"], e["realm"]).update(e["units"])

    def on_guardians_placed(self, e):
        self.guardians[e["region"]] = list(e["tokens"])

    # --- gold, VP, cards ---
    def on_buy(self, e):
        p = REALMS.index(e["realm"])
        assert self.gold[p] - e["cost"] == e["gold"]
        self.gold[p] = e["gold"]
        if e["ship"] >= 0 and self.domain[e["unit"]] == "sea":
            self.ships[e["ship"]] = {"id": e["ship"], "realm": e["realm"], "region": e["at"], "unit": e["unit"], "cargo": []}
        elif e["ship"] >= 0:
            self.ships[e["ship"]]["cargo"].append(e["unit"])
        else:
            self.at(e["at"], e["realm"])[e["unit"]] += 1

    def on_income(self, e):
        p = REALMS.index(e["realm"])
        assert self.gold[p] + e["gold"] == e["total"]
        self.gold[p] = e["total"]

    def on_card_gold(self, e):
        self.gold[REALMS.index(e["realm"])] += e["gold"]

    def on_card_vp(self, e):
        self.vp[REALMS.index(e["realm"])] += e["vp"]

    def on_card_units(self, e):
        for sid in e["ships"]:
            self.ships[sid] = {"id": sid, "realm": e["realm"], "region": e["region"], "unit": e["unit"], "cargo": []}
        if not e["ships"]:
            self.at(e["region"], e["realm"])[e["unit"]] += e["count"]

    def on_card_move(self, e):
        for unit, c in e["units"].items():
            self.at(e["src"], e["realm"])[unit] -= c
            self.at(e["dst"], e["realm"])[unit] += c

    def on_draw(self, e):
        self.hands[e["realm"]][e["card"]] += 1

    def on_treasure(self, e):
        p = REALMS.index(e["realm"])
        self.hands[e["realm"]][e["card"]] += 1
        self.vp[p] += e["gained_vp"]
        self.gold[p] += e["gained_gold"]

    def on_card(self, e):
        self.hands[e["realm"]][e["card"]] -= 1

    on_card_cancelled = on_card
    on_reaction = on_card

    # --- the picture to compare ---
    def picture(self):
        units = {k: {u: c for u, c in v.items() if c} for k, v in self.units.items()}
        return {"units": {k: v for k, v in units.items() if v},
                "ships": {sid: (sh["realm"], sh["region"], sh["unit"], sorted(sh["cargo"])) for sid, sh in self.ships.items()},
                "gold": self.gold, "vp": self.vp, "owner": self.owner,
                "hands": {realm: +h for realm, h in self.hands.items()},
                "guardians": {r: g for r, g in self.guardians.items() if g}}


def replay(rules, log) -> Referee:
    """The deal is the `setup` event (the starting hands' `draw` events come before it and are in it)."""
    at = next(i for i, e in enumerate(log) if e["event"] == "setup")
    assert all(e["event"] == "draw" for e in log[:at])
    ref = Referee(rules, log[at])
    for e in log[at + 1:]:
        ref.apply(e)
    return ref


def engine_picture(s):
    t, cs = s.tab, s.cards
    units = {}
    for r in range(s.board.n):
        for q in range(4):
            if any(s.units[r][q]):
                units[(r, REALMS[q])] = {t.names[u]: c for u, c in enumerate(s.units[r][q]) if c}
    return {"units": units,
            "ships": {sh.id: (REALMS[sh.owner], sh.region, t.names[sh.utype], sorted(t.names[u] for u in sh.cargo))
                      for sh in s.ships},
            "gold": s.gold, "vp": s.vp, "owner": s.owner,
            "hands": {REALMS[q]: Counter(cs.cards[c].key for c in s.hands[q]) if cs else Counter() for q in range(4)},
            "guardians": {r: [cs.guardians[g].key for g in gs] for r, gs in s.guardians.items() if gs}}


def play_recorded(rules, policies, seed, max_decisions=None):
    ss = np.random.SeedSequence(seed)
    kids = ss.spawn(1 + rules.players)
    chance = np.random.default_rng(kids[0])
    prngs = [np.random.default_rng(k) for k in kids[1:]]
    pols = [POLICIES[p] for p in policies]
    s = E.new_game(rules, chance, record=True)
    while not s.is_terminal and (max_decisions is None or s.decisions < max_decisions):
        p = s.current_player
        E.apply_action(s, pols[p](observe(s, p), LegalActions(s), prngs[p]), chance)
    return s


GAMES = [
    (Rules(), ["balanced"] * 4, 1),
    (Rules(), ["aggressive", "defensive", "balanced", "random"], 2),
    (Rules(mode="free_for_all", treasure_vp="gold"), ["balanced"] * 4, 3),
    (Rules(players=2, casualty_choice="order", game_length="long", max_rounds=8), ["aggressive", "balanced"], 4),
    (Rules(map="small", mode="free_for_all", dungeon_entry="all_land"), ["random"] * 4, 5),
    (Rules(players=3, cargo_may_stay_aboard=False, max_rounds=10), ["balanced", "random", "aggressive"], 6),
]


@pytest.mark.parametrize("rules, policies, seed", GAMES)
def test_a_referee_rebuilds_the_final_state_from_the_initial_deal_and_the_events_alone(rules, policies, seed):
    s = play_recorded(rules, policies, seed)
    log = s.log
    ref = replay(rules, log)
    assert ref.picture() == engine_picture(s)
    # every decision is in the log, in order, whoever applied it
    assert sum(1 for e in log if e["event"] == "decision") == s.decisions


def test_a_game_stopped_midway_is_rebuilt_too_and_decisions_through_apply_action_are_logged():
    s = play_recorded(Rules(), ["balanced"] * 4, 7, max_decisions=150)
    ref = replay(s.rules, s.log)
    assert ref.picture() == engine_picture(s)
    assert [e["event"] for e in s.log].count("decision") == 150


def test_every_roll_is_logged_with_its_dice_and_each_placed_hit_follows_it():
    s = play_recorded(Rules(), ["balanced"] * 4, 1)
    rolls = [e for e in s.log if e["event"] == "roll"]
    assert rolls and all(set(e["dice"]) == set(e["hits"]) for e in rolls)
    for e in rolls:
        for side, hits in e["hits"].items():
            assert 0 <= hits <= sum(e["dice"][side].values())
    # hits placed after a roll never exceed what the other sides scored
    i = 0
    log = s.log
    while i < len(log):
        if log[i]["event"] == "roll" and not log[i]["dungeon"]:
            scored = log[i]["hits"]
            placed = Counter()
            j = i + 1
            while j < len(log) and log[j]["event"] in ("hit", "decision"):
                if log[j]["event"] == "hit":
                    placed[log[j]["realm"]] += 1
                j += 1
            for realm, n in placed.items():
                assert n <= sum(h for side, h in scored.items() if side != realm)
            i = j
        else:
            i += 1
