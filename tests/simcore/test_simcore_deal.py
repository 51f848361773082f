"""simcore.deal: the hands a game's setup logs, on play_game's chance stream (a stand-in engine)."""
from simcore.deal import dealt_hands
from simcore.stream import streams


def test_the_dealt_hands_are_the_deal_event_of_the_engine_setup_on_the_chance_stream():
    seen = {}

    class Rules:
        players = 3

    def new_game(rules, chance, record):
        seen["draw"], seen["record"] = chance.below(1000), record
        log = [{"event": "setup"}, {"event": "deal", "hands": [[3, 1], [2], []]}, {"event": "deal", "hands": [[9]]}]
        return type("State", (), {"log": log})()

    assert dealt_hands(new_game, Rules(), 42) == ((3, 1), (2,), ())          # the first deal event
    assert seen == {"draw": streams(42, 4)[0].below(1000), "record": True}    # play_game's stream 0
