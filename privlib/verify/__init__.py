"""Claim definitions, one module per chapter (``curves`` for the foundations chapter, then one
per paper). Each module registers its claims with :func:`privlib.verify.claims.claim`; the registry
imports every module of this package. The independent routes (brute-force enumerators,
high-precision or quadrature evaluations) live next to the claims that use them."""
