"""Shared pieces of the fuzz layer (tests/test_*_fuzz.py): strategies for valid inputs at the
extremes and the properties every public function must keep on them.

Valid inputs at the extremes never give NaN, an infinity where the value is finite, a
probability outside [0, 1], or a silent 0 where the value is representable; invalid inputs raise
ValueError/TypeError naming the argument. Each fuzz test is bounded in time (few examples,
derandomized in CI by the profile in conftest.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st

#: settings for one fuzz test: a bounded number of examples, no per-example deadline
FUZZ = settings(max_examples=60, deadline=None)

epsilons = st.floats(1e-12, 50.0)
small_epsilons = st.sampled_from([1e-12, 1e-8, 1e-3])
probabilities = st.floats(1e-12, 1.0 - 1e-12)
sizes = st.sampled_from([1, 2, 3, 10, 100, 10**4, 10**6, 10**7])


def assert_finite(value, what="value"):
    arr = np.asarray(value, dtype=float)
    assert not np.isnan(arr).any(), f"{what} is NaN"
    assert np.isfinite(arr).all(), f"{what} is infinite where it is finite"


def assert_probability(value, what="probability"):
    arr = np.asarray(value, dtype=float)
    assert not np.isnan(arr).any(), f"{what} is NaN"
    assert ((arr >= 0) & (arr <= 1)).all(), f"{what} outside [0, 1]: {arr[(arr < 0) | (arr > 1)][:3]}"


def assert_rejects(func, *args, name: str, **kwargs):
    """``func(*args, **kwargs)`` raises ValueError or TypeError whose message names ``name``."""
    with pytest.raises((ValueError, TypeError)) as info:
        func(*args, **kwargs)
    assert name in str(info.value), f"the error does not name {name!r}: {info.value}"


# --- every public function at the extremes, one forked child per call ---------------------------
#
# ``api_calls()`` lists, for every public function of privlib.core and privlib.papers (their
# ``__all__``), one valid baseline call and its variations: each argument replaced in turn by an
# extreme value (tiny and huge numbers up to the largest double, huge integers, 10^5-element
# arrays: a finite value or a clean refusal is expected) or by an invalid one (NaN, booleans,
# strings, None, non-integers, wrong shapes: a ValueError/TypeError naming an argument is
# expected). ``run_isolated`` makes each call in a forked child limited in address space and CPU
# time and classifies the outcome. ``python tests/fuzzing.py`` prints the figures.

import importlib  # noqa: E402
import inspect  # noqa: E402
import itertools  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import pickle  # noqa: E402
import resource  # noqa: E402
import select  # noqa: E402
import signal  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

#: outcome classes, in report order
OUTCOMES = ("value", "refused", "ugly", "silent", "accepted", "hang", "memory")
MODULES = ("core.chtp", "core.mechanisms", "core.notions", "core.profiles", "papers.intervals",
           "papers.pufferfish", "papers.leakage", "papers.minimax", "papers.affiliation",
           "papers.statistical")


class Lazy:
    """An argument built in the child (channels, models, large arrays)."""

    def __init__(self, make, label):
        self.make, self.label = make, label

    def __repr__(self):
        return self.label


@dataclass
class Call:
    target: str            # "module.function" or "module.Class.method"
    kwargs: dict
    kind: str              # "baseline", "extreme" or "invalid"
    argument: str = ""     # the varied argument
    names: tuple = ()      # argument names an error message may name
    inf_ok: bool = False   # an infinite result is the true value here

    def label(self) -> str:
        args = ", ".join(f"{k}={_short(v)}" for k, v in self.kwargs.items())
        return f"{self.target}({args})"


def _short(value) -> str:
    if isinstance(value, np.ndarray):
        return f"array{value.shape}" if value.size > 6 else np.array2string(value, precision=3, separator=",")
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _resolve(value):
    if isinstance(value, Lazy):
        return value.make()
    if isinstance(value, dict):
        return {k: _resolve(x) for k, x in value.items()}
    return value


def _callable(target: str):
    import privlib
    parts = target.split(".")
    obj = getattr(privlib, parts[0])
    for part in parts[1:]:
        obj = getattr(obj, part)
    return obj


def _numbers(result):
    """The float arrays inside a result (tuples, lists, dicts, dataclasses with arrays)."""
    if isinstance(result, (bool, np.bool_, str)) or result is None:
        return []
    if isinstance(result, (int, float, np.number)):
        return [np.asarray(result, dtype=float)]
    if isinstance(result, np.ndarray):
        return [result.astype(float)] if result.dtype.kind in "fiu" else []
    if isinstance(result, dict):
        return [a for x in result.values() for a in _numbers(x)]
    if isinstance(result, (list, tuple)):
        return [a for x in result[:1000] for a in _numbers(x)]
    for attr in ("table", "log_table", "log_prob", "log_weights"):
        try:  # a lazy table (GeometricCount) may be too large to build: not the call's result
            value = getattr(result, attr, None)
        except Exception:  # noqa: BLE001
            continue
        if isinstance(value, np.ndarray):
            return [value.astype(float)]
    return []


def _child(call: Call):
    func = _callable(call.target)
    kwargs = _resolve(call.kwargs)
    if call.target.endswith(")"):
        raise AssertionError
    try:
        result = func(**kwargs)
    except MemoryError:
        return ("memory", "MemoryError")
    except RecursionError as exc:
        return ("ugly", f"RecursionError: {exc}"[:200])
    except (ValueError, TypeError) as exc:
        message = str(exc)
        if call.kind == "invalid":
            named = any(name in message for name in (call.argument,) + call.names)
        else:
            named = any(name in message for name in call.names + (call.argument,))
        clean = named and "\n" not in message and len(message) < 400 and not message.startswith(
            ("operands could not", "could not broadcast", "setting an array element", "unsupported operand"))
        return ("refused" if clean else "ugly", f"{type(exc).__name__}: {message}"[:200])
    except Exception as exc:  # noqa: BLE001 - every other exception is an ugly error
        return ("ugly", f"{type(exc).__name__}: {exc}"[:200])
    if call.kind == "invalid":
        return ("accepted", f"returned {_short(result)}")
    arrays = _numbers(result)
    for arr in arrays:
        if np.isnan(arr).any():
            return ("silent", "NaN in the result")
        if not call.inf_ok and np.isinf(arr).any():
            return ("silent", "infinite value in the result")
    return ("value", "")


def run_isolated(call: Call, *, memory: int = 2 * 1024**3, cpu: float = 10.0) -> tuple[str, str]:
    """Make ``call`` in a forked child with ``RLIMIT_AS = memory`` bytes and ``cpu`` seconds of
    CPU time; return its outcome class and a one-line detail."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            soft = max(1, math.ceil(cpu))
            resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
            import warnings
            warnings.simplefilter("ignore")
            try:
                outcome = _child(call)
            except MemoryError:
                outcome = ("memory", "MemoryError")
            except BaseException as exc:  # noqa: BLE001
                outcome = ("ugly", f"{type(exc).__name__}: {exc}"[:200])
            os.write(write, pickle.dumps(outcome))
        finally:
            os._exit(0)
    os.close(write)
    chunks, deadline = [], time.monotonic() + 3 * cpu + 5
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([read], [], [], max(left, 0))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if chunks:
        try:
            return pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001
            pass
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        return ("hang", f"more than {cpu:g} s of CPU time")
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT):
        return ("memory", f"killed by signal {os.WTERMSIG(status)} (allocation failed)")
    return ("ugly", f"child ended with status {status}")


