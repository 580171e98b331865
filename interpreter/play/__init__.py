"""Playing games: agents (random, first-legal, scripted, your own), a person at
the table, and simulation of many games."""
