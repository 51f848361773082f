"""Event and treasure cards: the loader and its validation, every effect, the play windows and the reactions.

Most scenarios use a small hand-made card set (written to a temporary directory) so that each card does
one thing with known numbers; a few use the shipped cards. The board is the small test map
(nerathsim/data/maps/small.json), free for all: Nerath holds Nera (capital), Nmarch and Ncoast; Nmarch
borders Imarch (Iron Circle) and the Crypt, Ncoast borders Kcoast (Karkoth).
"""
from __future__ import annotations

import copy
import dataclasses
import json
from fractions import Fraction

import numpy as np
import pytest

from nerathsim import effects as ef
from nerathsim import engine as E
from nerathsim.battle import ingame as gb
from nerathsim.battle.rules import BattleRules
from nerathsim.cards import load_cards
from nerathsim.engine.windows import _draw_event
from nerathsim.game_actions import Pass, PlayCard
from nerathsim.rules import Rules
from nerathsim.scenario import act, build_state, card_id, region, units_at

K, V, I, N = range(4)


# ---------------------------------------------------------------------------------------------
# A hand-made card set
# ---------------------------------------------------------------------------------------------
def _keep(key, phase, *effects, copies=1):
    return {"key": key, "name": key, "copies": copies, "timing": "keep", "phase": phase, "effects": list(effects)}


def _now(key, *effects, copies=1):
    return {"key": key, "name": key, "copies": copies, "timing": "immediate", "effects": list(effects)}


def _gold(n):
    return {"effect": "gain_gold", "amount": n}


def _place(unit, count, target):
    return {"effect": "place_units", "unit": unit, "count": count, "target": target}


def _move(count, units, rng, target):
    return {"effect": "move_units", "count": count, "units": units, "range": rng, "target": target}


def _bonus(bonus, unit, amount, target):
    return {"effect": "battle_bonus", "bonus": bonus, "unit": unit, "amount": amount, "target": target}


EVENTS = {
    "format": "nerath-events-1",
    "decks": {
        "karkoth": [_keep("k_gold", "reinforcements", _gold(1)), _now("k_now", _gold(2)),
                    _keep("k_cancel", "reaction", {"effect": "cancel", "what": "event"})],
        "vailin": [_keep("v_gold", "reinforcements", _gold(1))],
        "iron_circle": [
            _keep("i_cancel", "reaction", {"effect": "cancel", "what": "event"}),
            _keep("i_weaken", "reaction", {"effect": "weaken", "what": "any", "amount": 1}),
            _keep("i_stop_bonus", "reaction", {"effect": "cancel", "what": "battle_bonus"}),
            _keep("i_shields", "combat", _bonus("extra_dice", "footsoldier", 1, "defence")),
            _keep("i_gold", "reinforcements", _gold(1)),
        ],
        # Nerath's deck, in file order; the top card (drawn first) is the last one
        "nerath": [
            _keep("n_gold", "reinforcements", _gold(3)),
            _keep("n_vp", "movement", {"effect": "gain_vp", "amount": 2}),
            _keep("n_capital", "reinforcements", _place("footsoldier", 2, "capital")),
            _keep("n_castle", "reinforcements", _place("fighter", 1, "castle")),
            _keep("n_held", "reinforcements", _place("monster", 1, "held_region")),
            _keep("n_front", "reinforcements", _place("footsoldier", 3, "front_region")),
            _keep("n_sea", "reinforcements", _place("warship", 1, "coast_sea")),
            _keep("n_storm", "reinforcements", _place("storm_elemental", 1, "coast_sea")),
            _keep("n_march1", "movement", _move(2, "land", 1, "held_region")),
            _keep("n_march2", "movement", _move(2, "footsoldier", 2, "front_region")),
            _keep("n_draw", "movement", {"effect": "draw_cards", "count": 2}),
            _keep("n_extra", "combat", _bonus("extra_dice", "footsoldier", 1, "attack")),
            _keep("n_reroll", "combat", _bonus("reroll_misses", "footsoldier", 1, "attack")),
            _keep("n_first", "combat", _bonus("first_strike", "footsoldier", 1, "attack")),
            _keep("n_plus", "combat", _bonus("plus_to_hit", "footsoldier", 2, "attack")),
            _keep("n_any", "combat", _bonus("extra_dice", "any", 1, "attack")),
            _keep("n_wall", "combat", _bonus("plus_to_hit", "footsoldier", 1, "defence")),
            _now("n_now", _gold(1), {"effect": "gain_vp", "amount": 1}),
            _now("n_now_place", _place("footsoldier", 1, "front_region")),
            _keep("n_top", "movement", _gold(5)),
        ],
    },
}
TREASURES = {
    "format": "nerath-treasures-1",
    "cards": [
        _now("t_idol", _gold(1)) | {"vp": 2},
        _keep("t_chest", "reinforcements", _gold(2)) | {"vp": 1},
        _keep("t_rod", "reaction", {"effect": "cancel", "what": "any"}) | {"vp": 0},
    ],
}
GUARDIANS = {
    "format": "nerath-guardians-1",
    "guardians": [
        {"key": "rat", "tiles": 3, "dice": 1, "die": 6, "first_strike": False, "wound_on": 6, "gold": 0},
        {"key": "wyrm", "tiles": 1, "dice": 2, "die": 12, "first_strike": True, "wound_on": 8, "gold": 3},
    ],
}


def _write(path, data):
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cards")
    return {"event_file": _write(d / "events.json", EVENTS), "treasure_file": _write(d / "treasures.json", TREASURES),
            "guardian_file": _write(d / "guardians.json", GUARDIANS)}