def _lazy(expr: str) -> Lazy:
    """An argument given as an expression over the privlib modules, evaluated in the child."""
    def make():
        import privlib
        env = {name: getattr(privlib, name) for name in ("notions", "minimax", "leakage", "statistical",
                                                         "affiliation", "intervals", "pufferfish", "profiles")}
        env["np"] = np
        return eval(expr, env)  # noqa: S307 - expressions written in this file
    return Lazy(make, expr)


_GEO = _lazy("notions.geometric_count(4, 1.0)")
_RR = _lazy("notions.randomized_response(3, 1.0)")
_IID = _lazy("notions.iid_model(4, 0.3)")
_IID3 = _lazy("notions.iid_model(3, 0.3)")
_FC = _lazy("minimax.geometric_count_channel(3, 1.0)")
_P2 = [[0.7, 0.3], [0.2, 0.8]]
_PRIOR4 = [0.1, 0.2, 0.3, 0.4]
_CH4 = _lazy("np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.4, 0.3, 0.2], [0.2, 0.1, 0.4, 0.3], [0.3, 0.2, 0.1, 0.4]])")
_CDF = _lazy("lambda x: np.clip(x, 0.0, 1.0) ** 2")
_ISING3 = _lazy("affiliation.ising_prior(3, [(0, 1), (1, 2)], 0.5)")
_MASK = [True, True, False, False]
_LEVELS = _lazy("pufferfish.level_set_pairs(2)[1]")

