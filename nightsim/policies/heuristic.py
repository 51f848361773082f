"""Policies: `policy(observation, legal_actions, rng) -> action`.

`RandomPolicy` picks uniformly. Every heuristic is one `HeuristicPolicy` scoring each legal
action with a frozen `Weights` record; `greedy`, `purist` and `aggressor` are weight sets,
and analyses can sweep any weight (`dataclasses.replace(GREEDY, pure=5.0)`). The context features
(`Weights.win` ... `threat`: the turn's follow-up play, open creatures, what an ability will hit,
hand size, a victim near winning) add nothing at their defaults, so the shipped weight sets play as
before; `_Context.play_extras` scores them, and `kernel.play.play_extras` repeats its arithmetic.

`tuned` is `greedy` with the weights `balancelab tune-policy nightsim` found; they and their
provenance (pool, games, seeds, confirmation score) are stored in `data/tuned.json`, which
`analyses.tune` writes (`TUNING` declares the search space; `with_params` applies a search point).

`heuristic` is an alias of `greedy` (the default `Weights()` under another name). Policies
compare equal when they play alike: a `HeuristicPolicy`'s name is a label left out of `==`,
so `POLICIES["heuristic"] == POLICIES["greedy"]` and seat rotation (analyses/plan.py) does
not replay a deal for seatings that differ only in such labels.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from simcore.policies import weight_tuning

from ..engine.actions import (
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
from ..engine.cards import DEVOURER, EXECUTIONER, LEGIONS, MOCKER, SCAVENGER
from ..engine.state import DRAW, START_DISCARD, TURN_ACTION


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def __call__(self, obs, legal, rng):
        return legal[rng.integers(len(legal))]

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
    # --- context features: their defaults add nothing, so `Weights()` plays as before ---
    # (`extras`: the facts each one reads, and the exact arithmetic the kernel repeats)
    win: float = 0.0            # a completion that wins the game
    follow: float = 0.0         # a play that leaves the creature open, and the rest of the hand fills its next slot
    pair: float = 0.0           # the turn's first play, and the rest of the hand has a card of its legion to play next
    crowd: float = 0.0          # per own incomplete creature, when starting a new one
    mocker_ctx: float = 0.0     # per Mocker completed, when the rest of the hand has a card to play then
    executioner_ctx: float = 0.0  # per Executioner completed, × the most complete creatures an opponent has
    scavenger_ctx: float = 0.0  # per Scavenger completed, × the largest incomplete creature of an opponent
    devourer_ctx: float = 0.0   # per Devourer completed, × what it must eat (the cheapest other creature's cost)
    draw_hand: float = 0.0      # the draw action, per card in hand
    discard_dead: float = 0.0   # starting a discard action, per card in hand that fits nothing now
    discard_extra: float = -1.0  # picking a third or later card to discard (the first two score +1)
    discard_value: float = 0.01  # picking a card to discard, per unit of its value (keep the valuable ones)
    fit_value: float = 1.0      # a card's value (penalty and discard choices): + this if it fits a creature now
    threat: float = 0.0         # Executioner/Scavenger victim one creature short of winning

    def ability_values(self) -> tuple[float, ...]:
        return (self.herald, self.weeper, self.mocker, self.executioner, self.scavenger, self.devourer)

    def extras(self) -> bool:
        """Whether a context feature is on (a weight differs from its default); off, the scoring is
        greedy's own arithmetic and `HeuristicPolicy` keeps its fast path."""
        return any(getattr(self, f) != _DEFAULTS[f] for f in EXTRA_FIELDS)


