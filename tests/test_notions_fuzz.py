"""Fuzz layer for privlib.notions: every public function on valid inputs at the extremes (epsilon
in [1e-12, 50], probabilities in [1e-12, 1 - 1e-12], n up to 10^6 through the count reduction)
returns finite values in range that keep the chapter's relations, and invalid inputs raise
ValueError/TypeError naming the argument. Bounded: few examples, small enumerated tables."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzzing import FUZZ, assert_finite, assert_probability, assert_rejects, epsilons, probabilities
from privlib import notions

large_n = st.sampled_from([1, 2, 3, 10, 100, 10**4, 10**6])
small_n = st.integers(1, 6)
shapes = st.floats(1e-3, 1e3)
correlations = st.floats(0.0, 1.0)


def _exchangeable(draw, n):
    kind = draw(st.sampled_from(["iid", "beta", "mixture", "clones"]))
    p = draw(probabilities)
    if kind == "iid":
        return notions.iid_model(n, p)
    if kind == "beta":
        return notions.beta_binomial_model(n, draw(shapes), draw(shapes))
    if kind == "mixture":
        return notions.mixture_model(n, p, draw(correlations))
    return notions.clones_model(n, p)


@st.composite
def count_cases(draw):
    n = draw(large_n)
    return notions.geometric_count(n, draw(epsilons)), _exchangeable(draw, n), draw(st.integers(0, n - 1))


@st.composite
def small_cases(draw):
    n = draw(small_n)
    eps = draw(st.floats(1e-6, 20.0))
    mech = draw(st.sampled_from(["rr", "geo", "gauss", "sub"]))
    channel = {"rr": lambda: notions.randomized_response(n, eps),
               "geo": lambda: notions.geometric_count(n, eps).expand(),
               "gauss": lambda: notions.gaussian_count(n, draw(st.floats(0.05, 50.0))),
               "sub": lambda: notions.subsampled_count(n, draw(st.integers(1, n)))}[mech]()
    kind = draw(st.sampled_from(["product", "ising", "exchangeable"]))
    if kind == "product":
        model = notions.product_model(draw(st.lists(probabilities, min_size=n, max_size=n)))
    elif kind == "ising":
        model = notions.ising_chain_model(n, draw(st.floats(-5.0, 5.0)), draw(st.floats(-3.0, 3.0)))
    else:
        model = _exchangeable(draw, n)
    return channel, model, draw(st.integers(0, n - 1))


def test_every_public_function_is_fuzzed():
    fuzzed = {name.split("_fuzz_")[-1] for name in globals() if name.startswith("test_fuzz_")}
    public = {name for name in notions.__all__ if name.islower()}
    assert public <= fuzzed, sorted(public - fuzzed)


@FUZZ
@given(case=count_cases())
def test_fuzz_conditional_laws(case):
    channel, model, i = case
    laws, marg = notions.conditional_laws(channel, model, i)
    assert_probability(marg)
    assert marg.sum() == pytest.approx(1.0)
    assert_probability(laws)
    assert laws.sum(axis=1) == pytest.approx(np.where(marg > 0, 1.0, 0.0), abs=1e-9)


@FUZZ
@given(case=count_cases())
def test_fuzz_inferential_privacy(case):
    channel, model, i = case
    gk = notions.inferential_privacy(channel, model, i)
    assert_finite(gk)
    # between 0 and the clones' n epsilon (the leakage capacity of the whole database)
    assert 0.0 <= gk <= channel.n * channel.epsilon * (1 + 1e-9) + 1e-9
    if model.name == "independent":
        assert gk <= channel.epsilon * (1 + 1e-9) + 1e-9


@FUZZ
@given(case=count_cases())
def test_fuzz_pml(case):
    channel, model, i = case
    values = notions.pml(channel, model, i)
    assert_finite(values)
    assert (values >= 0).all()
    cap = -np.log(model.record_marginal(i).min())
    assert values.max() <= min(cap, notions.inferential_privacy(channel, model, i)) + 1e-8


@FUZZ
@given(case=count_cases())
def test_fuzz_pml_sup(case):
    channel, model, i = case
    assert notions.pml_sup(channel, model, i) == pytest.approx(notions.pml(channel, model, i).max())


@FUZZ
@given(case=count_cases())
def test_fuzz_maximal_leakage(case):
    channel, model, i = case
    value = notions.maximal_leakage(channel, model, i)
    assert_finite(value)
    assert -1e-12 <= value <= np.log(2.0) + 1e-12


@FUZZ
@given(case=count_cases(), eps=st.lists(st.floats(0.0, 60.0), min_size=1, max_size=4))
def test_fuzz_statistical_delta(case, eps):
    channel, model, i = case
    delta = notions.statistical_delta(channel, model, eps, i)
    assert_probability(delta)
    gk = notions.inferential_privacy(channel, model, i)
    assert (delta[np.asarray(eps) > gk * (1 + 1e-9) + 1e-12] == 0).all()


@FUZZ
@given(case=count_cases(), eps=st.lists(st.floats(0.0, 60.0), min_size=1, max_size=4))
def test_fuzz_log_statistical_delta(case, eps):
    channel, model, i = case
    log_delta = notions.log_statistical_delta(channel, model, eps, i)
    assert not np.isnan(log_delta).any() and (log_delta <= 0.0).all()
    delta = notions.statistical_delta(channel, model, eps, i)
    shown = delta > 1e-300
    assert np.exp(log_delta[shown]) == pytest.approx(delta[shown], rel=1e-9)


@FUZZ
@given(n=large_n, eps=epsilons)
def test_fuzz_geometric_count(n, eps):
    g = notions.geometric_count(n, eps)
    assert notions.dp_epsilon(g) == pytest.approx(eps)
    assert_probability(notions.dp_delta(g, [0.0, eps / 2, eps]))
    assert notions.tv_level(g) == pytest.approx(np.tanh(eps / 2))
    assert notions.kl_level(g) == pytest.approx(eps * np.tanh(eps / 2))


@FUZZ
@given(case=small_cases())
def test_fuzz_dp_epsilon(case):
    channel, model, i = case
    e = notions.dp_epsilon(channel)
    assert e >= 0 and not np.isnan(e)
    if model.name == "product":
        assert notions.inferential_privacy(channel, model, i) <= e * (1 + 1e-9) + 1e-9


@FUZZ
@given(case=small_cases(), eps=st.lists(st.floats(0.0, 30.0), min_size=1, max_size=4))
def test_fuzz_dp_delta(case, eps):
    channel, model, i = case
    d = notions.dp_delta(channel, eps)
    assert_probability(d)
    if model.name == "product":
        assert (notions.statistical_delta(channel, model, eps, i) <= d + 1e-12).all()


@FUZZ
@given(case=small_cases())
def test_fuzz_tv_level(case):
    tv = notions.tv_level(case[0])
    assert_probability(tv)
    assert tv <= np.tanh(notions.dp_epsilon(case[0]) / 2) + 1e-12


@FUZZ
@given(case=small_cases())
def test_fuzz_kl_level(case):
    kl = notions.kl_level(case[0])
    assert kl >= 0 and not np.isnan(kl)
    e = notions.dp_epsilon(case[0])
    assert kl <= e * np.tanh(e / 2) * (1 + 1e-9) + 1e-12


@FUZZ
@given(n=st.integers(1, 4), eps=st.floats(1e-6, 20.0), gamma=st.floats(1e-3, 1.0))
def test_fuzz_chtp_level(n, eps, gamma):
    beta = notions.chtp_level(notions.geometric_count(n, eps), gamma)
    assert_probability(beta)


@FUZZ
@given(case=small_cases())
def test_fuzz_pufferfish_loss(case):
    channel, model, i = case
    value = notions.pufferfish_loss(channel, [model], records=[i])
    assert value == pytest.approx(notions.inferential_privacy(channel, model, i))


@FUZZ
@given(case=small_cases())
def test_fuzz_leakage_capacity(case):
    channel, model, i = case
    whole = notions.leakage_capacity(channel)
    assert whole >= 0 and not np.isnan(whole)
    assert notions.leakage_capacity(channel, model, i) == notions.inferential_privacy(channel, model, i)


@FUZZ
@given(case=small_cases())
def test_fuzz_all_notions(case):
    channel, model, i = case
    values = notions.all_notions(channel, model, i, gamma=None)
    assert set(values) == set(notions.NOTIONS) and values["chtp_level"] is None
    for key in ("dp_delta", "statistical_delta", "tv_level"):
        assert_probability(values[key])
    assert values["pml_sup"] <= values["inferential_privacy"] + 1e-8


@FUZZ
@given(n=small_n, eps=st.floats(1e-6, 20.0), K=st.integers(2, 3))
def test_fuzz_randomized_response(n, eps, K):
    if K ** (2 * n) > notions.MAX_CELLS:
        assert_rejects(notions.randomized_response, n, eps, K, name="n")
        return
    rr = notions.randomized_response(n, eps, K)
    assert notions.dp_epsilon(rr) == pytest.approx(eps)


@FUZZ
@given(n=st.integers(1, 40), sigma=st.floats(1e-3, 1e3))
def test_fuzz_gaussian_count(n, sigma):
    g = notions.gaussian_count(n, sigma)
    assert_probability(g.table)
    assert g.table.sum(axis=1) == pytest.approx(1.0)


@FUZZ
@given(n=st.integers(1, 60), data=st.data())
def test_fuzz_subsampled_count(n, data):
    m = data.draw(st.integers(1, n))
    s = notions.subsampled_count(n, m)
    assert notions.tv_level(s) == pytest.approx(m / n)


@FUZZ
@given(n=large_n, p=probabilities, rho=correlations, a=shapes, b=shapes)
def test_fuzz_exchangeable_models(n, p, rho, a, b):
    for model in (notions.iid_model(n, p), notions.mixture_model(n, p, rho), notions.clones_model(n, p),
                  notions.beta_binomial_model(n, a, b), notions.exchangeable_model(np.zeros(n + 1))):
        assert model.record_marginal(0).sum() == pytest.approx(1.0)


test_fuzz_iid_model = test_fuzz_mixture_model = test_fuzz_clones_model = test_fuzz_exchangeable_models
test_fuzz_beta_binomial_model = test_fuzz_exchangeable_model = test_fuzz_exchangeable_models


@FUZZ
@given(p=st.lists(probabilities, min_size=1, max_size=8))
def test_fuzz_product_model(p):
    model = notions.product_model(p)
    assert model.prob.sum() == pytest.approx(1.0)
    assert model.record_marginal(len(p) - 1)[1] == pytest.approx(p[-1])


@FUZZ
@given(n=st.integers(1, 8), coupling=st.floats(-50.0, 50.0), field=st.floats(-20.0, 20.0))
def test_fuzz_ising_model(n, coupling, field):
    for model in (notions.ising_chain_model(n, coupling, field),
                  notions.ising_model(n, [(0, j) for j in range(1, n)], coupling, field)):
        assert model.prob.sum() == pytest.approx(1.0)
        assert np.isfinite(model.log_prob).all()


test_fuzz_ising_chain_model = test_fuzz_ising_model


@FUZZ
@given(n=st.integers(1, 6), data=st.data())
def test_fuzz_explicit_model(n, data):
    raw = np.array(data.draw(st.lists(st.floats(0.0, 1.0), min_size=2 ** n, max_size=2 ** n)))
    if raw.sum() == 0:
        return
    prob = raw / raw.sum()
    model = notions.explicit_model(prob, n, record_order="first-least-significant")
    assert model.prob.sum() == pytest.approx(1.0)


@FUZZ
@given(n=st.integers(1, 8), eps=st.floats(1e-3, 10.0), p=probabilities, rho=correlations)
def test_fuzz_standard_mechanisms(n, eps, p, rho):
    mechs = notions.standard_mechanisms(n, eps, 1.0)
    models = notions.standard_models(n, p, rho, 0.5)
    assert set(mechs) == {"randomized response", "geometric count", "subsampled count", "Gaussian count"}
    assert set(models) == {"independent", "exchangeable", "Ising chain", "clones"}


test_fuzz_standard_models = test_fuzz_standard_mechanisms


@FUZZ
@given(n=st.integers(1, 200), eps=epsilons, p=probabilities)
def test_fuzz_correlation_sweep(n, eps, p):
    sweep = notions.correlation_sweep(notions.geometric_count(n, eps), p, [0.0, 0.5, 1.0])
    gk = sweep["inferential_privacy"]
    assert_finite(gk)
    assert gk[-1] == pytest.approx(n * eps, rel=1e-7, abs=1e-9)


def test_invalid_inputs_name_the_argument():
    assert_rejects(notions.geometric_count, 0, 1.0, name="n")
    assert_rejects(notions.geometric_count, 3, -1.0, name="epsilon")
    assert_rejects(notions.geometric_count, 3, np.nan, name="epsilon")
    assert_rejects(notions.gaussian_count, 3, 0.0, name="sigma")
    assert_rejects(notions.subsampled_count, 3, 4, name="m")
    assert_rejects(notions.iid_model, 3, 1.0, name="p")
    assert_rejects(notions.beta_binomial_model, 3, 0.0, 1.0, name="a")
    assert_rejects(notions.mixture_model, 3, 0.5, -0.1, name="rho")
    assert_rejects(notions.product_model, [0.5, 1.5], name="p")
    assert_rejects(notions.ising_chain_model, 3, np.inf, name="coupling")
    assert_rejects(notions.explicit_model, [0.5, 0.6], 1, name="prob")
    assert_rejects(notions.dp_delta, notions.geometric_count(3, 1.0), -0.5, name="epsilon")
    assert_rejects(notions.statistical_delta, notions.geometric_count(3, 1.0), notions.iid_model(3, 0.5), np.nan,
                   name="epsilon")
    assert_rejects(notions.chtp_level, notions.geometric_count(3, 1.0), 0.0, name="gamma")
    assert_rejects(notions.all_notions, notions.geometric_count(3, 1.0), notions.iid_model(3, 0.5), 5, name="i")
    assert_rejects(notions.standard_mechanisms, 13, name="n")
    assert_rejects(notions.correlation_sweep, notions.geometric_count(3, 1.0), 0.5, [2.0], name="rho")
    assert_rejects(notions.FiniteChannel, np.ones((3, 2)) / 2, 2, 1, name="table")
    assert_rejects(notions.CountChannel, np.zeros((1, 2)), name="log_table")
    assert_rejects(notions.DataModel, 2, name="log_prob")
    assert_rejects(notions.conditional_laws, notions.geometric_count(3, 1.0), "model", name="model")
