"""A corpus of hostile `balancelab` command lines and the files they read, shared by the fuzz tests and
`benchmarks/tools/fuzz_campaign.py`.

`make_files(folder)` writes the inputs (a good results file and broken copies of it, deep JSON, a file
that is not a database, a study folder with a game in the wrong folder); `CASES` are (name, argv with
{d} for that folder, expected exit code). Every case must end in one line on stderr and no traceback.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from analyses.io import META_KEY, read_results, write_results
from analyses.runner import simulate

HUGE = "99999999999999999999999999"
DEEP = "[" * 50_000 + "]" * 50_000


def _with_metadata(table: pa.Table, metadata) -> pa.Table:
    return table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: json.dumps(metadata)})


def make_files(folder) -> Path:
    """Write every input the corpus reads into `folder` (a few seconds: 16 Nightmarium games)."""
    d = Path(folder)
    d.mkdir(parents=True, exist_ok=True)
    df = simulate("nightsim", 16, seed=3, progress=False)
    write_results(df, d / "good.parquet")
    table = pq.read_table(d / "good.parquet")
    attrs = json.loads(table.schema.metadata[META_KEY])
    pq.write_table(_with_metadata(table, {**attrs, "rules": "not a dict"}), d / "rules_type.parquet")
    pq.write_table(_with_metadata(table, {**attrs, "policies": 5}), d / "policies_type.parquet")
    pq.write_table(_with_metadata(table, {**attrs, "policies": [1, 2, 3, 4]}), d / "policies_items.parquet")
    pq.write_table(_with_metadata(table, [1, 2, 3]), d / "block_type.parquet")
    pq.write_table(_with_metadata(table, {**attrs, "game": "nerathsim"}), d / "relabelled.parquet")
    pq.write_table(_with_metadata(table, {**attrs, "game": "dreamsim"}), d / "relabelled_dream.parquet")
    pq.write_table(_with_metadata(table, {**attrs, "data_hashes": {"cards": "0" * 64}}), d / "hash.parquet")
    pq.write_table(_with_metadata(table, {**attrs, "seed": "seven"}), d / "seed_type.parquet")
    pq.write_table(_with_metadata(table, {**attrs, "rules": {**attrs["rules"], "players": 3}}), d / "players.parquet")
    doubled = pa.concat_tables([table, table])
    pq.write_table(doubled, d / "duplicated.parquet")
    frame = table.to_pandas()
    negative = frame.copy()
    negative.loc[0, "turns"] = -5
    pq.write_table(_with_metadata(pa.Table.from_pandas(negative, preserve_index=False), attrs), d / "negative.parquet")
    text = frame.copy()
    text["timed_out"] = "maybe"
    pq.write_table(_with_metadata(pa.Table.from_pandas(text, preserve_index=False), attrs), d / "timed_out.parquet")
    dropped = frame.drop(columns=["seat0_score"])
    pq.write_table(_with_metadata(pa.Table.from_pandas(dropped, preserve_index=False), attrs), d / "no_score.parquet")
    write_results(read_results(d / "good.parquet"), d / "good.csv")
    sidecar = json.loads((d / "good.meta.json").read_text())
    write_results(read_results(d / "good.parquet"), d / "dtypes.csv")
    (d / "dtypes.meta.json").write_text(json.dumps({**sidecar, "dtypes": ["int64"]}))
    write_results(read_results(d / "good.parquet"), d / "attrs.csv")
    (d / "attrs.meta.json").write_text(json.dumps({**sidecar, "attrs": "x"}))
    (d / "empty.parquet").write_bytes(b"")
    (d / "garbage.parquet").write_bytes(b"PAR1" + os.urandom(64))
    study = d / "study"
    (study / "dreamsim").mkdir(parents=True, exist_ok=True)
    write_results(read_results(d / "good.parquet"), study / "dreamsim" / "main.parquet")
    (d / "deep.json").write_text(DEEP)
    (d / "deep.toml").write_text("x = " + DEEP)
    (d / "knobs_huge.toml").write_text("[knobs.hand_size]\nlow = 1\nhigh = 1000000000000000000\nstep = 1\n")
    (d / "knobs_text.toml").write_text('[knobs.hand_size]\nlow = "a"\nhigh = 3\n')
    (d / "knobs_list.json").write_text("[1, 2]")
    (d / "not_a_db").write_text("hello")
    (d / "ladders").mkdir(exist_ok=True)
    (d / "ladders" / "bad.json").write_text('{"format": 5}')
    return d


def _sim(*extra):
    return ["fpa", "nightsim", "--games", "4", "--no-progress", *extra]


#: (name, argv with {d} = the folder of make_files, expected exit code)
CASES = [
    ("games huge", ["simulate", "nightsim", "--games", HUGE, "--out", "{d}/x.parquet"], 2),
    ("games negative", ["simulate", "nightsim", "--games", "-5", "--out", "{d}/x.parquet"], 2),
    ("games float", ["fpa", "nightsim", "--games", "1e3"], 2),
    ("jobs huge", _sim("--jobs", "100000"), 2),
    ("jobs zero", _sim("--jobs", "0"), 2),
    ("jobs very negative", _sim("--jobs", "-" + HUGE), 2),
    ("seed huge", _sim("--seed", HUGE), 2),
    ("seed negative", _sim("--seed", "-1"), 2),
    ("ismcts huge", _sim("--policies", "ismcts:99999999999999999999"), 2),
    ("ismcts seconds huge", _sim("--policies", "ismcts:5:seconds=1e300"), 2),
    ("ismcts nan", _sim("--policies", "ismcts:5:c=nan"), 2),
    ("ismcts zero", _sim("--policies", "ismcts:0"), 2),
    ("policy unknown", _sim("--policies", "nosuch"), 2),
    ("policy list long", _sim("--policies", ",".join(["random"] * 40)), 2),
    ("players huge", _sim("--players", HUGE), 2),
    ("players zero", _sim("--players", "0"), 2),
    ("rule unknown", _sim("--rule", "nosuch=1"), 2),
    ("rule huge", _sim("--rule", f"hand_size={HUGE}"), 2),
    ("rule players vs --players", _sim("--rule", "players=3", "--players", "4"), 2),
    ("chunk huge", _sim("--chunk-size", HUGE), 2),
    ("path traversal game", ["simulate", "../../etc/passwd", "--games", "2", "--out", "{d}/x.parquet"], 2),
    ("game dotted nonsense", ["fpa", "os.path", "--games", "2"], 2),
    ("game empty", ["fpa", "", "--games", "2"], 2),
    ("game null byte", ["fpa", "night\x00sim", "--games", "2"], 2),
    ("out is folder", ["simulate", "nightsim", "--games", "2", "--out", "{d}"], 2),
    ("out under a file", ["simulate", "nightsim", "--games", "2", "--out", "{d}/good.parquet/x.parquet"], 2),
    ("results missing", ["winrates", "--in", "{d}/nosuch.parquet"], 2),
    ("results empty", ["winrates", "--in", "{d}/empty.parquet"], 2),
    ("results garbage", ["winrates", "--in", "{d}/garbage.parquet"], 2),
    ("results folder", ["winrates", "--in", "{d}"], 2),
    ("meta rules type", ["winrates", "--in", "{d}/rules_type.parquet"], 2),
    ("meta policies type", ["fpa", "--in", "{d}/policies_type.parquet"], 2),
    ("meta policies items", ["fpa", "--in", "{d}/policies_items.parquet"], 2),
    ("meta block type", ["length", "--in", "{d}/block_type.parquet"], 2),
    ("meta seed type", ["fpa", "--in", "{d}/seed_type.parquet"], 2),
    ("meta players", ["fpa", "--in", "{d}/players.parquet"], 2),
    ("relabelled nerath", ["winrates", "--in", "{d}/relabelled.parquet"], 2),
    ("relabelled dream", ["winrates", "--in", "{d}/relabelled_dream.parquet"], 2),
    ("content hash", ["winrates", "--in", "{d}/hash.parquet"], 2),
    ("duplicated rows", ["winrates", "--in", "{d}/duplicated.parquet"], 2),
    ("negative turns", ["length", "--in", "{d}/negative.parquet"], 2),
    ("text timed_out", ["length", "--in", "{d}/timed_out.parquet"], 2),
    ("missing column", ["winrates", "--in", "{d}/no_score.parquet"], 2),
    ("csv dtypes list", ["winrates", "--in", "{d}/dtypes.csv"], 2),
    ("csv attrs text", ["winrates", "--in", "{d}/attrs.csv"], 2),
    ("in and game", ["fpa", "nightsim", "--in", "{d}/good.parquet"], 2),
    ("winrates by unknown", ["winrates", "--in", "{d}/good.parquet", "--by", "nosuch"], 2),
    ("battle huge army", ["battle", "99999999999999999999999 dragon", "vs", "2 footsoldier"], 2),
    ("battle huge n", ["battle", "6 footsoldier", "vs", "8 footsoldier", "--method", "monte_carlo", "--n", "1e9"], 2),
    ("battle n inf", ["battle", "6 footsoldier", "vs", "8 footsoldier", "--method", "monte_carlo", "--n", "1e999"], 2),
    ("battle seed huge", ["battle", "6 footsoldier", "vs", "8 footsoldier", "--method", "monte_carlo", "--seed", HUGE], 0),
    ("battle no vs", ["battle", "6 footsoldier"], 2),
    ("battle unknown unit", ["battle", "6 nosuch", "vs", "1 footsoldier"], 2),
    ("battle retreat junk", ["battle", "6 footsoldier", "vs", "8 footsoldier", "--retreat", "below:nan"], 2),
    ("battle survivors huge", ["battle", "1 footsoldier", "vs", "1 footsoldier", "--survivors", HUGE], 0),
    ("units budgets huge", ["units", "--table", "duels", "--budgets", HUGE], 2),
    ("units top huge", ["units", "--table", "best", "--best-budgets", "6", "--top", HUGE], 0),
    ("rebalance objective foreign", ["rebalance", "nightsim", "--objective", "unit_value_parity", "--budget", "2"], 2),
    ("rebalance objective junk", ["rebalance", "nightsim", "--objective", "seat_balance(((", "--budget", "2"], 2),
    ("rebalance objective kwarg", ["rebalance", "nightsim", "--objective", "seat_balance(nosuch=1)", "--budget", "2"], 2),
    ("rebalance objective tolerance", ["rebalance", "nightsim", "--objective", "seat_balance(tolerance=-1)",
                                       "--budget", "2"], 2),
    ("rebalance knobs deep", ["rebalance", "nightsim", "--knobs-file", "{d}/deep.json", "--budget", "2"], 2),
    ("rebalance knobs deep toml", ["rebalance", "nightsim", "--knobs-file", "{d}/deep.toml", "--budget", "2"], 2),
    ("rebalance knobs huge", ["rebalance", "nightsim", "--knobs-file", "{d}/knobs_huge.toml", "--budget", "2"], 2),
    ("rebalance knobs text", ["rebalance", "nightsim", "--knobs-file", "{d}/knobs_text.toml", "--budget", "2"], 2),
    ("rebalance knobs list", ["rebalance", "nightsim", "--knobs-file", "{d}/knobs_list.json", "--budget", "2"], 2),
    ("rebalance knobs missing", ["rebalance", "nightsim", "--knobs-file", "{d}/nosuch.toml", "--budget", "2"], 2),
    ("rebalance knob inline huge", ["rebalance", "nightsim", "--knobs", "hand_size=1:1e18:1", "--budget", "2"], 2),
    ("rebalance budget huge", ["rebalance", "nightsim", "--budget", HUGE], 2),
    ("rebalance rungs huge", ["rebalance", "nightsim", "--rungs", "60", "--budget", "2"], 2),
    ("rebalance precision nan", ["rebalance", "nightsim", "--confirm-precision", "nan", "--budget", "2"], 2),
    ("rebalance cost inf", ["rebalance", "nightsim", "--cost-weight", "inf", "--budget", "2"], 2),
    ("tune warm deep", ["tune-policy", "nightsim", "--warm-start", "{d}/deep.json", "--trials", "1"], 2),
    ("tune storage mysql", ["tune-policy", "nightsim", "--storage", "mysql://u@h/db", "--trials", "1"], 2),
    ("tune storage not db", ["tune-policy", "nightsim", "--storage", "sqlite:///{d}/not_a_db", "--trials", "1"], 2),
    ("tune out exists", ["tune-policy", "nightsim", "--out", "{d}/good.parquet", "--trials", "1"], 2),
    ("tune radius nan", ["tune-policy", "nightsim", "--radius", "nan", "--trials", "1"], 2),
    ("tune games huge", ["tune-policy", "nightsim", "--games-per-trial", HUGE, "--trials", "1"], 2),
    ("report ladder deep", ["report", "--from", "{d}/study", "--ladder", "{d}/deep.json", "--out", "{d}/r.html"], 2),
    ("report ladder bad", ["report", "--from", "{d}/study", "--ladder", "{d}/ladders", "--out", "{d}/r2.html"], 2),
    ("report wrong folder", ["report", "--from", "{d}/study", "--out", "{d}/r3.html", "--no-stored"], 2),
    ("report games huge", ["report", "--games", HUGE, "--out", "{d}/r4.html"], 2),
    ("report out exists", ["report", "--games", "10", "--out", "{d}/good.parquet"], 2),
    ("ladder rungs junk", ["ladder", "nightsim", "--ladder", "ismcts:99999999999", "--games", "2"], 2),
    ("ladder bootstrap huge", ["ladder", "nightsim", "--bootstrap", HUGE], 2),
    ("sweep weights", ["sweep", "nightsim", "--policy-param", "greedy", "--field", "weights", "--values", "1,2",
                       "--policies", "greedy", "--games", "4"], 2),
    ("sweep values many", ["sweep", "nightsim", "--field", "hand_size", "--values", ",".join(map(str, range(5000))),
                           "--games", "4"], 2),
    ("sweep field unknown", ["sweep", "nightsim", "--field", "nosuch", "--values", "1,2", "--games", "4"], 2),
    ("policies nosuch game", ["policies", "nosuch"], 2),
    ("rules path traversal", ["rules", "../../etc/passwd"], 2),
    ("unknown command", ["nosuch"], 2),
    ("no command", [], 2),
]
