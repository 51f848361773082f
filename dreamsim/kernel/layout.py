"""Named fields of the Midnighters batch kernel: where every value of a game
lives in the kernel's one int64 array `M`, the frame kinds and fields of its stack, and the
action codes of its legal-action buffer.

The kernel (`core`, `frames`, `play`) mirrors `engine/engine.py` frame by frame;
the names below are the engine's (`F_TURN`, `P_WALK`, `S_ANY` ...) so a reader can put the two
side by side. Hands, the discard pile and prepared traps are multisets (counts per card kind):
cards of a kind are interchangeable, and the built-in random policy chooses uniformly among the
*distinct* legal actions, so the order of a hand never matters. The deck keeps its order.

Module-level integers are compile-time constants for numba.
"""
from __future__ import annotations

from ..engine import actions as A
from ..engine import cards as C
from ..engine import state as S
from ..engine.engine import STAT_NAMES

# --- the engine's frame kinds, play types and surplus modes (same numbers as engine/engine.py) -------
(F_TURN, F_VOP, F_PARTNER, F_REACT, F_STARTRAP, F_FOREST, F_SQUARE, F_MOTEL_T, F_MOTEL_TAKE, F_SURPLUS,
 F_REST, F_REST_N, F_TH, F_TRAPS, F_WTRAP_T, F_WTRAP_TO, F_VTRAP, F_DTRAP, F_NIGHT, F_PLACE,
 F_NEXT, F_RESOLVE, F_PLAYDONE, F_ACT, F_REFILL) = range(25)
P_WALK, P_VERT, P_STAR, P_TRAP, P_DEXTRA, P_DREDUCE, P_STEAL = range(7)
S_ANY, S_GIVE, S_PLAIN = range(3)

MAX_SEATS = 6
MAX_CELLS = 64          # layouts up to 64 cells (Rules.layout); kernel.supports refuses larger ones
N_KINDS = 17
N_LOC = 12
N_PARTNERS = 5          # trap partner kinds 0..4 (Dreamwalk, Vertigo, Midnight Star, Dutch Angle, Dreamcatcher)
DECK_CAP = 102
STACK_CAP = 48
FRAME_W = 14
CHAIN_CAP = 24          # a reaction chain: each answer costs a Dutch Angle or a Dreamcatcher (18 in the game)
ACTS_CAP = 64           # legal actions of one decision (a turn offers at most ~40)
N_STATS = len(STAT_NAMES)

# --- frame fields: a frame is FRAME_W ints at O_STACK + depth * FRAME_W -------------------------
# Where the engine's frame has the field (dreamsim.engine.engine.frame_as_list: the kind code, then the
# frame's __slots__ in order) the kernel keeps it at the same index, under the slot's name.
FR_KIND = 0       # every frame: its kind (F_*)
FR_DEC = 1        # decision frames: who decides (the engine's `who`)
FR_ASK_N = 7      # reaction / trap / Star trap / Town Hall trap windows: how many seats are asked
FR_ASK = 8        # ... and the seats, at FR_ASK .. FR_ASK + MAX_SEATS - 1
FR_SEAT = 2       # F_VOP, F_PARTNER, F_FOREST, F_SQUARE, F_MOTEL_T, F_MOTEL_TAKE, F_SURPLUS, F_REST, F_REST_N,
                  # F_TH: the seat the decision is about (who played the card, who benefits from a location)
