"""Rules compiled to programs: effect blocks, expressions, the listing of legal
actions and card abilities, from a ruleset's plain data."""
