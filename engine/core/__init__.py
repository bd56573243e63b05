"""Game-neutral core of the engine: the registry of game systems and their formats."""
