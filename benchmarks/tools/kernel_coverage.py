"""Which rules the lab varies does each batch kernel refuse? (prints a table; asserts nothing)

    PYTHONPATH=$PWD python benchmarks/tools/kernel_coverage.py
    PYTHONPATH=$PWD python benchmarks/tools/kernel_coverage.py --game dreamsim

For every game with a `KERNEL`, every rules variant the lab plays is put to `KERNEL.refusal` with the
study's main line-up (and the pool's, for the study runs): the study's runs (`analyses.study`: the sweep
and the rule changes), each sensitivity reading (`<game>.DECISIONS`: every alternative and its
baseline) and each re-balancing knob (`<game>.KNOBS`: every value of its range). A refused variant is
played by the Python engine under engine='auto' (its run's ``attrs["engine_fallback"]`` says why).
No game is played: `refusal` only reads the rules, so this runs in a second without compiling a kernel.
"""
from __future__ import annotations

import argparse

from analyses import knobs as K
from analyses.games import load_game, make_rules, resolve_policies
from analyses.sensitivity import _baseline, _variants, choose_decisions
from analyses.study import PLANS, _run_setup, run_sizes


def variants(module) -> list[tuple[str, str, object, tuple]]:
    """(source, what, rules, lineup) of every variant the lab plays of `module`."""
    plan = PLANS.get(module.__name__)
    base = module.Rules()
    main = plan.main if plan else next(iter(module.POLICIES))
    out = []
    if plan is not None:
        for run in run_sizes(plan, 1000, module):
            rules, policies = _run_setup(plan, run, base.players)
            r = make_rules(module, rules)
            out.append(("study", run, r, tuple(resolve_policies(module, policies, r.players))))
    lineup = tuple(resolve_policies(module, main, base.players))
    for d in choose_decisions(module) if getattr(module, "DECISIONS", None) else ():
        out.append(("sensitivity", f"{d.id} baseline", _baseline(d, base), lineup))
        for alt, r in zip(d.alternatives, _variants(d, base)):
            out.append(("sensitivity", f"{d.id}: {d.field}={alt!r}", r, lineup))
    for knob in K.resolve_knobs(module, base) if K.game_knobs(module) else ():
        for value in knob.values():
            r = K.set_values(module, base, {knob.path: value})
            out.append(("rebalance knob", f"{knob.path}={value!r}", r, tuple(resolve_policies(module, main, r.players))))
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game (repeatable; default every game with a KERNEL)")
    args = parser.parse_args(argv)
    names = args.game or [g for g in PLANS if getattr(load_game(g), "KERNEL", None) is not None]
    for name in names:
        module = load_game(name)
        rows = variants(module)
        refused = [(source, what, module.KERNEL.refusal(rules, lineup)) for source, what, rules, lineup in rows]
        refused = [r for r in refused if r[2]]
        print(f"{module.__name__}: {len(rows)} variants the lab plays, {len(refused)} refused by the kernel")
        for source, what, why in refused:
            print(f"  {source:15} {what:45} {why}")


if __name__ == "__main__":
    main()
