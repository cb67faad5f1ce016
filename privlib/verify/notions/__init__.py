"""Claims of the cross-paper chapter "One mechanism, five notions": the relations between the
notions of the five papers, each checked on :mod:`privlib.core.notions` against an independent route
(enumeration of every database and every set of outputs, the other chapters' own
implementations, scipy's beta-binomial law, closed forms of the mechanisms), on small databases
and, through the count reduction, on large ones.

One module per section of the chapter; independent routes shared by several sections are in
``_routes``. Importing the package registers the claims in the chapter's order."""

from privlib.verify.notions import (  # noqa: F401 (registers the claims, in this order)
    count_reduction,
    notions_coincide,
    product_models,
    levels,
    correlation,
)
