"""«High card»: a toy game that lives only here, to prove the platform game-neutral.

It is registered by a test (``tests/toygame/test_platform.py``) and run through the
whole platform with no change outside this folder: casual games in the browser flow, a
draft pod of eight bots, a Swiss event with decklists, online games played by bots to a
finished event. It has everything a real system gives the registry: an engine, bots, a
decklist service and a limited kit with boosters.
"""