#: one valid call of every public function (keyword arguments), by "module.function"
BASELINES: dict[str, dict] = {
    # core.chtp
    "chtp.min_weighted_test_error": dict(p=[0.5, 0.5], q=[0.2, 0.8], w=1.0),
    "chtp.tradeoff_curve": dict(p=[0.5, 0.5], q=[0.2, 0.8], type1=0.1),
    "chtp.conditional_tv": dict(p=[0.5, 0.5], q=[0.2, 0.8], w=[1.0, 0.5]),
    "chtp.hard_chtp_sup": dict(p=[0.5, 0.5], q=[0.2, 0.8], gamma=0.3),
    "chtp.soft_chtp_sup": dict(p=[0.5, 0.5], q=[0.2, 0.8], gamma=0.3),
    # core.mechanisms
    "mechanisms.LaplaceMechanism": dict(epsilon=1.0, sensitivity=1.0),
    "mechanisms.LaplaceMechanism.logpdf": dict(self=_lazy("notions.__class__"), y=0.5),
    "mechanisms.GaussianMechanism": dict(sigma=1.0, sensitivity=1.0),
    "mechanisms.RandomizedResponse": dict(epsilon=1.0, k=2),
    "mechanisms.GeometricMechanism": dict(epsilon=1.0, sensitivity=1),
    # core.notions
    "notions.FiniteChannel": dict(table=_lazy("np.array([[0.7, 0.3], [0.2, 0.8]])"), K=2, n=1),
    "notions.CountChannel": dict(log_table=_lazy("np.log(np.array([[0.7, 0.3], [0.2, 0.8]]))")),
    "notions.GeometricCount": dict(n=4, epsilon=1.0),
    "notions.DataModel": dict(n=2, K=2, log_prob=_lazy("np.log(np.full(4, 0.25))")),
    "notions.randomized_response": dict(n=3, epsilon=1.0, K=2),
    "notions.geometric_count": dict(n=4, epsilon=1.0),
    "notions.gaussian_count": dict(n=4, sigma=1.0),
    "notions.subsampled_count": dict(n=4, m=2),
    "notions.explicit_model": dict(prob=[0.1, 0.2, 0.3, 0.4], n=2, K=2),
    "notions.product_model": dict(p=[0.3, 0.6, 0.5]),
    "notions.iid_model": dict(n=4, p=0.3),
    "notions.exchangeable_model": dict(log_weights=[-1.0, -2.0, -1.5]),
    "notions.beta_binomial_model": dict(n=4, a=2.0, b=3.0),
    "notions.clones_model": dict(n=4, p=0.3),
    "notions.mixture_model": dict(n=4, p=0.3, rho=0.5),
    "notions.ising_model": dict(n=3, edges=[(0, 1), (1, 2)], coupling=0.5, field=0.0),
    "notions.ising_chain_model": dict(n=5, coupling=0.5, field=0.0),
    "notions.conditional_laws": dict(channel=_GEO, model=_IID, i=0),
    "notions.dp_epsilon": dict(channel=_GEO),
    "notions.dp_delta": dict(channel=_GEO, epsilon=0.5),
    "notions.tv_level": dict(channel=_GEO),
    "notions.kl_level": dict(channel=_GEO),
    "notions.chtp_level": dict(channel=_RR, gamma=0.5),
    "notions.inferential_privacy": dict(channel=_GEO, model=_IID, i=0),
    "notions.pufferfish_loss": dict(channel=_RR, models=_IID3),
    "notions.pml": dict(channel=_GEO, model=_IID, i=0),
    "notions.pml_sup": dict(channel=_GEO, model=_IID, i=0),
    "notions.maximal_leakage": dict(channel=_GEO, model=_IID, i=0),
    "notions.leakage_capacity": dict(channel=_GEO, model=_IID, i=0),
    "notions.statistical_delta": dict(channel=_GEO, model=_IID, epsilon=0.5, i=0),
    "notions.log_statistical_delta": dict(channel=_GEO, model=_IID, epsilon=0.5, i=0),
    "notions.all_notions": dict(channel=_RR, model=_IID3, i=0, epsilon=0.5, gamma=0.5),
    "notions.standard_mechanisms": dict(n=3, epsilon=1.0, sigma=1.0),
    "notions.standard_models": dict(n=3, p=0.3, rho=0.5, coupling=0.5),
    "notions.correlation_sweep": dict(channel=_GEO, p=0.3, rho=[0.0, 0.5], i=0, epsilon=0.5),
    # core.profiles
    "profiles.privacy_loss": dict(p=[0.5, 0.5], q=[0.2, 0.8]),
    "profiles.log_privacy_loss": dict(log_p=[-0.7, -0.7], log_q=[-1.6, -0.2]),
    "profiles.hockey_stick": dict(p=[0.5, 0.5], q=[0.2, 0.8], epsilon=0.5),
    "profiles.hockey_stick_rows": dict(p=_P2, q=[[0.2, 0.8], [0.7, 0.3]], epsilon=0.5),
    "profiles.log_hockey_stick": dict(log_p=[-0.7, -0.7], log_q=[-1.6, -0.2], epsilon=0.5),
    "profiles.laplace_delta": dict(epsilon=0.5, mechanism_epsilon=1.0),
    "profiles.gaussian_delta": dict(epsilon=0.5, mu=1.0),
    "profiles.laplace_epsilon": dict(delta=0.1, mechanism_epsilon=1.0),
    "profiles.epsilon_for_delta": dict(curve=_lazy("lambda e: float(profiles.gaussian_delta(e, 1.0))"), delta=0.1),
    "profiles.gaussian_epsilon": dict(delta=0.1, mu=1.0),
    "profiles.neyman_pearson_power": dict(null=[0.5, 0.5], alt=[0.2, 0.8], alpha=0.1),
    # papers.intervals
    "intervals.multiplicative_distance": dict(mu=[0.5, 0.5], nu=[0.2, 0.8]),
    "intervals.lipschitz_loss": dict(P=_P2, distances=[[0.0, 1.0], [1.0, 0.0]]),
    "intervals.density_bounds": dict(densities=_P2, epsilon=1.0, diameter=1.0),
    "intervals.laplace_sum_bounds": dict(t=[0.5, 1.5], n=3, epsilon=1.0),
    "intervals.laplace_sum_marginal": dict(t=[0.5, 1.5], weights=[0.25, 0.5, 0.25], epsilon=1.0),
    "intervals.randomized_response_bounds": dict(n=[1, 5], epsilon=1.0),
    "intervals.power_bounds": dict(alpha=0.1, epsilon=1.0, diameter=1.0),
    "intervals.neyman_pearson_power": dict(null=[0.5, 0.5], alt=[0.2, 0.8], alpha=0.1),
    "intervals.neyman_pearson_test": dict(null=[0.5, 0.5], alt=[0.2, 0.8], alpha=0.1),
    "intervals.laplace_power": dict(alpha=0.1, epsilon=1.0),
    "intervals.density_power": dict(t=_lazy("np.linspace(-12, 12, 2001)"),
                                    null=_lazy("np.exp(-np.linspace(-12, 12, 2001) ** 2 / 2) / np.sqrt(2 * np.pi)"),
                                    alt=_lazy("np.exp(-(np.linspace(-12, 12, 2001) - 1) ** 2 / 2) / np.sqrt(2 * np.pi)"),
                                    alpha=0.1),
    "intervals.posterior_bounds": dict(prior_density=[0.2, 0.3, 0.5], epsilon=1.0, diameter=1.0),
    "intervals.clamped_count_posterior": dict(theta=[0.5, 2.0], t=2.0),
    "intervals.clamped_count_predictive": dict(t=[0.5, 2.0]),
    "intervals.clamped_count_posterior_mean": dict(t=[0.5, 2.0]),
    "intervals.clamped_count_ratio_range": dict(t=[0.5, 2.0]),
    # papers.pufferfish
    "pufferfish.density_ratio_metric": dict(mu=[0.5, 0.5], nu=[0.2, 0.8]),
    "pufferfish.conditional_output_laws": dict(P=_CH4, prior=_PRIOR4, secret=_MASK),
    "pufferfish.pufferfish_loss": dict(P=_CH4, priors=[_PRIOR4], pairs=_LEVELS),
    "pufferfish.kifer_machanavajjhala_loss": dict(P=_CH4, priors=[_PRIOR4], pairs=_LEVELS),
    "pufferfish.pufferfish_graph": dict(priors=[_PRIOR4], pairs=_LEVELS),
    "pufferfish.lipschitz_constant": dict(P=_CH4, nodes=[_PRIOR4, [0.25] * 4], distances=[[0.0, 1.0], [1.0, 0.0]]),
    "pufferfish.posterior_odds_ratio": dict(P=_CH4, prior=_PRIOR4, secret_i=_MASK, secret_j=[False, False, True, True]),
    "pufferfish.secret_posterior_dR": dict(P=_CH4, prior=_PRIOR4, partition=[0, 0, 1, 1]),
    "pufferfish.pufferfish_power_bounds": dict(alpha=0.1, epsilon=1.0),
    "pufferfish.level_set_pairs": dict(n=2, alphabet=2),
    "pufferfish.laplace_sum_pufferfish_loss": dict(n=4, epsilon=1.0, rho=0.5),
    # papers.leakage
    "leakage.min_entropy": dict(p=_PRIOR4),
    "leakage.renyi_inf_divergence": dict(p=[0.5, 0.5], q=[0.2, 0.8]),
    "leakage.posterior": dict(prior=_PRIOR4, channel=_CH4),
    "leakage.pml": dict(prior=_PRIOR4, channel=_CH4),
    "leakage.pml_sup": dict(prior=_PRIOR4, channel=_CH4),
    "leakage.leakage_capacity": dict(channel=_CH4),
    "leakage.attribute_law": dict(prior=_PRIOR4, kernel=[[1, 0], [1, 0], [0, 1], [0, 1]]),
    "leakage.posterior_min_entropy": dict(prior=_PRIOR4, channel=_CH4),
    "leakage.posterior_min_entropy_from_likelihood": dict(prior=_PRIOR4, log_likelihood=_lazy("np.log(np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.4, 0.3, 0.2], [0.2, 0.1, 0.4, 0.3], [0.3, 0.2, 0.1, 0.4]]))")),
    "leakage.capacity_entropy_bound": dict(attribute_min_entropy=2.0, capacity=1.0),
    "leakage.smallest_disclosure_cost": dict(prior=_PRIOR4),
    "leakage.singling_out_threshold": dict(prior=_PRIOR4),
    "leakage.threshold_query_leakage": dict(n=10, p=0.3, answer=0),
    "leakage.threshold_query_chernoff_bound": dict(n=10, p=0.3),
    "leakage.laplace_count_pml": dict(n=5, theta=0.3, epsilon=1.0, y=[0.0, 2.5]),
    "leakage.laplace_count_pml_sup": dict(theta=0.3, epsilon=1.0),
    "leakage.laplace_count_pml_bound": dict(p=0.3, epsilon=1.0),
    "leakage.dp_budget_for_pml": dict(pml_target=0.5, p=0.3),
    "leakage.randomized_response_epsilon_for_pml": dict(pml_target=0.5, prior=[0.3, 0.7]),
    "leakage.calibrate_to_pml": dict(channel_of=_lazy("lambda e: np.array([[np.exp(e), 1.0], [1.0, np.exp(e)]]) / (1 + np.exp(e))"),
                                     prior=[0.3, 0.7], pml_target=0.5, low=1e-6, high=20.0),
    "leakage.product_prior": dict(marginals=[[0.3, 0.7], [0.5, 0.5]]),
    "leakage.database_dp_epsilon": dict(channel=_CH4, alphabet_size=2),
    "leakage.free_lunch_epsilon": dict(channel=_CH4),
    "leakage.entry_pml": dict(prior=_PRIOR4, channel=_CH4, i=0, alphabet_size=2),
    "leakage.conditional_pml": dict(prior=[[0.1, 0.2], [0.3, 0.4]], channel=_lazy("np.full((2, 2, 3), 1 / 3)")),
    "leakage.conditional_entry_pml": dict(prior=_PRIOR4, channel=_CH4, i=0, alphabet_size=2),
    "leakage.correlated_count_pml_sup": dict(n=5, theta=0.3, epsilon=1.0, rho=0.5),
    "leakage.quantized_mean_min_entropy": dict(n=5, support=[0.0, 1.0], probs=[0.3, 0.7], cells=10),
    "leakage.relative_frequencies_min_entropy": dict(n=5, group=0.3, rate_in_group=0.5, rate_outside=0.2, cells=10),
    "leakage.set_partitions": dict(k=4),
    # papers.minimax
    "minimax.release_one_channel": dict(K=2, n=3),
    "minimax.geometric_count_channel": dict(n=3, eps0=1.0),
    "minimax.canonical_dp_pair": dict(eps=1.0, delta=0.1),
    "minimax.dp_epsilon": dict(channel=_FC),
    "minimax.dp_delta": dict(channel=_FC, eps=0.5),
    "minimax.tv_privacy": dict(channel=_FC),
    "minimax.kl_privacy": dict(channel=_FC),
    "minimax.chtp_level": dict(channel=_FC, gamma=0.5),
    "minimax.chtp_beta_bound": dict(eps=1.0, delta=0.1, gamma=0.5),
    "minimax.chtp_beta_exact": dict(eps=1.0, delta=0.1, gamma=0.5),
    "minimax.dp_from_chtp": dict(beta=0.3, gamma=0.5),
    "minimax.tv_contraction_bound": dict(alpha=0.3, tv_p=0.5, n=10),
    "minimax.tv_contraction_bound_product": dict(alpha=0.3, tv_records=[0.5, 0.2]),
    "minimax.binomial_tv": dict(n=10, p0=0.5, p1=0.6),
    "minimax.lower_bound_nonprivate_mean": dict(n=100, r=1.0),
    "minimax.expmech_packing_error": dict(n=100, p=0.5, alpha=1.0, card_V=10, delta=0.0),
    "minimax.lower_bound_tv_mean": dict(n=100, alpha=0.1, r=1.0, k=4.0),
    "minimax.lower_bound_tv_support": dict(n=100, alpha=0.1),
    "minimax.theorem3_error_bound": dict(n=30, p=0.5, alpha=0.5, delta=0.0, card_V=10),
    "minimax.lower_bound_dp_mean": dict(n=100, d=1, alpha=1.0, delta=0.0, r=1.0, k=4.0),
    "minimax.lower_bound": dict(privacy="dp", n=100, d=1, alpha=1.0),
    "minimax.table1_lower_slopes": dict(k=4.0),
    "minimax.noise_coefficient": dict(mechanism="laplace", n=100, d=1, alpha=1.0),
    "minimax.optimal_truncation": dict(r=1.0, k=4.0, c_W=0.1),
    "minimax.project_l2_ball": dict(X=[[0.5, 2.0], [3.0, 0.1]], T=1.0),
    "minimax.private_mean": dict(X=[[0.5, 2.0], [3.0, 0.1]], mechanism="laplace", alpha=1.0, T=1.0, rng=0),
    "minimax.risk_bound_31": dict(r=1.0, k=4.0, n=100, T=1.0, c_W=0.1),
    "minimax.two_point_risk": dict(p=0.1, r=1.0, k=4.0, n=100, T=1.0, c_W=0.1),
    "minimax.worst_two_point_risk": dict(r=1.0, k=4.0, n=100, d=1, alpha=1.0, mechanism="laplace", n_grid=200),
    "minimax.simulate_two_point_risk": dict(p=0.1, r=1.0, k=4.0, n=20, d=1, alpha=1.0, mechanism="laplace", T=1.0, reps=50, rng=0),
    "minimax.minimax_rate": dict(privacy="dp", n=100, d=1, alpha=1.0),
    "minimax.rate_exponents": dict(k=4.0),
    "minimax.table1_slopes": dict(k=4.0),
    "minimax.private_histogram": dict(X=[[0.1], [0.5], [0.7]], m=4, alpha=1.0, rng=0),
    "minimax.histogram_risk_exact": dict(cdf=_CDF, int_g2=4.0, n=100, m=4, alpha=1.0),
    "minimax.histogram_optimal_bins": dict(cdf=_CDF, int_g2=4.0, n=100.0, alpha=1.0, m_max=200),
    "minimax.bump_packing_density": dict(x=[0.1, 0.5], signs=[1, -1, 1, 1], width=0.25),
    "minimax.hamming_packing": dict(m=6, min_distance=2),
    "minimax.support_expmech_log_density": dict(t=[0.5, 1.0], X=[0.2, 0.9], alpha=1.0),
    "minimax.support_dp_expmech": dict(X=[0.2, 0.9], alpha=1.0, rng=0),
    # papers.affiliation
    "affiliation.states": dict(n=3),
    "affiliation.ising_prior": dict(n=3, edges=[(0, 1), (1, 2)], coupling=0.5, field=0.0),
    "affiliation.product_prior": dict(p=[0.3, 0.6]),
    "affiliation.clones_prior": dict(n=3, p=0.3),
    "affiliation.parity_prior": dict(k=2, m=2, mixture=0.1),
    "affiliation.grid_edges": dict(rows=2, cols=3),
    "affiliation.is_affiliated": dict(prior=_ISING3),
    "affiliation.pairwise_covariances": dict(prior=_ISING3),
    "affiliation.inferential_privacy": dict(prior=_ISING3, epsilon=1.0, i=0),
    "affiliation.worst_case_lp": dict(prior=_ISING3, epsilon=1.0, i=0),
    "affiliation.exchangeable_inferential_privacy": dict(log_weights=[-1.0, -2.0, -1.5], epsilon=1.0),
    "affiliation.exchangeable_worst_case_lp": dict(log_weights=[-1.0, -2.0, -1.5], epsilon=1.0),
    "affiliation.parity_biased_privacy": dict(k=2, m=2, epsilon=1.0),
    "affiliation.tree_inferential_privacy": dict(parents=[-1, 0, 0, 1], beta=0.5, epsilon=1.0),
    "affiliation.complete_tree_parents": dict(branching=2, depth=3),
    "affiliation.complete_tree_inferential_privacy": dict(branching=2, depth=3, beta=0.5, epsilon=1.0),
    "affiliation.regular_tree_sup": dict(degree=3, beta=0.5, epsilon=1.0),
    "affiliation.tree_spontaneous_privacy": dict(degree=3, beta=0.5),
    "affiliation.tree_enforceability_bound": dict(degree=3, beta=0.5, epsilon=1.0),
    "affiliation.influence_matrix": dict(prior=_ISING3),
    "affiliation.ising_influence": dict(beta=0.5, degree=3),
    "affiliation.theorem_4_2_bound": dict(gamma=[[0.0, 0.2], [0.2, 0.0]], epsilon=1.0),
    "affiliation.row_sum_bound": dict(gamma=[[0.0, 0.2], [0.2, 0.0]], epsilon=1.0),
    "affiliation.policy_epsilon": dict(nu=1.0, delta=0.1),
    "affiliation.coupling_at_row_sum": dict(d=4, delta=0.5),
    "affiliation.log_expectation_shift_bound": dict(gamma=[[0.0, 0.2], [0.2, 0.0]], epsilon=1.0, f=[0.5, 0.2, 0.1, 0.3]),
    "affiliation.onsager_bound": dict(beta=0.3),
    "affiliation.lattice_centre_privacy": dict(rows=3, cols=3, beta=0.2, epsilon=1.0),
    # papers.statistical
    "statistical.log_binomial_pmf": dict(k=[0, 3], size=10, pi=0.3),
    "statistical.subsampling_laws": dict(n=20, m=5, pi=0.3),
    "statistical.likelihood_ratio": dict(j=[0, 2], n=20, m=5, pi=0.3),
    "statistical.subsampling_delta": dict(epsilon=0.5, n=20, m=5, pi=0.3),
    "statistical.log_subsampling_delta": dict(epsilon=0.5, n=20, m=5, pi=0.3),
    "statistical.pure_delta": dict(epsilon=0.5, n=20, pi=0.3),
    "statistical.log_pure_delta": dict(epsilon=0.5, n=20, pi=0.3),
    "statistical.theorem_thresholds": dict(epsilon=0.5, n=20, m=5, pi=0.3),
    "statistical.theorem_summands": dict(epsilon=0.5, n=20, m=5, pi=0.3),
    "statistical.theorem_deltas": dict(epsilon=0.5, n=20, m=5, pi=0.3),
    "statistical.chernoff_rate": dict(epsilon=0.5, pi=0.3),
    "statistical.noise_delta": dict(epsilon=0.5, n=20, pi=0.3, scale=1.0),
    "statistical.dp_delta": dict(epsilon=0.5, nu=1.0),
    "statistical.subsampling_utility_loss": dict(n=20, m=5, pi=0.3),
    "statistical.statistical_utility_loss": dict(n=20, m=5, pi=0.3),
    "statistical.noise_utility_loss": dict(scale=1.0),
    "statistical.equal_utility_scales": dict(n=20, m=5, pi=0.3),
    "statistical.laplace_sp_epsilon": dict(n=20, scale=1.0),
    "statistical.equal_utility_laplace_epsilon": dict(n=20, m=5, pi=0.3),
    "statistical.normal_approx_delta": dict(epsilon=0.5, n=20, pi=0.3, sigma=1.0),
    "statistical.lemma10_noise_level": dict(n=20, m=5, pi=0.3),
    "statistical.lemma10_delta": dict(epsilon=0.5, n=20, m=5, pi=0.3),
    "statistical.amplified_epsilon": dict(epsilon=0.5, lam=0.1),
    "statistical.output_densities": dict(t=[0.0, 5.0], n=20, pi=0.3, scale=1.0),
}
del BASELINES["mechanisms.LaplaceMechanism.logpdf"]

