"""Ascension (the deck-building game): cards, rules engine and bots. Pure Python, no Django."""
