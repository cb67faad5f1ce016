"""privlib.core.notions: hand-derived anchors, the three representations of a count mechanism agree,
the core agrees with each paper module's own function for the same quantity, bad input."""

import itertools

import numpy as np
import pytest
from scipy import special

from privlib import leakage, minimax, notions, pufferfish, statistical


def _models(n):
    return [notions.iid_model(n, 0.3), notions.beta_binomial_model(n, 0.7, 1.9), notions.clones_model(n, 0.4),
            notions.mixture_model(n, 0.6, 0.3), notions.exchangeable_model(np.r_[0.0, -np.inf, np.zeros(n - 1)])]


def test_randomized_response_on_one_record_by_hand():
    eps = 0.8
    e = np.exp(eps)
    rr = notions.randomized_response(1, eps)
    assert rr.table == pytest.approx(np.array([[e, 1], [1, e]]) / (1 + e))
    assert notions.dp_epsilon(rr) == pytest.approx(eps)
    assert notions.tv_level(rr) == pytest.approx((e - 1) / (e + 1))
    assert notions.kl_level(rr) == pytest.approx(eps * (e - 1) / (e + 1))
    assert notions.dp_delta(rr, [0.0, eps / 2, eps, 2.0]) == pytest.approx(
        [(e - 1) / (e + 1), (e - np.exp(eps / 2)) / (1 + e), 0.0, 0.0], abs=1e-15)
    # a uniform prior: the posterior of the record is the reported value with odds e^eps
    prior = notions.explicit_model([0.5, 0.5], 1)
    assert notions.inferential_privacy(rr, prior) == pytest.approx(eps)
    assert notions.pml(rr, prior) == pytest.approx(np.log(2 * e / (1 + e)) * np.ones(2))
    assert notions.maximal_leakage(rr) == pytest.approx(np.log(2 * e / (1 + e)))
    assert notions.leakage_capacity(rr) == pytest.approx(eps)


def test_randomized_response_is_a_product_of_per_record_channels():
    rr = notions.randomized_response(3, 0.7, K=3)
    one = notions.randomized_response(1, 0.7, K=3).table
    assert rr.table == pytest.approx(np.kron(np.kron(one, one), one), rel=1e-13)


@pytest.mark.parametrize("n", [1, 2, 5])
def test_geometric_count_rows_are_the_clamped_two_sided_geometric(n):
    eps = 0.9
    r = np.exp(-eps)
    z = np.arange(-200, 201)
    noise = (1 - r) / (1 + r) * r ** np.abs(z)
    for k in range(n + 1):
        y = np.clip(k + z, 0, n)
        expected = np.bincount(y, weights=noise, minlength=n + 1)
        assert np.exp(notions.geometric_count(n, eps).log_table[k]) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("n", [1, 3, 7])
def test_three_representations_of_a_count_mechanism_agree(n):
    """O(n) running sums (GeometricCount), the count table (CountChannel) and the table over all
    databases (FiniteChannel) give the same conditional laws under every model."""
    g = notions.geometric_count(n, 0.6)
    tab = notions.CountChannel(g.log_table)
    full = g.expand()
    for model in _models(n):
        for i in {0, n - 1}:
            ref, ref_m = notions.conditional_laws(full, model, i)
            for ch, mod in [(g, model), (tab, model), (g, model.expand()), (tab, model.expand())]:
                laws, marg = notions.conditional_laws(ch, mod, i)
                assert laws == pytest.approx(ref, rel=1e-10, abs=1e-300)
                assert marg == pytest.approx(ref_m, rel=1e-12)


def test_conditional_laws_by_enumeration():
    """mu_{i,a}(y) = sum_x pi(x | x_i = a) P(y | x), summed over the databases one by one."""
    n, K = 3, 3
    rng = np.random.default_rng(0)
    table = rng.dirichlet(np.ones(4), size=K ** n)
    prior = rng.dirichlet(np.ones(K ** n))
    ch = notions.FiniteChannel(table, K, n)
    model = notions.explicit_model(prior, n, K)
    for i in range(n):
        laws, marg = notions.conditional_laws(ch, model, i)
        for a in range(K):
            rows = [j for j, x in enumerate(itertools.product(range(K), repeat=n)) if x[i] == a]
            assert marg[a] == pytest.approx(prior[rows].sum())
            assert laws[a] == pytest.approx(prior[rows] @ table[rows] / prior[rows].sum())


