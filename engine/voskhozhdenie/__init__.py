"""The rules engine of «Восхождение» (Voskhozhdenie); see ``engine.voskhozhdenie.game``."""