#: the cases of issue 21 (and their neighbours), called as they are
ISSUE_CASES: list[tuple[str, dict]] = [
    ("statistical.amplified_epsilon", dict(epsilon=800.0, lam=0.1)),
    ("leakage.laplace_count_pml_sup", dict(theta=0.3, epsilon=800.0)),
    ("statistical.chernoff_rate", dict(epsilon=800.0, pi=0.5)),
    ("statistical.theorem_thresholds", dict(epsilon=800.0, n=20, m=5, pi=0.3)),
    ("leakage.capacity_entropy_bound", dict(attribute_min_entropy=710.0, capacity=1.0)),
    ("profiles.gaussian_delta", dict(epsilon=0.5, mu=1e-300)),
    ("profiles.gaussian_delta", dict(epsilon=0.0, mu=1e-300)),
    ("minimax.table1_slopes", dict(k=4.0, delta=0.999999)),
    ("minimax.theorem3_error_bound", dict(n=30, p=0.5, alpha=0.5, delta=0.0, card_V=100)),
    ("minimax.worst_two_point_risk", dict(r=1e300, k=4.0, n=100, d=1, alpha=1.0, mechanism="laplace", n_grid=200)),
    ("profiles.epsilon_for_delta", dict(curve=_lazy("lambda e: float('nan')"), delta=0.1)),
    ("profiles.log_hockey_stick", dict(log_p=[700.0, -1.0], log_q=[-0.7, -0.7], epsilon=0.5)),
    ("minimax.hamming_packing", dict(m=20, min_distance=3)),
    ("affiliation.exchangeable_worst_case_lp", dict(log_weights=_lazy("np.zeros(10**5)"), epsilon=0.5)),
    ("affiliation.complete_tree_parents", dict(branching=2, depth=10**30)),
    ("notions.statistical_delta", dict(channel=_GEO, model=_IID, epsilon=_lazy("np.linspace(0, 5, 10**5)"))),
    ("notions.correlation_sweep", dict(channel=_GEO, p=0.3, rho=_lazy("np.linspace(0, 1, 10**5)"))),
    ("pufferfish.laplace_sum_pufferfish_loss", dict(n=4, epsilon=1.0, rho=_lazy("np.linspace(0, 1, 10**5)"))),
    ("statistical.noise_delta", dict(epsilon=_lazy("np.linspace(0, 5, 10**5)"), n=20, pi=0.3, scale=1.0)),
    ("minimax.release_one_channel", dict(K=1000, n=2)),
    ("minimax.chtp_level", dict(channel=_lazy("minimax.geometric_count_channel(20, 1.0)"), gamma=0.5)),
    ("affiliation.grid_edges", dict(rows=10**4, cols=10**4)),
    ("notions.ising_chain_model", dict(n=10**30, coupling=0.5)),
    ("notions.subsampled_count", dict(n=10**6, m=2)),
    ("notions.gaussian_count", dict(n=5, sigma=1e-300)),
    ("notions.ising_chain_model", dict(n=5, coupling=1e300)),
    ("affiliation.lattice_centre_privacy", dict(rows=3, cols=3, beta=1e12, epsilon=0.2)),
    ("notions.randomized_response", dict(n=2000, epsilon=1.0)),
    ("notions.chtp_level", dict(channel=None, gamma=0.5)),
    ("minimax.chtp_level", dict(channel=None, gamma=0.5)),
]

