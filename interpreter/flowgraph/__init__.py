"""The flow graph: a ruleset's game flow (setup, turn, battle steps, chain) as a
networkx graph, its checks, its drawing as DOT, and what changed between two
editions."""
