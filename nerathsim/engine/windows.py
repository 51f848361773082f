"""Card windows (seed phase 1 and effects.WINDOWS): drawing cards, the `CardWindow` frame in which a
realm may play cards (PH_EVENT), the `PendingCard` frame enemies may answer, and `_Hooks`, the state
changes `effects.resolve` asks for. Owns the PH_EVENT decision (`DECISION`).

A window is opened by the part of the turn it belongs to, which passes what resumes after it:
the turn start (`turn._turn_windows`), a battle (`combat._after_combat_window`), the combat phase
after a dungeon (`combat._next_battle`) and the reinforcements (`reinforce._resume_buy`).
"""
from __future__ import annotations

from .. import effects as ef
from ..battle import ingame as gb
from ..game_actions import Pass, PlayCard
from ..maps import REALMS
from .common import _event, _new_ship
from .state import PASS, PH_EVENT, CardWindow, Decision, IllegalActionError, PendingCard, State
from .terrain import _mob_add, _mob_take_best, _refresh_terrain


def _has_cards(s: State) -> bool:
    return s.cards is not None


def _draw_event(s: State, p: int, rng, source: str = "turn") -> None:
    """Seed phase 1: draw an event card; an empty deck is rebuilt from the shuffled used cards
    ("Hvis bunken løber tør for kort, blander du blot de brugte kort"). An immediate card must be
    played at once ("om det skal spilles med det samme")."""
    if not s.decks[p] and s.used[p]:
        s.decks[p] = [s.used[p][i] for i in rng.permutation(len(s.used[p]))]
        s.used[p] = []
        _event(s, "reshuffle", realm=REALMS[p], cards=len(s.decks[p]),
               order=[s.cards.cards[c].key for c in s.decks[p]])
    if s.decks[p]:
        card = s.decks[p].pop()
        s.hands[p].append(card)
        if s.cards.cards[card].timing == "immediate":
            s.must_play[p].append(card)
        _event(s, "draw", realm=REALMS[p], card=s.cards.cards[card].key, source=source)


def _draw_treasure(s: State, p: int) -> None:
    """Seed: "Hvis monstret besejres, må du trække et treasure-kort" — its VP count at once
    (Rules.treasure_vp); an immediate treasure is played at once, the others are kept."""
    if not s.treasure_deck:
        _event(s, "no_treasure", realm=REALMS[p])
        return
    cid = s.treasure_deck.pop()
    card = s.cards.cards[cid]
    s.hands[p].append(cid)
    s.stats["treasures"][p] += 1
    mode = s.rules.treasure_vp
    if card.vp and mode == "vp":
        s.vp[p] += card.vp
        s.stats["treasure_vp"][p] += card.vp
    elif card.vp and mode == "gold":
        s.gold[p] += card.vp
        s.stats["card_gold"][p] += card.vp
    if card.timing == "immediate":
        s.must_play[p].append(cid)
    _event(s, "treasure", realm=REALMS[p], card=card.key, vp=card.vp,
           gained_vp=card.vp if mode == "vp" else 0, gained_gold=card.vp if mode == "gold" else 0)


def _take_from_hand(s: State, p: int, cid: int) -> None:
    s.hands[p].remove(cid)
    if cid in s.must_play[p]:
        s.must_play[p].remove(cid)
    card = s.cards.cards[cid]
    s.card_plays[cid] += 1
    if card.kind == "treasure":
        s.kept[p].append(cid)           # seed: "skal det blive liggende foran den spiller, som brugte det"
        s.stats["treasures_played"][p] += 1
    else:
        s.used[p].append(cid)           # seed: "placeres det ved siden af din event-kort-bunke"
        s.stats["events_played"][p] += 1


def _open_window(s: State, kind: str, realm: int, region: int, role, resume) -> bool:
    """Rest at a PH_EVENT decision (a `CardWindow` frame) if `realm` can play something in this window;
    `resume(s, rng)` goes on once the window closes."""
    if not _has_cards(s) or not ef.window_plays(s, realm, kind, region, role):
        return False
    s.window = CardWindow(kind, realm, region, role, resume)
    s.phase = PH_EVENT
    s.current_player, s.decider = s.seat_of[realm], realm
    return True


def _close_window(s: State, rng) -> None:
    resume = s.window.resume
    s.window = None
    resume(s, rng)


def _window_after_play(s: State, rng) -> None:
    """After a card is resolved: stay in the window while its realm can play more, else close it."""
    w = s.window
    realm = w.realm
    if ef.window_plays(s, realm, w.kind, w.region, w.role):
        s.phase = PH_EVENT
        s.current_player, s.decider = s.seat_of[realm], realm
        return
    _close_window(s, rng)


