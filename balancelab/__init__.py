"""The `balancelab` command line: a parser per command and the code that runs each command.

The command line sits on top of the library: it imports `analyses`, the games and (for `report` and
`replay` only, when they run) `reports`; none of them imports it. `balancelab.cli:main` is the entry
point, kept light so that `balancelab --help` and `balancelab COMMAND --help` load no heavy module.
"""
