"""The full Nerath game (nerathsim/engine.py): rules that planted bugs (mutants, see
benchmarks/tools/mutation.py) slipped past, each on a hand-built position of the small map."""
import dataclasses

from nerathsim import engine as E
from nerathsim.battle.rules import BattleRules
from nerathsim.game_actions import Buy, Embark
from nerathsim.rules import Rules
from nerathsim.scenario import act, action, build_state, region, units_at

K, V, I, N = range(4)
# the rules of Parts I–II without the cards and guardians of Part III (scenarios of other rules stay exact)
FFA = Rules(map="small", mode="free_for_all", events=False, dungeons=False)
ALLY = Rules(map="small", mode="alliance", events=False, dungeons=False)

ALLY_SURE = dataclasses.replace(ALLY, battle=BattleRules(hit_threshold=1))   # every die hits
FFA_SURE = dataclasses.replace(FFA, battle=BattleRules(hit_threshold=1))


def test_conquering_an_enemys_own_region_keeps_it_for_the_conqueror_not_the_ally(drive):
    # alliance mode: Nerath (Vailin's partner) takes Kmarch, Karkoth's starting area
    s = build_state(ALLY_SURE, owner={"Kar": "nerath"}, realm="nerath",
                    units={"Kar": {"nerath": "3 footsoldier"}, "Kmarch": {"karkoth": "footsoldier"}})
    act(s, "Move", "Kar", "Kmarch", "footsoldier", 3)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.owner[region(s, "Kmarch")] == N
    assert units_at(s, "Kmarch", "nerath") == {"footsoldier": 2}


def test_warships_bought_next_to_a_coastal_castle_are_among_the_legal_actions():
    s = build_state(FFA, phase="buy", gold={"karkoth": 20}, units={"Kcoast": {"karkoth": "castle"}})
    buys = [a for a in E.legal_actions(s) if isinstance(a, Buy)]
    assert action(s, "Buy", "warship", "Inner Sea") in buys
    assert action(s, "Buy", "storm_elemental", "Inner Sea") in buys
    assert all(E.is_legal(s, a) for a in buys)


def test_is_legal_answers_false_for_an_embark_of_a_unit_the_game_does_not_have():
    s = build_state(FFA, units={"Kcoast": {"karkoth": "footsoldier"}}, ships=[("karkoth", "Inner Sea")])
    ship = s.ships[0].id
    good = Embark(region(s, "Kcoast"), ship, "footsoldier")
    assert good in E.legal_actions(s) and E.is_legal(s, good) is True
    assert E.is_legal(s, Embark(region(s, "Kcoast"), ship, "goblin")) is False
    assert E.is_legal(s, Embark(region(s, "Kcoast"), ship + 100, "footsoldier")) is False


def test_cargo_in_a_quiet_sea_stays_aboard_when_the_land_battles_begin(drive):
    # no landing was ordered: the footsoldier is still aboard after the land battle (a dragon keeps regroup a decision)
    s = build_state(FFA_SURE, ships=[("karkoth", "Inner Sea", ["footsoldier"])],
                    units={"Kar": {"karkoth": "dragon"}, "Kmarch": {"karkoth": "2 footsoldier"},
                           "Vmarch": {"vailin": "footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 2)
    drive(s, until=lambda s: s.phase == E.PH_REGROUP)
    assert s.phase == E.PH_REGROUP and s.realm == K and s.owner[region(s, "Vmarch")] == K
    assert [(sh.region, sh.cargo, sh.landing) for sh in s.ships] == [(region(s, "Inner Sea"), [s.tab.idx["footsoldier"]], -1)]
    assert [r for r in range(s.board.n) if any(s.units[r][K])] == [region(s, "Kar"), region(s, "Vmarch")]


def test_each_monster_may_run_amok_one_after_the_other(drive):
    s = build_state(FFA_SURE, units={"Kmarch": {"karkoth": "2 monster, 2 footsoldier"},
                                     "Vmarch": {"vailin": "2 footsoldier"}})
    act(s, "Move", "Kmarch", "Vmarch", "monster", 2)
    act(s, "Move", "Kmarch", "Vmarch", "footsoldier", 2)
    drive(s, until=lambda s: s.phase == E.PH_AMOK)
    assert sorted(s.board.names[r] for r in E.amok_targets(s)) == ["Vale", "Vcoast"]
    act(s, "Amok", "Vale")
    assert s.phase == E.PH_AMOK and [s.board.names[r] for r in E.amok_targets(s)] == ["Vcoast"]
    act(s, "Amok", "Vcoast")
    assert s.phase != E.PH_AMOK and s.owner[region(s, "Vale")] == K and s.owner[region(s, "Vcoast")] == K
    assert units_at(s, "Vale", "karkoth") == {"monster": 1} and units_at(s, "Vcoast", "karkoth") == {"monster": 1}
    assert "monster" not in units_at(s, "Vmarch", "karkoth") and s.stats["amok_conquests"][K] == 2