@dataclass(frozen=True)
class HeuristicPolicy:
    """Scores each legal action with `weights` and plays the best (random tie-break)."""

    weights: Weights = field(default_factory=Weights)
    name: str = field(default="heuristic", compare=False)  # a label: equal weights = equal policies

    def __post_init__(self):
        object.__setattr__(self, "_abil", self.weights.ability_values())  # per-policy constant
        object.__setattr__(self, "_extras", self.weights.extras())         # context features on: _Context scores
        object.__setattr__(self, "_facts", _NO_FACTS)                       # per-policy cache, see __call__
        d, x = self.weights.draw, self.weights.discard  # choose's pick from exactly [Draw, StartDiscard]
        object.__setattr__(self, "_draw_or_discard", START_DISCARD if x > d else None if x == d else DRAW)

    def __getstate__(self):  # pickled (joblib workers) without the cache
        return {"weights": self.weights, "name": self.name}

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)
        self.__post_init__()

    def _table_facts(self, table) -> "_TableFacts":
        """The policy's `_TableFacts` for `table`, built and kept when the table is a new one."""
        facts = _TableFacts.build(table, self._abil)
        object.__setattr__(self, "_facts", facts)
        return facts

    def __call__(self, obs, legal, rng):
        """The best-scoring legal action; ties broken by one `rng.integers(len(tied))` (none without a tie).

        What a placement scores depends on the creature it goes on (`_creature_info`), kept per policy
        in `_facts` (a `_TableFacts` for the card table it last scored with). A penalty discard scores
        the card's ability value (a column of `_facts`) and whether the card fits the own creatures now
        (one bit mask of their open slots per decision): `_card_value`'s arithmetic."""
        if len(legal) == 1:
            return legal[0]
        if self._extras:
            return _pick(legal, _Context(obs, self.weights, self._abil, True).score, rng)
        return self.choose(obs.creatures, obs.player, obs.rules.table, legal, rng, obs)

    def choose(self, creatures, player: int, table, legal, rng, obs):
        """`__call__`'s choice with the context features off (`self._extras` false), from two or more
        legal actions and the parts of the observation it reads: `creatures` (`Observation.creatures`,
        public), `player` and `table` (`obs.rules.table`); `obs`, the observation, is read only when an
        action needs more than the creatures (a seal or a discard choice)."""
        if len(legal) == 2 and legal[1] is START_DISCARD and legal[0] is DRAW and self._draw_or_discard is not None:
            return self._draw_or_discard  # a turn action with no card to play: the better of the two (no tie)
        w = self.weights
        mine = creatures[player]  # (cards, seal) per own creature: a value shared until they change
        facts = self._facts
        if facts.table is not table:
            facts = self._table_facts(table)
        infos = facts.infos  # {a creature's cards: _creature_info}
        ctx = owner_seen = need = None
        best, best_score = None, None
        for a in legal:
            t = type(a)
            if t is Play:  # the common cases inlined, with the same arithmetic as _Context.score
                k = a.creature
                if k is None:
                    sc = w.start
                else:
                    cards = mine[k][0]
                    info = infos.get(cards)
                    if info is None:
                        info = infos[cards] = _creature_info(cards, table, self._abil, w)
                    by_legion, complete, pure = info
                    lg, _, ai = facts.cards[a.card]
                    if complete is None:
                        sc = by_legion[lg]
                    else:
                        sc = by_legion[lg] + complete[ai]
                        if pure == lg:
                            sc += w.pure
            elif t is Draw:
                sc = w.draw
            elif t is StartDiscard:
                sc = w.discard
            elif t is Take or t is Scavenge:  # _Context.score_victim
                owner = a.owner
                if owner != owner_seen:  # the engine lists an owner's creatures together
                    done = 0  # Observation.complete_counts[owner]
                    for cards, _ in creatures[owner]:
                        if len(cards) == 3:
                            done += 1
                    lead, owner_seen = w.target_leader * done, owner
                cards = creatures[owner][a.creature][0]
                sc = lead + len(cards) + ((2.0 if t is Take else 0.0) if len(cards) == 3 else 0.0)
            elif t is PenaltyDiscard:  # -_Context.card_value: the ability's value, + 1.0 if the card fits now
                if need is None:
                    need = _open_mask(mine)
                v = facts.card_ability[a.card]
                if facts.fit_mask[a.card] & need:
                    v += 1.0
                sc = -v
            elif t is Devour:  # _Context.score
                cards = mine[a.creature][0]
                sc = -len(cards) - (5.0 if len(cards) == 3 else 0.0)
            else:
                if ctx is None:
                    ctx = _Context(obs, w, self._abil, self._extras)
                sc = ctx.score(a)
            if best_score is None or sc > best_score:
                best, best_score = a, sc
            elif sc == best_score:
                if type(best) is list:
                    best.append(a)
                else:
                    best = [best, a]  # a tie (an action is a NamedTuple, never a list)
        return best if type(best) is not list else best[rng.integers(len(best))]

    def __repr__(self):
        return f"HeuristicPolicy(name={self.name!r}, weights={self.weights!r})"


