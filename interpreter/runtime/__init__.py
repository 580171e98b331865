"""What a game is made of at run time: values (seats, dice, ability references),
card and player state, dice, actions, decisions and events. Imports nothing of
kotc's but the rules language's plain data."""