_HUGE_FLOATS = (0.0, 1e-300, 1e-12, 1.0 - 1e-12, 1.0, 709.8, 800.0, 1e300, 1.7e308, -1.0, np.inf)
_HUGE_INTS = (0, -1, 10**6, 10**9, 10**30)
_INVALID_NUMBERS = (np.nan, True, "yes", None)
_INVALID_INTS = (2.5, True, "3", None)


def _variations(name: str, base) -> list[tuple[str, object]]:
    """(kind, value) replacements for one argument whose baseline value is ``base``."""
    if name == "rng":
        return [("extreme", 0), ("invalid", -1), ("invalid", "yes"), ("invalid", 2.5)]
    if isinstance(base, (bool, np.bool_)):
        return [("invalid", "yes"), ("invalid", None)]
    if isinstance(base, str):
        return [("invalid", "no-such-option"), ("invalid", None)]
    if isinstance(base, int):
        return [("extreme", x) for x in _HUGE_INTS] + [("invalid", x) for x in _INVALID_INTS]
    if isinstance(base, float):
        out = [("extreme", x) for x in _HUGE_FLOATS] + [("invalid", x) for x in _INVALID_NUMBERS]
        # 10^5 values spread around the baseline (an array of epsilons, probabilities, ...)
        out.append(("extreme", Lazy(lambda b=base: b * np.linspace(0.5, 1.0, 10**5), f"{base:g}*linspace(0.5,1,10^5)")))
        return out
    if isinstance(base, list) and base and not isinstance(base[0], (tuple, bool)):
        arr = np.asarray(base, dtype=float)
        out = [("invalid", None), ("invalid", "yes"),
               ("invalid", np.where(np.arange(arr.size).reshape(arr.shape) == 0, np.nan, arr)),
               ("invalid", arr.ravel()[:-1] if arr.ndim == 1 else arr[:, :-1])]
        if arr.ndim == 1:
            out.append(("invalid", arr[:, None] * np.ones(3)))
        return out
    if isinstance(base, Lazy):
        return [("invalid", None), ("invalid", "yes")]
    return [("invalid", None)]


