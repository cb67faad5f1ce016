"""Every registered claim of every chapter runs and passes at its default inputs, can fail (each
mutant of the code it checks makes it fail), and prints the same record on every machine; the
registry machinery reports failures honestly."""

import numpy as np
import pytest

from privlib import claims
from privlib.verify import ledger
from privlib.verify import evidence

ALL = claims.registry()
MUTANTS = [(c, m) for c in ALL for m in c.mutants]



def test_registry_is_not_empty():
    assert len(ALL) >= 5


@pytest.mark.parametrize("c", ALL, ids=[c.id for c in ALL])
def test_claim_passes(c):
    result = c()
    assert result.passed, str(result)
    assert result.status in claims.KINDS


@pytest.mark.parametrize("c, m", MUTANTS, ids=[f"{c.id}:{m.target}:{m.description}" for c, m in MUTANTS])
def test_mutant_is_killed(c, m):
    outcome = c.run_mutant(m)
    assert outcome.killed, f"claim {c.id} still passes with mutant {m.description!r} of {m.target}"


@pytest.mark.parametrize("c", ALL, ids=[c.id for c in ALL])
def test_verified_claims_declare_mutants(c):
    if c.kind == "illustrated":
        return
    assert c.mutants, f"{c.id} is {c.kind} but declares no mutant: it has not shown that it can fail"
    assert c.checks


def _ulp_noise(seed):
    rng = np.random.default_rng(seed)

    def perturb(a):
        a = np.array(a, dtype=float)
        noise = rng.integers(-4, 5, size=a.shape) * np.spacing(np.where(np.isfinite(a), a, 0.0))
        return np.where(np.isfinite(a), a + noise, a)

    return perturb


@pytest.mark.parametrize("c", ALL, ids=[c.id for c in ALL])
def test_record_does_not_depend_on_rounding_noise(c, monkeypatch):
    """The displayed record (text and HTML) is the same when every compared value moves by a few
    ulps, as it does on a CPU that takes another SIMD path."""
    plain = c()
    for seed in (1, 2):
        monkeypatch.setattr(evidence, "_PERTURB", _ulp_noise(seed))
        noisy = c()
        monkeypatch.setattr(evidence, "_PERTURB", None)
        assert str(noisy) == str(plain)
        assert noisy._repr_html_() == plain._repr_html_()


def test_close_detects_a_mismatch():
    ev = claims.close([1.0, 2.0], [1.0, 2.1], atol=0.01, rtol=0.0)
    assert not ev.passed and ev.margin == pytest.approx(0.1)
    assert ev.observed == 2.0 and ev.reference == 2.1


def test_close_takes_elementwise_tolerances_of_one_element():
    """A list of one tolerance (a claim's first element of an elementwise atol) is a tolerance."""
    ev = claims.close([1.0], [1.0 + 1e-9], rtol=0.0, atol=[1e-8])
    assert ev.passed and ev.rule == "atol 1e-08"
    assert not claims.close([1.0], [1.1], rtol=0.0, atol=[1e-8]).passed


def test_close_shows_no_rounding_noise():
    ev = claims.close([1e-17, 1.0, 3.0 + 4e-16], [0.0, 1.0, 3.0], atol=1e-12)
    assert ev.passed and ev.observed == pytest.approx(3.0) and ev.reference == 3.0
    assert ev.comparison() == "3 vs 3 (3 values; every error within atol 1e-12 + rtol 1e-09)"
    assert claims.close([-6.9e-18], [0.0], atol=1e-9).comparison().startswith("0 vs 0")


def test_at_most_reports_smallest_slack_and_violation():
    ev = claims.at_most([0.1, 0.5, 0.3], [0.2, 0.4, 0.9])
    assert not ev.passed and ev.margin == pytest.approx(-0.1)
    assert claims.at_most([0.1], [0.1]).passed
    tight = claims.at_most([0.3, 0.5 - 1e-17, 0.1], [0.9, 0.5, 0.5])
    assert tight.passed and tight.margin == 0 and tight.observed == pytest.approx(0.5) and "slack 0" in tight.comparison()


