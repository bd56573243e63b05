"""Berserk (ККИ «Берсерк»), the extended rules of 21 May 2009: cards, rules and bots.

Pure Python, no Django. Rule numbers are those of the Russian text
(``../shared/seeds/004_*``); the engineering digest (``../shared/rules/berserk.md``)
gives the recommended decisions (D-1..D-34, its §15) that fill the text's gaps, each
behind a setting (``engine.berserk.config``).
"""
