"""The fork-per-call fuzz layer in the test suite: every public function of privlib.core and
privlib.papers at the extremes (tests/fuzzing.py), one forked child per call with a 2 GB address
space and a CPU-time limit, grouped by module so that ``pytest -n 2`` spreads them. A valid call
must give a finite value or a clean refusal: no silent NaN/inf, no hang, no unbounded allocation.
The calls are fixed (no randomness), so every run sees the same ones."""

from __future__ import annotations

import pytest

import fuzzing

#: calls still open (silent, hang or memory), by label; each is a known defect to fix, not a pass
KNOWN_OPEN: set[str] = {
    'intervals.laplace_sum_bounds(t=[0.5, 1.5], n=3, epsilon=709.8)',
    'intervals.laplace_sum_bounds(t=[0.5, 1.5], n=3, epsilon=800.0)',
    'intervals.laplace_sum_bounds(t=[0.5, 1.5], n=3, epsilon=1e+300)',
    'intervals.laplace_sum_bounds(t=[0.5, 1.5], n=3, epsilon=1.7e+308)',
    'intervals.laplace_sum_marginal(t=[0.5, 1.5], weights=[0.25, 0.5, 0.25], epsilon=1.7e+308)',
    'pufferfish.laplace_sum_pufferfish_loss(n=4, epsilon=1.7e+308, rho=0.5)',
    'leakage.relative_frequencies_min_entropy(n=1000000000, group=0.3, rate_in_group=0.5, rate_outside=0.2, cells=10)',
    'minimax.dp_delta(channel=minimax.geometric_count_channel(3, 1.0), eps=0.5*linspace(0.5,1,10^5))',
    'minimax.lower_bound_dp_mean(n=1000000000000000000000000000000, d=1, alpha=1.0, delta=0.0, r=1.0, k=4.0)',
    "minimax.lower_bound(privacy='dp', n=1000000000000000000000000000000, d=1, alpha=1.0)",
    "minimax.noise_coefficient(mechanism='laplace', n=100, d=1, alpha=1e-300)",
    'minimax.optimal_truncation(r=1.0, k=4.0, c_W=0.0)',
    "minimax.private_mean(X=[[0.5, 2.0], [3.0, 0.1]], mechanism='laplace', alpha=1e-300, T=1.0, rng=0)",
    'minimax.risk_bound_31(r=1.0, k=4.0, n=100, T=1e-300, c_W=0.1)',
    "minimax.worst_two_point_risk(r=1.0, k=4.0, n=100, d=1, alpha=1.0, mechanism='laplace', n_grid=1000000000)",
    "minimax.simulate_two_point_risk(p=0.1, r=1.0, k=4.0, n=20, d=1, alpha=1e-300, mechanism='laplace', T=1.0, reps=50, rng=0)",
    'minimax.histogram_risk_exact(cdf=lambda x: np.clip(x, 0.0, 1.0) ** 2, int_g2=4.0, n=100, m=1000000000, alpha=1.0)',
    'minimax.histogram_risk_exact(cdf=lambda x: np.clip(x, 0.0, 1.0) ** 2, int_g2=4.0, n=100, m=4, alpha=1e-300)',
    'minimax.histogram_optimal_bins(cdf=lambda x: np.clip(x, 0.0, 1.0) ** 2, int_g2=4.0, n=100.0, alpha=1e-300, m_max=200)',
    'affiliation.exchangeable_inferential_privacy(log_weights=[-1.0, -2.0, -1.5], epsilon=1e+300)',
    'affiliation.parity_biased_privacy(k=2, m=2, epsilon=709.8)',
    'affiliation.parity_biased_privacy(k=2, m=2, epsilon=800.0)',
    'affiliation.parity_biased_privacy(k=2, m=2, epsilon=1e+300)',
    'affiliation.parity_biased_privacy(k=2, m=2, epsilon=1.7e+308)',
    'affiliation.tree_enforceability_bound(degree=3, beta=0.5, epsilon=1.7e+308)',
    'affiliation.ising_influence(beta=1.7e+308, degree=3)',
    'affiliation.theorem_4_2_bound(gamma=[[0.0, 0.2], [0.2, 0.0]], epsilon=1.7e+308)',
    'affiliation.row_sum_bound(gamma=[[0.0, 0.2], [0.2, 0.0]], epsilon=1.7e+308)',
    'affiliation.log_expectation_shift_bound(gamma=[[0.0, 0.2], [0.2, 0.0]], epsilon=1.7e+308, f=[0.5, 0.2, 0.1, 0.3])',
    'affiliation.onsager_bound(beta=1.7e+308)',
    'statistical.noise_utility_loss(scale=1e+300)',
    'statistical.noise_utility_loss(scale=1.7e+308)',
    'minimax.chtp_level(channel=minimax.geometric_count_channel(20, 1.0), gamma=0.5)',
}

#: the calls of the suite: baselines, issue cases and every third variation (about a third of
#: the ~5800, to keep the layer within a few minutes of CI on two cores); ``python
#: tests/fuzzing.py`` makes them all
_ALL = fuzzing.api_calls()            # the issue cases come last
CALLS = [c for k, c in enumerate(_ALL) if c.kind == "baseline" or k % 3 == 0
         or k >= len(_ALL) - len(fuzzing.ISSUE_CASES)]
MODULES = sorted({call.target.split(".")[0] for call in CALLS})


def test_every_public_function_has_a_baseline_call():
    assert fuzzing.public_functions() <= set(fuzzing.BASELINES)


@pytest.mark.parametrize("module", MODULES)
def test_no_silent_value_hang_or_unbounded_allocation(module):
    calls = [c for c in CALLS if c.target.split(".")[0] == module]
    results = fuzzing.run_all(calls, cpu=5.0, jobs=1)
    bad = [f"{outcome}: {call.label()} -- {detail}" for call, (outcome, detail) in zip(calls, results)
           if outcome in ("silent", "hang", "memory") and call.label() not in KNOWN_OPEN]
    assert not bad, "\n".join(bad)
