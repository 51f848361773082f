"""The Methodology's table of rule decisions is read from each game's RULES.md decision tables."""
from analyses.study import _decision_rows, rules_assumptions

TEXT = """# x
## 2. Every gap → decision
| id | gap | decision | evidence |
|---|---|---|---|
| G1 | Only complete creatures? | Yes | text |
| G2, **D-win-timing** | When does the 5th win? | **Immediately** | text |

## 3. Gaps without ids
| gap | decision (default) | reason |
|---|---|---|
| hand size | 5 | surplus |
| refill rule, **D-refill** | after each play | text |

## 4. Something else
| G9 | not a gap table | x |
"""


def test_ids_decision_ids_and_rows_without_an_id():
    rows = _decision_rows(TEXT)
    assert rows == [("G1", "Only complete creatures?", "Yes"), ("G2 (D-win-timing)", "When does the 5th win?", "Immediately"),
                    ("—", "hand size", "5"), ("D-refill", "refill rule", "after each play")]


def test_every_game_lists_its_decisions_and_no_row_looks_like_an_issue_number():
    for game in ("nightsim", "dreamsim"):
        table = rules_assumptions(game)
        assert len(table) > 10
        assert not table["id"].str.startswith("#").any()
    assert "D-black-town-hall" in set(rules_assumptions("dreamsim")["id"])
