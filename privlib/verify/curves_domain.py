"""Claims of the foundations chapter on the branches a paper's instance never reaches: outputs
with no mass under one or both laws, epsilons beyond the double range of e^eps, flat curves and
inverses far from epsilon = 1, each against an independent high-precision computation."""

from __future__ import annotations

import numpy as np

from privlib.core import profiles
from privlib.verify.claims import Evidence, all_of, claim, close, holds
from privlib.verify.source_mutants import edit


def _mp_hockey_stick(p, q, eps) -> float:
    """``sum_y max(p - e^eps q, 0)`` in 50-digit arithmetic (``eps = inf``: the mass of p where q is 0)."""
    import mpmath

    with mpmath.workdps(50):
        if eps == np.inf:
            return float(sum(mpmath.mpf(a) for a, b in zip(p, q) if b == 0 and a > 0))
        e = mpmath.exp(mpmath.mpf(eps))
        return float(sum(max(mpmath.mpf(a) - e * mpmath.mpf(b), 0) for a, b in zip(p, q)))


def _zero_mass_pair(seed: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Two pmfs with null atoms: outputs of no mass under p, under q, under both, and masses of
    q below e^-709 (where e^eps q is representable but e^eps overflows)."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(size, 0.7))
    q = rng.dirichlet(np.full(size, 0.7))
    p[0] = q[0] = 0.0                     # no mass under either
    p[1] = 0.0                            # only q
    q[2] = 0.0                            # only p
    q[3] = 1e-310                         # e^710 q = 0.02: finite although e^710 overflows
    q[4] = 1e-315                         # loss about 725: beyond the next grid point
    return p / p.sum(), q / q.sum()


@claim("curves/hockey-stick-null-atoms", item="Hockey-stick divergence, null atoms and huge epsilon",
       statement="The hockey-stick divergence $\\sum_y (p(y) - e^\\varepsilon q(y))_+$ of two pmfs with "
                 "outputs of no mass under one or both laws is exact for every epsilon: negative, 0, "
                 "beyond 709 (where $e^\\varepsilon$ overflows but $e^\\varepsilon q$ does not) and "
                 "infinite (the mass of p where q vanishes), on any grid of epsilons: irregular, "
                 "log-uniform, or arithmetic and reaching beyond 690.",
       method="the sum in 50-digit arithmetic (mpmath), output by output, for both orders of the pair, on three "
              "grids of epsilons (one irregular with -0.5 and infinity; 15 log-uniform from 1e-8 to 600; 11 "
              "arithmetic from -10 to 1000)")
def hockey_stick_null_atoms(seed: int = 5, size: int = 9) -> Evidence:
    p, q = _zero_mass_pair(seed, max(size, 6))
    grids = {"irregular grid": np.array([-0.5, 0.0, 1e-7, 0.4, 3.0, 700.0, 710.0, 720.0, np.inf]),
             "log-uniform grid": np.geomspace(1e-8, 600.0, 15),
             "arithmetic grid beyond 690": np.linspace(-10.0, 1000.0, 11)}
    checks = []
    for label, grid in grids.items():
        for order, (a, b) in (("(p, q)", (p, q)), ("(q, p)", (q, p))):
            observed = profiles.hockey_stick(a, b, grid)
            reference = [_mp_hockey_stick(a, b, e) for e in grid]
            checks.append(close(observed, reference, atol=1e-15, rtol=1e-9, detail=f"{label}, {order}"))
    return all_of(*checks)


hockey_stick_null_atoms.mutant("profiles.hockey_stick", "e^eps q left infinite where e^eps overflows (one output's term)")(
    edit("exact[huge] = np.exp(np.r_[0.0, grid][bins[huge]] + np.log(q[huge])) - q[huge]", "pass"))


hockey_stick_null_atoms.mutant("profiles.hockey_stick", "bin sums beyond the next epsilon left infinite where e^eps overflows")(
    edit("weighted[overflow] = np.exp(grid[overflow] + np.log(far_q[overflow])) - far_q[overflow]", "pass"))


hockey_stick_null_atoms.mutant("profiles.hockey_stick", "epsilon = inf not given the mass where q vanishes")(
    edit("delta[-1] = p[(q == 0) & (p > 0)].sum()", "pass"))


hockey_stick_null_atoms.mutant("profiles._bin_losses", "log-uniform grid: the loss binned by its own value, not by its log")(
    edit("np.log(t, out=t)                          # NaN for losses", "t                          # NaN for losses"))


hockey_stick_null_atoms.mutant("profiles._bin_losses", "grid beyond 690: the ratio's log binned as it is (overflowed and 0/0 ratios)")(
    edit("        t = _losses(p, q)\n", "        t = np.log(np.divide(p, q))\n"))


def _mp_laplace_delta(eps: float, eps0: float) -> float:
    import mpmath

    with mpmath.workdps(40):
        return float(max(1 - mpmath.exp((mpmath.mpf(eps) - eps0) / 2), 0)) if eps < eps0 else 0.0


def _mp_gaussian_delta(eps: float, mu: float):
    import mpmath

    with mpmath.workdps(60):
        e, m = mpmath.mpf(eps), mpmath.mpf(mu)
        return mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2)


