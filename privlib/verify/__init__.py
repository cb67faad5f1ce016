"""Claim definitions, one package per chapter (``curves``, a module, for the foundations chapter,
then one package per paper and one for the cross-paper chapter), with one module per section of
the paper and the independent routes shared by several sections (brute-force enumerators,
high-precision or quadrature evaluations) in the package's ``_routes``. Each module registers its
claims with :func:`privlib.verify.claims.claim`; the registry imports every module of this
package."""
