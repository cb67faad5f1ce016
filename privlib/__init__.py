"""privlib: computations behind the privbook companion to five papers on inferential privacy.

Shared building blocks (`mechanisms`, `profiles`, `claims`, `plotting`) sit under the
paper-specific modules; notebooks import them and never re-implement them.
"""

__version__ = "0.1.0"