def test_nan_in_a_check_is_an_error_not_a_pass():
    with pytest.raises(ValueError, match="NaN"):
        claims.close([np.nan], [1.0])
    with pytest.raises(ValueError, match="empty"):
        claims.at_most([], [])


def test_all_of_keeps_each_checks_numbers_with_its_own_detail():
    ev = claims.all_of(claims.close(1.0, 1.0, detail="first"), claims.at_most(2.0, 3.0, detail="second"),
                       claims.holds(True, observed=7, reference=7, detail="third"))
    assert ev.passed and [p.detail for p in ev.parts] == ["first", "second", "third"]
    record = claims.ClaimResult("curves/x", "curves", "X", "s", "m", "verified", {}, ev, 0.0)
    lines = str(record).splitlines()
    assert any("check 1" in line and "1 vs 1" in line and "[first]" in line for line in lines)
    assert any("check 2" in line and "2 <= 3" in line and "[second]" in line for line in lines)
    failed = claims.all_of(claims.close(1.0, 1.0), claims.close(1.0, 2.0, detail="bad"))
    assert not failed.passed and failed.reference == 2.0


def test_claim_registration_validates_metadata():
    with pytest.raises(ValueError, match="claim id"):
        claims.claim("nopaper", item="x", statement="x", method="x")
    with pytest.raises(ValueError, match="kind"):
        claims.claim("000/x", item="x", statement="x", method="x", kind="proved")
    with pytest.raises(TypeError, match="every input needs a default"):
        claims.claim("000/needs-default", item="x", statement="x", method="x")(lambda n: claims.holds(True))
    with pytest.raises(ValueError, match="not a function of privlib"):
        claims.claim("000/x", item="x", statement="x", method="x", checks=("profiles.no_such_function",))


def test_a_mutant_replaces_the_function_everywhere_and_is_restored():
    from privlib import profiles

    original = profiles.hockey_stick
    c = claims.Claim("curves/toy", "curves", "toy", "s", "m", "verified",
                     lambda: claims.close(profiles.hockey_stick([0.5, 0.5], [0.5, 0.5], 0.0), 0.0, atol=1e-12))
    c.mutant("profiles.hockey_stick", "adds one")(lambda f: (lambda *a, **k: f(*a, **k) + 1.0))
    c.mutant("profiles.hockey_stick", "raises")(lambda f: (lambda *a, **k: 1 / 0))
    assert c().passed and c.checks == ("profiles.hockey_stick",)
    outcomes = c.mutation_test()
    assert [o.killed for o in outcomes] == [True, True] and outcomes[1].how == "raised ZeroDivisionError"
    assert profiles.hockey_stick is original


def test_a_surviving_mutant_is_reported():
    c = claims.Claim("curves/toy2", "curves", "toy", "s", "m", "verified", lambda: claims.holds(True))
    c.mutant("profiles.hockey_stick", "never called")(lambda f: (lambda *a, **k: 0.0))
    assert c.mutation_test()[0].how == "survived" and not c.mutation_test()[0].killed


def test_unknown_claim_and_unknown_input():
    with pytest.raises(KeyError, match="no claim"):
        claims.get("000/does-not-exist")
    with pytest.raises(TypeError, match="has no input"):
        claims.run("curves/laplace-closed-form", not_an_input=1)


def test_claim_inputs_override_defaults_and_failures_show_as_failed():
    r = claims.run("curves/laplace-closed-form", mechanism_epsilon=0.3)
    assert r.inputs["mechanism_epsilon"] == 0.3 and r.passed
    failing = claims.ClaimResult("curves/x", "curves", "X", "s", "m", "verified", {},
                                 claims.close(1.0, 2.0), 0.0)
    assert failing.status == "FAILED" and "FAILED" in str(failing)


def test_integers_print_as_integers():
    assert claims.fmt(20141201) == "20141201" and claims.fmt(np.int64(7)) == "7" and claims.fmt(2.0) == "2"
    assert claims.fmt(0.1234567) == "0.123457"


