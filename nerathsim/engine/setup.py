"""Setup (seed "Opstilling"): a blank state, the starting troops and fleets, the shuffled decks and
first hands, the guardians on the dungeons, and `deal`, the position a referee starts from."""
from __future__ import annotations

from simcore.frames import drive

from ..maps import REALMS
from ..rules import TEAMS, Rules
from .common import _event, _named, _new_ship, ships_view
from .dungeons import _place_guardians
from .state import M_MOVE, PH_MOVE, REALM_STATS, State, as_generator, tables
from .terrain import fly_reach_cache
from .turn import _start_turn
from .windows import _draw_event


def new_game(rules: Rules, seed, record: bool = False) -> State:
    """Seed, setup: place the starting troops, shuffle each realm's event deck and draw two cards,
    then Karkoth (the first realm of `rules.turn_order`) begins with phase 1.

    `seed` is an int, a SeedSequence or a Generator (chance: deck shuffles and dice).
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nerathsim Rules, got {type(rules).__name__}")
    rng = as_generator(seed)
    s = _blank_state(rules, record)
    b = s.board
    t = s.tab
    for r in range(b.n):
        if b.castle[r]:
            s.units[r][b.owner[r]][t.castle_u] += 1
        fleets: dict[int, list] = {}
        for p, name, c in b.units[r]:
            u = t.idx[name]
            if t.ship[u]:
                for _ in range(c):
                    fleets.setdefault(p, []).append(_new_ship(s, p, u, r))
            elif b.is_sea[r] and t.land[u]:
                continue
            else:
                s.units[r][p][u] += c
        for p, name, c in b.units[r]:
            u = t.idx[name]
            if b.is_sea[r] and t.land[u]:
                for _ in range(c):
                    ship = min((sh for sh in fleets[p] if len(sh.cargo) < t.capacity[sh.utype]),
                               key=lambda sh: (-len(sh.cargo), sh.id))
                    ship.cargo.append(u)
    for p in range(4):
        s.gold[p] = b.realm_gold[p]
        if rules.events:
            deck = list(s.cards.decks[p])
            s.decks[p] = [deck[i] for i in rng.permutation(len(deck))]
            for _ in range(rules.starting_hand):
                _draw_event(s, p, rng, "start")
    if rules.dungeons:
        cs = s.cards
        s.treasure_deck = [cs.treasures[i] for i in rng.permutation(len(cs.treasures))]
        s.supply = [cs.supply[i] for i in rng.permutation(len(cs.supply))]
        for r in range(b.n):
            if b.is_dungeon[r]:
                _place_guardians(s, r, rules.starting_guardians)
    if s.log is not None:
        _event(s, "setup", realm=-1, gold=list(s.gold), hands=[len(h) for h in s.hands],
               guardians={b.names[r]: len(g) for r, g in s.guardians.items()}, **deal(s))
    _start_turn(s, rng)
    drive(s, rng)
    return s


def deal(s: State) -> dict:
    """The whole state a referee starts from (the `setup` event's extra fields): region owners,
    units per region and realm, warships with their cargo, VP, each realm's hand and deck (the
    card drawn next is the last), the treasure deck, the guardian supply and the tokens on each
    dungeon (face down). Cards and guardians by key, regions by index."""
    cs = s.cards
    ck = (lambda ids: [cs.cards[i].key for i in ids]) if cs is not None else (lambda ids: [])
    gk = (lambda ids: [cs.guardians[i].key for i in ids]) if cs is not None else (lambda ids: [])
    return {"owner": list(s.owner), "vp": list(s.vp),
            "units": {r: {REALMS[q]: _named(s, s.units[r][q]) for q in range(4) if any(s.units[r][q])}
                      for r in range(s.board.n) if any(any(row) for row in s.units[r])},
            "ships": ships_view(s),
            "hand_cards": {REALMS[q]: ck(s.hands[q]) for q in range(4)},
            "decks": {REALMS[q]: ck(s.decks[q]) for q in range(4)},
            "treasure_deck": ck(s.treasure_deck), "supply": gk(s.supply),
            "guardian_tokens": {r: gk(g) for r, g in s.guardians.items()}}


def _blank_state(rules: Rules, record: bool) -> State:
    s = State.__new__(State)
    b = rules.board
    s.rules, s.board, s.tab = rules, b, tables(rules)
    s.n = rules.players
    seating = rules.seating
    seat_of = [0] * 4
    for seat, realms in enumerate(seating):
        for p in realms:
            seat_of[p] = seat
    ally = [-1] * 4
    if rules.alliance:
        for a, c in TEAMS:
            ia, ic = REALMS.index(a), REALMS.index(c)
            ally[ia], ally[ic] = ic, ia
    # fixed for the game (tuples: a clone and a public copy share them)
    s.seat_of, s.ally = tuple(seat_of), tuple(ally)
    s.friends = tuple(frozenset({p} | ({ally[p]} if ally[p] >= 0 else set())) for p in range(4))
    s.owner = list(b.owner)
    s.units = [[[0] * s.tab.U for _ in range(4)] for _ in range(b.n)]
    s._touched = []                  # regions whose counts changed, in order (State: `_touched`)
    s.ships, s.next_ship = [], 0
    s.gold, s.vp = [0] * 4, [0] * 4
    s.hands, s.decks, s.used = [[] for _ in range(4)], [[] for _ in range(4)], [[] for _ in range(4)]
    s.round, s.turn_pos, s.realm = 0, 0, rules.order[0]
    s.phase, s.current_player, s.decider = PH_MOVE, 0, 0
    s.mob, s.mode, s.reach, s.hostile, s.fr_land = {}, M_MOVE, {}, [], []
    s.reach_land, s.reach_store, s._reach_fly = {}, {}, fly_reach_cache(rules)
    s.turn_castles, s.n_castles_start, s.capital_held_start = set(), 0, True
    s.owner_start = list(b.owner)
    s.placed, s.spots, s.stage, s.sites, s.battle = {}, None, "", [], None
    s.explored = set()
    s.conquered = [set() for _ in range(4)]
    s.stats = {k: [0] * 4 for k in REALM_STATS}
    s.spent = [[0] * s.tab.U for _ in range(4)]
    s.memo = [dict() for _ in range(s.n)]
    s.log = [] if record else None
    s.cards = rules.cards if (rules.events or rules.dungeons) else None
    s.must_play, s.kept = [[] for _ in range(4)], [[] for _ in range(4)]
    s.treasure_deck, s.supply, s.guardians, s.dungeon_given, s.revealed = [], [], {}, {}, set()
    s.stack, s.win_done = [], set()
    s.card_plays = [0] * (len(s.cards.cards) if s.cards is not None else 0)
    s.is_terminal, s.winner, s.timed_out = False, None, False
    s.turns, s.decisions = 0, 0
    s._legal = None
    return s
