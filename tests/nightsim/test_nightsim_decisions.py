"""`nightsim.DECISIONS`: the gap readings a sensitivity analysis varies, each a Rules field whose
default is the published reading, with an id that RULES.md's decision table carries."""
from __future__ import annotations

import dataclasses
import pathlib

import pytest

import nightsim
from nightsim.decisions import BY_ID

FIELDS = {f.name: f.default for f in dataclasses.fields(nightsim.Rules)}
DOC = (pathlib.Path(nightsim.__file__).parent / "RULES.md").read_text()


def test_the_registry_lists_scavenger_and_seal_reactivation_with_unique_ids():
    ids = [d.id for d in nightsim.DECISIONS]
    assert len(ids) == len(set(ids)) == len(BY_ID)
    assert BY_ID["D-scavenger"].field == "scavenger_optional"
    assert BY_ID["D-seal-reactivation"].field == "seal_reactivation_optional"


@pytest.mark.parametrize("decision", nightsim.DECISIONS, ids=lambda d: d.id)
def test_each_decision_is_a_field_whose_default_is_not_among_its_alternatives(decision):
    assert decision.field in FIELDS
    default = FIELDS[decision.field]
    assert getattr(nightsim.Rules(), decision.field) == default            # the registry changes no default
    assert decision.alternatives and default not in decision.alternatives
    variants = decision.variants()
    assert [getattr(r, decision.field) for r in variants] == list(decision.alternatives)
    base = decision.baseline()
    assert getattr(base, decision.field) == default
    for r in variants:       # exactly one field differs from the baseline the comparison plays
        changed = [f for f in FIELDS if getattr(r, f) != getattr(base, f)]
        assert changed == [decision.field]
    assert f"**{decision.id}**" in DOC


def test_seal_decisions_are_compared_with_the_expansion_in_play():
    for decision in nightsim.DECISIONS:
        seal = "seal" in decision.field or decision.field in ("immunity", "herald_plays_seals", "mocker_plays_seals")
        assert decision.baseline().seals is seal, decision.id
        assert all(r.seals is seal for r in decision.variants()), decision.id
    assert nightsim.Rules().seals is False
    # a baseline given by the caller keeps its own fields
    base = BY_ID["D-seal-target"].baseline(nightsim.Rules(players=3))
    assert (base.players, base.seals) == (3, True)
