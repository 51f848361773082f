"""A Nerath heuristic with a realm's own weights (`WarPolicy.by_realm`, `with_realm_params`, the
"by_realm" entry of data/tuned.json): the realm deciding picks the weights that answer."""
from __future__ import annotations

import json

import pytest

import nerathsim
from nerathsim import POLICIES, Rules, play_game, with_params, with_realm_params
from nerathsim.policies.tuning import load_tuned

VAILIN = 1


def test_the_realm_named_plays_its_own_weights_and_the_others_the_shared_ones():
    base = POLICIES["aggressive"]
    mixed = with_realm_params(base, {"vailin": {"naval": False, "attack_threshold": 0.9}})
    own = mixed.for_realm(VAILIN)
    assert own.naval is False and own.attack_threshold == 0.9 and own.by_realm == ()
    assert [mixed.for_realm(r) is mixed for r in (0, 2, 3)] == [True] * 3
    for seed in (3, 4):
        realm_by_realm = play_game(Rules(), [mixed] * 4, seed=seed, record=True)
        seat_by_seat = play_game(Rules(), [base, own, base, base], seed=seed, record=True)
        assert realm_by_realm.log == seat_by_seat.log               # the same game, decision for decision
    differs = [play_game(Rules(), [mixed] * 4, seed=s, record=True).log
               != play_game(Rules(), [base] * 4, seed=s, record=True).log for s in (3, 4)]
    assert any(differs)                                             # and Vailin's weights made a difference


def test_with_params_changes_every_realms_weights_and_keeps_the_realms_own():
    mixed = with_realm_params(POLICIES["balanced"], {"vailin": {"naval": False}})
    changed = with_params(mixed, {"attack_threshold": 0.4}, name="x")
    assert changed.name == "x" and changed.attack_threshold == 0.4
    assert changed.for_realm(VAILIN).attack_threshold == 0.4 and changed.for_realm(VAILIN).naval is False
    assert changed.for_realm(0) is changed
    assert with_realm_params(mixed, {}).by_realm == ()               # no realm of its own: one policy


def test_bad_realm_weights_are_clear_value_errors():
    with pytest.raises(ValueError, match="unknown realm"):
        with_realm_params(POLICIES["balanced"], {"elfland": {"naval": False}})
    with pytest.raises(ValueError, match="four entries"):
        nerathsim.WarPolicy(by_realm=(None, None))
    with pytest.raises(ValueError, match="without by_realm of its own"):
        inner = with_realm_params(POLICIES["balanced"], {"vailin": {}})
        nerathsim.WarPolicy(by_realm=(inner, None, None, None))


def test_a_tuned_file_with_realm_weights_loads_them(tmp_path):
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"name": "tuned", "start": "balanced", "params": {"garrison": 2},
                                "by_realm": {"nerath": {"naval": False}}}))
    tuned = load_tuned(POLICIES, path)
    assert tuned.name == "tuned" and tuned.garrison == 2 and tuned.naval is True
    assert tuned.for_realm(3).naval is False and tuned.for_realm(3).garrison == 2
    assert "by_realm" in repr(tuned)


@pytest.mark.parametrize("param, value", [("hold_regions", False), ("capital_hold", 0.5), ("max_attackers", 9),
                                          ("explore", False), ("flee_below", 0.1), ("castle_hold", 0.4)])
def test_policies_that_play_differently_never_print_alike(param, value):
    """Stored results name their policies by repr (a changed `tuned` marks them stale), so a change to any
    field shows in it, while a default stays out of it."""
    base = POLICIES["balanced"]
    changed = with_params(base, {param: value})
    assert repr(changed) != repr(base)
    assert f"{param}={value!r}" in repr(changed)
    assert param not in repr(base)


def test_hold_regions_is_a_tunable_parameter_and_tuned_leaves_regions_free():
    names = {p["name"] for p in nerathsim.TUNING["space"]}
    assert "hold_regions" in names
    tuned = POLICIES["tuned"]
    assert tuned.hold_regions is False and tuned.for_realm(1).hold_regions is False
