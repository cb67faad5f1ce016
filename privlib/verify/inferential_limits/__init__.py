"""Claims of chapter 000 (Bailie & Gong, general inferential limits), checked by enumerating
events, datasets and data models, by linear programs over randomized tests, by quadrature, by
Monte Carlo with a stated confidence and by exact rational arithmetic. Every verified claim
declares mutants: plausible mistakes in the privlib functions it checks, which must make it fail.

One module per section of the paper; independent routes shared by several sections are in
``_routes``. Importing the package registers the claims in the paper's order."""

from privlib.verify.inferential_limits import (  # noqa: F401 (registers the claims, in this order)
    sec2_3_lipschitz,
    sec4_data_probability,
    sec5_frequentist,
    sec6_bayesian,
    sec7_8_pufferfish,
    sec9_tightness,
    appendix_c_e_metrics,
    sec8_worked_example,
)
