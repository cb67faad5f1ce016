"""Cost of argument validation on small calls: each public function against the plain numpy
one-liner that computes the same values without any checks.

- ``profiles.laplace_delta`` at 10^4 epsilons vs ``-expm1(min(eps - eps0, 0) / 2)``;
- ``profiles.gaussian_delta`` at 10^4 epsilons vs ``ndtr(-eps/mu + mu/2) - exp(eps) ndtr(-eps/mu - mu/2)``;
- ``leakage.pml`` of a 1000 x 1000 channel vs ``log(P.max(0)) - log(prior @ P)``.

CPU time (time.process_time) with BLAS limited to one thread (threadpoolctl), interleaved, median
of 7 rounds; wall time beside it. The target is a ratio of at most 1.5.

    python benchmarks/bench_validation.py
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import numpy as np  # noqa: E402
from _timing import interleaved  # noqa: E402
from scipy import special  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from privlib import leakage, profiles  # noqa: E402


def cases():
    rng = np.random.default_rng(0)
    eps = np.linspace(0.0, 5.0, 10**4)
    P = rng.random((1000, 1000))
    P /= P.sum(axis=1, keepdims=True)
    prior = rng.random(1000)
    prior /= prior.sum()
    mu = 1.0
    yield ("laplace_delta, 10^4 epsilons",
           lambda: profiles.laplace_delta(eps, 1.0),
           lambda: -np.expm1(np.minimum(eps - 1.0, 0.0) / 2.0))
    yield ("gaussian_delta, 10^4 epsilons",
           lambda: profiles.gaussian_delta(eps, mu),
           lambda: special.ndtr(-eps / mu + mu / 2) - np.exp(eps) * special.ndtr(-eps / mu - mu / 2))
    yield ("leakage.pml, 1000 x 1000 channel",
           lambda: leakage.pml(prior, P),
           lambda: np.log(P.max(0)) - np.log(prior @ P))


def main() -> None:
    print(f"{'call':36s} {'privlib CPU':>12s} {'one-liner CPU':>14s} {'CPU ratio':>10s} {'wall ratio':>11s}")
    with threadpool_limits(1):
        for label, ours, plain in cases():
            t = interleaved({"ours": ours, "plain": plain}, repeat=7)
            print(f"{label:36s} {t['ours'].cpu * 1e3:10.3f}ms {t['plain'].cpu * 1e3:12.3f}ms "
                  f"{t['ours'].cpu / t['plain'].cpu:10.2f} {float(t['ours']) / float(t['plain']):11.2f}")


if __name__ == "__main__":
    main()