#: targets whose values legitimately hold infinities (log-probabilities of impossible events,
#: distances between unconnected nodes)
INF_OK = {"notions.clones_model", "notions.standard_models", "pufferfish.pufferfish_graph",
          "notions.DataModel", "notions.CountChannel", "notions.FiniteChannel", "notions.exchangeable_model"}
#: (target, argument) whose extremes legitimately give an infinity, each by its docstring: a log
#: of 0 (-inf), a budget or epsilon that is unbounded, or a value beyond the largest double that
#: the function documents as inf (bounds e^{eps d} p)
INF_OK_ARGUMENTS = {
    ("profiles.log_hockey_stick", "epsilon"),          # log delta = -inf beyond the largest loss
    ("notions.log_statistical_delta", "epsilon"),      # log delta = -inf beyond the largest loss
    ("statistical.log_subsampling_delta", "epsilon"),  # log 0
    ("statistical.log_subsampling_delta", "n"),
    ("statistical.log_binomial_pmf", "size"), ("statistical.log_binomial_pmf", "pi"),
    ("notions.mixture_model", "rho"),                  # clones: log-weights -inf off the ends
    ("leakage.dp_budget_for_pml", "pml_target"),       # inf when no noise is needed
    ("leakage.randomized_response_epsilon_for_pml", "pml_target"),
    ("intervals.density_bounds", "epsilon"), ("intervals.density_bounds", "diameter"),   # e^{eps d} p overflows
    ("intervals.posterior_bounds", "epsilon"), ("intervals.posterior_bounds", "diameter"),
    ("minimax.optimal_truncation", "c_W"),             # inf at c_W = 0: no noise, no truncation
    ("intervals.laplace_sum_bounds", "epsilon"),       # e^{eps n} overflows (log=True: its log)
}


