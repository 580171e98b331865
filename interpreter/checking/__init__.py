"""Checking the rules in play: invariants after every step, fuzzing random play,
rulings (scenario files) and what they cover."""
