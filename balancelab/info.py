"""`balancelab games`, `balancelab policies GAME`, `balancelab rules GAME`: what there is to run.

    balancelab games                  # every game: players, rules version, default and report policies
    balancelab policies nightsim      # each policy with its parameters (names for --policies, --policy-param)
    balancelab rules nerath           # each Rules field: default, allowed values, what it means (--rule F=V)

The listings read only the game-module protocol (`Rules`, `POLICIES`, `RULES_VERSION`,
optional `DEFAULT_POLICY`) and the report's plans (`analyses.study.PLANS`). Allowed values come
from the game itself: a Rules field's validator is asked about a value no field accepts, and
its "allowed: ..." answer is shown, so the listing can never drift from the rules code.
The parser of the three commands is `balancelab.parser.add_info`.
"""
from __future__ import annotations

import dataclasses
import inspect
import re
import textwrap
import typing

from analyses.games import KNOWN_GAMES, has_macro_search, is_union, load_game, type_hints
from analyses.search.ismcts import DEFAULT_ITERATIONS, default_spec
from analyses.search.macro import DEFAULT_ROLLOUTS
from analyses.study import DEFAULT_GAMES, PLANS, run_sizes

# --- games ------------------------------------------------------------------------------------

def default_policy(module) -> str:
    """The policy a command-line run puts in every seat when --policies is not given: the game's
    DEFAULT_POLICY, else the main policy of its standard study (the one `balancelab report` plays in
    every seat of its main run), else random. Not random first: four random Midnighters players hit
    the turn cap in about half their games, a default whose games do not end."""
    name = getattr(module, "DEFAULT_POLICY", None)
    plan = PLANS.get(module.__name__)
    if not name and plan is not None and plan.main in module.POLICIES:
        name = plan.main
    return name or ("random" if "random" in module.POLICIES else next(iter(module.POLICIES)))


def games_text(n_games: int | None = None) -> str:
    """The `balancelab games` listing (report sizes for `report --games n_games`, default its default)."""

    n_games = n_games or DEFAULT_GAMES
    lines = []
    for name in dict.fromkeys(KNOWN_GAMES.values()):
        aliases = [a for a, m in KNOWN_GAMES.items() if m == name and a != name]
        try:
            module = load_game(name)
        except ValueError as exc:
            lines.append(f"{name} ({', '.join(aliases)}): not available — {exc}")
            continue
        plan = PLANS.get(name)
        title = plan.title if plan else (inspect.getdoc(module) or name).splitlines()[0]
        players = allowed_values(module, "players") or "?"
        lines.append(f"{name} ({', '.join(aliases)}) — {title}")
        lines.append(f"    players {players} (default {module.Rules().players}); rules version {module.RULES_VERSION}")
        lines.append(f"    policies: {', '.join(module.POLICIES)}")
        lines.append(f"    command-line runs: {default_policy(module)} in every seat unless --policies says otherwise")
        if plan:
            sizes = run_sizes(plan, n_games, module)
            lines.append(f"    report: {plan.main} in every seat of the main run ({sizes['main']:,} games at "
                         f"--games {n_games:,}: {_share(plan.weight)}); compares {', '.join(plan.pool)}; "
                         f"{sum(sizes.values()):,} games in all")
    lines.append("")
    lines.append("`balancelab policies GAME` lists a game's policies and parameters, `balancelab rules GAME` its "
                 "rules fields.")
    return fit(lines)


WIDTH = 100


def fit(lines) -> str:
    """The lines joined, each longer than WIDTH wrapped between words under its own indent (+4)."""
    out = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()))
        out += textwrap.wrap(line, WIDTH, subsequent_indent=indent + "    ", break_long_words=False,
                             break_on_hyphens=False) or [""]
    return "\n".join(out)


def _share(weight: float) -> str:
    if weight == 1:
        return "all of --games"
    return f"{weight:g} × --games, the game is slower"


def run_games(args) -> int:
    print(games_text())
    return 0


# --- policies ---------------------------------------------------------------------------------