@claim("curves/epsilon-for-delta", item="Inverse of a privacy curve",
       statement="The smallest epsilon with $\\delta(\\varepsilon) \\le \\delta$ of a non-increasing curve "
                 "is found wherever it lies: 0 when $\\delta(0) \\le \\delta$, far above 1, and at the start "
                 "of a flat part where the curve reaches $\\delta$ exactly ($\\delta = 0$ for Laplace noise, "
                 "reached at $\\varepsilon_0$); the Laplace curve's closed-form inverse "
                 "$\\max(\\varepsilon_0 + 2 \\log(1 - \\delta), 0)$ is that smallest epsilon too.",
       method="the definition checked on both sides: the curve in 40-digit arithmetic is at most delta "
              "at the returned epsilon and above it 1e-9 below",
       checks=["profiles.laplace_delta", "profiles.laplace_epsilon"])
def epsilon_for_delta(mechanism_epsilon: float = 3.0) -> Evidence:
    eps0 = float(mechanism_epsilon)
    deltas = [0.0, 1e-12, 0.05, 0.5, 1.0]
    checks = []
    for name, inverse in (("epsilon_for_delta", lambda d: profiles.epsilon_for_delta(lambda x: profiles.laplace_delta(x, eps0), d)),
                          ("laplace_epsilon", lambda d: float(profiles.laplace_epsilon(d, eps0)))):
        for d in deltas:
            e = inverse(d)
            # Brent's root is within xtol = 1e-12 of the crossing, where the curve's slope is at most 1/2
            reached = _mp_laplace_delta(e, eps0) <= d + 1e-12
            smallest = _mp_laplace_delta(e - 1e-9, eps0) > d if e > 0 else _mp_laplace_delta(0.0, eps0) <= d
            checks.append(holds(reached and smallest, observed=float(f"{e:.6g}"), reference=d,
                                detail=f"{name}: returned epsilon / delta: delta(eps) <= delta{' < delta(eps - 1e-9)' if e > 0 else ' at eps = 0'}"))
    return all_of(*checks)


epsilon_for_delta.mutant("profiles.epsilon_for_delta", "flat part left to Brent's method (< for <=)")(
    edit("if at(hi) < d:", "if at(hi) <= d:"))


epsilon_for_delta.mutant("profiles.epsilon_for_delta", "bisection keeps the points where the curve equals delta (< for <=)")(
    edit("(lo, mid) if at(mid) <= d", "(lo, mid) if at(mid) < d"))


epsilon_for_delta.mutant("profiles.epsilon_for_delta", "search bracket not doubled past epsilon = 1")(
    edit("hi = min(2.0 * hi, epsilon_max)", "hi = min(1.0 * hi + 0.0, epsilon_max); break"))


epsilon_for_delta.mutant("profiles.epsilon_for_delta", "root tolerance 1e-6 in place of xtol")(
    edit("xtol=xtol, rtol", "xtol=1e-6, rtol"))


epsilon_for_delta.mutant("profiles.laplace_epsilon", "the factor 2 of the exponent (eps - eps0) / 2 dropped")(
    edit("eps0 + 2.0 * np.log1p(-d)", "eps0 + np.log1p(-d)"))


@claim("curves/gaussian-epsilon", item="Inverse of the Gaussian privacy curve",
       statement="The inverse of the Gaussian curve is exact for deltas from 1e-300 to 0.9, at the given mu, "
                 "at mu = 6 and at mu = 2e4 (epsilon about 2e8): 0 when $\\delta \\ge \\delta(0)$, and the root however far above "
                 "$\\max(1, \\mu)$ it lies.",
       method="the definition checked on both sides with the curve in 60-digit arithmetic (mpmath): "
              "at most delta within the root's tolerance above the returned epsilon, above delta a relative 1e-9 below it")
def gaussian_epsilon(mu: float = 0.3) -> Evidence:
    checks = []
    for m in (float(mu), 6.0, 2e4):  # mu >= 1e4: the form eps = mu (mu / 2 + z)
        deltas = np.array([1e-300, 1e-40, 1e-6, 0.05, 0.2, 0.9])
        eps = profiles.gaussian_epsilon(deltas, m)
        for d, e in zip(deltas, eps):
            # Brent's root is within xtol = 1e-13 plus 4 ulps of the crossing: the curve is at most
            # delta that far above the returned epsilon, and above delta a relative 1e-9 below it
            reached = float(_mp_gaussian_delta(e * (1 + 1e-12) + 2e-13, m)) <= d
            smallest = (float(_mp_gaussian_delta(e * (1 - 1e-9), m)) > d if e > 0
                        else float(_mp_gaussian_delta(0.0, m)) <= d)
            checks.append(holds(reached and smallest, observed=float(f"{e:.6g}"), reference=float(d),
                                detail=f"mu {m:g}: returned epsilon / delta: delta(eps) <= delta"
                                       f"{' < delta(eps (1 - 1e-9))' if e > 0 else ' at eps = 0'}"))
    return all_of(*checks)


gaussian_epsilon.mutant("profiles.gaussian_epsilon", "root tolerance 1e-6")(
    edit("xtol=1e-13", "xtol=1e-6"))


gaussian_epsilon.mutant("profiles.gaussian_epsilon", "0 returned only below delta(0) (the boundary moved)")(
    edit("if f(0.0) <= 0.0:", "if f(0.0) <= -1.0:"))


gaussian_epsilon.mutant("profiles.gaussian_epsilon", "bracket starts at 1 and is never widened")(
    edit("hi *= 2.0", "break"))
