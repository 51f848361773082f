"""Determinisation: a full state consistent with what one seat knows (for search).

A war game hides little: the board, the armies, gold, VP, cards played (`used`) and treasures kept
in front of their owners are public. What a seat cannot see (`public_copy.public_state` leaves it
out) is drawn at random here:

* the other realms' hands: their sizes are public, and so is how many treasures each holds
  (treasures gained minus treasures played, `stats`); the rest of a hand are event cards of that
  realm's own deck, drawn from that realm's unseen event cards (its deck minus the cards it used);
  `must_play` is the immediate cards among them;
* every realm's event deck order (its unseen event cards not in hand; this seat's own deck too);
* the treasure deck: every treasure minus those kept (played) and those in this seat's hands,
  minus the other hands' treasures, in random order;
* the guardian supply and the face-down tokens on dungeons nobody has turned over: every guardian
  tile minus the tokens on turned-over dungeons, dealt to the face-down dungeons (their token
  counts are public) and the rest into the supply in random order;
* the other seats' notebooks (`memo`: empty; a heuristic plans afresh) and who else holds an answer
  to a pending card (`PendingCard.reactors`, recomputed from the drawn hands: the realm being
  asked now first, then every later enemy in turn order holding a fitting reaction).

Whom the engine asks is public: a draw in which the realm deciding a card window (or a reaction)
would hold no card it may play there is redrawn (rejection sampling, `MAX_TRIES`).

The seat's own notebook is deep-copied, so playing on from a sampled state never changes the real
game's plans. Limit: an observation is a snapshot; guardians seen in a fight that went back into the
supply, and cards seen in a reshuffle, are not remembered.
"""
from __future__ import annotations

from collections import Counter

from . import effects as ef
from . import engine as E
from .game_actions import PlayCard
from .observation import Observation

__all__ = ["sample_state", "hidden_pools", "HiddenPools", "MAX_TRIES"]

#: draws tried before giving up on one in which the deciding realm may play at its card window
MAX_TRIES = 200

_REPRO = "Reproduce with nerathsim.observe(state, seat) on that state"


class HiddenPools:
    """What one seat cannot place, as sorted lists of ids (copies repeated), and how many of each
    hidden place there are.

    events[q]: realm q's unseen event cards (in its hand unless the seat holds realm q, or its deck);
    event_hand[q]: how many of them are in q's hand (0 for the seat's own realms: known);
    treasures: unseen treasure cards; treasure_hand[q]: how many of them q holds;
    guardians: unseen guardian tiles; face_down: {dungeon: token count} of unturned dungeons.
    """

    __slots__ = ("events", "event_hand", "treasures", "treasure_hand", "guardians", "face_down")

    def __init__(self, events, event_hand, treasures, treasure_hand, guardians, face_down):
        self.events, self.event_hand = events, event_hand
        self.treasures, self.treasure_hand = treasures, treasure_hand
        self.guardians, self.face_down = guardians, face_down

    def __repr__(self):
        return (f"HiddenPools(events={[len(e) for e in self.events]}, event_hand={self.event_hand}, "
                f"treasures={len(self.treasures)}, treasure_hand={self.treasure_hand}, "
                f"guardians={len(self.guardians)}, face_down={self.face_down})")


def _minus(pool: Counter, ids, what: str, obs) -> None:
    for x in ids:
        if pool[x] <= 0:
            raise ValueError(f"sample_state: {what} {x} is shown more often than the game has it: {obs!r}. "
                             + _REPRO)
        pool[x] -= 1


def _sorted(pool: Counter) -> list:
    return sorted(pool.elements())


