"""Creatures: where a card may go, completing a creature, its abilities, and seals.

Seed: "As soon as you complete a creature, i.e. add the head, you activate the creature's
abilities ... first the head, then the torso and finally the feet." Completing a creature
pushes its `Activation` on top of whatever was running, which gives the seed's nested
completion for free: "If an ability means that you complete another creature, you pause the
activation of the abilities of the first creature ...". An ability that needs a choice
pushes its decision frame (`HeraldPlacement`, `MockerPlay`, `ExecutionerTarget`,
`ScavengerTarget`, `DevourerTarget`) above the activation, which resumes when it is popped.
"""
from __future__ import annotations

from .actions import Decline, Play, PlaySeal, Reactivate
from .cards import ABILITIES, DEVOURER, EXECUTIONER, HERALD, MOCKER, SCAVENGER, WEEPER
from .penalty import Penalty
from .state import (
    DECLINE,
    REACTIVATE,
    Creature,
    Frame,
    State,
    _draw_card,
    _draw_into_hand,
    _event,
    _index_of,
    _open_entry,
)

ACT_COMPLETION, ACT_SEAL = "completion", "seal"   # Activation.source


# ---------------------------------------------------------------------------------------
# Where a card may go
# ---------------------------------------------------------------------------------------
def _seal_targets(s: State, p: int, card: int, out: list) -> None:
    """Seal: "placed on a completed nightmare creature, which is now incarnated"."""
    owners = range(s.n) if s.rules.seal_target == "any" else (p,)
    for o in owners:
        for k, cr in enumerate(s.creatures[o]):
            if len(cr.cards) == 3 and cr.seal < 0:
                out.append(PlaySeal(card, o, k))


def _card_placements(s: State, p: int, cards, allow_seals: bool) -> list:
    """Every placement of each of `cards` for seat p (seals only if `allow_seals`): in card order,
    each card's creatures in order, then a new creature.

    Seed: start with the legs, then the torso, finally the head; anatomically correct; no more
    creatures than the number needed to win. (`turn:_turn_actions` lists the same placements.)"""
    out = []
    if not cards:
        return out
    table = s.table
    fits_, is_seal, plays = table.fits, table.is_seal, s._acts.plays
    open_slots, can_start = s._open[p] or _open_entry(s, p)
    for c in cards:
        if is_seal[c]:
            if allow_seals:
                _seal_targets(s, p, c, out)
            continue
        fits, row = fits_[c], plays[c]
        for k, n in open_slots:
            if fits[n]:
                out.append(row[k][n])
        if can_start and fits[0]:
            out.append(row[0][0])
    return out


def _can_place(s: State, p: int, cards, allow_seals: bool) -> bool:
    """Whether `_card_placements(s, p, cards, allow_seals)` lists anything, without the list: it stops
    at the first placement (the question of `HeraldPlacement.step` and of the Mocker's `_start_ability`)."""
    if not cards:
        return False
    table = s.table
    fits_, is_seal = table.fits, table.is_seal
    open_slots, can_start = s._open[p] or _open_entry(s, p)
    for c in cards:
        if is_seal[c]:
            if allow_seals:
                out = []
                _seal_targets(s, p, c, out)
                if out:
                    return True
            continue
        fits = fits_[c]
        if can_start and fits[0]:
            return True
        for _, n in open_slots:
            if fits[n]:
                return True
    return False


# ---------------------------------------------------------------------------------------
# Placing, completing, winning
# ---------------------------------------------------------------------------------------
def _play_from_hand(s: State, p: int, a: Play) -> None:
    s.hands[p].remove(a.card)
    if s.log is not None:
        _event(s, "play", p, card=a.card, creature=a.creature, slot=a.slot)
    _place(s, p, a.card, a.creature)