def policy_parameters(policy) -> list[tuple[str, object]]:
    """(dotted name, value) of every parameter of a dataclass policy; nested dataclasses flattened
    (the names `--policy-param POLICY --field NAME` accepts)."""
    if not dataclasses.is_dataclass(policy):
        return []
    out = []
    for f in dataclasses.fields(policy):
        if f.name == "name":
            continue
        value = getattr(policy, f.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            out += [(f"{f.name}.{k}", v) for k, v in policy_parameters(value)]
        else:
            out.append((f.name, value))
    return out


def policies_text(game) -> str:
    """The `balancelab policies GAME` listing."""
    module = load_game(game)
    plan = PLANS.get(module.__name__)
    lines = [f"{module.__name__} policies (for --policies; a parameter of one for --policy-param POLICY --field NAME)",
             f"command-line runs put {default_policy(module)} in every seat unless --policies says otherwise"]
    if plan:
        lines.append(f"the report plays {plan.main} in every seat of its main run and compares {', '.join(plan.pool)}")
    for name, policy in module.POLICIES.items():
        doc = (inspect.getdoc(policy) or "").split("\n\n")[0].replace("\n", " ")
        lines.append("")
        lines.append(f"{name}: {doc}" if doc else name)
        params = policy_parameters(policy)
        text = ", ".join(f"{k}={_value(v)}" for k, v in params) if params else "no parameters"
        lines += textwrap.wrap(text, width=100, initial_indent="    ", subsequent_indent="    ")
    lines += ["", "search players (IS-MCTS: each decision searched by sampling the hidden cards and playing on; "
              "slower, stronger):"]
    for name, text in search_players(module):
        lines += textwrap.wrap(f"{name}: {text}", width=100, subsequent_indent="    ")
    return fit(lines)


def search_players(module) -> list[tuple[str, str]]:
    """(name, what it is) of the search players a --policies entry can name for `module`, with budgets."""
    if has_macro_search(module):
        default = getattr(module, "SEARCH_DEFAULT", None) or f"macro:{DEFAULT_ROLLOUTS}"
        return [("ismcts (= ismcts:default)", f"the game's default search, {default}: rollouts per macro decision "
                                               f"with the named heuristic as base"),
                ("ismcts:N[:base=POLICY]", f"N rollouts per macro decision (default budget {DEFAULT_ROLLOUTS})")]
    return [("ismcts (= ismcts:default)", f"the game's default search, {default_spec(module)}"),
            ("ismcts:N[:key=value...]", f"N iterations per decision (e.g. ismcts:25 fast, ismcts:100 stronger; "
                                        f"default budget {DEFAULT_ITERATIONS}); keys: rollout, c, cutoff, seconds, "
                                        "bias, paired, z, topk, eps")]


def run_policies(args) -> int:
    print(policies_text(args.game))
    return 0


# --- rules ------------------------------------------------------------------------------------

BOGUS_TEXT = "__no_such_value__"
BOGUS_INT = -(10 ** 9)


def allowed_values(module, name: str) -> str:
    """What field `name` of `module.Rules` accepts, in words, as the game's validator says it."""
    base = module.Rules()
    hint = type_hints(module.Rules).get(name)
    options = typing.get_args(hint) if is_union(hint) else (hint,)
    kinds = {typing.get_origin(o) or o for o in options}
    default = getattr(base, name)
    if bool in kinds or isinstance(default, bool):
        return "true or false"
    probe = BOGUS_INT if int in kinds or (isinstance(default, int) and not isinstance(default, bool)) else BOGUS_TEXT
    try:
        dataclasses.replace(base, **{name: probe})
    except Exception as exc:  # noqa: BLE001 - any refusal text is what we want to show
        text = " ".join(str(exc).split())
        found = re.search(r"allowed: (.*)$", text)
        if found:
            words = found.group(1).rstrip(".")
            if words.startswith(">="):
                words = f"a whole number {words}"
        else:
            found = re.search(rf"{re.escape(name)}:? must (?:be )?(.*?)(?:, got .*)?$", text)
            words = found.group(1) if found else text.rsplit("; ", 1)[1] if "; " in text else _type_words(kinds)
    else:
        words = _type_words(kinds)
    if type(None) in kinds and "none" not in words.lower():
        words += ", or none"
    return words


def _type_words(kinds) -> str:
    names = {int: "a whole number", float: "a number", str: "text", tuple: "a tuple, e.g. ('a', 'b')"}
    words = [names[k] for k in kinds if k in names]
    return " or ".join(words) or "any value"


def python_only(module, name: str) -> bool:
    """A field no --rule text can set (its type is a class of the game, e.g. a list of cards)."""
    hint = type_hints(module.Rules).get(name)
    if hint is None:
        return dataclasses.is_dataclass(getattr(module.Rules(), name))
    options = typing.get_args(hint) if is_union(hint) else (hint,)
    return not any(_settable(o) for o in options if o is not type(None))


def _settable(hint) -> bool:
    """Can command-line text be parsed as `hint` (a number, text, true/false, a tuple of those)?"""
    origin = typing.get_origin(hint) or hint
    if origin in (int, float, str, bool):
        return True
    if origin is tuple:
        return all(a is Ellipsis or a in (int, float, str, bool) for a in typing.get_args(hint))
    return False


def field_notes(module) -> dict[str, str]:
    """The comment after each field of the Rules class source (`players: int = 4   # 2–5`)."""
    try:
        source = inspect.getsource(module.Rules)
    except (OSError, TypeError):
        return {}
    notes = {}
    for line in source.splitlines():
        m = re.match(r"^\s+(\w+)\s*:[^=#]+=[^#]*#\s*(.+)$", line)
        if m:
            notes[m.group(1)] = m.group(2).strip()
    return notes


def cli_text(value) -> str:
    """A default as it is typed after --rule FIELD=."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return repr(tuple(value))
    return str(value)


def rules_rows(game) -> list[dict]:
    """One row per Rules field: field, default, allowed, note, python_only."""
    module = load_game(game)
    base, notes = module.Rules(), field_notes(module)
    rows = []
    for f in dataclasses.fields(module.Rules):
        only = python_only(module, f.name)
        rows.append({"field": f.name, "default": cli_text(getattr(base, f.name)) if not only else "(built in)",
                     "allowed": "set from Python only" if only else allowed_values(module, f.name),
                     "note": notes.get(f.name, ""), "python_only": only})
    return rows


def rules_text(game) -> str:
    """The `balancelab rules GAME` listing."""
    module = load_game(game)
    rows = rules_rows(module)
    lines = [f"{module.__name__} Rules ({module.RULES_VERSION}): change a field with --rule FIELD=VALUE (repeatable); "
             "the defaults are the published game", ""]
    width = max(len(r["field"]) for r in rows) + 2
    for r in rows:
        lines += textwrap.wrap(f"{r['field']:<{width}}default {r['default']}", width=100,
                               subsequent_indent=" " * (width + 8))
        lines += textwrap.wrap(f"allowed: {r['allowed']}", width=100, initial_indent=" " * (width + 4),
                               subsequent_indent=" " * (width + 13))
        if r["note"]:
            lines += textwrap.wrap(r["note"], width=100, initial_indent=" " * (width + 4),
                                   subsequent_indent=" " * (width + 4))
    return fit(lines)


def run_rules(args) -> int:
    print(rules_text(args.game))
    return 0


def _value(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return cli_text(value)