class _Context:
    """Per-decision facts the scoring needs, computed once."""

    def __init__(self, obs, w: Weights, abil: tuple | None = None, x: bool | None = None):
        self.obs, self.w = obs, w
        t = obs.rules.table
        self.legion, self.ability, self.fits = t.legion, t.ability, t.fits
        self.mine = obs.creatures[obs.player]  # (cards, seal) per own creature
        self.abil = w.ability_values() if abil is None else abil
        self._counts = None
        self.x = w.extras() if x is None else x  # context features on (off: greedy's arithmetic, nothing added)

    def counts(self):
        if self._counts is None:
            self._counts = self.obs.complete_counts
        return self._counts

    def card_value(self, c: int) -> float:
        """How much keeping card c is worth: its ability and whether it fits a creature now."""
        return _card_value(c, self.mine, self.obs.rules.table, self.abil, self.w.fit_value)

    def score(self, a) -> float:
        t = type(a)
        w = self.w
        if t is Play:
            return self.score_play(a)
        if t is Draw:
            return w.draw + w.draw_hand * len(self.obs.hand) if self.x else w.draw
        if t is StartDiscard:
            return w.discard + w.discard_dead * self.dead_cards() if self.x else w.discard
        if t is DiscardCard:
            return ((1.0 if len(self.obs.discard_picked) < 2 else w.discard_extra)
                    - w.discard_value * self.card_value(a.card))
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
            return w.start + self.play_extras(a) if self.x else w.start
        cards, _ = self.mine[a.creature]
        same = sum(1 for c in cards if self.legion[c] == lg)
        sc = w.same_legion * same + w.mixed_legion * (len(cards) - same)
        if len(cards) == 2:
            abil, ability = self.abil, self.ability
            sc += w.complete + sum(abil[ability[c]] for c in (*cards, a.card) if ability[c] >= 0)
            if same == 2:
                sc += w.pure
        else:
            sc = sc + w.extend
        return sc + self.play_extras(a) if self.x else sc

    def score_victim(self, owner: int, k: int, complete_bonus: float) -> float:
        cards, _ = self.obs.creatures[owner][k]
        sc = (self.w.target_leader * self.counts()[owner] + len(cards)
              + (complete_bonus if len(cards) == 3 else 0.0))
        if self.x:
            near = 1.0 if self.counts()[owner] >= self.obs.rules.creatures_to_win - 1 else 0.0
            sc = sc + self.w.threat * near
        return sc

    # --- the context features (Weights.win ... threat); kernel.play.play_extras repeats this arithmetic ---
    def dead_cards(self) -> int:
        """Cards in hand that fit none of the own creatures now and cannot start one."""
        fits = self.fits
        return sum(1 for c in self.obs.hand
                   if not (fits[c][0] or any(len(cards) < 3 and fits[c][len(cards)] for cards, _ in self.mine)))

    def play_extras(self, a: Play) -> float:
        """What the context features add to placing `a.card` (from hand, or a Herald's card)."""
        w, obs, fits, legion, ability = self.w, self.obs, self.fits, self.legion, self.ability
        card, k = a.card, a.creature
        lengths = [len(cards) for cards, _ in self.mine]
        after = 1 if k is None else lengths[k] + 1
        if k is None:
            lengths.append(1)
        else:
            lengths[k] = after
        limit = obs.rules.limit
        rest = [c for c in obs.hand if c != card]

        def playable(c) -> bool:   # after this play: fits an open slot, or starts a creature
            return any(n < 3 and fits[c][n] for n in lengths) or (fits[c][0] and len(lengths) < limit)

        ex = 0.0
        if after == 3:
            me = obs.player
            counts = self.counts()
            if counts[me] + 1 >= obs.rules.creatures_to_win:
                ex += w.win
            for c in (*self.mine[k][0], card):   # build order: legs, torso, head
                ab = ability[c]
                if ab == MOCKER:
                    ex += w.mocker_ctx * (1.0 if any(playable(x) for x in rest) else 0.0)
                elif ab == EXECUTIONER:
                    ex += w.executioner_ctx * max(counts[o] for o in range(obs.n_players) if o != me)
                elif ab == SCAVENGER:
                    ex += w.scavenger_ctx * max([len(cards) for o in range(obs.n_players) if o != me
                                                 for cards, _ in obs.creatures[o] if len(cards) < 3] or [0])
                elif ab == DEVOURER:
                    ex += w.devourer_ctx * min([n + (5 if n == 3 else 0) for j, n in enumerate(lengths) if j != k]
                                               or [0])
        else:
            if any(fits[c][after] for c in rest):
                ex += w.follow
            if k is None:
                ex += w.crowd * sum(1 for n in lengths[:-1] if n < 3)
        if obs.decision == TURN_ACTION and obs.actions_left >= 2:
            lg = legion[card]
            if any(legion[c] == lg and playable(c) for c in rest):
                ex += w.pair
        return ex