def test_geometric_count_neighbour_levels_in_closed_form():
    eps = 0.7
    g = notions.geometric_count(9, eps)
    tab = notions.CountChannel(g.log_table)
    grid = np.array([0.0, 0.2, 0.69, 0.7, 1.5])
    closed = np.maximum(-np.expm1(grid - eps), 0.0) / (1 + np.exp(-eps))
    for ch in (g, tab):
        assert notions.dp_epsilon(ch) == pytest.approx(eps)
        assert notions.dp_delta(ch, grid) == pytest.approx(closed, abs=1e-15)
        assert notions.tv_level(ch) == pytest.approx(np.tanh(eps / 2))
        assert notions.kl_level(ch) == pytest.approx(eps * np.tanh(eps / 2))


def test_agrees_with_chapter_002_on_its_channels():
    for ch002 in (minimax.geometric_count_channel(3, 0.8), minimax.release_one_channel(3, 2)):
        ch = notions.FiniteChannel(ch002.table, ch002.K, ch002.n)
        assert notions.dp_epsilon(ch) == pytest.approx(minimax.dp_epsilon(ch002))
        assert notions.dp_delta(ch, [0.0, 0.3, 1.0]) == pytest.approx(minimax.dp_delta(ch002, [0.0, 0.3, 1.0]), abs=1e-14)
        assert notions.tv_level(ch) == pytest.approx(minimax.tv_privacy(ch002))
        assert notions.kl_level(ch) == pytest.approx(minimax.kl_privacy(ch002))
        assert notions.chtp_level(ch, 0.3) == pytest.approx(minimax.chtp_level(ch002, 0.3))
        p, q = ch.distinct_neighbour_rows()
        p2, q2 = ch002.distinct_neighbour_rows()
        assert p.shape == p2.shape and q.shape == q2.shape


def test_pufferfish_agrees_with_chapter_000():
    n = 4
    g = notions.geometric_count(n, 0.5).expand()
    models = [notions.ising_chain_model(n, 0.8, 0.2), notions.product_model([0.2, 0.5, 0.9, 0.4])]
    x = g.samples
    pairs = [(x[:, i] == 0, x[:, i] == 1) for i in range(n)] + [(x[:, i] == 1, x[:, i] == 0) for i in range(n)]
    theirs = pufferfish.pufferfish_loss(g.table, np.stack([m.prob for m in models]), pairs)
    assert notions.pufferfish_loss(g, models) == pytest.approx(theirs, rel=1e-12)
    # a single scenario and one record: Ghosh & Kleinberg's inferential privacy
    assert notions.pufferfish_loss(g, models[0], records=[2]) == pytest.approx(notions.inferential_privacy(g, models[0], 2))


def test_pml_agrees_with_chapter_001_on_the_induced_channel():
    n = 5
    g = notions.gaussian_count(n, 0.8)
    model = notions.beta_binomial_model(n, 0.5, 0.5)
    laws, marg = notions.conditional_laws(g, model, 1)
    assert notions.pml(g, model, 1) == pytest.approx(leakage.pml(marg, laws), rel=1e-12)
    assert notions.leakage_capacity(g, model, 1) == pytest.approx(leakage.leakage_capacity(laws / laws.sum(1, keepdims=True)))
    assert notions.leakage_capacity(g) == pytest.approx(leakage.leakage_capacity(g.table / g.table.sum(1, keepdims=True)))
    assert notions.maximal_leakage(g, model, 1) == pytest.approx(np.log(laws.max(axis=0).sum()))


