"""Playing games: agents (random, first-legal, scripted, your own), a person at
the table, and simulation of many games: where they are played (`simulate`), each
game's record (`records`), what the records say (`report`) and its charts
(`charts`)."""
