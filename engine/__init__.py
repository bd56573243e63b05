"""Pure Python rules engines. Nothing in this package imports Django."""
