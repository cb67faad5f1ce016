"""Every registered claim of every chapter runs and passes at its default inputs; the registry
machinery reports failures honestly."""

import numpy as np
import pytest

from privlib import claims

ALL = claims.registry()


def test_registry_is_not_empty():
    assert len(ALL) >= 5


@pytest.mark.parametrize("c", ALL, ids=[c.id for c in ALL])
def test_claim_passes(c):
    result = c()
    assert result.passed, str(result)
    assert result.status in claims.KINDS


def test_close_detects_a_mismatch():
    ev = claims.close([1.0, 2.0], [1.0, 2.1], atol=0.01, rtol=0.0)
    assert not ev.passed and ev.margin == pytest.approx(0.1)
    assert ev.observed == 2.0 and ev.reference == 2.1


def test_at_most_reports_smallest_slack_and_violation():
    ev = claims.at_most([0.1, 0.5, 0.3], [0.2, 0.4, 0.9])
    assert not ev.passed and ev.margin == pytest.approx(-0.1)
    assert claims.at_most([0.1], [0.1]).passed


def test_nan_in_a_check_is_an_error_not_a_pass():
    with pytest.raises(ValueError, match="NaN"):
        claims.close([np.nan], [1.0])
    with pytest.raises(ValueError, match="empty"):
        claims.at_most([], [])


def test_claim_registration_validates_metadata():
    with pytest.raises(ValueError, match="claim id"):
        claims.claim("nopaper", item="x", statement="x", method="x")
    with pytest.raises(ValueError, match="kind"):
        claims.claim("000/x", item="x", statement="x", method="x", kind="proved")
    with pytest.raises(TypeError, match="every input needs a default"):
        claims.claim("000/needs-default", item="x", statement="x", method="x")(lambda n: claims.holds(True))


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


def test_ledger_lists_every_claim_with_status():
    results = claims.run_all("curves")
    text = claims.ledger_markdown(results)
    for r in results:
        assert r.item in text
    assert f"{len(results)} claims" in text
