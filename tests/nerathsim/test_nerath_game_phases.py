"""Phases 1, 4, 5, 6 and the round: event draw, regroup, reinforcements, income, victory, turn order, seats."""
import dataclasses
import json

import pytest

from nerathsim import engine as E
from nerathsim.engine.windows import _draw_event
from nerathsim.game_actions import Buy
from nerathsim.maps import load_map, parse_map
from nerathsim.rules import Rules
from nerathsim.scenario import act, action, build_state, region, units_at

K, V, I, N = range(4)
# the rules of Parts I–II without the cards and guardians of Part III (scenarios of other rules stay exact)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)
ALLY = Rules(map="small", mode="alliance", events=False, dungeons=False)


@pytest.fixture(scope="module")
def play_out(default_action, rng):
    def play_out(s, seed=0, limit=20_000):
        r = rng(seed)
        for _ in range(limit):
            if s.is_terminal:
                return s
            E.apply_action(s, default_action(s), r)
        raise AssertionError("game did not end")
    return play_out


# --- phase 1: event cards ----------------------------------------------------------------------
EVENTS = dataclasses.replace(FFA, events=True)


def test_setup_deals_two_event_cards_and_the_first_realm_draws_one(rng):
    s = E.new_game(EVENTS, rng())
    assert [len(h) for h in s.hands] == [3, 2, 2, 2]          # Karkoth has drawn for its first turn
    assert [len(d) for d in s.decks] == [17, 18, 18, 18]
    assert all(s.cards.cards[c].realm == p for p in range(4) for c in s.hands[p] + s.decks[p])


def test_no_decks_and_no_draw_when_events_are_off(rng):
    s = E.new_game(FFA, rng())
    assert s.hands == [[], [], [], []] and s.decks == [[], [], [], []] and s.phase == E.PH_MOVE


def test_empty_deck_is_rebuilt_from_used_cards_else_nothing_is_drawn(rng):
    s = build_state(EVENTS)
    deck = list(s.cards.decks[K])
    s.decks[K], s.used[K], s.hands[K] = [], deck[:3], []
    _draw_event(s, K, rng())
    assert len(s.hands[K]) == 1 and len(s.decks[K]) == 2 and s.used[K] == []
    s.decks[K], s.used[K] = [], []
    _draw_event(s, K, rng())
    assert len(s.hands[K]) == 1                                # nothing to draw


def test_hands_are_unlimited(play_out, rng):
    rules = dataclasses.replace(EVENTS, max_rounds=25)
    s = play_out(E.new_game(rules, rng()))                     # keeps every card it may keep
    immediate = [sum(1 for c in s.used[p] if s.cards.cards[c].timing == "immediate") for p in range(4)]
    assert all(len(s.hands[p]) + immediate[p] + len(s.decks[p]) == 20 for p in range(4))
    assert max(len(h) for h in s.hands) >= 12                  # far beyond any hand limit a card game would set


# --- phase 4: regroup ------------------------------------------------------------------------------
DUNGEONS = dataclasses.replace(FFA, dungeons=True)


@pytest.fixture(scope="module")
def _won_exploration(end_phase, rng):
    def _won_exploration(units, owner=None):
        """A position where Nerath's heroes beat a kobold warband in the Crypt (first seed that wins)."""
        for seed in range(50):
            s = build_state(DUNGEONS, realm="nerath", units=units, owner=owner or {},
                            guardians={"Crypt": ["kobold_warband"]})
            if "Nmarch" in units:
                act(s, "Move", "Nmarch", "Crypt", "fighter", 1, rng=rng(seed))
            else:
                end_phase(s, seed)
            while s.phase == E.PH_PRESS:
                E.apply_action(s, E.PRESS_ON, rng(seed))
            if s.explored:
                return s
        raise AssertionError("no seed won")
    return _won_exploration