class _Hooks:
    """The state changes effects.resolve asks for."""

    def __init__(self, rng):
        self.rng = rng

    def gain_gold(self, s, p, n):
        s.gold[p] += n
        s.stats["card_gold"][p] += n
        _event(s, "card_gold", realm=REALMS[p], gold=n, total=s.gold[p])

    def gain_vp(self, s, p, n):
        s.vp[p] += n
        s.stats["card_vp"][p] += n
        _event(s, "card_vp", realm=REALMS[p], vp=n, total=s.vp[p])

    def place(self, s, p, r, unit, count):
        t = s.tab
        u = t.idx[unit]
        ships = []
        if t.ship[u]:
            for _ in range(count):
                ships.append(_new_ship(s, p, u, r).id)
        else:
            s.units[r][p][u] += count
        s.stats["card_units"][p] += count
        _event(s, "card_units", realm=REALMS[p], region=r, unit=unit, count=count, ships=ships)

    def teleport(self, s, p, src, dst, e):
        """Seed: "Det tæller ikke som en trops bevægelse" — units keep the moves they have left."""
        t = s.tab
        left = e.get("count")
        order = sorted((u for u in range(t.U) if s.units[src][p][u] and ef.movable(s, e, u)),
                       key=lambda u: (-t.cost[u], u))
        moved = {}
        for u in order:
            c = min(left, s.units[src][p][u])
            if c <= 0:
                break
            s.units[src][p][u] -= c
            s.units[dst][p][u] += c
            for m, k in _mob_take_best(s, src, u, c):
                _mob_add(s, dst, u, k, m)
            left -= c
            moved[t.names[u]] = c
        _event(s, "card_move", realm=REALMS[p], src=src, dst=dst, units=moved)

    def draw(self, s, p):
        _draw_event(s, p, self.rng, "card")

    def battle_bonus(self, s, p, e):
        bt = s.battle
        if bt is None:
            return
        ch = bt.att if bt.att.realm == p else next((d for d in bt.defs if d.realm == p), None)
        if ch is None:
            return
        unit = e.get("unit")
        if unit == "any":
            idx = -1
        elif unit in ch.t.names:
            idx = ch.t.names.index(unit)
        else:
            return
        ch.t = gb.modified_table(ch.t, ((e.get("bonus"), idx, e.get("amount")),))


def _play_card(s: State, a: PlayCard, rng) -> None:
    """A card leaves the hand; enemies holding a reaction may answer it; then it is resolved."""
    cards = s.cards.cards
    if s.pending is not None:                       # a reaction to the pending card
        pend = s.pending
        q = pend.reactors.pop(0)
        card = cards[a.card]
        _take_from_hand(s, q, a.card)
        e = card.effects[0]
        if e.kind == "cancel":
            pend.cancelled = True
            s.stats["cards_cancelled"][q] += 1
        else:
            pend.weaken += e.get("amount")
            s.stats["cards_weakened"][q] += 1
        _event(s, "reaction", realm=REALMS[q], card=card.key, against=cards[pend.play.card].key, effect=str(e))
        _continue_pending(s, rng)
        return
    realm = s.window.realm
    _take_from_hand(s, realm, a.card)
    s.pending = PendingCard(realm, a, ef.reactors(s, realm, a.card))
    _continue_pending(s, rng)


def _continue_pending(s: State, rng) -> None:
    """Ask the next enemy with a fitting reaction card, or resolve the card and go on."""
    pend = s.pending
    realm, play, reactors = pend.realm, pend.play, pend.reactors
    while reactors and not pend.cancelled:
        q = pend.decider
        if ef.window_plays(s, q, "reaction"):
            s.phase = PH_EVENT
            s.current_player, s.decider = s.seat_of[q], q
            return
        reactors.pop(0)
    s.pending = None
    card = s.cards.cards[play.card]
    if pend.cancelled:
        _event(s, "card_cancelled", realm=REALMS[realm], card=card.key)
    else:
        done = ef.resolve(s, realm, play, pend.weaken, _Hooks(rng))
        _event(s, "card", realm=REALMS[realm], card=card.key, target=play.target, source=play.source,
               effects=done, weakened=pend.weaken)
        if play.target >= 0 and not card.has_battle_bonus:
            _refresh_terrain(s)            # units were placed or moved: reach and hostility change
    _window_after_play(s, rng)


def _event_actions(s: State) -> list:
    """PH_EVENT: the cards the deciding realm may play now, and Pass (not while an immediate card waits)."""
    if s.pending is not None:
        return ef.window_plays(s, s.pending.decider, "reaction") + [PASS]
    w = s.window
    plays = ef.window_plays(s, w.realm, w.kind, w.region, w.role)
    return plays if ef.must_play_now(s, w.realm, w.kind) else plays + [PASS]


def _is_legal(s: State, a) -> bool:
    ty = type(a)
    return (ty is PlayCard or ty is Pass) and a in _event_actions(s)


def _apply(s: State, a, rng) -> None:
    """A card played (into the window, or as an answer to the pending card), or Pass."""
    ty = type(a)
    if ty is PlayCard:
        _play_card(s, a, rng)
    elif ty is Pass:
        if s.pending is not None:
            s.pending.reactors.pop(0)
            _continue_pending(s, rng)
        else:
            _event(s, "pass", realm=REALMS[s.decider], window=s.window.kind)
            _close_window(s, rng)
    else:
        raise IllegalActionError(f"unknown action {a!r}")


#: PH_EVENT: the frame at rest is `s.pending` when a card waits for answers, else `s.window`
DECISION = Decision(_event_actions, _is_legal, _apply)
CardWindow.decision = PendingCard.decision = DECISION     # the frames answer through it
