"""kotc interpreter: from a loaded `Ruleset` to a game's flow, and the `kotc` command.

The command line lives in `interpreter.cli`; it is the only module that prints.
"""
