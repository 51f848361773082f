"""The array layout of the Nightmarium batch kernel: the named offsets and fields of the state
`st`, the tables `tb`, the actions, frames, stats, weights and per-game outputs (no code).
The rules on these arrays: `draw.py` (random numbers, dealing, drawing, discarding,
small state helpers), `abilities.py` (the abilities' chain, the pure-legion penalty),
`core.py` (a decision: legal actions, applying one, advancing to the next).

State: one int64 array `st` (one game; reused across the games of a batch) with a fixed layout,
so every function takes three arrays (`st`, the tables `tb`, the random streams `rs`): numba
passes an array as a struct of ~8 words, and a state of 13 arrays made each call cost more
than the work it did. Sizes are fixed maxima (PM seats, LM creatures, NCM cards, FMAX frames);
`nightsim.kernel.play_batch` refuses rules beyond them.
  st[G_*]                          scalars
  st[DECK + i], i < st[G_DECK_N]   the deck, top = last;  st[DISC + i]: the discard pile, top = last
  st[HAND + p * NCM + i]           hands in the engine's order (append; removing keeps the order)
  st[HAND_N + p]                   cards in hand
  st[CRC + (p * LM + k) * CR_CARDS + j]  creature k of seat p in the engine's list order, cards in build order
  st[CRLEN + p * LM + k]           its number of cards; st[CRID + p * LM + k] its identity (frames
                                   refer to creatures by it); st[CRN + p] creatures of seat p
  st[FR + f * FW + field]          the stack of pending frames, f = st[G_FR_N] - 1 on top
  st[PICKED + j]                   the cards chosen in a discard action under way
  st[STATS + p * N_STATS + s]      the per-seat stats of `GameResult.stats`, in record order
  rs uint64[1 + PM]                random streams (simcore.stream_kernel): RS_CHANCE (shuffles), RS_SEAT + seat
                                   the seat's policy, as the Python engine's streams 0 and 1 + seat
Tables `tb` (int64): tb[LEGION + c], tb[ABILITY + c], tb[FITS + c * CR_CARDS + slot], tb[PRM + P_*].
Actions: int64 rows (A_KIND, A_X, A_Y, A_Z); see the A_* kinds below.
"""
from __future__ import annotations

