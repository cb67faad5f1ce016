"""Claims of chapter 003 (Ghosh & Kleinberg, inferential privacy for correlated data), checked
against linear programs over *all* epsilon-DP mechanisms, brute-force enumeration of priors,
dense-grid evaluation of the Laplace noisy sum, Gibbs measures with an external field, and
fixed points solved in 40-digit arithmetic (mpmath).

One module per section of the paper; independent routes shared by several sections are in
``_routes``. Importing the package registers the claims in the paper's order."""

from privlib.verify.networked_inferential_privacy import (  # noqa: F401 (registers the claims, in this order)
    sec2,
    sec3_affiliated,
    appendix_a1_parity,
    appendix_a2_spin_systems,
    sec4_bounded_influence,
    exchangeable_priors,
    thm_4_2_tightness_and_a_2,
)
