"""Claims of chapter 001, Section 2: pointwise maximal leakage."""

from __future__ import annotations

import numpy as np

from privlib.papers import leakage

from privlib.verify.claims import Evidence, all_of, at_most, claim, close
from privlib.verify.source_mutants import edit
from privlib.verify.pointwise_maximal_leakage._routes import (
    _approach_tolerance,
    _posterior_table,
    _random_channel,
    randomized_function_lp,
)


@claim("001/thm-1", item="Theorem 1",
       statement=r"PML of an outcome, defined as the best gain in guessing any randomized function of $X$, "
                 r"equals $\ell(X \to y) = \log \max_x P(y \mid x) / P_Y(y)$.",
       method="linear program over randomized functions U of X (scipy HiGHS) for every outcome of random 3x3 "
              "and 4x3 mechanisms, against privlib's closed form and against the Renyi divergence of order "
              "infinity of privlib's posterior from the prior; the posterior and output law (with a letter of "
              "prior mass 0 and an impossible output) against the joint table by hand")
def thm_1(seed: int = 1, trials: int = 4) -> Evidence:
    rng = np.random.default_rng(seed)
    lp, closed, divergence = [], [], []
    for t in range(trials):
        nx = 3 + t % 2
        prior = rng.dirichlet(np.ones(nx))
        prior = np.maximum(prior, 0.05)
        prior /= prior.sum()
        channel = _random_channel(rng, nx, 3)
        closed.extend(leakage.pml(prior, channel))
        post, _ = leakage.posterior(prior, channel)
        divergence.extend(leakage.renyi_inf_divergence(post.T, prior))
        lp.extend(np.log(randomized_function_lp(prior, channel, y)) for y in range(3))
    # the posterior itself, with a letter of prior mass 0 and an output of probability 0 (whose
    # posterior is the prior, the paper's convention), against the joint table by hand
    prior = np.array([0.3, 0.7, 0.0])
    channel = np.array([[0.2, 0.8, 0.0], [0.6, 0.4, 0.0], [0.1, 0.1, 0.8]])
    post, p_y = leakage.posterior(prior, channel)
    return all_of(
        close(closed, lp, atol=1e-7, rtol=0.0, detail="closed form vs the linear program"),
        close(divergence, lp, atol=1e-7, rtol=0.0,
              detail="D_inf(P_{X|Y=y} || P_X) of privlib's posterior vs the linear program"),
        close(np.c_[post, p_y[:, None]], np.c_[_posterior_table(prior, channel), (prior @ channel)[:, None]],
              atol=1e-15, rtol=0.0, detail="posterior and output law with a null atom and an impossible output, by hand"))


@thm_1.mutant("leakage.pml", "logarithm to base 2 instead of natural")
def _(pml):
    return lambda prior, channel: pml(prior, channel) / np.log(2.0)


@thm_1.mutant("leakage.posterior", "an impossible output's posterior uniform instead of the prior")
def _(f):
    return edit("joint / p_y[..., None, :], prior[..., :, None])",
                "joint / p_y[..., None, :], np.full_like(joint, 1.0 / joint.shape[-2]))")(f)


@thm_1.mutant("leakage.posterior", "the joint not divided by the output's probability")
def _(f):
    return edit("joint / p_y[..., None, :], prior", "joint, prior")(f)


@thm_1.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)


@claim("001/thm-2", item="Theorem 2",
       statement=r"The supremum of PML over all full-support priors and outcomes equals the leakage capacity "
                 r"$\mathcal C = \log \max_y \max_{x, x'} P(y \mid x) / P(y \mid x')$; it is approached, not attained.",
       method="leakage capacity against the brute-force maximum over all pairs of inputs; 2000 random Dirichlet "
              "priors never above it; the witness prior with mass 1 - 1e-10 on the input minimising the maximising "
              "column approaches it (within 10 delta e^C, rounded up to a power of ten)")
def thm_2(seed: int = 2) -> Evidence:
    rng = np.random.default_rng(seed)
    channel = _random_channel(rng, 4, 5)
    cap_brute = max(np.log(channel[x, y] / channel[x2, y]) for x in range(4) for x2 in range(4) for y in range(5))
    priors = rng.dirichlet(np.full(4, 0.3), size=2000)
    priors = np.maximum(priors, 1e-12)
    priors /= priors.sum(axis=1, keepdims=True)
    y_star = int(np.argmax(np.log(channel.max(axis=0)) - np.log(channel.min(axis=0))))
    delta = 1e-10
    witness = np.full(4, delta / 3)
    witness[int(np.argmin(channel[:, y_star]))] = 1 - delta
    return all_of(
        close(leakage.leakage_capacity(channel), cap_brute, rtol=1e-12, detail="capacity vs all pairs of inputs"),
        at_most(leakage.pml_sup(priors, channel), cap_brute, atol=1e-12, detail="2000 random priors never exceed it"),
        close(leakage.pml_sup(witness, channel), cap_brute, atol=_approach_tolerance(delta, cap_brute), rtol=0.0,
              detail="the witness prior approaches it"))


@thm_2.mutant("leakage.leakage_capacity", "ratio of the largest to the smallest entry of the whole matrix, not per column")
def _(leakage_capacity):
    return lambda channel: float(np.log(np.max(channel)) - np.log(np.min(channel)))


@thm_2.mutant("leakage.pml", "P_Y computed under the uniform prior instead of P_X")
def _(pml):
    return lambda prior, channel: pml(np.full(np.shape(prior), 1.0 / np.shape(prior)[-1]), channel)
