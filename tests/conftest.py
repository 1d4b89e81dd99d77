"""Test configuration: Hypothesis profiles and an isolated cache.

Profiles (select with VERIFY_HYPOTHESIS_PROFILE; the default is ``ci`` so that a
plain ``pytest`` can never fail by chance):

- ``dev``: few examples, fast feedback;
- ``ci``: derandomized (so CI cannot fail by chance), no deadline, print_blob;
- ``thorough``: many examples, for ``tox -e thorough``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=10, deadline=None)
settings.register_profile(
    "ci", max_examples=25, deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=300, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("VERIFY_HYPOTHESIS_PROFILE", "ci"))

if os.environ.get("MUTANT_UNDER_TEST") == "stats":
    # mutmut maps each test to the functions it calls by recording calls in this process; work
    # run under verify.base.budget.guarded happens in a forked worker, whose calls it never saw,
    # so the existence step's functions had "no tests".  While mutmut gathers that map, the
    # guarded work runs inline (each mutant is then run with the guard as usual).
    # Tracing every call makes that work several times slower, so the steps' CPU allowances are
    # widened too; a test that depends on an allowance running out is not in mutmut's selection.
    from verify.base import budget
    from verify.claims import steps

    budget._IN_WORKER = True
    _allowance = steps.Budget.limit
    steps.Budget.limit = lambda self, step: 20 * _allowance(self, step)


@pytest.fixture(autouse=True, scope="session")
def isolated_cache(tmp_path_factory):
    """Every test session computes cold, in its own cache directory, with its own cache key
    (outside that directory, as the cache requires; the user's own key is never touched)."""
    path = tmp_path_factory.mktemp("verify-cache")
    key = tmp_path_factory.mktemp("verify-key") / "cache.key"
    old = {name: os.environ.get(name) for name in ("VERIFY_CACHE_DIR", "VERIFY_CACHE_KEY")}
    os.environ["VERIFY_CACHE_DIR"] = str(path)
    os.environ["VERIFY_CACHE_KEY"] = str(key)
    yield path
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
