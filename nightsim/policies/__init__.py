"""The Nightmarium policies: heuristic.py the registry, the random and heuristic policies and their weights."""
