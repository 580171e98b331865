"""The shipped editions (.kotc rule files): package data, no code."""