def test_record_html_has_anchor_and_math():
    r = claims.ClaimResult("000/thm-4-1", "000", "X", "bound $e^{\\epsilon}$", "m", "verified", {},
                           claims.holds(True), 0.0)
    html = r._repr_html_()
    assert "id='claim-000-thm-4-1'" in html and r"\(e^{\epsilon}\)" in html
    page = ledger._Ledger([ledger.LedgerEntry(
        claims.ClaimResult("000/thm-4-1", "000", "term $r^2/n$", "bound $e^{\\epsilon}$", "m", "verified", {},
                           claims.holds(True), 0.0), ()), ])._repr_html_()
    assert r'term <span class="math inline">\(r^2/n\)</span> [000/thm-4-1]</a>' in page
    assert r"\(e^{\epsilon}\)" in page and "$" not in page


def test_record_renders_markdown_and_links_names():
    r = claims.ClaimResult("000/thm-4-1", "000", "X", "bound $e^{\\epsilon}$", "against `theorem_deltas` and "
                           "`statistical.subsampling_delta`, *exact*", "verified", {}, claims.holds(True), 0.0,
                           checks=("statistical.theorem_deltas",), mutants=2)
    html = r._repr_html_()
    assert "`" not in html and "<em>exact</em>" in html
    assert "href='../book/api.html#privlib.papers.statistical.theorem_deltas'><code>theorem_deltas</code>" in html
    assert "href='../book/api.html#privlib.papers.statistical.subsampling_delta'" in html
    assert "href='../book/ledger.html#ledger-claim-000-thm-4-1'>see the ledger</a>" in html
    assert html.startswith("<details class='claim claim-pass") and "<summary>" in html


def test_ledger_lists_every_claim_with_status_and_mutants():
    import json

    entries = ledger.ledger_entries("curves")
    text = ledger.ledger_markdown(entries)
    for e in entries:
        assert e.result.item in text
    assert f"{len(entries)} claims" in text and "mutants killed" in text
    data = json.loads(ledger.ledger_json(entries))
    assert {"id", "status", "checks", "mutants_total", "mutants_killed"} <= set(data[0])
    html = ledger.ledger("curves")._repr_html_()
    assert "privacy_curves.html#claim-curves-" in html


def test_coverage_table_lists_every_claim_and_refuses_unknown_ones():
    items = [("Laplace", "curves/laplace-closed-form"),
             ("Gaussian", ["curves/gaussian-closed-form", "curves/gaussian-tail-precision"]),
             ("supremum", "curves/hockey-stick-supremum"), ("tail", "curves/gaussian-dominates-laplace-tail"),
             ("null atoms and inverses", ["curves/hockey-stick-null-atoms", "curves/epsilon-for-delta",
                                          "curves/gaussian-epsilon"]),
             ("discrete mechanisms", "curves/discrete-mechanism-masses"),
             ("Remark 1", ("not checked", "qualitative"))]
    text = str(claims.coverage("curves", items))
    assert "| Remark 1 | not checked | - | qualitative |" in text and 'href="#claim-curves-laplace-closed-form"' in text
    with pytest.raises(ValueError, match="missing from the table"):
        claims.coverage("curves", items[:2])
    with pytest.raises(ValueError, match="unknown claims"):
        claims.coverage("curves", [*items, ("x", "curves/nope")])


@pytest.mark.parametrize("claim_id, inputs", [
    ("003/thm-a-2-lattice", {"beta": 1.2}),       # strong coupling: the free box reaches the bound beyond eps = 1
    ("004/chernoff", {"epsilon": 0.01}),          # small rate: the slope is measured where n * rate >= 25
    ("notions/counterexamples", {"epsilon": 0.1}),
    ("001/prop-7", {"seed": 109}),                # a random channel with an output no input produces
], ids=lambda x: x if isinstance(x, str) else ",".join(f"{k}={v}" for k, v in x.items()))
def test_claims_hold_at_parameters_a_reader_may_choose(claim_id, inputs):
    """Claims shown with the reader's parameters keep their thresholds valid away from the defaults."""
    result = claims.run(claim_id, **inputs)
    assert result.passed, str(result)
