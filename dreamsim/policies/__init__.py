"""The Midnighters policies: policies.py the registry (random, heuristic, ISMCTS search) and its parts."""