def test_heroes_who_explored_a_dungeon_must_leave_to_adjacent_friendly_land(_won_exploration, names):
    s = _won_exploration({"Nmarch": {"nerath": "fighter"}})
    assert s.phase == E.PH_REGROUP and s.explored == {region(s, "Crypt")}
    assert not E.is_legal(s, E.END_PHASE)
    d = E.destinations(s, region(s, "Crypt"), "fighter")
    assert names(s, d) == ["Nmarch"]                           # Imarch is enemy land
    act(s, "Move", "Crypt", "Nmarch", "fighter", 1)
    assert E.is_legal(s, E.END_PHASE) or s.phase != E.PH_REGROUP


def test_heroes_stay_in_the_dungeon_when_no_friendly_land_is_adjacent(_won_exploration):
    s = _won_exploration({"Crypt": {"nerath": "fighter"}, "Nera": {"nerath": "footsoldier"}},
                         owner={"Nmarch": "iron_circle"})
    assert s.phase == E.PH_REGROUP and s.explored == {region(s, "Crypt")}
    assert E.is_legal(s, E.END_PHASE)
    assert E.destinations(s, region(s, "Crypt"), "fighter") == {}


def test_flyers_must_reach_friendly_land_storm_elementals_may_stay_at_sea(end_phase, names):
    s = build_state(FFA, units={"Kar": {"karkoth": "dragon, storm_elemental, footsoldier"}})
    act(s, "Move", "Kar", "North Sea", "dragon", 1)
    act(s, "Move", "Kar", "North Sea", "storm_elemental", 1)
    end_phase(s)
    assert s.decision == "regroup"
    assert "North Sea" not in names(s, E.destinations(s, region(s, "Kar"), "footsoldier"))
    end_phase(s)                                               # the dragon stays at sea: lost
    assert units_at(s, "North Sea", "karkoth") == {"storm_elemental": 1}
    assert s.stats["flyers_lost"][K] == 1 and s.stats["units_lost"][K] == 1


def test_regroup_range_full_or_remaining(end_phase, names):
    for mode, reachable in (("full", True), ("remaining", False)):
        rules = dataclasses.replace(FFA, regroup_move=mode)
        s = build_state(rules, units={"Kar": {"karkoth": "dragon, footsoldier"}})
        act(s, "Move", "Kar", "North Sea", "dragon", 1)        # 2 of its 3 moves
        end_phase(s)
        d = names(s, E.destinations(s, region(s, "North Sea"), "dragon"))
        assert ("Kar" in d) == reachable, mode


def test_regroup_starts_no_battles(end_phase, names):
    s = build_state(FFA, units={"Kar": {"karkoth": "dragon"}, "Vmarch": {"vailin": "footsoldier"}})
    end_phase(s)
    d = names(s, E.destinations(s, region(s, "Kar"), "dragon"))
    assert "Vmarch" not in d and "Vale" not in d and "Kmarch" in d


# --- phase 5: reinforcements ------------------------------------------------------------------------
def buy_state(**kw):
    kw.setdefault("gold", {"karkoth": 20})
    return build_state(FFA, phase="buy", **kw)


def test_buy_what_you_can_pay():
    s = buy_state(units={"Kar": {"karkoth": "castle"}}, gold={"karkoth": 5})
    assert E.is_legal(s, action(s, "Buy", "dragon", "Kar"))
    act(s, "Buy", "dragon", "Kar")
    assert s.gold[K] == 0 and units_at(s, "Kar", "karkoth")["dragon"] == 1 and s.spent[K][E.tables(FFA).idx["dragon"]] == 5
    s2 = buy_state(units={"Kar": {"karkoth": "castle"}}, gold={"karkoth": 4})
    assert not E.is_legal(s2, action(s2, "Buy", "dragon", "Kar"))


def test_capital_unlimited_other_castles_four():
    s = buy_state(units={"Kar": {"karkoth": "castle"}, "Kcoast": {"karkoth": "castle"}})
    for _ in range(4):
        act(s, "Buy", "footsoldier", "Kcoast")
    assert not E.is_legal(s, action(s, "Buy", "footsoldier", "Kcoast"))
    for _ in range(6):
        act(s, "Buy", "footsoldier", "Kar")