def _pick(legal, score, rng):
    """The best-scoring action of `legal` (the first of several, then one `rng.integers(len(tied))` among the tied)."""
    best, best_score = [], None
    for a in legal:
        sc = score(a)
        if best_score is None or sc > best_score:
            best, best_score = [a], sc
        elif sc == best_score:
            best.append(a)
    return best[0] if len(best) == 1 else best[rng.integers(len(best))]


def _card_value(c: int, mine, table, abil, fit: float = 1.0) -> float:
    """`_Context.card_value`: card c's ability value, + `fit` (Weights.fit_value) if it fits one of
    `mine` or starts a creature."""
    ab = table.ability[c]
    v = abil[ab] if ab >= 0 else 0.0
    fits = table.fits[c]
    if fits[0] or any(len(cards) < 3 and fits[len(cards)] for cards, _ in mine):  # either order: the same bool
        v += fit
    return v


def _creature_info(cards, table, abil, w: Weights) -> tuple:
    """What placing a card on the creature `cards` (one or two cards) scores, as `_Context.score_play`
    computes it, with the same operations in the same order (so the same floats, ties included):
    (`by_legion`, `complete`, `pure`). On one card, the score of a card of legion L is `by_legion[L]`
    and `complete` is None. On two cards (the placement completes the creature), it is
    `by_legion[L] + complete[ability + 1]` (`complete[0]`: a card without ability), plus `w.pure`
    when L is `pure`, the legion of both cards (-1 when they differ)."""
    legion, ability = table.legion, table.ability
    counts = [0] * len(LEGIONS)
    for c in cards:
        counts[legion[c]] += 1
    n = len(cards)
    if n != 2:
        return tuple(w.same_legion * same + w.mixed_legion * (n - same) + w.extend for same in counts), None, -1
    partial = sum(abil[ability[c]] for c in cards if ability[c] >= 0)
    complete = (w.complete + partial, *(w.complete + (partial + v) for v in abil))
    pure = legion[cards[0]] if counts[legion[cards[0]]] == 2 else -1
    return tuple(w.same_legion * same + w.mixed_legion * (n - same) for same in counts), complete, pure


def _open_mask(mine) -> int:
    """Bit n set when the own creatures `mine` have an open slot n, or n is 0 (a card that starts a
    creature fits): a card fits now (`_card_value`) when `_TableFacts.fit_mask[card]` shares a bit."""
    need = 1
    for cards, _ in mine:
        if len(cards) < 3:
            need |= 1 << len(cards)
    return need


