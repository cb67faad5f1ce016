"""Claims of chapter 001 (Saeidian, Cervia, Oechtering & Skoglund, pointwise maximal leakage),
each checked by a route independent of privlib.papers.leakage's closed forms: linear programs over
randomized functions, posteriors computed by hand from joint tables, enumeration of attributes,
subsets, set partitions and databases, exact integer or 50-digit arithmetic, and direct
summation over all databases. Every verified claim declares mutants (plausible mistakes in the
privlib functions it checks) that make it fail.

One module per section of the paper; independent routes shared by several sections are in
``_routes``. Importing the package registers the claims in the paper's order."""

from privlib.verify.pointwise_maximal_leakage import (  # noqa: F401 (registers the claims, in this order)
    sec2,
    sec3_1_2_disclosure,
    sec3_3_choosing_epsilon,
    sec3_examples,
    sec4_databases,
    sec4_1_laplace_count,
)