#: (target, argument) of any length and shape: points of evaluation, samples, one value per
#: record; the "invalid" variations that only shorten the array or give it a second axis are
#: valid inputs there (a value or a clean refusal is expected, not a refusal)
SHAPE_FREE = {
    ("intervals.laplace_sum_bounds", "t"), ("intervals.laplace_sum_marginal", "t"),
    ("intervals.randomized_response_bounds", "n"), ("intervals.posterior_bounds", "prior_density"),
    ("intervals.density_bounds", "densities"),   # one column per output point: any number of them
    ("intervals.clamped_count_posterior", "theta"), ("intervals.clamped_count_predictive", "t"),
    ("intervals.clamped_count_posterior_mean", "t"), ("intervals.clamped_count_ratio_range", "t"),
    ("leakage.laplace_count_pml", "y"), ("minimax.tv_contraction_bound_product", "tv_records"),
    ("minimax.bump_packing_density", "x"), ("minimax.support_expmech_log_density", "t"),
    ("minimax.support_expmech_log_density", "X"), ("minimax.support_dp_expmech", "X"),
    ("minimax.project_l2_ball", "X"), ("minimax.private_mean", "X"),
    ("affiliation.product_prior", "p"), ("affiliation.exchangeable_inferential_privacy", "log_weights"),
    ("affiliation.exchangeable_worst_case_lp", "log_weights"),
    ("statistical.log_binomial_pmf", "k"), ("statistical.likelihood_ratio", "j"), ("statistical.output_densities", "t"),
    ("notions.correlation_sweep", "rho"), ("notions.product_model", "p"), ("notions.exchangeable_model", "log_weights"),
}


#: (target, argument) real by design though the baseline gives an integer (a bound, risk or rate
#: as a function of a real sample size or dimension, evaluated on ``np.logspace`` grids: each
#: docstring says "real >= 1"); a non-integer there is a valid input, not bad input accepted
REAL_VALUED = {
    ("minimax.tv_contraction_bound", "n"), ("minimax.lower_bound_tv_mean", "n"),
    ("minimax.lower_bound_tv_support", "n"), ("minimax.risk_bound_31", "n"), ("minimax.two_point_risk", "n"),
    ("minimax.histogram_risk_exact", "n"), ("minimax.noise_coefficient", "n"), ("minimax.noise_coefficient", "d"),
    ("minimax.worst_two_point_risk", "n"), ("minimax.worst_two_point_risk", "d"),
    ("minimax.minimax_rate", "n"), ("minimax.minimax_rate", "d"),
}


def _fractional(value) -> bool:
    return isinstance(value, float) and math.isfinite(value) and not value.is_integer()


def _optional(param) -> bool:
    """The argument's annotation admits None (``float | None``): None is a documented value."""
    return "None" in str(param.annotation)


def _reshaped(value) -> bool:
    """The variation is a NaN-free array: a shortened or two-axis copy of the baseline's."""
    return isinstance(value, np.ndarray) and value.dtype.kind == "f" and not np.isnan(value).any()


