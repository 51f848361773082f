"""The Midnighters engine: cards, state, legal actions and the rules of a turn (engine.py the entry points)."""