def hidden_pools(obs: Observation) -> HiddenPools:
    """The unseen ids of each kind for `obs`'s seat (see `HiddenPools`)."""
    c = obs._s                      # the public copy: hidden places are empty there
    rules, cs = c.rules, c.cards
    mine = set(rules.seating[obs.player])
    sizes = obs.hand_sizes
    events, event_hand, treasure_hand = [[] for _ in range(4)], [0] * 4, [0] * 4
    if cs is None:
        return HiddenPools(events, event_hand, [], treasure_hand, [], {})
    treasures = Counter(cs.treasures) if rules.dungeons else Counter()
    for q in range(4):
        _minus(treasures, c.kept[q], "treasure", obs)
        pool = Counter(cs.decks[q]) if rules.events else Counter()
        _minus(pool, c.used[q], "event card", obs)
        if q in mine:
            for x in c.hands[q]:
                if cs.cards[x].kind == "treasure":
                    _minus(treasures, [x], "treasure", obs)
                else:
                    _minus(pool, [x], "event card", obs)
        events[q] = _sorted(pool)
    held = 0
    for q in range(4):
        if q in mine:
            continue
        # treasures in an unseen hand: gained minus played (public), within what the hand and the pool allow
        k = c.stats["treasures"][q] - c.stats["treasures_played"][q]
        k = max(0, min(k, sizes[q], sum(treasures.values()) - held))
        k = max(k, sizes[q] - len(events[q]))      # a hand larger than the realm's unseen events holds treasures
        treasure_hand[q], event_hand[q] = k, sizes[q] - k
        held += k
        if event_hand[q] > len(events[q]) or held > sum(treasures.values()):
            raise ValueError(f"sample_state: realm {q}'s hand of {sizes[q]} does not fit its unseen cards "
                             f"({len(events[q])} events, {sum(treasures.values())} treasures): {obs!r}. " + _REPRO)
    guardians = Counter(cs.supply) if rules.dungeons else Counter()
    face_down = {}
    for r, g in sorted(c.guardians.items()):
        if r in c.revealed:
            _minus(guardians, g, "guardian", obs)
        else:
            face_down[r] = len(g)
    if sum(face_down.values()) > sum(guardians.values()):
        raise ValueError(f"sample_state: {sum(face_down.values())} face-down guardians but only "
                         f"{sum(guardians.values())} unseen tiles: {obs!r}. " + _REPRO)
    return HiddenPools(events, event_hand, _sorted(treasures), treasure_hand, _sorted(guardians), face_down)


def _shuffled(items: list, rng) -> list:
    return [items[int(i)] for i in rng.permutation(len(items))]


def _deal(obs: Observation, pools: HiddenPools, rng) -> E.State:
    s = obs._s.clone()              # the public copy (own notebook deep-copied, the others' empty)
    cs = s.cards
    mine = set(s.rules.seating[obs.player])
    treasures = _shuffled(pools.treasures, rng)
    for q in range(4):
        cards = _shuffled(pools.events[q], rng)
        if q in mine:
            s.decks[q] = cards
            continue
        k, t = pools.event_hand[q], pools.treasure_hand[q]
        hand = cards[:k] + treasures[:t]
        del treasures[:t]
        s.hands[q] = _shuffled(hand, rng)
        s.decks[q] = cards[k:]
        s.must_play[q] = [x for x in s.hands[q] if cs.cards[x].timing == "immediate"]
    if cs is not None:
        s.treasure_deck = treasures
        guardians = _shuffled(pools.guardians, rng)
        for r, n in pools.face_down.items():
            s.guardians[r] = guardians[:n]
            del guardians[:n]
        s.supply = guardians
    if s.pending is not None:
        _reactors(s)
    s._legal = None
    return s


def _reactors(s: E.State) -> None:
    """Who may still answer the pending card: the realm asked now, then the later enemies (in turn
    order after the card's realm) whose drawn hands hold a fitting reaction."""
    pend = s.pending
    if s.phase != E.PH_EVENT:
        pend.reactors = []
        return
    order = s.rules.order
    start = order.index(pend.realm)
    after = [order[(start + k) % 4] for k in range(1, 4)]
    now = s.decider
    later = after[after.index(now) + 1:] if now in after else []
    full = ef.reactors(s, pend.realm, pend.play.card)
    pend.reactors = [now] + [q for q in later if q in full]


def _rests(s: E.State) -> bool:
    """The drawn hands let the realm deciding a card window play there (else the engine would not ask)."""
    if s.phase != E.PH_EVENT:
        return True
    return any(type(a) is PlayCard for a in E.legal_actions(s))


def sample_state(observation: Observation, rng) -> E.State:
    """A full state whose `observe(state, observation.player)` shows what `observation` shows, the
    unseen cards and guardians dealt uniformly at random with `rng` (a numpy Generator)."""
    obs = observation
    if not isinstance(obs, Observation):
        raise ValueError(f"sample_state needs a nerathsim.Observation, got {type(obs).__name__}")
    if obs._s.is_terminal:
        raise ValueError(f"sample_state: the game is over; nothing to search: {obs!r}. " + _REPRO)
    pools = hidden_pools(obs)
    for _ in range(MAX_TRIES):
        s = _deal(obs, pools, rng)
        if _rests(s):
            return s
    raise ValueError(f"sample_state: no draw in {MAX_TRIES} lets realm {obs.realm} play at its card window: "
                     f"{obs!r}. " + _REPRO)
