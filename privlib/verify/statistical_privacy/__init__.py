"""Claims of chapter 004 (Breutigam & Reischuk, statistical privacy), checked against exact
enumeration of databases and subsamples in rational arithmetic, high-precision sums (mpmath) of
the exact laws, numerical integration of the noisy output densities, and the paper's printed
formulas (for the errata). Each verified or erratum claim declares mutants of the privlib
functions it checks.

One module per section of the paper; independent routes shared by several sections are in
``_routes``. Importing the package registers the claims in the paper's order."""

from privlib.verify.statistical_privacy import (  # noqa: F401 (registers the claims, in this order)
    sec4_subsampling,
    sec5_noise,
    sec4_4_utility,
    sec6_equal_utility,
    illustrations,
)
