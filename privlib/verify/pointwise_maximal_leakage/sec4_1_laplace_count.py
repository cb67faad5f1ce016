"""Claims of chapter 001, Section 4.1: the Laplace counting query."""

from __future__ import annotations

import numpy as np

from privlib.papers import leakage
from privlib.core import mechanisms
from privlib.verify.claims import Evidence, all_of, claim, close
from privlib.verify.pointwise_maximal_leakage._routes import _databases


def _count_pml_by_enumeration(n: int, theta: float, epsilon: float, y: np.ndarray) -> np.ndarray:
    """l(X_1 -> y) for the Laplace fraction query, summing over all 2^n databases."""
    lap = mechanisms.LaplaceMechanism(epsilon, sensitivity=1.0 / n)
    dbs = _databases(2, n)
    weights = np.prod(np.where(dbs == 1, theta, 1 - theta), axis=1)
    dens = lap.pdf(y[None, :], dbs.mean(axis=1)[:, None])
    a = np.array([(weights[dbs[:, 0] == b, None] * dens[dbs[:, 0] == b]).sum(axis=0) / (theta if b else 1 - theta)
                  for b in (0, 1)])
    return np.log(a.max(axis=0) / (theta * a[1] + (1 - theta) * a[0]))


@claim("001/prop-12", item="Proposition 12",
       statement=r"For the Laplace counting query and priors with predicate probability in $[p, 1-p]$, "
                 r"$\ell(X_i \to y) \le \varepsilon - \log(1 + p(e^\varepsilon - 1))$, attained for outputs beyond 1 "
                 r"at $\theta = p$.",
       method="direct summation over all 2^n databases (n = 8) on a grid of outputs and of theta in [p, 1-p]: "
              "privlib's per-output PML and its supremum over outputs against the sums, and the bound against "
              "their maximum")
def prop_12(n: int = 8, p: float = 0.2, epsilon: float = 1.0) -> Evidence:
    y = np.concatenate([np.linspace(-1.5, 2.5, 161), np.arange(n + 1) / n])
    thetas = np.linspace(p, 1 - p, 13)
    brute = np.array([_count_pml_by_enumeration(n, th, epsilon, y) for th in thetas])
    ours = np.array([leakage.laplace_count_pml(n, th, epsilon, y) for th in thetas])
    return all_of(
        close(ours, brute, atol=1e-12, rtol=1e-10, detail="per-output PML vs enumeration"),
        close(leakage.laplace_count_pml_sup(thetas, epsilon), brute.max(axis=1), atol=1e-12, rtol=1e-10,
              detail="supremum over outputs, for each theta"),
        close(leakage.laplace_count_pml_bound(p, epsilon), brute.max(), atol=1e-10, rtol=0.0,
              detail="the bound equals the largest leakage over theta in [p, 1 - p]"))


@prop_12.mutant("leakage.laplace_count_pml_bound", "the linearisation (1 - p) eps")
def _(f):
    return lambda p, epsilon: (1 - np.asarray(p)) * np.asarray(epsilon)


@prop_12.mutant("leakage.laplace_count_pml_bound", "1 - p in place of p")
def _(f):
    return lambda p, epsilon: f(1 - np.asarray(p), epsilon) if np.all(np.asarray(p) >= 0.5) else \
        np.asarray(epsilon) - np.log1p((1 - np.asarray(p)) * np.expm1(np.asarray(epsilon)))


@prop_12.mutant("leakage.laplace_count_pml", "noise scale 1 / eps instead of 1 / (n eps) (rate for scale)")
def _(f):
    return lambda n, theta, epsilon, y: f(n, theta, epsilon / n, y)


@prop_12.mutant("leakage.laplace_count_pml_sup", "only the right tail")
def _(f):
    return lambda theta, epsilon: np.asarray(epsilon) - np.log1p(np.asarray(theta) * np.expm1(np.asarray(epsilon)))
