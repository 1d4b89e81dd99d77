"""One place for the domains of counts, seeds and real parameters, and for size limits.

Every public function of the suite and every command-line option validates through these
helpers, so one rule holds everywhere:

- a *count* is an integer (``int`` or a NumPy integer; never ``bool``, never a float such as
  ``3.0``: a float count is almost always a unit error, ``1e12`` samples among them);
- a *seed* is a non-negative integer (what ``numpy.random.SeedSequence`` accepts) or None;
- a *real* is a finite ``int``/``float`` inside its stated range (NaN and ±inf never pass).

Size limits.  Some sizes are valid but would run for hours or exhaust memory without a
word (``--terms 100000``, ``--dps 100000``, ``--replicas 1e9``, ``--k 50000 --d 100000``).
Those sizes have a limit here, stated with its reason; beyond it the call is refused with
:class:`SizeLimitError` in one line, unless the caller opted in with
:func:`allow_large_sizes` (the command line's ``--force``).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import numbers
from collections.abc import Iterator

import numpy as np

from verify.base.errors import InvalidParameterError, VerifyInputError


class SizeLimitError(InvalidParameterError):
    """A valid size beyond the suite's stated limit (pass ``--force`` to run it anyway)."""


#: name -> (limit, reason).  Each limit is a size the suite has not been measured to finish
#: in reasonable time or memory on the 2-core, 24 GiB development machine.
SIZE_LIMITS: dict[str, tuple[int, str]] = {
    "terms": (1_000, "Hermite/series terms: quadrature cost grows like terms x dps"),
    "dps": (2_000, "decimal digits: mpmath cost grows faster than dps^1.5"),
    "samples": (10**9, "Monte-Carlo samples: about 10 min of work per 10^9 at k = 50"),
    "replicas": (100_000, "SGD replicas: state grows linearly, per-step cost too"),
    "replica_steps": (10**10, "steps x replicas: hours of work beyond this"),
    "recorded_values": (10**8, "records x replicas: m, <c, c_hat> and the loss of every replica at every "
                        "record are kept, about 5 GB at the limit"),
    "k": (4_096, "neurons: the k x k Gram and O(k^2) population sums"),
    "d": (10**7, "dimension: the R^d engines store d-vectors per replica"),
    "k_times_d": (5 * 10**7, "k x d: the base weights W are stored dense (400 MB at the limit)"),
}

#: Largest ξ and |λ_i|: their squares and fourth powers enter float64 sums (ξ⁴λ² in h(m));
#: beyond 1e6 the model is the GLM limit of Remark 15 to 1e-12 anyway, and 1e300 overflows.
MAX_SCALE = 1e6

_ALLOW_LARGE: contextvars.ContextVar[bool] = contextvars.ContextVar("verify_allow_large", default=False)


@contextlib.contextmanager
def allow_large_sizes(allow: bool = True) -> Iterator[None]:
    """Within this block, sizes beyond :data:`SIZE_LIMITS` are run instead of refused."""
    token = _ALLOW_LARGE.set(allow)
    try:
        yield
    finally:
        _ALLOW_LARGE.reset(token)


def large_sizes_allowed() -> bool:
    """Whether the caller opted in to sizes beyond the limits (``--force``)."""
    return _ALLOW_LARGE.get()


def within_limit(name: str, value: int, error: type[VerifyInputError] = SizeLimitError) -> int:
    """``value`` if it is within ``SIZE_LIMITS[name]`` (or large sizes are allowed)."""
    limit, reason = SIZE_LIMITS[name]
    if value > limit and not _ALLOW_LARGE.get():
        cls = error if issubclass(error, SizeLimitError) else SizeLimitError
        raise cls(f"{name} = {value} exceeds the limit {limit} ({reason}); "
                  "pass --force (or use verify.base.validation.allow_large_sizes()) to run it anyway")
    return value


def within_memory(nbytes: int, what: str) -> None:
    """Refuse work whose arrays alone need more memory than the process may map (``ulimit -v``):
    found before any of them is allocated, as one line naming the limit, instead of a MemoryError
    after the work (--force does not lift it)."""
    # lazy: resource is POSIX only, and needed only to size work against ulimit -v
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY and nbytes > soft:
        raise InvalidParameterError(f"{what} needs about {nbytes / 2**20:.0f} MiB, more than this process's "
                                    f"memory limit of {soft / 2**20:.0f} MiB (ulimit -v); give smaller sizes "
                                    "or allow more memory")


def count(name: str, value: object, minimum: int = 1, limit: str | None = None,
          error: type[VerifyInputError] = InvalidParameterError) -> int:
    """``value`` as an ``int`` >= ``minimum``; with ``limit``, also within ``SIZE_LIMITS[limit]``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(f"{name} must be an integer >= {minimum}, got {value!r}"
                    + (" (a float is not a count)" if isinstance(value, float) else ""))
    if value < minimum:
        raise error(f"{name} must be an integer >= {minimum}, got {value!r}")
    if limit is not None:
        within_limit(limit, int(value))
    return int(value)


def seed(value: object, error: type[VerifyInputError] = InvalidParameterError,
         allow_none: bool = True) -> int | None:
    """A non-negative integer seed (what ``SeedSequence`` accepts), or None for fresh entropy."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        none = " or None" if allow_none else ""
        raise error(f"seed must be a non-negative integer{none}, got {value!r}")
    return int(value)


def real(name: str, value: object, low: float = -math.inf, high: float = math.inf,
         low_open: bool = False, high_open: bool = False, why: str = "",
         error: type[VerifyInputError] = InvalidParameterError) -> float:
    """``value`` as a finite float in the interval from ``low`` to ``high`` (open where said)."""
    lo, hi = "(" if low_open else "[", ")" if high_open else "]"
    domain = f"a finite real number in {lo}{low:g}, {high:g}{hi}" + (f" ({why})" if why else "")
    if isinstance(value, bool) or not isinstance(value, numbers.Real | np.floating):
        raise error(f"{name} must be {domain}, got {value!r}")
    x = float(value)
    inside = (x > low if low_open else x >= low) and (x < high if high_open else x <= high)
    if not math.isfinite(x) or not inside:
        raise error(f"{name} must be {domain}, got {value!r}")
    return x