def _place(s: State, p: int, card: int, k) -> None:
    """Put a body card on creature k of player p (None: a new creature), then check completion.

    The seat's caches (`State._seat_views[p]`, `State._open[p]`) are brought up to date here, where
    the change is known: the values `creatures_changed(p)` and a rebuild would give."""
    s.creatures_view = None
    crs = s.creatures[p]
    views, opens = s._seat_views, s._open
    view, entry = views[p], opens[p]
    if k is None:
        cr = Creature([card])
        crs.append(cr)
        if view is not None:
            views[p] = view + (((card,), -1),)
        if entry is not None:
            n = len(crs)
            opens[p] = (entry[0] + ((n, 1),), n < s._acts.limit)
        s.legion_played[p][s.table.legion[card]] += 1
        return  # one card: nothing completed
    cr = crs[k]
    cards = cr.cards
    cards.append(card)
    n = len(cards)
    if view is not None:
        old, seal = view[k]
        view = list(view)
        view[k] = (old + (card,), seal)
        views[p] = tuple(view)
    if entry is not None:
        slots = list(entry[0])
        try:
            i = slots.index((k + 1, n - 1))
        except ValueError:  # not an open slot of the cache: rebuild it when asked
            opens[p] = None
        else:
            if n < 3:
                slots[i] = (k + 1, n)
            else:
                del slots[i]
            opens[p] = (tuple(slots), entry[1])
    s.legion_played[p][s.table.legion[card]] += 1
    if n == 3:
        _complete(s, p, cr)


def _complete(s: State, p: int, cr: Creature) -> None:
    """Seed: "As soon as you complete a creature, i.e. add the head, you activate the
    creature's abilities ... first the head, then the torso and finally the feet", and
    a pure-legion creature makes the opponents discard."""
    s.stats["completed"][p] += 1
    leg = s.table.legion
    a, b, c = cr.cards
    pure = leg[a] == leg[b] == leg[c]
    if pure:
        s.stats["pure_creatures"][p] += 1
    if s.log is not None:
        _event(s, "complete", p, owner=p, cards=cr.cards[:], pure=pure, creature=_index_of(s.creatures[p], cr))
    if s.rules.win_timing == "immediate" and _check_win(s, p):
        return
    act = Activation(p, cr, [a, b, c], ACT_COMPLETION, p)  # queue popped from the end: head, torso, legs
    if pure:
        pen = Penalty(leg[a], [(p + i) % s.n for i in range(1, s.n)])
        if s.rules.penalty_timing == "before_abilities":
            s.stack += (act, pen)
        else:
            s.stack += (pen, act)
    else:
        s.stack.append(act)


def _check_win(s: State, p: int) -> bool:
    """"The first player to build five complete creatures wins." """
    crs = s.creatures[p]
    to_win = s.rules.creatures_to_win
    if len(crs) < to_win:
        return False
    done = 0  # s.complete_count(p), counted without a list
    for c in crs:
        if len(c.cards) == 3:
            done += 1
    if done >= to_win:
        s.winner = p
        s.is_terminal = True
        _event(s, "win", p, winner=p)
        return True
    return False


# ---------------------------------------------------------------------------------------
# Seals (Legions of Horrors)
# ---------------------------------------------------------------------------------------
def _play_seal(s: State, p: int, a: PlaySeal) -> None:
    """Seal: the creature is incarnated; "Du må aktivere mareridtsvæsnets egenskaber en gang til"
    for its parts of the seal's legion: a decision (Reactivate / Decline) by default, at once
    with `seal_reactivation_optional=False`. Parts without an ability have nothing to activate."""
    cr = s.creatures[a.owner][a.creature]
    cr.seal = a.card
    s.creatures_changed(a.owner)
    s.stats["seals_played"][p] += 1
    table = s.table
    legion = table.legion[a.card]
    if s.log is not None:
        _event(s, "seal", p, card=a.card, owner=a.owner, creature=a.creature)
    queue = [c for c in cr.cards if table.legion[c] == legion and table.ability[c] >= 0]
    if queue:
        if s.rules.seal_reactivation_optional:
            s.stack.append(SealReactivation(p, cr, queue, a.owner))
        else:
            s.stack.append(Activation(p, cr, queue, ACT_SEAL, a.owner))