def api_calls() -> list[Call]:
    """Every call of the fuzz layer: baselines, issue cases, and one-argument variations."""
    calls = []
    for target, kwargs in BASELINES.items():
        params = inspect.signature(_callable(target)).parameters
        names = tuple(params)
        calls.append(Call(target, dict(kwargs), "baseline", names=names, inf_ok=target in INF_OK))
        for arg, base in kwargs.items():
            for kind, value in _variations(arg, base):
                if value is None and arg in params and (params[arg].default is None or _optional(params[arg])):
                    kind = "extreme"  # None is this argument's documented default or value
                if kind == "invalid" and (target, arg) in REAL_VALUED and _fractional(value):
                    kind = "extreme"  # real by design
                if kind == "invalid" and (target, arg) in SHAPE_FREE and _reshaped(value):
                    kind = "extreme"  # any length and shape is valid here
                inf_ok = (target in INF_OK or (target, arg) in INF_OK_ARGUMENTS
                          or (isinstance(value, float) and math.isinf(value)))
                calls.append(Call(target, {**kwargs, arg: value}, kind, arg, names, inf_ok))
    for target, kwargs in ISSUE_CASES:
        names = tuple(inspect.signature(_callable(target)).parameters)
        kind = "invalid" if any(x is None for x in kwargs.values()) else "extreme"
        arg = next((k for k, x in kwargs.items() if x is None), "")
        calls.append(Call(target, dict(kwargs), kind, arg, names))
    return calls


#: targets whose pairs of extremes legitimately give an infinity (by their docstrings): at m = n the
#: subsample is the data set, so some counts have log-probability -inf and equal utility needs no
#: noise (epsilon = inf)
PAIR_INF_OK = {"statistical.subsampling_laws", "statistical.equal_utility_laplace_epsilon"}


def _huge(value) -> bool:
    """An argument near the largest double or infinite: a result beyond it is an overflow of the
    true value."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= 1e300


def pair_calls() -> list[Call]:
    """Two arguments at their extremes at once (``api_calls`` varies one at a time), for every
    baseline: each pair of arguments, each pair of their extreme values (arrays of more than a
    thousand elements left out). A NaN is always a defect; an infinity is accepted where one of the
    two values is near the largest double (the true value may overflow) or where the target or
    argument admits it."""
    calls = []
    for target, kwargs in BASELINES.items():
        names = tuple(inspect.signature(_callable(target)).parameters)
        extremes = {arg: [value for kind, value in _variations(arg, base) if kind == "extreme" and not _large(value)]
                    for arg, base in kwargs.items()}
        for a, b in itertools.combinations(kwargs, 2):
            for va in extremes[a]:
                for vb in extremes[b]:
                    inf_ok = (target in INF_OK or target in PAIR_INF_OK or (target, a) in INF_OK_ARGUMENTS
                              or (target, b) in INF_OK_ARGUMENTS or _huge(va) or _huge(vb))
                    calls.append(Call(target, {**kwargs, a: va, b: vb}, "extreme", f"{a},{b}", names, inf_ok))
    return calls


def _large(value) -> bool:
    """More than a thousand elements (a lazy argument is made here to see)."""
    made = value.make() if isinstance(value, Lazy) else value
    return isinstance(made, np.ndarray) and made.size > 1000


def public_functions() -> set[str]:
    out = set()
    for module in MODULES:
        mod = importlib.import_module(f"privlib.{module}")
        for name in mod.__all__:
            obj = getattr(mod, name)
            if callable(obj) and getattr(obj, "__module__", "") == mod.__name__:
                out.add(f"{module.split('.')[1]}.{name}")
    return out


def run_all(calls, *, memory=2 * 1024**3, cpu=10.0, jobs=2, progress=None):
    """Outcome of every call, ``jobs`` children at a time."""
    results: list = [None] * len(calls)
    if jobs <= 1:
        for k, call in enumerate(calls):
            results[k] = run_isolated(call, memory=memory, cpu=cpu)
        return results
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(jobs) as pool:
        for k, outcome in enumerate(pool.map(lambda c: run_isolated(c, memory=memory, cpu=cpu), calls)):
            results[k] = outcome
    return results


def summary(calls, results) -> dict[str, int]:
    counts = {"calls": len(calls), **{name: 0 for name in OUTCOMES}}
    for outcome, _ in results:
        counts[outcome] += 1
    counts["clean"] = counts["value"] + counts["refused"]
    return counts


if __name__ == "__main__":
    import argparse
    import sys
    parser = argparse.ArgumentParser(description="Fork-per-call fuzz of privlib's public API: print the figures.")
    parser.add_argument("--cpu", type=float, default=10.0, help="CPU seconds per call")
    parser.add_argument("--memory", type=float, default=2.0, help="address-space limit per call, GB")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="substring of the targets to run")
    parser.add_argument("--show", default="ugly,silent,accepted,hang,memory", help="outcomes to list")
    parser.add_argument("--pairs", action="store_true", help="two arguments at their extremes at once (pair_calls)")
    args = parser.parse_args()
    calls = [c for c in (pair_calls() if args.pairs else api_calls()) if args.only in c.target]
    start = time.monotonic()
    results = run_all(calls, memory=int(args.memory * 1024**3), cpu=args.cpu, jobs=args.jobs)
    shown = set(args.show.split(","))
    for call, (outcome, detail) in zip(calls, results):
        if outcome in shown:
            print(f"{outcome:8s} {call.kind:8s} {call.label()}  -- {detail}")
    missing = public_functions() - set(BASELINES)
    if missing:
        print("not fuzzed:", ", ".join(sorted(missing)))
    counts = summary(calls, results)
    print(" ".join(f"{k}={v}" for k, v in counts.items()), f"({time.monotonic() - start:.0f} s wall)")
    sys.exit(0)