def test_no_limit_with_only_one_castle_at_the_start_of_the_turn():
    s = buy_state(owner={"Kar": "vailin"}, units={"Kcoast": {"karkoth": "castle"}, "Kar": {"vailin": "castle"}})
    for _ in range(6):
        act(s, "Buy", "footsoldier", "Kcoast")


def test_castles_captured_this_turn_cannot_place_but_a_recaptured_capital_can(drive, names):
    s = build_state(dataclasses.replace(FFA, battle=dataclasses.replace(FFA.battle, hit_threshold=1)),
                    gold={"karkoth": 9}, owner={"Kar": "vailin"},
                    units={"Kmarch": {"karkoth": "3 footsoldier"}, "Kar": {"vailin": "footsoldier, castle"},
                           "Kcoast": {"karkoth": "castle, 3 footsoldier"}, "Ncoast": {"nerath": "castle"}})
    act(s, "Move", "Kmarch", "Kar", "footsoldier", 3)
    act(s, "Move", "Kcoast", "Ncoast", "footsoldier", 3)
    drive(s, until=lambda s: s.phase == E.PH_BUY)
    assert s.owner[region(s, "Kar")] == K and s.owner[region(s, "Ncoast")] == K
    spots = E.placement_spots(s)["castles"]
    assert names(s, spots) == ["Kar", "Kcoast"]                  # not Ncoast, taken this turn
    assert spots[region(s, "Kar")] is None                       # the recaptured capital: unlimited


def test_without_castles_new_troops_go_to_the_friendly_land_nearest_the_capital(names):
    s = buy_state(owner={"Kar": "vailin"}, units={"Kar": {"vailin": "castle"}})
    spots = E.placement_spots(s)
    assert spots["castles"] == {} and names(s, spots["fallback"]) == ["Kcoast", "Kmarch"]
    act(s, "Buy", "footsoldier", "Kmarch")
    assert not any(a.unit == "warship" for a in E.legal_actions(s) if isinstance(a, Buy))


def test_ships_and_storm_elementals_in_a_friendly_sea_next_to_a_castle():
    s = buy_state(units={"Kcoast": {"karkoth": "castle"}}, ships=[("vailin", "North Sea")])
    assert E.is_legal(s, action(s, "Buy", "warship", "Inner Sea"))
    assert E.is_legal(s, action(s, "Buy", "storm_elemental", "Inner Sea"))
    assert not E.is_legal(s, action(s, "Buy", "dragon", "Inner Sea"))
    assert not E.is_legal(s, action(s, "Buy", "warship", "South Sea"))        # not next to the castle
    s2 = buy_state(units={"Kar": {"karkoth": "castle"}}, ships=[("vailin", "North Sea")])
    assert not E.is_legal(s2, action(s2, "Buy", "warship", "North Sea"))      # an enemy fleet is there


def test_land_units_straight_into_warships_next_to_a_coastal_castle():
    s = buy_state(units={"Kcoast": {"karkoth": "castle"}}, ships=[("karkoth", "Inner Sea", ["footsoldier"])])
    act(s, "Buy", "fighter", "Inner Sea")
    assert sorted(E.tables(FFA).names[u] for u in s.ships[0].cargo) == ["fighter", "footsoldier"]
    assert not E.is_legal(s, action(s, "Buy", "fighter", "Inner Sea"))      # the warship is full


def test_placements_at_sea_count_against_the_castle():
    s = buy_state(units={"Kar": {"karkoth": "castle"}, "Kcoast": {"karkoth": "castle"}})
    for _ in range(4):
        act(s, "Buy", "warship", "Inner Sea")                                # next to Kcoast only
    assert not E.is_legal(s, action(s, "Buy", "warship", "Inner Sea"))
    assert E.is_legal(s, action(s, "Buy", "warship", "North Sea"))           # next to the capital