class SealReactivation(Frame):
    """`seat` may activate the parts in `queue` (legs first) of `owner`'s sealed `creature` again."""

    __slots__ = ("seat", "creature", "queue", "owner")
    decision = "seal re-activation"

    def __init__(self, seat: int, creature: Creature, queue: list, owner: int):
        self.seat, self.creature, self.queue, self.owner = seat, creature, queue, owner

    def legal(self, s):
        return [REACTIVATE, DECLINE]

    def apply(self, s, a, rng):
        s.stack.pop()
        if type(a) is Reactivate:
            s.stack.append(Activation(self.seat, self.creature, self.queue, ACT_SEAL, self.owner))
        else:
            _event(s, "reactivation_declined", self.seat, card=self.creature.seal, owner=self.owner,
                   creature=_index_of(s.creatures[self.owner], self.creature))


# ---------------------------------------------------------------------------------------
# Activation
# ---------------------------------------------------------------------------------------
class Activation(Frame):
    """`seat` activates the abilities of `owner`'s `creature`, one card of `queue` at a time
    (popped from the end: head, torso, legs). `source` is ACT_COMPLETION or ACT_SEAL; `started`
    is set once the activation_start event is written. Never a decision: it runs until an
    ability pushes one, and pops itself when the queue is done."""

    __slots__ = ("seat", "creature", "queue", "source", "owner", "started")

    def __init__(self, seat: int, creature: Creature, queue: list, source: str, owner: int):
        self.seat, self.creature, self.queue, self.source, self.owner = seat, creature, queue, source, owner
        self.started = False

    def step(self, s, rng) -> bool:
        """Activate the next ability of the creature (head, torso, legs in turn).

        Seed: "If it is not possible to activate an ability, this immediately stops the
        activation of the rest of the creature's abilities." A card that has left the creature
        meanwhile (a nested Devourer ate it) has no ability to activate and is skipped.
        """
        p, cr, queue = self.seat, self.creature, self.queue
        ability = s.table.ability
        if not self.started:
            self.started = True
            if s.log is not None:
                _event(s, "activation_start", p, owner=self.owner, creature=_index_of(s.creatures[self.owner], cr),
                       cards=cr.cards[:], abilities=[c for c in reversed(queue) if ability[c] >= 0],
                       source=self.source)
        stopped = False
        while queue:
            card = queue.pop()
            ab = ability[card]
            if ab < 0 or card not in cr.cards:
                continue
            if _start_ability(s, p, cr, ab, rng):
                s.abilities[p][ab] += 1
                if s.log is not None:
                    _event(s, "ability", p, ability=ABILITIES[ab], card=card)
                if s.stack[-1] is not self:
                    return False  # a decision frame was pushed above this activation
            else:
                if s.log is not None:
                    _event(s, "ability_failed", p, ability=ABILITIES[ab], card=card)
                queue.clear()
                stopped = True
        if s.stack[-1] is self:
            s.stack.pop()
            if s.log is not None:
                _event(s, "activation_end", p, owner=self.owner, creature=_index_of(s.creatures[self.owner], cr),
                       source=self.source, stopped=stopped)
        return False


def _start_ability(s: State, p: int, cr: Creature, ab: int, rng) -> bool:
    """Carry out an ability, or push the decision it needs. False if it cannot be carried out."""
    if ab == WEEPER:  # "Draw two cards from the deck."
        got = _draw_into_hand(s, p, 2, rng)
        if got and s.log is not None:
            hand = s.hands[p]
            _event(s, "weeper_draw", p, cards=hand[len(hand) - got:])
        return got > 0
    if ab == HERALD:  # "Turn over the top two cards of the common deck and play them"
        revealed = []
        for _ in range(2):
            c = _draw_card(s, rng, p)
            if c < 0:
                break
            revealed.append(c)
        if not revealed:
            return False
        if s.log is not None:
            _event(s, "herald_turn", p, cards=revealed[:])
        if not s.rules.herald_plays_seals:  # a seal is no body part: it cannot be played
            seals = [c for c in revealed if s.table.is_seal[c]]
            if seals:
                revealed = [c for c in revealed if not s.table.is_seal[c]]
                s.discard.extend(seals)
                _event(s, "herald_discard", p, cards=seals)
        if s.log is not None:
            _event(s, "herald_reveal", p, cards=revealed[:])
        s.stack.append(HeraldPlacement(p, revealed))
        return True
    if ab == MOCKER:  # "Play a card from your hand."
        if not _can_place(s, p, s.hands[p], s.rules.mocker_plays_seals):
            return False
        s.stack.append(MockerPlay(p))
        return True
    if ab == EXECUTIONER:
        if not _has_target(s, p, ab, cr):
            return False
        s.stack.append(ExecutionerTarget(p))
        return True
    if ab == SCAVENGER:
        if not _has_target(s, p, ab, cr):
            return False
        s.stack.append(ScavengerTarget(p))
        return True
    if ab == DEVOURER:
        if not _has_target(s, p, ab, cr):
            return False
        s.stack.append(DevourerTarget(p, cr))
        return True
    raise AssertionError(ab)