# --- scalars in g ---------------------------------------------------------------------------
G_TP, G_CP, G_AL, G_TL, G_WINNER, G_TERM, G_TIMEOUT, G_TURNS, G_DEC = 0, 1, 2, 3, 4, 5, 6, 7, 8
G_DECK_N, G_DISC_N, G_FR_N, G_PICK_N, G_NEXT_ID, G_RESHUFFLES = 9, 10, 11, 12, 13, 14
G_SIZE = 16
# --- rule parameters in prm -----------------------------------------------------------------
P_PLAYERS, P_HAND, P_APT, P_TO_WIN, P_LIMIT, P_MAX_TURNS = 0, 1, 2, 3, 4, 5
P_PEN_BEFORE, P_WIN_IMMEDIATE, P_SCAV_OPT, P_MIN_DISCARD, P_EXTRA_LAST, P_CARDS = 6, 7, 8, 9, 10, 11
P_FEWER_FIRST, P_FEWER_SEATS = 12, 13   # design variant: a reduced first turn for the first seats
N_PRM = 14
# --- stats columns (the order of GameResult.stats) ------------------------------------------
S_COMPLETED, S_PURE, S_DRAWN, S_DISCARDED, S_SEALS, S_ABILITY, S_LEGION = 0, 1, 2, 3, 4, 5, 11
N_STATS = 15
# --- abilities (nightsim.engine.cards) -------------------------------------------------------------
HERALD, WEEPER, MOCKER, EXECUTIONER, SCAVENGER, DEVOURER = 0, 1, 2, 3, 4, 5
# --- frames ---------------------------------------------------------------------------------
F_DISCARD, F_ACT, F_HERALD, F_MOCKER, F_EXEC, F_SCAV, F_DEVOUR, F_PENALTY = 0, 1, 2, 3, 4, 5, 6, 7
FW = 10          # fields: FR_KIND, FR_PLAYER, then per kind (below)
FR_KIND = 0      # every frame: its kind (F_*)
FR_PLAYER = 1    # every frame: the seat it acts for (F_PENALTY: the owner of the pure creature)
FMAX = 256
# F_ACT: 2 creature id, 3..5 queue (legs, torso, head; popped from the end), 6 queue length
ACT_ID, ACT_Q, ACT_QN = 2, 3, 6
# F_HERALD: 2 number of revealed cards, 3..4 the cards
HER_N, HER_R = 2, 3
# F_DEVOUR: 2 id of the activating creature
DEV_SRC = 2
# F_PENALTY: 2 legion, 3 cards still owed by the first victim, 4 of the legion (1) or any (0),
#            5 victims left, 6..9 the victims, clockwise
PEN_LEGION, PEN_LEFT, PEN_OF_LEGION, PEN_VN, PEN_V = 2, 3, 4, 5, 6
# --- layout of st and tb ------------------------------------------------------------------
PM, LM, NCM = 5, 8, 256   # most seats, creatures per seat and cards the kernel plays
CR_CARDS = 3              # cards of a complete creature, one per slot:
LEGS, TORSO, HEAD = 0, 1, 2   # the slots in build order (nightsim.engine.cards.LEGS ...)
DECK = G_SIZE
DISC = DECK + NCM
HAND = DISC + NCM
HAND_N = HAND + PM * NCM
CRC = HAND_N + PM
CRLEN = CRC + PM * LM * CR_CARDS
CRID = CRLEN + PM * LM
CRN = CRID + PM * LM
FR = CRN + PM
PICKED = FR + FMAX * FW
STATS = PICKED + NCM
ST_SIZE = STATS + PM * N_STATS
LEGION, ABILITY, FITS = 0, NCM, 2 * NCM
PRM = 5 * NCM
TB_SIZE = PRM + N_PRM
AMAX = NCM * (LM + 1) + PM * LM + 8   # more than the legal actions of any decision
# --- actions --------------------------------------------------------------------------------
A_DRAW, A_START, A_PLAY, A_DCARD, A_STOP, A_PEN, A_TAKE, A_SCAV, A_DEVOUR, A_DECLINE = range(10)
A_KIND, A_X, A_Y, A_Z = 0, 1, 2, 3   # PLAY: card, creature (-1 new); TAKE/SCAV: owner, creature
# A_Z: TAKE/SCAV: the owner's complete creatures (listed once per owner, read by the heuristic's
# score); not written for other kinds: a placement's slot is its creature's card count, which nothing
# in the kernel reads from the row (bridge reads it from the state), so a store and a load
# less per listed placement (kernel_ab: random 0.83 -> 0.81 of the base time)
# --- policies -------------------------------------------------------------------------------
POL_RANDOM, POL_HEURISTIC = 0, 1
RS_CHANCE, RS_SEAT = 0, 1   # random streams: chance's, then one per seat (rs[RS_SEAT + seat])
MAX_DRAW = 2048   # = simcore.stream.MAX_BELOW: the largest n of a draw below(n) (nightsim.kernel.play_batch checks)
# --- per-game outputs of play.play_games (out_game columns) ----------------------------
OUT_WINNER, OUT_TURNS, OUT_DECISIONS, OUT_TIMED_OUT = 0, 1, 2, 3
N_OUT = 4
# Weights fields, in nightsim.policies.heuristic.Weights order
W_COMPLETE, W_EXTEND, W_START, W_SAME, W_MIXED, W_PURE, W_ABIL = 0, 1, 2, 3, 4, 5, 6
W_DRAW, W_DISCARD, W_LEADER, W_SEAL = 12, 13, 14, 15
W_WIN, W_FOLLOW, W_PAIR, W_CROWD, W_MOCKER_CTX, W_EXEC_CTX, W_SCAV_CTX, W_DEVOUR_CTX = range(16, 24)
W_DRAW_HAND, W_DISCARD_DEAD, W_DISCARD_EXTRA, W_DISCARD_VALUE, W_FIT_VALUE, W_THREAT = range(24, 30)
W_EXTRAS = 30   # not a Weights field: 1.0 when a context feature is on (Weights.extras()), else 0.0
N_WEIGHTS = 31