def test_a_bought_castle_goes_on_a_region_held_since_the_start_of_the_turn():
    s = buy_state(units={"Kar": {"karkoth": "castle"}})
    assert E.is_legal(s, action(s, "Buy", "castle", "Kmarch"))
    assert not E.is_legal(s, action(s, "Buy", "castle", "Kar"))             # already has one
    act(s, "Buy", "castle", "Kmarch")
    assert units_at(s, "Kmarch", "karkoth") == {"castle": 1}
    assert region(s, "Kmarch") not in E.placement_spots(s)["castles"]      # not usable this turn
    s2 = buy_state(units={"Kar": {"karkoth": "castle"}}, owner={"Vmarch": "karkoth"})
    s2 = build_state(dataclasses.replace(FFA, castle_placement="next_to_castle"), phase="buy",
                     gold={"karkoth": 20}, owner={"Vmarch": "karkoth"}, units={"Kar": {"karkoth": "castle"}})
    assert E.is_legal(s2, action(s2, "Buy", "castle", "Kmarch"))          # next to Kar
    assert not E.is_legal(s2, action(s2, "Buy", "castle", "Vmarch"))      # two steps away


def test_new_units_then_move_without_starting_battles(names):
    s = buy_state(units={"Kar": {"karkoth": "castle, footsoldier"}}, gold={"karkoth": 2})
    act(s, "Buy", "fighter", "Kar")
    assert s.decision == "reinforcements: move"
    d = names(s, E.destinations(s, region(s, "Kar"), "fighter"))
    assert "Kmarch" in d and "Vmarch" not in d and "Ncoast" not in d
    assert E.destinations(s, region(s, "Kar"), "footsoldier") == {}         # old units stay


def test_new_warship_may_carry_new_land_units(end_phase):
    s = buy_state(units={"Kcoast": {"karkoth": "castle"}}, gold={"karkoth": 3})
    act(s, "Buy", "warship", "Inner Sea")
    act(s, "Buy", "footsoldier", "Kcoast")
    end_phase(s)
    sid = s.ships[0].id
    act(s, "Embark", "Kcoast", sid, "footsoldier")
    act(s, "Sail", sid, "North Sea")
    act(s, "Unload", sid, "Kar")
    assert units_at(s, "Kar", "karkoth") == {"footsoldier": 1}


# --- phase 6: income ---------------------------------------------------------------------------------
def test_income_is_base_plus_gained_minus_lost_halved_without_capital():
    s = build_state(FFA, owner={"Vmarch": "karkoth", "Kcoast": "nerath"})
    assert E.income(s, K) == 4 + 1 - 1
    s.owner[region(s, "Kar")] = V
    assert E.income(s, K) == 2 - 0 + 0 if False else E.income(s, K) == (4 + 1 - 2 + 1) // 2
    s.owner[region(s, "Vale")] = K
    assert E.income(s, K) == (4 + 2 - 2 + 1) // 2


def test_income_never_drops_below_zero():
    data = json.loads(open(load_map("small").source, encoding="utf-8").read())
    data["realms"]["karkoth"]["income"] = 1                    # a poor realm: base 1, three regions
    rules = dataclasses.replace(FFA, map=parse_map(data))
    s = build_state(rules, owner={"Kar": "vailin", "Kmarch": "vailin", "Kcoast": "vailin"})
    assert E.income(s, K) == 0                                  # 1 - 3 < 0: nothing (then halving keeps 0)


def test_no_piece_limits():
    s = buy_state(units={"Kar": {"karkoth": "castle"}}, gold={"karkoth": 30})
    for _ in range(25):
        act(s, "Buy", "footsoldier", "Kar")
    assert units_at(s, "Kar", "karkoth")["footsoldier"] == 25


def test_income_by_region_value_variant():
    rules = dataclasses.replace(FFA, income_mode="value")
    s = build_state(rules, owner={"Vale": "karkoth"})
    assert E.income(s, K) == 4 + 2


