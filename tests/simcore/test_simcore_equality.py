"""The kernel equality harness (`simcore.equality`) on a hand-built engine and kernel: a kernel equal
to the engine passes; one that differs is caught at the first differing seed, naming the fields."""
from __future__ import annotations

import pytest

from simcore.equality import MISSING, check_equal, compare, first_difference, record_differences


class Played:
    def __init__(self, record):
        self.record = record

    def to_record(self):
        return dict(self.record)


def record(rules, lineup, seed) -> dict:
    return {"winner": seed % len(lineup), "turns": rules * seed, "seat0_policy": lineup[0]}


def engine(rules, lineup, seed):
    assert isinstance(lineup, list)    # play_game gets a list of its own
    return Played(record(rules, lineup, seed))


def kernel(rules, lineup, seeds):
    return [record(rules, lineup, s) for s in seeds]


def broken_kernel(rules, lineup, seeds):
    """The engine's records, but seeds 5 and 7 give one turn more."""
    out = kernel(rules, lineup, seeds)
    for rec, s in zip(out, seeds):
        if s in (5, 7):
            rec["turns"] += 1
    return out


def test_record_differences_name_changed_and_missing_fields_in_the_engines_order():
    a = {"winner": 1, "turns": 5, "x": 2}
    b = {"winner": 1, "turns": 6, "y": 3}
    assert list(record_differences(a, b).items()) == [("turns", (5, 6)), ("x", (2, MISSING)), ("y", (MISSING, 3))]
    assert record_differences(a, dict(a)) == {}


def test_first_difference_is_the_first_seed_in_order_that_differs():
    seeds = [10, 11, 12]
    eng = [{"w": 0}, {"w": 1}, {"w": 2}]
    assert first_difference(eng, [dict(r) for r in eng], seeds) is None
    d = first_difference(eng, [{"w": 0}, {"w": 9}, {"w": 8}], seeds)
    assert (d.seed, d.fields) == (11, {"w": (1, 9)})
    with pytest.raises(ValueError, match="3 engine and 2 kernel records for 3 seeds"):
        first_difference(eng, eng[:2], seeds)


def test_an_equal_kernel_passes_and_its_comparison_counts_the_games():
    c = check_equal(engine, kernel, 3, ("a", "b"), range(20))
    assert len(c.seeds) == 20 and c.differing == () and c.first is None
    assert c.engine_seconds >= 0.0 and c.kernel_seconds >= 0.0
    assert c.message() == "20 seeds, none differ"


def test_a_differing_kernel_is_caught_at_its_first_differing_seed():
    where = []

    def divergence(rules, lineup, seed):
        where.append(seed)
        return f"turn 2 of seed {seed}"
    c = compare(engine, broken_kernel, 3, ("a", "b"), range(10), divergence=divergence)
    assert c.differing == (5, 7) and c.first.seed == 5 and c.first.fields == {"turns": (15, 16)}
    assert where == [5] and c.where == "turn 2 of seed 5"   # asked for the first differing seed only
    with pytest.raises(AssertionError, match=r"\['a', 'b'\]: 2 of 10 seeds differ; first seed 5: .*'turns': "
                                             r"\(15, 16\).*first divergence: turn 2 of seed 5"):
        check_equal(engine, broken_kernel, 3, ("a", "b"), range(10), divergence=divergence)


def test_a_kernel_giving_the_wrong_number_of_records_or_no_seeds_is_refused():
    with pytest.raises(ValueError, match="10 engine and 9 kernel records for 10 seeds"):
        compare(engine, lambda r, lu, s: kernel(r, lu, s)[:-1], 3, ("a",), range(10))
    with pytest.raises(ValueError, match="at least one seed"):
        compare(engine, kernel, 3, ("a",), [])
