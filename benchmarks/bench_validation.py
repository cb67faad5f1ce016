"""Cost of argument validation on small calls: each public function against the plain numpy
one-liner that computes the same values without any checks.

- ``profiles.laplace_delta`` at 10^4 epsilons vs ``-expm1(min(eps - eps0, 0) / 2)``;
- ``profiles.gaussian_delta`` at 10^4 epsilons vs ``ndtr(-eps/mu + mu/2) - exp(eps) ndtr(-eps/mu - mu/2)``;
- ``leakage.pml`` of a 1000 x 1000 channel vs ``log(P.max(0)) - log(prior @ P)``.

CPU time (time.process_time) with BLAS limited to one thread (threadpoolctl), interleaved in
rotating order, median of 7 rounds; wall time beside it; accuracy of both against mpmath (40
digits) on a sample of the outputs. The target: privlib within 1.5x the one-liner's time (a ratio
one-liner / privlib of at least 0.67).

    python benchmarks/bench_validation.py
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import mpmath  # noqa: E402
import numpy as np  # noqa: E402
from _timing import header, interleaved, row, worst_relative_error  # noqa: E402
from scipy import special  # noqa: E402

from privlib import leakage, profiles  # noqa: E402


def reference(label, eps, prior, P, mu):
    """40-digit values at a sample of the outputs: the indices and the values."""
    with mpmath.workdps(40):
        if label.startswith("laplace"):
            idx = np.arange(0, eps.size, 500)
            return idx, [float(-mpmath.expm1(min(mpmath.mpf(e) - 1, 0) / 2)) for e in eps[idx]]
        if label.startswith("gaussian"):
            idx = np.arange(0, eps.size, 500)
            m = mpmath.mpf(mu)
            return idx, [float(mpmath.ncdf(-mpmath.mpf(e) / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-mpmath.mpf(e) / m - m / 2))
                         for e in eps[idx]]
        idx = np.arange(0, P.shape[1], 50)
        return idx, [float(mpmath.log(max(mpmath.mpf(x) for x in P[:, y])
                                      / mpmath.fsum(mpmath.mpf(a) * mpmath.mpf(x) for a, x in zip(prior, P[:, y])))) for y in idx]


def cases():
    rng = np.random.default_rng(0)
    eps = np.linspace(0.0, 5.0, 10**4)
    P = rng.random((1000, 1000))
    P /= P.sum(axis=1, keepdims=True)
    prior = rng.random(1000)
    prior /= prior.sum()
    mu = 1.0
    yield (eps, prior, P, mu, "laplace_delta, 10^4 epsilons",
           lambda: profiles.laplace_delta(eps, 1.0),
           lambda: -np.expm1(np.minimum(eps - 1.0, 0.0) / 2.0))
    yield (eps, prior, P, mu, "gaussian_delta, 10^4 epsilons",
           lambda: profiles.gaussian_delta(eps, mu),
           lambda: special.ndtr(-eps / mu + mu / 2) - np.exp(eps) * special.ndtr(-eps / mu - mu / 2))
    yield (eps, prior, P, mu, "leakage.pml, 1000 x 1000 channel",
           lambda: leakage.pml(prior, P),
           lambda: np.log(P.max(0)) - np.log(prior @ P))


def main() -> None:
    print(header())
    for eps, prior, P, mu, label, ours, plain in cases():
        t = interleaved({"ours": ours, "plain": plain}, repeat=7)
        idx, ref = reference(label, eps, prior, P, mu)
        row(f"small call, {label} (validation included)", t["ours"], "the unchecked numpy one-liner", t["plain"],
            worst_relative_error(ours()[idx], ref), worst_relative_error(plain()[idx], ref))


if __name__ == "__main__":
    main()