@pytest.mark.parametrize("n, m, p", [(10, 4, 0.3), (40, 40, 0.5), (200, 30, 0.1)])
def test_statistical_delta_agrees_with_chapter_004(n, m, p):
    grid = np.array([0.0, 0.05, 0.3, 1.0, 3.0])
    ours = notions.statistical_delta(notions.subsampled_count(n, m), notions.iid_model(n, p), grid)
    assert ours == pytest.approx(statistical.subsampling_delta(grid, n, m, p), abs=1e-12)


def test_statistical_delta_vanishes_from_the_inferential_privacy_on():
    g = notions.gaussian_count(6, 1.0)
    model = notions.ising_chain_model(6, 0.6)
    eps = notions.inferential_privacy(g, model, 2)
    d = notions.statistical_delta(g, model, [eps * (1 - 1e-6), eps * (1 + 1e-9)], 2)
    assert d[0] > 0 and d[1] == 0


def test_clones_reach_n_epsilon_at_a_million_records():
    n, eps = 10**6, 1e-3
    g = notions.geometric_count(n, eps)
    assert notions.inferential_privacy(g, notions.clones_model(n, 0.3), 5) == pytest.approx(n * eps, rel=1e-9)
    assert notions.inferential_privacy(g, notions.iid_model(n, 0.3), 5) <= eps * (1 + 1e-9)


def test_subsampled_count_is_not_dp_but_statistically_private():
    s = notions.subsampled_count(20, 5)
    assert notions.dp_epsilon(s) == np.inf and notions.kl_level(s) == np.inf
    assert notions.tv_level(s) == pytest.approx(5 / 20)
    assert np.isfinite(notions.inferential_privacy(s, notions.iid_model(20, 0.4), 0))


def test_product_models_stay_below_dp():
    rng = np.random.default_rng(3)
    g = notions.gaussian_count(5, 0.7).expand()
    eps_dp = notions.dp_epsilon(g)
    for _ in range(5):
        model = notions.product_model(rng.uniform(0.05, 0.95, 5))
        assert notions.inferential_privacy(g, model, 1) <= eps_dp + 1e-12
        grid = np.linspace(0, eps_dp, 5)
        assert (notions.statistical_delta(g, model, grid, 1) <= notions.dp_delta(g, grid) + 1e-12).all()


def test_record_order_of_chapter_003():
    from privlib import affiliation

    prior = affiliation.product_prior([0.1, 0.5, 0.8])        # record j is bit j
    model = notions.explicit_model(prior, 3, record_order="first-least-significant")
    assert model.record_marginal(0)[1] == pytest.approx(0.1)
    assert model.record_marginal(2)[1] == pytest.approx(0.8)


def test_models_are_normalised_and_correlated_as_stated():
    n = 6
    for model in _models(n) + [notions.ising_chain_model(n, 0.5, 0.1)]:
        assert model.prob.sum() == pytest.approx(1.0)
    mix = notions.mixture_model(n, 0.5, 0.4).prob
    x = notions.randomized_response(n, 1.0).samples
    cov = (mix * x[:, 0] * x[:, 1]).sum() - (mix * x[:, 0]).sum() * (mix * x[:, 1]).sum()
    assert cov / 0.25 == pytest.approx(0.4)
    bb = notions.beta_binomial_model(n, 2.0, 3.0).prob
    cov = (bb * x[:, 0] * x[:, 1]).sum() - (bb * x[:, 0]).sum() * (bb * x[:, 1]).sum()
    var = (bb * x[:, 0]).sum() * (1 - (bb * x[:, 0]).sum())
    assert cov / var == pytest.approx(1 / 6)
    assert notions.product_model([0.2, 0.7]).prob == pytest.approx([0.24, 0.56, 0.06, 0.14])