VOP_LOC = 3       # F_VOP: the location the Vertigo card acts on
PARTNER_LOC = 3   # F_PARTNER: the trap's location (of the Suspense card played)
SQUARE_TAKEN = 3  # F_SQUARE: cards taken from the discard pile so far
MTAKE_TARGET = 3  # F_MOTEL_TAKE: the seat whose hand the cards come from
MTAKE_TAKEN = 4   # F_MOTEL_TAKE: cards taken so far
SUR_MODE = 3      # F_SURPLUS: S_ANY / S_GIVE / S_PLAIN
SUR_OTHER = 4     # F_SURPLUS: the seat a S_GIVE surplus goes to (-1: none)
RESTN_TARGET = 3  # F_REST_N: the seat that discards blindly
REACT_POS = 4     # F_REACT: index into the asked seats of the seat asked now
STRAP_LOC = 2     # F_STARTRAP: the location being activated
STRAP_ACTOR = 3   # F_STARTRAP: who activates it
STRAP_POS = 5     # F_STARTRAP: index into the asked seats (trap owners)
TRAPS_LISTED = 2  # F_TRAPS: 1 once the trap owners are listed in FR_ASK (when the window first asks)
TRAPS_POS = 3     # F_TRAPS: index into the asked seats
TRAPS_TURN_START = 4  # F_TRAPS: 1 for the window at the start of a turn (Dreamcatcher traps may spring)
WTRAP_LOC = 2     # F_WTRAP_T: the Dreamwalk trap's location
WTO_TARGET = 2    # F_WTRAP_TO: the seat being moved
WTO_LOC = 3       # F_WTRAP_TO: the trap's location
VTRAP_LOC = 2     # F_VTRAP: the Vertigo trap's location
VTRAP_STAGE = 3   # F_VTRAP: 0 the move, then 1 the rotation
DTRAP_LOC = 2     # F_DTRAP: the Dutch Angle trap's location
NIGHT_DRAWER = 2  # F_NIGHT: who drew the nightmare
NIGHT_KIND = 3    # F_NIGHT: the nightmare's card kind
NIGHT_POS = 5     # F_NIGHT: index into the asked seats (Town Hall Star trap owners)
NIGHT_AFFECTED = 6  # F_NIGHT: the seats it affects (bit set)
PLACE_VICTIMS = 2   # F_PLACE: the seats still to be placed (bit set)
# F_RESOLVE (the engine's Play): the card play waiting for its reaction window to close
RES_P = 1         # who played
RES_TYPE = 2      # P_*
RES_A1 = 3        # its first argument (direction, location, target seat ...)
RES_A2 = 4        # its second argument (a Vertigo op, a trap's partner kind)
RES_NC = 5        # how many cards were played (2 for a trap: Suspense card and partner)
RES_STATUS = 6    # RESOLVES / CANCELLED / INTERCEPTED
RES_C0 = 7        # the cards played, at RES_C0 .. RES_C0 + RES_NC - 1 (the engine's `cards`)
RESOLVES, CANCELLED, INTERCEPTED = 0, 1, 2   # RES_STATUS values (state.RESOLVES ...)
PLAYDONE_P = 1    # F_PLAYDONE: whose play ended
REFILL_P = 1      # F_REFILL: whose hand refills
ACT_LOC = 1       # F_ACT: the location activated
ACT_B = 2         # F_ACT: the beneficiary
ACT_REMOTE = 3    # F_ACT: 1 for a remote activation (a Star trap)
assert max(FR_ASK + MAX_SEATS, RES_C0 + 2) <= FRAME_W

# --- the reaction chain at O_CHAIN: one (seat, kind) entry per answer --------------------------
CHAIN_W = 2
CH_SEAT, CH_KIND = 0, 1

# --- the legal-action buffer at O_ACTS: one (code, a, b) entry per action ----------------------
ACTS_W = 3
AC_CODE, AC_A, AC_B = 0, 1, 2

# --- scratch at O_TMP (TMP_SIZE ints) ----------------------------------------------------------
TMP_SIZE = 160
TMP_TAKERS = 32   # react_finish: the seats that intercepted a card (the chain's takes are at O_TMP)
TMP_PX = 16       # a Purple Nightmare exchange: per seat of the group (their seats at O_TMP) a record of
PX_W = N_KINDS + 2  # PX_W ints: the hand's counts per kind, then
PX_HSIZE = N_KINDS  # its size and
PX_TRAPN = N_KINDS + 1  # its number of prepared traps
assert TMP_PX >= MAX_SEATS and TMP_PX + MAX_SEATS * PX_W <= TMP_SIZE and CHAIN_CAP + 1 <= TMP_TAKERS

# --- board, cards and limits of the rules the kernel plays -------------------------------------
N_DIRS = 4        # directions up, right, down, left (cards.UP .. LEFT): the rows of O_NB
N_ROTS = 4        # orientations of a location (quarter turns)
N_CORRIDORS = len(C.CORRIDORS)  # locations 0 .. N_CORRIDORS - 1 are the Corridors
SU_TO_LOC = C.FOREST - C.SU_FOREST  # a Suspense card's kind + SU_TO_LOC = its location (cards.SUSPENSE_OF)
VOP_ROTATE = 4    # Vertigo ops (actions.VertigoOp): op < VOP_ROTATE moves one cell in direction op;
VOP_TURN0 = 3     # VOP_ROTATE <= op < NO_MOVE rotates op - VOP_TURN0 quarter turns clockwise;
NO_MOVE = 7       # the Vertigo trap's "no move" (actions.NO_MOVE), when its location cannot move
TAKE_MAX = 3      # Square / Motel: cards one activation takes at most
REST_MAX = 3      # Restaurant: cards a blind discard takes at most
NO_ROUTE = 99     # the Bridge distance of a location with no Dreamwalk route to the Bridge
assert (N_DIRS, NO_MOVE) == (len(C.DIRECTION_NAMES), A.NO_MOVE) and A.OP_NAMES[VOP_ROTATE].startswith("rotate 90")
assert all(C.SUSPENSE_OF[loc] + SU_TO_LOC == loc for loc in C.SUSPENSE_OF)
assert (RESOLVES, CANCELLED, INTERCEPTED) == (S.RESOLVES, S.CANCELLED, S.INTERCEPTED)

# --- stat rows (engine.STAT_NAMES order) ----------------------------------------------------
(ST_DREAMWALK, ST_VERTIGO, ST_STAR, ST_DUTCH, ST_CATCHER, ST_TRAPS_SET, ST_TRAPS_SPRUNG, ST_NIGHTMARES,
 ST_SKIPPED, ST_CANCELS, ST_INTERCEPTS, ST_ACTIVATIONS, ST_ACTIONS, ST_DISCARDS) = range(14)