@pytest.fixture(scope="module")
def R(files):
    return Rules(map="small", mode="free_for_all", event_deck_size=None, **files)


ALL_NERATH = {name: "nerath" for name in ("Kar", "Kmarch", "Kcoast", "Vale", "Vmarch", "Vcoast", "Iron", "Imarch",
                                           "Icoast", "Isle")}


def rng(seed=0):
    return np.random.default_rng(seed)


def events(s, kind):
    return [e for e in (s.log or []) if e["event"] == kind]


def nerath_buy(R, hand, **kw):
    """Nerath at the start of its reinforcements phase (the reinforcements window) holding `hand`."""
    units = kw.pop("units", {"Nera": {"nerath": "castle, footsoldier"}, "Nmarch": {"nerath": "footsoldier"},
                             "Ncoast": {"nerath": "footsoldier"}})
    kw.setdefault("gold", {"nerath": 10})                          # enough to buy: the buy phase is not skipped
    return build_state(R, realm="nerath", phase="buy", units=units, hands={"nerath": hand}, record=True, **kw)


def plays(s):
    return [a for a in E.legal_actions(s) if isinstance(a, PlayCard)]


def targets(s, key):
    cid = card_id(s, key)
    return sorted(s.board.names[a.target] for a in plays(s) if a.card == cid)


# ---------------------------------------------------------------------------------------------
# 1. The loader
# ---------------------------------------------------------------------------------------------
def test_shipped_files_load_with_the_published_sizes():
    cs = load_cards(deck_size=20)
    assert [len(d) for d in cs.decks] == [20, 20, 20, 20]
    assert len(cs.treasures) == 30 and len(cs.supply) == 26
    assert all(cs.cards[c].realm == p and cs.cards[c].kind == "event" for p in range(4) for c in cs.decks[p])
    assert all(cs.cards[c].kind == "treasure" and cs.cards[c].realm == -1 for c in cs.treasures)
    assert len({c.key for c in cs.cards}) == len(cs.cards)          # keys unique across both files
    rules = Rules()
    assert [len(d) for d in rules.cards.decks] == [20] * 4 and len(rules.cards.supply) == 26


def test_own_files_load_with_any_deck_size_when_the_size_is_not_checked(files, R):
    cs = R.cards
    assert [len(d) for d in cs.decks] == [3, 1, 5, 20]
    assert [cs.cards[c].key for c in cs.treasures] == ["t_idol", "t_chest", "t_rod"]
    assert [cs.guardians[g].key for g in cs.supply] == ["rat"] * 3 + ["wyrm"]
    wyrm = cs.guardians[1]
    assert (wyrm.dice, wyrm.die, wyrm.first_strike, wyrm.wound_on, wyrm.gold) == (2, 12, True, 8, 3)
    plus = next(c for c in cs.cards if c.key == "n_plus")
    assert plus.bonus_target == "attack" and plus.has_battle_bonus and not plus.reaction
    assert str(plus.effects[0]) == "battle_bonus(bonus=plus_to_hit, unit=footsoldier, amount=2, target=attack)"


def _bad_events(tmp_path, change):
    data = copy.deepcopy(EVENTS)
    change(data)
    return _write(tmp_path / "bad.json", data)


def _nerath_card(data, key):
    return next(c for c in data["decks"]["nerath"] if c["key"] == key)


@pytest.mark.parametrize("change, words", [
    (lambda d: _nerath_card(d, "n_gold")["effects"][0].update(effect="gain_mana"),
     ["'n_gold'", "unknown effect 'gain_mana'"]),
    (lambda d: _nerath_card(d, "n_front")["effects"][0].update(target="enemy_capital"),
     ["'n_front'", "unknown target 'enemy_capital'"]),
    (lambda d: _nerath_card(d, "n_gold").update(timing="later"), ["'n_gold'", "timing", "'later'"]),
    (lambda d: _nerath_card(d, "n_gold").update(phase="upkeep"), ["'n_gold'", "phase", "'upkeep'"]),
    (lambda d: _nerath_card(d, "n_gold").update(phase="combat"),
     ["'n_gold'", "'gain_gold'", "cannot be used", "'combat'"]),
    (lambda d: _nerath_card(d, "n_extra").update(phase="movement"),
     ["'n_extra'", "'battle_bonus'", "cannot be used", "'movement'"]),
    (lambda d: _nerath_card(d, "n_now")["effects"].append({"effect": "cancel", "what": "event"}),
     ["'n_now'", "'cancel'", "cannot be used", "at once"]),
    (lambda d: _nerath_card(d, "n_castle")["effects"][0].update(unit="paladin"),
     ["'n_castle'", "unknown unit 'paladin'"]),
    (lambda d: _nerath_card(d, "n_castle")["effects"][0].update(unit="castle"),
     ["'n_castle'", "cannot place a castle"]),
    (lambda d: _nerath_card(d, "n_gold")["effects"][0].pop("amount"), ["'n_gold'", "needs the field 'amount'"]),
    (lambda d: _nerath_card(d, "n_gold")["effects"][0].update(amount=0), ["'n_gold'", "amount", "0"]),
    (lambda d: _nerath_card(d, "n_gold").pop("timing"), ["'n_gold'", "timing", "None"]),
    (lambda d: _nerath_card(d, "n_gold").pop("effects"), ["'n_gold'", "effects", "non-empty list"]),
    (lambda d: _nerath_card(d, "n_gold").update(colour="red"), ["'n_gold'", "unknown field", "colour"]),
    (lambda d: _nerath_card(d, "n_vp").update(key="n_gold"), ["'n_gold'", "duplicate key"]),
    (lambda d: _nerath_card(d, "n_sea")["effects"][0].update(target="held_region"), ["'n_sea'", "coast_sea"]),
    (lambda d: _nerath_card(d, "n_march1")["effects"][0].update(range=4), ["'n_march1'", "range", "1..3"]),
    (lambda d: _nerath_card(d, "n_first")["effects"][0].update(amount=2), ["'n_first'", "first_strike", "amount 1"]),
    (lambda d: d.update(format="nerath-events-0"), ["format", "'nerath-events-0'"]),
    (lambda d: d["decks"].pop("vailin"), ["decks.vailin", "missing"]),
    (lambda d: d["decks"].update(gnomes=[]), ["unknown realm", "gnomes"]),
], ids=["unknown-effect", "unknown-target", "unknown-timing", "unknown-phase", "gold-in-combat", "bonus-in-movement",
        "cancel-at-once", "unknown-unit", "castle", "missing-field", "zero-amount", "missing-timing",
        "missing-effects", "unknown-field", "duplicate-key", "warship-on-land", "range", "first-strike-amount",
        "format", "missing-deck", "unknown-realm"])
