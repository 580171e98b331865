"""The shipped starter decks and their cards, one folder per edition: package data."""