assert STAT_NAMES == ("played_dreamwalk", "played_vertigo", "played_star", "played_dutch", "played_catcher",
                      "traps_set", "traps_sprung", "nightmares_drawn", "turns_skipped", "cancels", "intercepts",
                      "activations", "actions", "discards")

# --- scalars of M: the game state, then the rule parameters the kernel takes as numbers ------
(G_N, G_TP, G_CTRL, G_CUR, G_AL, G_HORROR, G_RED, G_BLUE, G_MULTI, G_SLOW, G_WINNER, G_WOKE, G_HWON, G_TERM,
 G_TIMEOUT, G_TURNS, G_DECS, G_DECK_N, G_DISC_N, G_NTRAPS, G_SP, G_CHAIN_N, G_ROWS, G_COLS, G_NCELLS,
 G_RNG_CALLS) = range(26)
(R_MAX_TURNS, R_HAND, R_APT, R_MULTI_A, R_SLOW_A, R_TRAP_A, R_DUTCH_A, R_STEAL_A, R_CANCEL_DEBT, R_DEBT_CARRY,
 R_DISCARD_ACTION, R_START_CELL, R_EXTRA_FIRST, R_REDUCED_LAST, R_STAGER, R_BLACK_TH, R_HORROR_LIMIT,
 R_PARALYSIS_NOW, R_NIGHTMARES, R_START_LOC) = range(26, 46)
#: R_START_LOC .. R_START_LOC + MAX_SEATS - 1: each seat's starting location (Rules.start on the layout)
G_ERROR = R_START_LOC + MAX_SEATS  # set when the frame stack overflowed (the game stops; play_batch.py raises)
G_RESERVE = G_ERROR + 1  # 1 while the six nightmares wait outside the deck (Rules.nightmares != "after_deal")
N_SCALARS = G_RESERVE + 1
#: codes of the categorical rule parameters (the Rules values in the order of rules.CHOICES)
STAGER_LAST, STAGER_FIRST, STAGER_CHANCE = range(3)                  # R_STAGER: Rules.stager
HL_NIGHTMARES_FREE, HL_BLACK_FREE, HL_ALL_CARDS = range(3)           # R_HORROR_LIMIT: Rules.horror_hand_limit
NM_AFTER_DEAL, NM_AFTER_FIRST_ROUND, NM_NONE = range(3)              # R_NIGHTMARES: Rules.nightmares

# --- arrays of M (offsets; sizes in the comments) -------------------------------------------
O_GRID = N_SCALARS                          # location per cell (-1: a gap)
O_CELL_OF = O_GRID + MAX_CELLS              # cell per location
O_ROT = O_CELL_OF + N_LOC                   # rotation per location
O_NB = O_ROT + N_LOC                        # [cell][direction] -> neighbour cell or -1
O_WHERE = O_NB + MAX_CELLS * N_DIRS         # location per seat
O_DECK = O_WHERE + MAX_SEATS                # the deck, bottom first (the next card drawn last)
O_DISC = O_DECK + DECK_CAP                  # discard pile: count per kind
O_HAND = O_DISC + N_KINDS                   # [seat][kind] -> count
O_HSIZE = O_HAND + MAX_SEATS * N_KINDS      # cards per hand
O_TRAPS = O_HSIZE + MAX_SEATS               # [seat][location][partner kind] -> prepared traps
O_TRAPN = O_TRAPS + MAX_SEATS * N_LOC * N_PARTNERS  # prepared traps per seat
O_DEBT = O_TRAPN + MAX_SEATS                # actions owed to later turns
O_OWED = O_DEBT + MAX_SEATS                 # cards played and not yet replaced
O_STATS = O_OWED + MAX_SEATS                # [stat][seat]
O_STACK = O_STATS + N_STATS * MAX_SEATS     # [depth][field]
O_CHAIN = O_STACK + STACK_CAP * FRAME_W     # the reaction chain: (seat, kind) per answer
O_ACTS = O_CHAIN + CHAIN_CAP * CHAIN_W      # the legal actions of the current decision: (code, a, b)
O_INIT_GRID = O_ACTS + ACTS_CAP * ACTS_W    # the layout's grid and rotations (Rules.layout)
O_INIT_ROT = O_INIT_GRID + MAX_CELLS
O_TMP = O_INIT_ROT + N_LOC                  # scratch (reshuffles, mixes)
O_TMP2 = O_TMP + TMP_SIZE                   # scratch (a Purple exchange of traps)
M_SIZE = O_TMP2 + MAX_SEATS * N_LOC * N_PARTNERS

# --- action codes of the legal buffer: (code, a, b) ------------------------------------------
(A_WALK, A_VERT, A_STAR, A_SETTRAP, A_DEXTRA, A_DREDUCE, A_DISCARD, A_STEAL, A_PASS, A_VOP, A_PARTNER, A_CANCEL,
 A_INTERCEPT, A_ALLOW, A_SPRING, A_HOLD, A_TARGET, A_TO, A_TAKE, A_STOP, A_GIVE, A_MIX, A_COUNT) = range(23)