def test_all_notions_equals_the_individual_functions():
    g = notions.subsampled_count(8, 3)
    model = notions.ising_chain_model(8, 0.3)
    got = notions.all_notions(g, model, 4, epsilon=0.4, gamma=0.3)
    assert set(got) == set(notions.NOTIONS)
    assert got["dp_epsilon"] == notions.dp_epsilon(g)
    assert got["dp_delta"] == pytest.approx(float(notions.dp_delta(g, 0.4)))
    assert got["inferential_privacy"] == pytest.approx(notions.inferential_privacy(g, model, 4))
    assert got["pml_sup"] == pytest.approx(notions.pml_sup(g, model, 4))
    assert got["maximal_leakage"] == pytest.approx(notions.maximal_leakage(g, model, 4))
    assert got["statistical_delta"] == pytest.approx(float(notions.statistical_delta(g, model, 0.4, 4)))
    assert got["tv_level"] == pytest.approx(notions.tv_level(g))
    assert got["kl_level"] == notions.kl_level(g)
    assert got["chtp_level"] == pytest.approx(notions.chtp_level(g, 0.3))
    assert notions.all_notions(notions.geometric_count(20, 1.0), notions.iid_model(20, 0.5))["chtp_level"] is None


def test_dp_delta_shows_no_rounding_noise_at_the_dp_epsilon():
    g = notions.geometric_count(12, 0.5).expand()
    assert notions.dp_delta(g, 0.5) == 0.0


def test_bad_input_is_rejected_with_the_argument_named():
    g = notions.geometric_count(4, 1.0)
    with pytest.raises(ValueError, match="model has n = 5"):
        notions.inferential_privacy(g, notions.iid_model(5, 0.5))
    with pytest.raises(ValueError, match="i must"):
        notions.pml(g, notions.iid_model(4, 0.5), i=4)
    with pytest.raises(ValueError, match="epsilon"):
        notions.geometric_count(4, 0.0)
    with pytest.raises(TypeError, match="n must be an integer"):
        notions.geometric_count(4.0, 1.0)
    with pytest.raises(ValueError, match="n too large"):
        notions.randomized_response(20, 1.0)
    with pytest.raises(ValueError, match="n too large"):
        notions.iid_model(30, 0.5).expand()
    with pytest.raises(ValueError, match="log_weights"):
        notions.DataModel(3, log_weights=np.zeros(4))
    with pytest.raises(ValueError, match="exactly one"):
        notions.DataModel(3)
    with pytest.raises(ValueError, match="at least two values"):
        notions.inferential_privacy(g, notions.exchangeable_model([0.0, -np.inf, -np.inf, -np.inf, -np.inf]))
    with pytest.raises(ValueError, match="at most 16 outputs"):
        notions.chtp_level(notions.geometric_count(20, 1.0), 0.5)
    with pytest.raises(ValueError, match="nothing is constrained"):
        notions.pufferfish_loss(g, notions.exchangeable_model([0.0, -np.inf, -np.inf, -np.inf, -np.inf]))
    with pytest.raises(TypeError, match="channel must be"):
        notions.inferential_privacy(np.eye(2), notions.iid_model(1, 0.5))
    with pytest.raises(ValueError, match="record_order"):
        notions.explicit_model([0.5, 0.5], 1, record_order="msb")
    with pytest.raises(ValueError, match="log_table rows must be pmfs"):
        notions.CountChannel(np.log([[0.5, 0.4], [0.5, 0.5]]))
    with pytest.raises(ValueError, match="rho"):
        notions.mixture_model(3, 0.5, 1.5)


def test_log_space_keeps_tiny_masses():
    """A strongly coupled chain puts mass ~e^-700 on some databases; the laws stay finite."""
    model = notions.ising_chain_model(8, 50.0)
    g = notions.geometric_count(8, 2.0).expand()
    laws, marg = notions.conditional_laws(g, model, 0)
    assert np.isfinite(np.log(laws)).all() and (marg > 0).all()
    assert np.isfinite(notions.inferential_privacy(g, model, 0))
    assert special.logsumexp(model.log_prob) == pytest.approx(0.0, abs=1e-12)


