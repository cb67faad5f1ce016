"""One module per paper: its closed forms, bounds and examples, calling :mod:`privlib.core` for
every generic notion."""