def test_the_loader_rejects_a_bad_event_file_by_name(tmp_path, change, words):
    path = _bad_events(tmp_path, change)
    with pytest.raises(ValueError) as exc:
        load_cards(event_file=path)
    msg = str(exc.value)
    assert path in msg, msg                                        # the file
    for w in words:
        assert w in msg, (w, msg)


def test_a_deck_of_the_wrong_size_is_rejected_unless_the_size_is_free(files):
    with pytest.raises(ValueError) as exc:
        load_cards(event_file=files["event_file"], deck_size=20)
    msg = str(exc.value)
    assert "decks.karkoth" in msg and "holds 3 cards" in msg and "20" in msg
    with pytest.raises(ValueError, match=r"^Rules: .*decks\.karkoth.*holds 3 cards"):
        Rules(event_file=files["event_file"])                       # Rules.event_deck_size = 20
    assert [len(d) for d in load_cards(event_file=files["event_file"], deck_size=None).decks] == [3, 1, 5, 20]


def test_the_loader_rejects_bad_json_and_a_missing_file(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "nerath-events-1", "decks": {', encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.json.*not valid JSON \(line 1"):
        load_cards(event_file=str(bad))
    with pytest.raises(ValueError, match=r"nope\.json.*cannot be read"):
        load_cards(event_file=str(tmp_path / "nope.json"))
    with pytest.raises(ValueError, match=r"broken\.json.*not valid JSON"):
        Rules(event_file=str(bad))


def test_the_loader_rejects_bad_treasures_and_guardians(tmp_path):
    t = copy.deepcopy(TREASURES)
    t["cards"][0]["vp"] = 21
    path = _write(tmp_path / "t.json", t)
    with pytest.raises(ValueError, match=r"t\.json.*'t_idol'\.vp.*0\.\.20.*21"):
        load_cards(treasure_file=path)
    t = copy.deepcopy(TREASURES)
    t["cards"][1]["key"] = "n_gold"                                 # clashes with an event card key
    events_path = _write(tmp_path / "e.json", EVENTS)
    with pytest.raises(ValueError, match=r"'n_gold'.*duplicate key"):
        load_cards(event_file=events_path, treasure_file=_write(tmp_path / "t2.json", t))
    for field, value, words in (("die", 7, "die"), ("dice", 0, "dice"), ("first_strike", "yes", "first_strike"),
                                ("wound_on", 1, "wound_on"), ("claws", 2, "unknown field")):
        g = copy.deepcopy(GUARDIANS)
        g["guardians"][1][field] = value
        path = _write(tmp_path / "g.json", g)
        with pytest.raises(ValueError) as exc:
            load_cards(guardian_file=path)
        assert "g.json" in str(exc.value) and "'wyrm'" in str(exc.value) and words in str(exc.value)
    g = copy.deepcopy(GUARDIANS)
    g["format"] = "nerath-events-1"
    with pytest.raises(ValueError, match=r"format.*nerath-guardians-1"):
        load_cards(guardian_file=_write(tmp_path / "g2.json", g))


def test_rules_surface_a_bad_card_file_at_construction(tmp_path):
    path = _bad_events(tmp_path, lambda d: _nerath_card(d, "n_gold")["effects"][0].update(effect="gain_mana"))
    with pytest.raises(ValueError, match=r"^Rules: .*'n_gold'.*unknown effect 'gain_mana'"):
        Rules(event_file=path, event_deck_size=None)
    # with events and dungeons off the files are not read at all
    Rules(event_file=path, event_deck_size=None, events=False, dungeons=False)


# ---------------------------------------------------------------------------------------------
# 2. Every effect
# ---------------------------------------------------------------------------------------------
def test_gain_gold(R):
    s = nerath_buy(R, ["n_gold"], gold={"nerath": 4})
    assert s.phase == E.PH_EVENT and s.window.kind == "reinforcements" and s.decider == N
    assert E.legal_actions(s) == [PlayCard(card_id(s, "n_gold")), Pass()]
    act(s, "PlayCard", "n_gold")
    assert s.gold[N] == 7 and s.stats["card_gold"][N] == 3
    assert s.hands[N] == [] and s.used[N] == [card_id(s, "n_gold")]
    assert s.stats["events_played"][N] == 1 and s.card_plays[card_id(s, "n_gold")] == 1
    assert s.phase == E.PH_BUY                                      # the window closed: buying goes on
    assert events(s, "card")[0]["effects"] == ["gain_gold(amount=3)"]


def test_gain_vp_in_the_movement_window(R):
    s = build_state(R, realm="nerath", units={"Nera": {"nerath": "footsoldier"}}, hands={"nerath": ["n_vp"]})
    assert s.phase == E.PH_EVENT and s.window.kind == "movement"
    act(s, "PlayCard", "n_vp")
    assert s.vp[N] == 2 and s.stats["card_vp"][N] == 2
    assert s.phase == E.PH_MOVE


def test_place_units_in_the_capital_only_while_it_is_held(R):
    s = nerath_buy(R, ["n_capital"])
    assert targets(s, "n_capital") == ["Nera"]
    act(s, "PlayCard", "n_capital", "Nera")
    assert units_at(s, "Nera", "nerath") == {"footsoldier": 3, "castle": 1}
    assert s.stats["card_units"][N] == 2
    lost = nerath_buy(R, ["n_capital"], owner={"Nera": "iron_circle"},
                      units={"Nera": {"iron_circle": "footsoldier"}, "Nmarch": {"nerath": "footsoldier, castle"}})
    assert lost.phase == E.PH_BUY and lost.hands[N] == [card_id(lost, "n_capital")]   # nothing to play: no window


def test_place_units_at_a_castle(R):
    s = nerath_buy(R, ["n_castle"], units={"Nera": {"nerath": "castle"}, "Ncoast": {"nerath": "castle"},
                                           "Nmarch": {"nerath": "footsoldier"}})
    assert targets(s, "n_castle") == ["Ncoast", "Nera"]
    act(s, "PlayCard", "n_castle", "Ncoast")
    assert units_at(s, "Ncoast", "nerath") == {"fighter": 1, "castle": 1}


def test_place_units_in_any_held_region_but_not_under_enemy_troops(R):
    s = nerath_buy(R, ["n_held"], owner={"Isle": "nerath"},
                   units={"Nera": {"nerath": "castle"}, "Ncoast": {"karkoth": "footsoldier"}})
    # Ncoast is held by Nerath but an enemy stands there; Kcoast is Karkoth's; the Crypt is nobody's
    assert targets(s, "n_held") == ["Isle", "Nera", "Nmarch"]
    act(s, "PlayCard", "n_held", "Isle")
    assert units_at(s, "Isle", "nerath") == {"monster": 1}


def test_place_units_in_a_front_region(R):
    s = nerath_buy(R, ["n_front"])
    # Nmarch borders Imarch (Iron Circle), Ncoast borders Kcoast (Karkoth); Nera borders only Nerath and the sea
    assert targets(s, "n_front") == ["Ncoast", "Nmarch"]
    act(s, "PlayCard", "n_front", "Nmarch")
    assert units_at(s, "Nmarch", "nerath") == {"footsoldier": 4}
    with pytest.raises(E.IllegalActionError):
        act(nerath_buy(R, ["n_front"]), "PlayCard", "n_front", "Nera")
    # with every land region Nerath's, there is no front
    calm = nerath_buy(R, ["n_front"], owner=ALL_NERATH)
    assert calm.phase == E.PH_BUY


def test_place_units_in_a_coastal_sea_without_enemies(R):
    s = nerath_buy(R, ["n_sea", "n_storm"], ships=[("iron_circle", "South Sea", [])])
    # South Sea holds an enemy warship; North Sea touches no Nerath land; the Inner Sea does (Nmarch, Ncoast)
    assert targets(s, "n_sea") == ["Inner Sea"] and targets(s, "n_storm") == ["Inner Sea"]
    act(s, "PlayCard", "n_sea", "Inner Sea")
    inner = region(s, "Inner Sea")
    assert [(sh.owner, s.tab.names[sh.utype], sh.cargo) for sh in s.ships if sh.region == inner] == \
        [(N, "warship", [])]
    act(s, "PlayCard", "n_storm", "Inner Sea")
    assert units_at(s, "Inner Sea", "nerath") == {"storm_elemental": 1}
    assert s.stats["card_units"][N] == 2


def test_move_units_from_one_source_within_range_and_they_keep_their_moves(R):
    units = {"Nera": {"nerath": "3 footsoldier, fighter"}, "Ncoast": {"nerath": "footsoldier"},
             "Kcoast": {"nerath": "2 footsoldier"}, "Imarch": {"iron_circle": "footsoldier"}}
    s = build_state(R, realm="nerath", owner={"Kcoast": "nerath"}, units=units, hands={"nerath": ["n_march1"]},
                    record=True)
    cid = card_id(s, "n_march1")
    got = {(s.board.names[a.target], s.board.names[a.source]) for a in plays(s)}
    # range 1: only a neighbour of the target is a source (Nmarch is empty, Kcoast is 2 steps from Nera)
    assert got == {("Nmarch", "Nera"), ("Nmarch", "Ncoast"), ("Nera", "Ncoast"), ("Ncoast", "Nera"),
                   ("Ncoast", "Kcoast"), ("Kcoast", "Ncoast")}
    act(s, "PlayCard", "n_march1", "Nmarch", "Nera")
    # 2 land units, the dearest first: the fighter and a footsoldier
    assert units_at(s, "Nmarch", "nerath") == {"fighter": 1, "footsoldier": 1}
    assert units_at(s, "Nera", "nerath") == {"footsoldier": 2}
    assert s.used[N] == [cid] and s.phase == E.PH_MOVE
    assert s.stats["card_units"][N] == 0                          # moved, not new
    # not their move: both still have their full move and may attack Imarch from Nmarch
    nm = region(s, "Nmarch")
    assert s.mob[nm] == {(s.tab.idx["fighter"], 2): 1, (s.tab.idx["footsoldier"], 1): 1}
    act(s, "Move", "Nmarch", "Imarch", "footsoldier", 1)
    act(s, "Move", "Nmarch", "Imarch", "fighter", 1)
    assert units_at(s, "Imarch", "nerath") == {"footsoldier": 1, "fighter": 1}


def test_move_units_reaches_further_with_a_longer_range_and_only_the_named_units(R):
    units = {"Nera": {"nerath": "footsoldier"}, "Kcoast": {"nerath": "3 footsoldier, monster"},
             "Kar": {"karkoth": "footsoldier"}}
    s = build_state(R, realm="nerath", owner={"Kcoast": "nerath"}, units=units, hands={"nerath": ["n_march2"]})
    # front regions: Nmarch (Imarch), Kcoast (Kar, Kmarch); Ncoast borders only Nerath land now
    got = {(s.board.names[a.target], s.board.names[a.source]) for a in plays(s)}
    assert got == {("Nmarch", "Nera"), ("Nmarch", "Kcoast"), ("Kcoast", "Nera")}   # Kcoast-Ncoast-Nmarch: 2 steps
    act(s, "PlayCard", "n_march2", "Nmarch", "Kcoast")
    assert units_at(s, "Nmarch", "nerath") == {"footsoldier": 2}    # footsoldiers only, count 2
    assert units_at(s, "Kcoast", "nerath") == {"footsoldier": 1, "monster": 1}


def test_move_units_never_through_enemy_land(R):
    units = {"Imarch": {"iron_circle": "footsoldier"}, "Iron": {"nerath": "footsoldier"},
             "Nera": {"nerath": "footsoldier"}}
    s = build_state(R, realm="nerath", owner={"Iron": "nerath"}, units=units, hands={"nerath": ["n_march2"]})
    srcs = {(s.board.names[a.target], s.board.names[a.source]) for a in plays(s)}
    assert ("Nmarch", "Iron") not in srcs                           # Iron-Imarch-Nmarch runs through Imarch
    assert ("Nmarch", "Nera") in srcs


def test_draw_cards_from_the_own_deck(R):
    s = build_state(R, realm="nerath", units={"Nera": {"nerath": "footsoldier"}}, hands={"nerath": ["n_draw"]},
                    record=True)
    deck = s.decks[N][:]
    assert [s.cards.cards[c].key for c in deck[-2:]] == ["n_now_place", "n_top"]
    act(s, "PlayCard", "n_draw")
    assert [s.cards.cards[c].key for c in s.hands[N]] == ["n_top", "n_now_place"]
    assert s.decks[N] == deck[:-2]
    # a drawn immediate card is played at once: the window stays open with that card only (no Pass)
    assert s.phase == E.PH_EVENT and s.must_play[N] == [card_id(s, "n_now_place")]
    legal = E.legal_actions(s)
    assert Pass() not in legal and {a.card for a in legal} == {card_id(s, "n_now_place")}
    act(s, "PlayCard", "n_now_place", "Ncoast")
    assert units_at(s, "Ncoast", "nerath") == {"footsoldier": 1}
    assert s.phase == E.PH_EVENT                                    # n_top is a movement card too
    act(s, "Pass")
    assert s.phase == E.PH_MOVE and [s.cards.cards[c].key for c in s.hands[N]] == ["n_top"]


# --- battle bonuses: the attacker's SideTable in state.battle --------------------------------
def attack_imarch(R, hand, defence=(), defender="footsoldier"):
    """Nerath attacks Imarch with footsoldiers and a fighter (two kinds: under the casualty-order variant a
    casualty decision follows the card windows, so the battle waits there)."""
    R = dataclasses.replace(R, casualty_choice="order")
    units = {"Nmarch": {"nerath": "2 footsoldier, fighter"}, "Imarch": {"iron_circle": defender},
             "Nera": {"nerath": "castle"}}
    s = build_state(R, realm="nerath", units=units, hands={"nerath": list(hand), "iron_circle": list(defence)},
                    record=True)
    act(s, "Move", "Nmarch", "Imarch", "footsoldier", 2)
    act(s, "Move", "Nmarch", "Imarch", "fighter", 1)
    assert s.phase == E.PH_EVENT                                     # nothing else moves: combat begins at once
    return s


FOOT, FIGHTER = 0, 2          # unit indices of the published table


def test_battle_cards_are_offered_in_the_combat_window_with_the_battle_region(R):
    s = attack_imarch(R, ["n_extra", "n_wall", "n_gold"])
    assert s.phase == E.PH_EVENT and s.window.view == ("combat", N, region(s, "Imarch"), "attack")
    im = region(s, "Imarch")
    assert E.legal_actions(s) == [PlayCard(card_id(s, "n_extra"), im), Pass()]   # not the defence card
    base = s.battle.att.t
    assert base.dice[FOOT] == 1 and base.p[FOOT] == pytest.approx(1 / 6) and not base.fs[FOOT]
    act(s, "Pass")
    assert s.phase == E.PH_CASUALTY and s.battle.att.t is base


@pytest.mark.parametrize("key, dice, p, fs", [
    ("n_extra", 2, Fraction(1, 6), False),
    ("n_reroll", 1, Fraction(1, 6) + Fraction(5, 6) * Fraction(1, 6), False),      # 11/36
    ("n_first", 1, Fraction(1, 6), True),
    ("n_plus", 1, Fraction(3, 6), False),                                           # hits on 4+
])
def test_each_battle_bonus_changes_the_side_table(R, key, dice, p, fs):
    s = attack_imarch(R, [key])
    act(s, "PlayCard", key, "Imarch")
    assert s.phase == E.PH_CASUALTY and s.decider == N
    t = s.battle.att.t
    assert (t.dice[FOOT], t.p[FOOT], t.fs[FOOT]) == (dice, pytest.approx(float(p)), fs)
    # the fighter is untouched, and so is the defender
    assert (t.dice[FIGHTER], t.p[FIGHTER], t.fs[FIGHTER]) == (1, pytest.approx(0.5), False)
    d = s.battle.defs[0].t
    assert (d.dice[FOOT], d.p[FOOT], d.fs[FOOT]) == (1, pytest.approx(1 / 6), False)
    assert events(s, "card")[-1]["card"] == key


def test_a_bonus_on_any_unit_and_two_bonuses_stack(R):
    s = attack_imarch(R, ["n_any", "n_plus"])
    act(s, "PlayCard", "n_any", "Imarch")
    assert s.phase == E.PH_EVENT                                    # n_plus is still playable
    act(s, "PlayCard", "n_plus", "Imarch")
    t = s.battle.att.t
    assert (t.dice[FOOT], t.dice[FIGHTER]) == (2, 2)
    assert t.p[FOOT] == pytest.approx(0.5) and t.p[FIGHTER] == pytest.approx(0.5)
    assert t.strength[FOOT] == pytest.approx(1.0)


def test_the_defender_plays_its_defence_card_out_of_turn(R):
    s = attack_imarch(R, [], defence=["i_shields"], defender="2 footsoldier")
    assert s.phase == E.PH_EVENT and s.window.view == ("combat", I, region(s, "Imarch"), "defence")
    assert s.decider == I and s.current_player == s.seat_of[I]
    act(s, "PlayCard", "i_shields", "Imarch")
    assert s.battle.defs[0].t.dice[FOOT] == 2 and s.battle.att.t.dice[FOOT] == 1
    assert s.used[I] == [card_id(s, "i_shields")]


def test_the_bonus_lasts_one_battle(R):
    units = {"Nmarch": {"nerath": "2 footsoldier, fighter"}, "Imarch": {"iron_circle": "footsoldier"},
             "Ncoast": {"nerath": "2 footsoldier, fighter"}, "Kcoast": {"karkoth": "footsoldier"},
             "Nera": {"nerath": "castle"}}
    s = build_state(dataclasses.replace(R, casualty_choice="order"), realm="nerath", units=units,
                    hands={"nerath": ["n_extra", "n_extra"]})
    for src, dst in (("Nmarch", "Imarch"), ("Ncoast", "Kcoast")):
        act(s, "Move", src, dst, "footsoldier", 2)
        act(s, "Move", src, dst, "fighter", 1)
    assert s.phase == E.PH_COMBAT
    act(s, "Fight", "Imarch")
    act(s, "PlayCard", "n_extra", "Imarch")
    assert s.battle.att.t.dice[FOOT] == 2
    act(s, "Pass")                                                  # keep the second copy
    act(s, "Casualties", "cheapest")
    while s.battle is not None and s.battle.region == region(s, "Imarch"):
        act(s, "PressOn")
    # the second battle starts with the plain table; the second copy is offered again
    assert s.phase == E.PH_EVENT and s.battle.region == region(s, "Kcoast")
    assert s.battle.att.t.dice[FOOT] == 1 and s.hands[N] == [card_id(s, "n_extra")]
    act(s, "Pass")
    assert s.battle.att.t.dice[FOOT] == 1
    assert gb.side_table(R.battle, "attacker", False).dice[FOOT] == 1       # the shared table is not changed


# --- reactions ----------------------------------------------------------------------------------
def test_an_enemy_with_a_cancel_card_is_asked_and_passing_lets_the_card_resolve(R):
    s = nerath_buy(R, ["n_gold"], gold={"nerath": 5})
    s.hands[I] = [card_id(s, "i_cancel")]
    act(s, "PlayCard", "n_gold")
    assert s.phase == E.PH_EVENT and s.decider == I and s.current_player == s.seat_of[I]
    assert E.legal_actions(s) == [PlayCard(card_id(s, "i_cancel")), Pass()]
    assert s.gold[N] == 5 and s.hands[N] == []                      # the card has left the hand, not resolved
    act(s, "Pass")
    assert s.gold[N] == 8 and s.hands[I] == [card_id(s, "i_cancel")] and s.phase == E.PH_BUY


def test_a_cancel_stops_the_card(R):
    s = nerath_buy(R, ["n_gold"], gold={"nerath": 5})
    s.hands[I] = [card_id(s, "i_cancel")]
    act(s, "PlayCard", "n_gold")
    act(s, "PlayCard", "i_cancel")
    assert s.gold[N] == 5 and s.stats["card_gold"][N] == 0
    assert s.used[N] == [card_id(s, "n_gold")] and s.used[I] == [card_id(s, "i_cancel")]
    assert s.stats["cards_cancelled"][I] == 1 and s.stats["events_played"] == [0, 0, 1, 1]
    assert [e["card"] for e in events(s, "card_cancelled")] == ["n_gold"]
    assert events(s, "reaction")[0]["against"] == "n_gold"
    assert s.phase == E.PH_BUY and s.decider == N


def test_reactors_are_asked_in_turn_order_and_the_first_cancel_ends_it(R):
    s = nerath_buy(R, ["n_gold"])
    s.hands[K] = [card_id(s, "k_cancel")]
    s.hands[I] = [card_id(s, "i_cancel")]
    act(s, "PlayCard", "n_gold")
    assert s.decider == K                                           # Karkoth follows Nerath in the turn order
    act(s, "PlayCard", "k_cancel")
    assert s.phase == E.PH_BUY and s.hands[I] == [card_id(s, "i_cancel")]   # Iron Circle is not asked


def test_weaken_lowers_every_number_of_the_card(R):
    s = nerath_buy(R, ["n_gold", "n_front"], gold={"nerath": 5})
    s.hands[I] = [card_id(s, "i_weaken"), card_id(s, "i_weaken")]
    act(s, "PlayCard", "n_gold")
    act(s, "PlayCard", "i_weaken")
    assert s.gold[N] == 7                                           # 3 - 1
    assert events(s, "card")[-1]["weakened"] == 1
    act(s, "PlayCard", "n_front", "Nmarch")
    act(s, "PlayCard", "i_weaken")
    assert units_at(s, "Nmarch", "nerath") == {"footsoldier": 3}    # 1 + (3 - 1)
    assert s.stats["card_units"][N] == 2
    assert s.stats["cards_weakened"][I] == 2 and s.stats["cards_cancelled"][I] == 0


def test_weaken_on_a_battle_bonus(R):
    s = attack_imarch(R, ["n_plus", "n_extra"], defence=["i_weaken", "i_weaken"])
    act(s, "PlayCard", "n_plus", "Imarch")
    assert s.decider == I
    act(s, "PlayCard", "i_weaken")
    t = s.battle.att.t
    assert t.p[FOOT] == pytest.approx(2 / 6)                        # +2 to hit weakened to +1: 5+
    act(s, "PlayCard", "n_extra", "Imarch")
    act(s, "PlayCard", "i_weaken")                                  # +1 die weakened to nothing
    assert s.battle.att.t.dice[FOOT] == 1


def test_what_a_reaction_may_answer(R):
    # a battle-bonus cancel does not answer a gold card: nobody is asked
    s = nerath_buy(R, ["n_gold"], gold={"nerath": 5})
    s.hands[I] = [card_id(s, "i_stop_bonus")]
    act(s, "PlayCard", "n_gold")
    assert s.gold[N] == 8 and s.phase == E.PH_BUY
    # ... but it answers a battle bonus
    s = attack_imarch(R, ["n_extra"], defence=["i_stop_bonus"])
    act(s, "PlayCard", "n_extra", "Imarch")
    assert s.decider == I
    act(s, "PlayCard", "i_stop_bonus")
    assert s.battle.att.t.dice[FOOT] == 1
    # an event cancel does not answer a treasure; the Rod (cancel any) does
    s = nerath_buy(R, ["t_chest"], gold={"nerath": 5})
    s.hands[I] = [card_id(s, "i_cancel")]
    act(s, "PlayCard", "t_chest")
    assert s.gold[N] == 7 and s.kept[N] == [card_id(s, "t_chest")] and s.used[N] == []
    assert s.stats["treasures_played"][N] == 1 and s.stats["events_played"][N] == 0
    s = nerath_buy(R, ["t_chest"], gold={"nerath": 5})
    s.hands[K] = [card_id(s, "t_rod")]
    act(s, "PlayCard", "t_chest")
    assert s.decider == K
    act(s, "PlayCard", "t_rod")
    assert s.gold[N] == 5 and s.kept[K] == [card_id(s, "t_rod")]


def test_allies_do_not_react(files):
    rules = Rules(map="small", mode="alliance", event_deck_size=None, **files)
    s = nerath_buy(rules, ["n_gold"], gold={"nerath": 5})
    s.hands[V] = [card_id(s, "i_cancel")]                           # Vailin, Nerath's partner, holds a cancel
    act(s, "PlayCard", "n_gold")
    assert s.gold[N] == 8 and s.phase == E.PH_BUY


def test_a_reaction_card_is_never_played_on_its_own(R):
    s = nerath_buy(R, ["n_gold"])
    s.hands[N].append(card_id(s, "t_rod"))
    assert E.legal_actions(s) == [PlayCard(card_id(s, "n_gold")), Pass()]


# ---------------------------------------------------------------------------------------------
# 3. Timing
# ---------------------------------------------------------------------------------------------
def test_an_immediate_card_must_be_played_at_the_start_of_the_own_turn(R):
    s = build_state(R, realm="nerath", units={"Nera": {"nerath": "footsoldier"}},
                    hands={"nerath": ["n_now", "n_vp"]})
    assert s.phase == E.PH_EVENT and s.window.kind == "immediate"
    assert E.legal_actions(s) == [PlayCard(card_id(s, "n_now"))]   # no Pass, and not the kept card yet
    with pytest.raises(E.IllegalActionError):
        act(s, "Pass")
    act(s, "PlayCard", "n_now")
    assert (s.gold[N], s.vp[N]) == (1, 1)
    assert s.window.kind == "movement" and Pass() in E.legal_actions(s)


def test_an_immediate_card_without_a_target_is_played_without_effect(R):
    s = build_state(R, realm="nerath", owner=ALL_NERATH,
                    units={"Nera": {"nerath": "footsoldier"}}, hands={"nerath": ["n_now_place"]}, record=True)
    assert E.legal_actions(s) == [PlayCard(card_id(s, "n_now_place"))]    # no front region: no target
    act(s, "PlayCard", "n_now_place")
    assert s.stats["card_units"][N] == 0 and s.hands[N] == [] and s.phase == E.PH_MOVE


def test_an_immediate_card_of_another_realm_waits_for_its_own_turn(R):
    s = build_state(R, realm="nerath", units={"Nera": {"nerath": "footsoldier"}}, hands={"karkoth": ["k_now"]})
    assert s.phase == E.PH_MOVE and s.must_play[K] == [card_id(s, "k_now")]
    while s.realm == N:
        E.apply_action(s, E.END_PHASE if E.END_PHASE in E.legal_actions(s) else E.legal_actions(s)[0], rng())
    # Karkoth's turn: it draws its top card (k_cancel) and must first play k_now
    assert s.realm == K and s.phase == E.PH_EVENT and s.window.kind == "immediate"
    assert E.legal_actions(s) == [PlayCard(card_id(s, "k_now"))]


def test_a_kept_card_may_be_kept_and_stays_in_hand(R):
    s = nerath_buy(R, ["n_gold"], gold={"nerath": 5})
    act(s, "Pass")
    assert s.phase == E.PH_BUY and s.hands[N] == [card_id(s, "n_gold")] and s.gold[N] == 5
    assert E.PH_EVENT != s.phase and not any(isinstance(a, PlayCard) for a in E.legal_actions(s))


def test_hands_are_unlimited(R):
    s = build_state(R, realm="nerath", units={"Nera": {"nerath": "footsoldier"}})
    for _ in range(19):
        _draw_event(s, N, rng())
    assert len(s.hands[N]) == 19 and len(s.decks[N]) == 1          # nothing discarded


def test_the_deck_reshuffles_the_used_cards_when_it_runs_out(R):
    s = build_state(R, realm="nerath", units={"Nera": {"nerath": "footsoldier"}, "Kar": {"karkoth": "footsoldier"}},
                    record=True)
    used = [card_id(s, "k_gold"), card_id(s, "k_cancel")]
    s.decks[K], s.used[K], s.hands[K] = [], list(used), []
    while s.realm == N:                                             # end Nerath's turn: Karkoth draws
        E.apply_action(s, E.END_PHASE, rng())
    assert s.realm == K
    assert len(s.hands[K]) == 1 and s.hands[K][0] in used
    assert sorted(s.decks[K] + s.hands[K]) == sorted(used) and s.used[K] == []
    assert events(s, "reshuffle")[0]["cards"] == 2
    s.decks[K], s.used[K] = [], []
    _draw_event(s, K, rng())                                      # nothing left anywhere: nothing drawn
    assert len(s.hands[K]) == 1


def test_played_cards_go_to_the_used_pile_and_come_back_with_the_reshuffle(R):
    s = nerath_buy(R, ["n_gold"])
    act(s, "PlayCard", "n_gold")
    s.decks[N] = []
    _draw_event(s, N, rng())
    assert s.hands[N] == [card_id(s, "n_gold")] and s.used[N] == []


def test_setup_shuffles_the_decks_and_deals_the_starting_hand(R):
    s = E.new_game(Rules(map="small", mode="free_for_all"), rng(5))
    assert [len(h) for h in s.hands] == [3, 2, 2, 2]                # Karkoth has drawn for its first turn
    for p in range(4):
        assert sorted(s.hands[p] + s.decks[p]) == sorted(s.rules.cards.decks[p])
    t = E.new_game(Rules(map="small", mode="free_for_all", starting_hand=0), rng(5))
    assert [len(h) for h in t.hands] == [1, 0, 0, 0]


def test_without_events_there_are_no_decks_hands_or_windows():
    rules = Rules(map="small", mode="free_for_all", events=False, max_rounds=3)
    r = rng(2)
    s = E.new_game(rules, r)
    assert s.decks == [[]] * 4 and s.hands == [[]] * 4
    while not s.is_terminal:
        assert s.phase != E.PH_EVENT
        legal = E.legal_actions(s)
        assert not any(isinstance(a, PlayCard) for a in legal)
        E.apply_legal(s, legal[int(r.integers(len(legal)))], r)
    assert s.decks == [[]] * 4 and s.used == [[]] * 4
    assert all(len(h) == s.stats["treasures"][p] - len(s.kept[p]) for p, h in enumerate(s.hands))
    assert s.stats["events_played"] == [0] * 4
    off = Rules(map="small", mode="free_for_all", events=False, dungeons=False)
    assert E.new_game(off, rng()).cards is None


def test_window_plays_lists_nothing_for_a_realm_without_cards(R):
    s = build_state(R, realm="nerath", units={"Nera": {"nerath": "footsoldier"}})
    for kind in ef.WINDOWS:
        assert ef.window_plays(s, N, kind) == []


def test_bonuses_from_successive_cards_stack_in_any_order():
    """A re-roll granted by one card survives a +to-hit from the next (battle.ingame.modified_table)."""
    t = gb.side_table(BattleRules(), "attacker", False)
    foot = t.names.index("footsoldier")
    a = gb.modified_table(gb.modified_table(t, (("reroll_misses", foot, 1),)), (("plus_to_hit", foot, 1),))
    b = gb.modified_table(gb.modified_table(t, (("plus_to_hit", foot, 1),)), (("reroll_misses", foot, 1),))
    p = 2 / 6                                                         # 5+ on a d6
    assert a.p[foot] == pytest.approx(p + (1 - p) * p) == b.p[foot]
    assert a.strength[foot] == pytest.approx(a.p[foot]) and t.p[foot] == pytest.approx(1 / 6)


def test_a_reactor_whose_card_cannot_answer_is_passed_over_and_the_next_is_asked(R):
    s = nerath_buy(R, ["n_gold"], gold={"nerath": 5})
    s.hands[K] = [card_id(s, "i_stop_bonus")]     # a battle-bonus cancel: no answer to a gold card
    s.hands[I] = [card_id(s, "i_cancel")]
    act(s, "PlayCard", "n_gold")
    assert s.phase == E.PH_EVENT and s.decider == I
    act(s, "PlayCard", "i_cancel")
    assert s.gold[N] == 5 and s.hands[K] == [card_id(s, "i_stop_bonus")] and s.phase == E.PH_BUY
