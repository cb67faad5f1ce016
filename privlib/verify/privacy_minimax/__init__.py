"""Claims of chapter 002 (Barber & Duchi, privacy and statistical risk), checked by enumeration of
every event and every test, exact rational arithmetic, quadrature, explicit estimators whose risk
is known exactly, and Monte Carlo with stated family-wise confidence. Each verified claim declares
mutants (plausible mistakes in the privlib functions it checks) that make it fail.

One module per section of the paper; independent routes shared by several sections are in
``_routes``. Importing the package registers the claims in the paper's order."""

from privlib.verify.privacy_minimax import (  # noqa: F401 (registers the claims, in this order)
    sec2_definitions,
    sec3_lower_bounds,
    sec4_upper_bounds,
)
