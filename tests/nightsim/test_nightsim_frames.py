"""The engine's stack follows the shared frame protocol (`simcore.frames`): at every decision the top
frame is a `simcore.frames.Frame` that names the seat asked and the decision the state and the
observations show, and the bottom frame is the turn player's turn action."""
import numpy as np

import nightsim
from nightsim.engine.engine import apply_legal
from nightsim.engine.turn import TurnActions
from simcore.frames import Frame

#: every decision the engine asks for
DECISIONS = {"turn action", "discard choice", "Herald placement", "Mocker play", "Executioner target",
             "Scavenger target", "Devourer target", "pure-legion penalty discard", "seal re-activation"}

#: rules whose random games, together, reach every decision
RULES = (nightsim.Rules(players=2), nightsim.Rules(seals=True),
         nightsim.Rules(players=3, seals=True, scavenger_optional=True, penalty_timing="after_abilities"))


def test_every_resting_state_rests_at_a_protocol_frame_of_the_seat_asked():
    seen = set()
    for rules in RULES:
        for seed in range(12):
            rng = np.random.default_rng(seed)
            s = nightsim.new_game(rules, seed)
            while not s.is_terminal:
                top = s.stack[-1]
                assert all(isinstance(f, Frame) for f in s.stack)
                assert type(s.stack[0]) is TurnActions and s.stack[0].seat == s.turn_player
                assert TurnActions not in {type(f) for f in s.stack[1:]}
                assert top.seat == s.current_player, (rules, seed, s.decisions, top)
                assert top.decision == s.decision == nightsim.observe(s, s.current_player).decision
                legal = nightsim.legal_actions(s)
                assert legal and top.legal(s) == legal
                seen.add(top.decision)
                apply_legal(s, legal[int(rng.integers(len(legal)))], rng)
    assert seen == DECISIONS   # every frame kind that rests was checked
