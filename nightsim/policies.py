"""Policies: `policy(observation, legal_actions, rng) -> action`.

`RandomPolicy` picks uniformly. Every heuristic is one `HeuristicPolicy` scoring each legal
action with a frozen `Weights` record; `greedy`, `purist` and `aggressor` are weight sets,
and analyses can sweep any weight (`dataclasses.replace(GREEDY, pure=5.0)`).

`heuristic` is an alias of `greedy` (the default `Weights()` under another name). Policies
compare equal when they play alike: a `HeuristicPolicy`'s name is a label left out of `==`,
so `POLICIES["heuristic"] == POLICIES["greedy"]` and seat rotation (analyses/plan.py) does
not replay a deal for seatings that differ only in such labels.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .actions import (
    Decline,
    Devour,
    DiscardCard,
    Draw,
    PenaltyDiscard,
    Play,
    PlaySeal,
    Reactivate,
    Scavenge,
    StartDiscard,
    StopDiscard,
    Take,
)
from .cards import LEGIONS


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def __call__(self, obs, legal, rng):
        return legal[int(rng.random() * len(legal))]

    def __repr__(self):
        return "RandomPolicy()"

    def __eq__(self, other):  # no parameters: every RandomPolicy plays alike
        return type(other) is type(self)

    def __hash__(self):
        return hash(type(self))


@dataclass(frozen=True)
class Weights:
    """What a heuristic values; every field is a number analyses can sweep."""

    complete: float = 10.0      # completing a creature
    extend: float = 3.0         # adding a torso to a started creature
    start: float = 1.0          # starting a new creature (legs)
    same_legion: float = 0.5    # per card of the same legion already in the creature
    mixed_legion: float = 0.0   # per card of another legion already in the creature
    pure: float = 2.0           # completing a pure-legion creature
    herald: float = 1.5         # ability values, counted when the creature is completed
    weeper: float = 2.0
    mocker: float = 1.0
    executioner: float = 1.5
    scavenger: float = 1.0
    devourer: float = -1.0
    draw: float = 0.5           # the draw action
    discard: float = -1.0       # starting a discard action
    target_leader: float = 1.0  # per complete creature of the victim (Executioner, Scavenger)
    seal: float = 1.0           # playing a seal, plus the abilities it re-activates

    def ability_values(self) -> tuple[float, ...]:
        return (self.herald, self.weeper, self.mocker, self.executioner, self.scavenger, self.devourer)


@dataclass(frozen=True)
class HeuristicPolicy:
    """Scores each legal action with `weights` and plays the best (random tie-break)."""

    weights: Weights = field(default_factory=Weights)
    name: str = field(default="heuristic", compare=False)  # a label: equal weights = equal policies

    def __post_init__(self):
        object.__setattr__(self, "_abil", self.weights.ability_values())  # per-policy constant
        object.__setattr__(self, "_memo", {})                               # per-policy cache, see __call__

    def __getstate__(self):  # pickled (joblib workers) without the cache
        return {"weights": self.weights, "name": self.name}

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)
        self.__post_init__()

    def __call__(self, obs, legal, rng):
        """The best-scoring legal action; ties broken by one `rng.random()` (none without a tie).

        What a placement scores depends on the creature it goes on (`_creature_info`), and what a
        penalty discard scores on the card and the own creatures (`_card_value`); both are kept per
        policy in `_memo`: {id(own creatures): (own creatures, card table, {creature: info}, {card:
        value})}. The own creatures are the observation's shared tuple (`observe` builds a new one
        when they change); each entry holds the value whose id keys it, so an id is never reused
        while it is cached, and the seats sharing one policy object keep an entry each."""
        if len(legal) == 1:
            return legal[0]
        w = self.weights
        mine = obs.creatures[obs.player]  # (cards, seal) per own creature: a value shared until they change
        table = obs.rules.table
        memo = self._memo
        entry = memo.get(id(mine))
        if entry is None or entry[1] is not table:
            if len(memo) >= _MEMO_SIZE:
                try:
                    del memo[next(iter(memo))]  # the oldest entry (the seats' current ones are recent)
                except (RuntimeError, KeyError, StopIteration):  # another thread changed the memo meanwhile
                    memo.clear()
            entry = memo[id(mine)] = (mine, table, {}, {})  # ..., {creature: info}, {card: card value}
        infos = entry[2]
        legion, ability, abil = table.legion, table.ability, self._abil
        ctx = counts = None
        best, best_score = None, None
        for a in legal:
            t = type(a)
            if t is Play:  # the common cases inlined, with the same arithmetic as _Context.score
                k = a.creature
                if k is None:
                    sc = w.start
                else:
                    info = infos.get(k)
                    if info is None:
                        info = infos[k] = _creature_info(mine[k][0], legion, ability, abil)
                    n, per_legion, partial = info
                    same = per_legion[legion[a.card]]
                    sc = w.same_legion * same + w.mixed_legion * (n - same)
                    if n == 2:
                        ab = ability[a.card]
                        sc += w.complete + (partial + abil[ab] if ab >= 0 else partial)
                        if same == 2:
                            sc += w.pure
                    else:
                        sc = sc + w.extend
            elif t is Draw:
                sc = w.draw
            elif t is StartDiscard:
                sc = w.discard
            elif t is Take or t is Scavenge:  # _Context.score_victim
                if counts is None:
                    counts = obs.complete_counts
                cards = obs.creatures[a.owner][a.creature][0]
                sc = (w.target_leader * counts[a.owner] + len(cards)
                      + ((2.0 if t is Take else 0.0) if len(cards) == 3 else 0.0))
            elif t is PenaltyDiscard:  # -_Context.card_value, kept per own-creatures value
                values = entry[3]
                v = values.get(a.card)
                if v is None:
                    v = values[a.card] = _card_value(a.card, mine, table, abil)
                sc = -v
            else:
                if ctx is None:
                    ctx = _Context(obs, w, abil)
                sc = ctx.score(a)
            if best_score is None or sc > best_score:
                best, best_score = a, sc
            elif sc == best_score:
                if type(best) is list:
                    best.append(a)
                else:
                    best = [best, a]  # a tie (an action is a NamedTuple, never a list)
        return best if type(best) is not list else best[int(rng.random() * len(best))]

    def __repr__(self):
        return f"HeuristicPolicy(name={self.name!r}, weights={self.weights!r})"


class _Context:
    """Per-decision facts the scoring needs, computed once."""

    def __init__(self, obs, w: Weights, abil: tuple | None = None):
        self.obs, self.w = obs, w
        t = obs.rules.table
        self.legion, self.ability, self.fits = t.legion, t.ability, t.fits
        self.mine = obs.creatures[obs.player]  # (cards, seal) per own creature
        self.abil = w.ability_values() if abil is None else abil
        self._counts = None

    def counts(self):
        if self._counts is None:
            self._counts = self.obs.complete_counts
        return self._counts

    def card_value(self, c: int) -> float:
        """How much keeping card c is worth: its ability and whether it fits a creature now."""
        return _card_value(c, self.mine, self.obs.rules.table, self.abil)

    def score(self, a) -> float:
        t = type(a)
        w = self.w
        if t is Play:
            return self.score_play(a)
        if t is Draw:
            return w.draw
        if t is StartDiscard:
            return w.discard
        if t is DiscardCard:
            return (1.0 if len(self.obs.discard_picked) < 2 else -1.0) - 0.01 * self.card_value(a.card)
        if t is StopDiscard:
            return 0.0
        if t is PenaltyDiscard:
            return -self.card_value(a.card)
        if t is Take:
            return self.score_victim(a.owner, a.creature, complete_bonus=2.0)
        if t is Scavenge:
            return self.score_victim(a.owner, a.creature, complete_bonus=0.0)
        if t is Devour:
            cards, _ = self.mine[a.creature]
            return -len(cards) - (5.0 if len(cards) == 3 else 0.0)
        if t is PlaySeal:
            cards, _ = self.obs.creatures[a.owner][a.creature]
            lg = self.legion[a.card]
            gain = sum(self.abil[self.ability[c]] for c in cards if self.legion[c] == lg and self.ability[c] >= 0)
            return w.seal + gain - (0 if a.owner == self.obs.player else 3.0)
        if t is Reactivate:  # the abilities a seal would activate again, against Decline's 0
            abil, ability = self.abil, self.ability
            return sum(abil[ability[c]] for c in self.obs.reactivation)
        if t is Decline:
            return 0.0
        return 0.0

    def score_play(self, a: Play) -> float:
        w = self.w
        lg = self.legion[a.card]
        if a.creature is None:
            return w.start
        cards, _ = self.mine[a.creature]
        same = sum(1 for c in cards if self.legion[c] == lg)
        sc = w.same_legion * same + w.mixed_legion * (len(cards) - same)
        if len(cards) == 2:
            abil, ability = self.abil, self.ability
            sc += w.complete + sum(abil[ability[c]] for c in (*cards, a.card) if ability[c] >= 0)
            if same == 2:
                sc += w.pure
            return sc
        return sc + w.extend

    def score_victim(self, owner: int, k: int, complete_bonus: float) -> float:
        cards, _ = self.obs.creatures[owner][k]
        return (self.w.target_leader * self.counts()[owner] + len(cards)
                + (complete_bonus if len(cards) == 3 else 0.0))


def _card_value(c: int, mine, table, abil) -> float:
    """`_Context.card_value`: card c's ability value, + 1 if it fits one of `mine` or starts a creature."""
    ab = table.ability[c]
    v = abil[ab] if ab >= 0 else 0.0
    fits = table.fits[c]
    if any(len(cards) < 3 and fits[len(cards)] for cards, _ in mine) or fits[0]:
        v += 1.0
    return v


def _creature_info(cards, legion, ability, abil) -> tuple:
    """(number of cards, cards per legion, the sum of the cards' ability values in build order) of
    a creature: the parts of `_Context.score_play` that depend on the creature, in the same order."""
    counts = [0] * len(LEGIONS)
    for c in cards:
        counts[legion[c]] += 1
    return len(cards), counts, sum(abil[ability[c]] for c in cards if ability[c] >= 0)


_MEMO_SIZE = 8  # own-creatures values a HeuristicPolicy keeps (_memo): room for every seat of a game

GREEDY = Weights()
PURIST = replace(GREEDY, same_legion=4.0, mixed_legion=-4.0, pure=8.0, draw=1.5, start=1.5)
AGGRESSOR = replace(GREEDY, executioner=4.0, scavenger=4.0, target_leader=3.0)

POLICIES = {
    "random": RandomPolicy(),
    "greedy": HeuristicPolicy(GREEDY, "greedy"),
    "purist": HeuristicPolicy(PURIST, "purist"),
    "aggressor": HeuristicPolicy(AGGRESSOR, "aggressor"),
    "heuristic": HeuristicPolicy(Weights(), "heuristic"),
}