def test_income_is_collected_at_the_end_of_the_turn(end_phase):
    s = build_state(FFA, gold={"karkoth": 1}, owner={"Vmarch": "karkoth"}, units={"Kar": {"karkoth": "castle"},
                                                                                   "Vale": {"vailin": "footsoldier"}})
    while s.realm == K:
        end_phase(s)
    assert s.gold[K] == 1 + 5 and s.stats["gold_earned"][K] == 5


# --- victory ---------------------------------------------------------------------------------------
def test_victory_is_checked_after_the_full_round(drive, play_out):
    others = {"Vale": {"vailin": "footsoldier"}, "Iron": {"iron_circle": "footsoldier"},
              "Nera": {"nerath": "footsoldier"}}                          # each realm has a decision to make
    s = build_state(FFA, vp={"karkoth": 12}, units={"Kmarch": {"karkoth": "footsoldier"}, **others})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 1)
    assert s.vp[K] == 13 and not s.is_terminal
    while s.realm != N:
        drive(s, until=lambda s: s.realm == N)
    assert not s.is_terminal and s.vp[K] >= 13                       # Nerath still has its turn
    play_out(s)
    assert s.winner == 0 and s.round == 1


def test_most_vp_wins_when_several_reach_the_target_and_a_tie_plays_on(play_out):
    s = build_state(dataclasses.replace(FFA, max_rounds=3), vp={"karkoth": 14, "vailin": 13}, realm="nerath")
    play_out(s)
    assert s.winner == 0
    s = build_state(dataclasses.replace(FFA, max_rounds=3), vp={"karkoth": 13, "vailin": 13}, realm="nerath")
    play_out(s)
    assert s.winner is None and s.timed_out and s.round == 3


def test_alliance_partners_add_their_vp(play_out):
    s = build_state(ALLY, vp={"karkoth": 10, "iron_circle": 10, "vailin": 19}, realm="nerath")
    play_out(s)
    assert s.winner == (0, 2)
    s2 = build_state(dataclasses.replace(ALLY, players=2), vp={"karkoth": 10, "iron_circle": 10}, realm="nerath")
    play_out(s2)
    assert s2.winner == 0
    s3 = build_state(dataclasses.replace(ALLY, players=3), vp={"vailin": 15, "nerath": 5}, realm="nerath")
    play_out(s3)
    assert s3.winner == 0


def test_long_game_is_won_by_holding_all_capitals(play_out):
    rules = dataclasses.replace(FFA, game_length="long", max_rounds=2)
    s = build_state(rules, owner={"Vale": "karkoth", "Iron": "karkoth", "Nera": "karkoth"}, realm="nerath",
                    vp={"karkoth": 99})
    play_out(s)
    assert s.winner == 0
    s = build_state(rules, owner={"Vale": "karkoth", "Iron": "karkoth"}, realm="nerath", vp={"karkoth": 99})
    play_out(s)
    assert s.winner is None and s.timed_out


def test_round_cap_ends_the_game_as_a_timeout(play_out, rng):
    s = play_out(E.new_game(dataclasses.replace(FFA, max_rounds=2), rng()))
    assert s.timed_out and s.winner is None and s.round == 2 and s.turns == 8


# --- turn order and seats ------------------------------------------------------------------------------
def test_turn_order_published_and_fan_variant(default_action, rng):
    s = E.new_game(FFA, rng())
    assert s.realm == K
    order = []
    s = E.new_game(dataclasses.replace(FFA, turn_order="nerath_first", max_rounds=1), rng())
    while not s.is_terminal:
        if not order or order[-1] != s.realm:
            order.append(s.realm)
        E.apply_action(s, default_action(s), rng())
    assert order == [N, K, V, I]


def test_a_seat_playing_two_realms_decides_for_both(default_action, rng):
    rules = Rules(map="small", players=3)
    s = E.new_game(rules, rng())
    seen = set()
    while not s.is_terminal and s.round < 1:
        seen.add((s.realm, s.current_player))
        E.apply_action(s, default_action(s), rng())
    assert {(V, 0), (N, 0), (K, 1), (I, 2)} <= seen