# ---------------------------------------------------------------------------------------
# The decisions abilities ask for
# ---------------------------------------------------------------------------------------
class HeraldPlacement(Frame):
    """Herald: `seat` places the `revealed` cards one at a time; what cannot be placed is
    discarded when no placement is left."""

    __slots__ = ("seat", "revealed")
    decision = "Herald placement"

    def __init__(self, seat: int, revealed: list):
        self.seat, self.revealed = seat, revealed

    def held_cards(self) -> list:
        return self.revealed

    def legal(self, s):
        return _card_placements(s, self.seat, self.revealed, True)

    def step(self, s, rng) -> bool:
        if _can_place(s, self.seat, self.revealed, True):
            s.current_player = self.seat
            return True
        s.stack.pop()
        if self.revealed:
            s.discard.extend(self.revealed)
            if s.log is not None:
                _event(s, "herald_discard", self.seat, cards=self.revealed[:])
        return False

    def apply(self, s, a, rng):
        p = self.seat
        self.revealed.remove(a.card)
        if type(a) is PlaySeal:
            if s.log is not None:
                _event(s, "herald_place", p, card=a.card, action=repr(a), owner=a.owner, creature=a.creature, slot=None)
            _play_seal(s, p, a)
        else:
            if s.log is not None:
                _event(s, "herald_place", p, card=a.card, action=repr(a), owner=p, creature=a.creature, slot=a.slot)
            _place(s, p, a.card, a.creature)


class MockerPlay(Frame):
    """Mocker: `seat` plays a card from its hand (seals with `Rules.mocker_plays_seals`)."""

    __slots__ = ("seat",)
    decision = "Mocker play"

    def __init__(self, seat: int):
        self.seat = seat

    def legal(self, s):
        return _card_placements(s, self.seat, s.hands[self.seat], s.rules.mocker_plays_seals)

    def apply(self, s, a, rng):
        s.stack.pop()
        if type(a) is PlaySeal:
            s.hands[self.seat].remove(a.card)
            _play_seal(s, self.seat, a)
        else:
            _play_from_hand(s, self.seat, a)


def _immune(s: State, target: Creature, target_owner: int, source_owner: int) -> bool:
    """Seal: "the incarnated creature is immune, so that it cannot be affected by other creatures".
    An opponent's incarnated creature is immune under either `Rules.immunity`; the owner's own
    only under "all_other_creatures"."""
    if target.seal < 0:
        return False
    return s.rules.immunity == "all_other_creatures" or target_owner != source_owner


def _exec_targets(s: State, p: int) -> list:
    """Executioner: the top card of another player's creature (complete or not, not incarnated)."""
    take = s._acts.take
    return [take[o][k] for o in range(s.n) if o != p
            for k, cr in enumerate(s.creatures[o]) if cr.seal < 0]


def _scav_targets(s: State, p: int) -> list:
    """Scavenger: an uncompleted creature belonging to an opponent (not incarnated)."""
    scavenge = s._acts.scavenge
    return [scavenge[o][k] for o in range(s.n) if o != p
            for k, cr in enumerate(s.creatures[o]) if len(cr.cards) < 3 and cr.seal < 0]


def _devour_targets(s: State, p: int, source: Creature) -> list:
    """Devourer: the top card of one of your *other* creatures."""
    devour = s._acts.devour
    return [devour[k] for k, cr in enumerate(s.creatures[p])
            if cr is not source and not _immune(s, cr, p, p)]