def test_correlation_sweep_runs_from_independent_records_to_clones():
    g = notions.geometric_count(7, 0.8)
    sweep = notions.correlation_sweep(g, 0.4, [0.0, 0.3, 1.0], 2, epsilon=0.3)
    indep = notions.all_notions(g, notions.iid_model(7, 0.4), 2, epsilon=0.3, gamma=None)
    clones = notions.all_notions(g, notions.clones_model(7, 0.4), 2, epsilon=0.3, gamma=None)
    for key, values in sweep.items():
        assert values[0] == pytest.approx(indep[key]) and values[-1] == pytest.approx(clones[key])
    assert "chtp_level" not in sweep
    assert sweep["inferential_privacy"][-1] == pytest.approx(7 * 0.8)


def test_standard_mechanisms_and_models():
    mechs = notions.standard_mechanisms(5, 0.7, 1.5, 2)
    assert notions.dp_epsilon(mechs["randomized response"]) == pytest.approx(0.7)
    assert notions.dp_epsilon(mechs["geometric count"]) == pytest.approx(0.7)
    assert mechs["subsampled count"].outputs == 3 and mechs["Gaussian count"].outputs == 6
    models = notions.standard_models(5, 0.2, 0.6, 0.8)
    assert models["independent"].record_marginal(0)[1] == pytest.approx(0.2)
    assert models["clones"].record_marginal(4)[1] == pytest.approx(0.2)
    assert models["exchangeable"].record_marginal(2)[1] == pytest.approx(0.2)
    assert notions.standard_models(1, 0.5)["Ising chain"].record_marginal(0)[1] == pytest.approx(0.5)


@pytest.mark.parametrize("t", [1e-6, 0.5, 5.0, 60.0])
def test_decayed_running_sum_against_mpmath(t):
    """The O(n) running sum behind the geometric count, against the recurrence
    S(y) = e^-t S(y-1) + e^x[y] in 40-digit arithmetic (absolute error of the logs)."""
    import mpmath

    from privlib.core.notions import _decayed_log_cumsum

    mpmath.mp.dps = 40
    rng = np.random.default_rng(1)
    n = 20_000
    x = np.cumsum(rng.normal(0.0, 1.0, n)) * 0.5 - 1e-3 * np.arange(n)
    x[:7] = -np.inf  # leading empty counts, as for x_i = 1
    s, decay, ref = mpmath.mpf(0), mpmath.exp(-t), []
    for value in x:
        s = s * decay + (mpmath.exp(mpmath.mpf(value)) if np.isfinite(value) else 0)
        ref.append(float(mpmath.log(s)) if s > 0 else -np.inf)
    got = _decayed_log_cumsum(x, t)
    assert (got[:7] == -np.inf).all()
    assert np.max(np.abs(got[7:] - np.array(ref[7:]))) < 1e-12


def test_kl_is_infinite_without_domination_even_where_the_mass_underflows():
    # half-subsampling of 1200 records: some outputs have probability below the smallest double for
    # one neighbour and 0 for the other; KL is +inf (no domination), never NaN or a finite value
    channel = notions.subsampled_count(1200, 600)
    assert notions.kl_level(channel) == np.inf
    assert notions.all_notions(channel, notions.iid_model(1200, 0.3), gamma=None)["kl_level"] == np.inf
    tiny = notions.FiniteChannel.from_log([[0.0, -800.0], [0.0, -np.inf]], 2, 1)
    assert notions.kl_level(tiny) == np.inf


def test_beta_binomial_weights_keep_their_digits_at_large_a_and_b():
    import mpmath

    mpmath.mp.dps = 40
    n, a, b = 100, 1e9, 2e9
    model = notions.beta_binomial_model(n, a, b)
    exact = [float(mpmath.log(mpmath.beta(a + k, b + n - k) / mpmath.beta(a, b))) for k in range(n + 1)]
    np.testing.assert_allclose(model.log_weights, exact, rtol=1e-12, atol=1e-10)


def test_dp_delta_at_epsilon_zero_keeps_differences_far_below_rounding_of_the_masses():
    # randomized response at eps = 1e-14: delta(0) is the TV distance, about 5e-15, far below the masses' rounding
    channel = notions.randomized_response(1, 1e-14)
    tv = notions.tv_level(channel)
    assert tv > 0 and notions.dp_delta(channel, 0.0) == pytest.approx(tv, rel=1e-12)
