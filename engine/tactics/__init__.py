"""Ascension Tactics (key ``tactics``; «Ascension Tactics», GaGa Games' Russian edition of
Stone Blade Entertainment's game): a deck-building game whose champions fight over a hex
battlefield.

Pure Python, no Django. Rule ids T-n, decisions D-n and checklist statements C-nn are
those of the engineering digest ``/work/shared/rules/tactics.md``, which digests the
Russian rulebook ``/work/shared/seeds/003_ab7936152a07e3c8.txt`` (the rulebook wins where
they differ). The battlefield: ``hexes`` (geometry) and ``terrain`` (terrain, movement,
line of sight).
"""
