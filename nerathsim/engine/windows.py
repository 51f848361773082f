"""Card windows (seed phase 1 and effects.WINDOWS): drawing cards, the `CardWindow` frame in which a
realm may play cards (PH_EVENT), the `PendingCard` frame enemies may answer, and `_Hooks`, the state
changes `effects.resolve` asks for.

A window is pushed on the frame stack by the part of the turn it belongs to; when it closes, the frame
beneath it resumes (`Frame.resume`): the movement phase (`movement.Movement`: the next turn-start window,
or the moves), the combat phase (`combat.BattleOrder`: the battle under way, or the next battle after a
dungeon's treasure; or the battle's first casualty choice, `fight.CasualtyChoice`: the battle's next card
window, or the choice) and the reinforcements (`reinforce.BuyUnits`: buying).
"""
from __future__ import annotations

from .. import effects as ef
from ..battle import ingame as gb
from ..game_actions import Pass, PlayCard
from ..maps import REALMS
from .common import _event, _new_ship
from .state import PASS, PH_EVENT, ChangingFrame, Frame, IllegalActionError, State, WindowView, resume_below
from .terrain import _mob_add, _mob_take_best, _refresh_terrain


class CardWindow(Frame):
    """Frame (PH_EVENT): `realm` (played by `seat`) may play cards of window `kind` (effects.WINDOWS) — for
    a combat window at `region` in `role` ("attack"/"defence"); Pass closes it (not while an immediate
    card waits), and the frame beneath resumes. Immutable (a state's clone shares it)."""

    __slots__ = ("kind", "region", "role")
    phase, slot = PH_EVENT, "window"

    def __init__(self, kind: str, realm: int, seat: int, region: int, role: str | None):
        init = object.__setattr__
        init(self, "kind", kind)
        init(self, "realm", realm)          # the realm deciding
        init(self, "seat", seat)            # its seat
        init(self, "region", region)
        init(self, "role", role)

    def __setattr__(self, name, value):
        raise AttributeError(f"CardWindow is immutable (a state's clone shares it): cannot set {name!r}")

    def __reduce__(self):
        return CardWindow, (self.kind, self.realm, self.seat, self.region, self.role)

    @property
    def view(self) -> WindowView:
        """The window as the observation shows it: (kind, realm, region, role) with names."""
        return WindowView(self.kind, self.realm, self.region, self.role)

    def legal(self, s: State) -> list:
        """The cards the realm may play now, and Pass (not while an immediate card waits)."""
        plays = ef.window_plays(s, self.realm, self.kind, self.region, self.role)
        return plays if ef.must_play_now(s, self.realm, self.kind) else plays + [PASS]

    def is_legal(self, s: State, a) -> bool:
        ty = type(a)
        return (ty is PlayCard or ty is Pass) and a in self.legal(s)

    def apply(self, s: State, a, rng) -> None:
        ty = type(a)
        if ty is PlayCard:
            _take_from_hand(s, self.realm, a.card)
            s.stack.append(PendingCard(self.realm, self.seat, a, ef.reactors(s, self.realm, a.card)))
            _continue_pending(s, rng)
        elif ty is Pass:
            _event(s, "pass", realm=REALMS[self.realm], window=self.kind)
            _close_window(s, rng)
        else:
            raise IllegalActionError(f"unknown action {a!r}")

    def __repr__(self):
        return f"CardWindow(kind={self.kind!r}, realm={self.realm}, region={self.region}, role={self.role!r})"


class PendingCard(ChangingFrame):
    """Frame (PH_EVENT, above the window the card was played in): a card `play` by `realm` that enemies
    may still answer (effects.reactors, in turn order: the first of `reactors` decides, its `decider`;
    `seat` is the seat asked, set when the state rests here). Reactions `weaken` it or mark it
    `cancelled`; then it is resolved and its window goes on."""

    __slots__ = ("play", "reactors", "weaken", "cancelled")
    phase, slot = PH_EVENT, "pending"

    def __init__(self, realm: int, seat: int, play, reactors: list, weaken: int = 0, cancelled: bool = False):
        self.realm, self.seat, self.play, self.reactors = realm, seat, play, reactors
        self.weaken, self.cancelled = weaken, cancelled

    @property
    def decider(self) -> int:
        return self.reactors[0]

    def copy(self) -> "PendingCard":
        return PendingCard(self.realm, self.seat, self.play, self.reactors[:], self.weaken, self.cancelled)

    def legal(self, s: State) -> list:
        return ef.window_plays(s, self.decider, "reaction") + [PASS]

    def is_legal(self, s: State, a) -> bool:
        ty = type(a)
        return (ty is PlayCard or ty is Pass) and a in self.legal(s)

    def apply(self, s: State, a, rng) -> None:
        ty = type(a)
        if ty is PlayCard:
            _answer(s, self, a)
        elif ty is not Pass:
            raise IllegalActionError(f"unknown action {a!r}")
        else:
            self.reactors.pop(0)
        _continue_pending(s, rng)

    def __repr__(self):
        return f"PendingCard(realm={self.realm}, play={self.play!r}, reactors={self.reactors}, weaken={self.weaken})"


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


def _open_window(s: State, kind: str, realm: int, region: int, role) -> bool:
    """Rest at a PH_EVENT decision (push a `CardWindow` frame) if `realm` can play something in this
    window; once it closes, the frame beneath it resumes."""
    if not _has_cards(s) or not ef.window_has_plays(s, realm, kind, region, role):
        return False
    seat = s.seat_of[realm]
    s.stack.append(CardWindow(kind, realm, seat, region, role))
    s.phase = PH_EVENT
    s.current_player, s.decider = seat, realm
    return True


def _close_window(s: State, rng) -> None:
    """The window on top closes: the frame beneath it resumes."""
    resume_below(s, rng)


def _window_after_play(s: State, rng) -> None:
    """After a card is resolved: stay in the window while its realm can play more, else close it."""
    w = s.window
    realm = w.realm
    if ef.window_has_plays(s, realm, w.kind, w.region, w.role):
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
            s._touched.append(r)
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
            s._touched += (src, dst)
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


def _answer(s: State, pend: PendingCard, a: PlayCard) -> None:
    """The first of the pending card's reactors answers it with reaction card `a`."""
    cards = s.cards.cards
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


def _continue_pending(s: State, rng) -> None:
    """Ask the next enemy with a fitting reaction card, or resolve the card and go on."""
    pend = s.pending
    realm, play, reactors = pend.realm, pend.play, pend.reactors
    while reactors and not pend.cancelled:
        q = pend.decider
        if ef.window_has_plays(s, q, "reaction"):
            s.phase = PH_EVENT
            pend.seat = s.current_player = s.seat_of[q]
            s.decider = q
            return
        reactors.pop(0)
    s.stack.pop()                           # the pending card (on top) is answered
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