def _has_target(s: State, p: int, ab: int, source: Creature) -> bool:
    """Whether the Executioner / Scavenger / Devourer has any target (its list is not empty)."""
    if ab == DEVOURER:
        return any(cr is not source and not _immune(s, cr, p, p) for cr in s.creatures[p])
    complete_ok = ab == EXECUTIONER
    for o in range(s.n):
        if o != p:
            for cr in s.creatures[o]:
                if cr.seal < 0 and (complete_ok or len(cr.cards) < 3):
                    return True
    return False


def _top_taken(s: State, o: int, k: int, gone: bool) -> None:
    """Seat o's creature k has lost its top card (and left the table if `gone`): `creatures_changed(o)`,
    with the seat's public creatures brought up to date here instead of rebuilt."""
    s.creatures_view = s._open[o] = None
    views = s._seat_views
    view = views[o]
    if view is not None:
        if gone:
            views[o] = view[:k] + view[k + 1:]
        else:
            old, seal = view[k]
            view = list(view)
            view[k] = (old[:-1], seal)
            views[o] = tuple(view)


def _creature_gone(s: State, o: int, k: int) -> None:
    """Seat o's creature k is about to leave the table: `creatures_changed(o)`, with the seat's public
    creatures brought up to date here instead of rebuilt."""
    s.creatures_view = s._open[o] = None
    views = s._seat_views
    view = views[o]
    if view is not None:
        views[o] = view[:k] + view[k + 1:]


def _drop_if_empty(s: State, crs: list, cr: Creature) -> None:
    if not cr.cards:
        crs.remove(cr)
        if cr.seal >= 0:
            s.discard.append(cr.seal)
            cr.seal = -1


class ExecutionerTarget(Frame):
    """Executioner: `seat` takes the top card of another seat's creature into its hand."""

    __slots__ = ("seat",)
    decision = "Executioner target"

    def __init__(self, seat: int):
        self.seat = seat

    def legal(self, s):
        return _exec_targets(s, self.seat)

    def apply(self, s, a, rng):
        s.stack.pop()
        p = self.seat
        crs = s.creatures[a.owner]
        cr = crs[a.creature]
        card = cr.cards.pop()
        s.hands[p].append(card)
        _drop_if_empty(s, crs, cr)
        _top_taken(s, a.owner, a.creature, not cr.cards)
        if s.log is not None:
            _event(s, "executioner", p, victim=a.owner, card=card, creature=a.creature)


class ScavengerTarget(Frame):
    """Scavenger: `seat` discards an opponent's uncompleted creature (or declines, if optional)."""

    __slots__ = ("seat",)
    decision = "Scavenger target"

    def __init__(self, seat: int):
        self.seat = seat

    def legal(self, s):
        out = _scav_targets(s, self.seat)
        if s.rules.scavenger_optional:
            out.append(DECLINE)
        return out

    def apply(self, s, a, rng):
        s.stack.pop()
        p = self.seat
        if type(a) is Decline:
            _event(s, "scavenger_declined", p)
            return
        _creature_gone(s, a.owner, a.creature)
        crs = s.creatures[a.owner]
        cr = crs.pop(a.creature)
        s.discard.extend(cr.cards)
        if cr.seal >= 0:
            s.discard.append(cr.seal)
        if s.log is not None:
            _event(s, "scavenger", p, victim=a.owner, cards=cr.cards[:], creature=a.creature, seal=cr.seal)
        cr.cards.clear()


class DevourerTarget(Frame):
    """Devourer: `seat` discards the top card of one of its creatures other than `source`."""

    __slots__ = ("seat", "source")
    decision = "Devourer target"

    def __init__(self, seat: int, source: Creature):
        self.seat, self.source = seat, source

    def legal(self, s):
        return _devour_targets(s, self.seat, self.source)

    def apply(self, s, a, rng):
        s.stack.pop()
        p = self.seat
        crs = s.creatures[p]
        cr = crs[a.creature]
        card = cr.cards.pop()
        s.discard.append(card)
        _drop_if_empty(s, crs, cr)
        _top_taken(s, p, a.creature, not cr.cards)
        if s.log is not None:
            _event(s, "devourer", p, card=card, creature=a.creature)
