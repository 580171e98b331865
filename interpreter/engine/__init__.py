"""The game engine: `Engine` (a ruleset and card pool, compiled once), `Game` (one
game's state and its API), the referee that runs the flow, what a seat sees, the
account of events, and decks."""
