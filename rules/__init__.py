"""kotc's grammars (textX .tx files): package data, no code."""