class _TableFacts(NamedTuple):
    """What a `HeuristicPolicy` keeps per card table: `infos` ({a creature's cards: `_creature_info`}
    for every creature it has scored a placement on: at most two cards each, so bounded by the deck),
    and per card its ability's value (`_card_value`'s start), `fit_mask` (bit n: it fits slot n) and
    `cards` ((legion, fits, ability + 1): what a placement of the card reads, in one tuple)."""

    table: object
    infos: dict
    card_ability: tuple
    fit_mask: tuple
    cards: tuple

    @staticmethod
    def build(table, abil) -> "_TableFacts":
        return _TableFacts(table, {}, tuple(abil[ab] if ab >= 0 else 0.0 for ab in table.ability),
                           tuple(sum(1 << n for n in range(3) if f[n]) for f in table.fits),
                           tuple(zip(table.legion, table.fits, (ab + 1 for ab in table.ability))))


_NO_FACTS = _TableFacts(None, {}, (), (), ())


_DEFAULTS = {f.name: f.default for f in fields(Weights)}
EXTRA_FIELDS = ("win", "follow", "pair", "crowd", "mocker_ctx", "executioner_ctx", "scavenger_ctx", "devourer_ctx",
                "draw_hand", "discard_dead", "discard_extra", "discard_value", "fit_value", "threat")

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


# --- tuning (analyses/tune.py): the search space as data, and the stored `tuned` policy ----------
TUNING = MappingProxyType({   # read-only
    "start": "greedy",   # the shipped heuristic a search starts from by default
    "players": 2,        # head-to-head games, seats rotated
    "space": (
        {"name": "weights.complete", "low": 0.0, "high": 20.0, "step": 0.25},
        {"name": "weights.extend", "low": 0.0, "high": 10.0, "step": 0.25},
        {"name": "weights.start", "low": -2.0, "high": 6.0, "step": 0.25},
        {"name": "weights.same_legion", "low": -2.0, "high": 6.0, "step": 0.25},
        {"name": "weights.mixed_legion", "low": -5.0, "high": 3.0, "step": 0.25},
        {"name": "weights.pure", "low": 0.0, "high": 12.0, "step": 0.25},
        *({"name": f"weights.{a}", "low": -4.0, "high": 8.0, "step": 0.25} for a in ("herald", "weeper", "mocker", "executioner", "scavenger",
                                                        "devourer")),
        {"name": "weights.draw", "low": -2.0, "high": 4.0, "step": 0.25},
        {"name": "weights.discard", "low": -5.0, "high": 3.0, "step": 0.25},
        {"name": "weights.target_leader", "low": 0.0, "high": 6.0, "step": 0.25},
        {"name": "weights.seal", "low": -2.0, "high": 5.0, "step": 0.25},
        # the context features; each range holds its default, which adds nothing
        {"name": "weights.win", "low": 0.0, "high": 20.0, "step": 0.25},
        {"name": "weights.follow", "low": -2.0, "high": 6.0, "step": 0.25},
        {"name": "weights.pair", "low": -2.0, "high": 6.0, "step": 0.25},
        {"name": "weights.crowd", "low": -4.0, "high": 2.0, "step": 0.25},
        *({"name": f"weights.{a}_ctx", "low": -2.0, "high": 4.0, "step": 0.25} for a in ("mocker", "executioner",
                                                                                          "scavenger")),
        {"name": "weights.devourer_ctx", "low": -3.0, "high": 1.0, "step": 0.25},
        {"name": "weights.draw_hand", "low": -1.0, "high": 0.5, "step": 0.05},
        {"name": "weights.discard_dead", "low": -1.0, "high": 2.0, "step": 0.25},
        {"name": "weights.discard_extra", "low": -2.0, "high": 2.0, "step": 0.25},
        {"name": "weights.discard_value", "low": 0.0, "high": 1.0, "step": 0.01},
        {"name": "weights.fit_value", "low": -1.0, "high": 4.0, "step": 0.25},
        {"name": "weights.threat", "low": -2.0, "high": 8.0, "step": 0.25},
    ),
})
TUNED_FILE = Path(__file__).parents[1] / "data" / "tuned.json"

#: with_params(policy, params, name=None): a HeuristicPolicy with {"weights.pure": 5.0, ...} set;
#: load_tuned(path=TUNED_FILE): the stored tuned policy (simcore.policies.weight_tuning)
with_params, load_tuned = weight_tuning(HeuristicPolicy, "nightsim", POLICIES, TUNED_FILE)
if TUNED_FILE.exists():
    POLICIES["tuned"] = load_tuned()
