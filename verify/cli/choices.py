"""The names the command line offers as choices, importable without the modules that define them.

Building the parser (``verify --help``, ``verify hermite --help``, a usage error) must not load
SymPy, NumPy, numba or mpmath, yet the registries these names key (:data:`verify.bench.BENCHMARKS`,
:data:`verify.model.instance.GENERATORS`, :data:`verify.simulate.modes.MODES`, ...) live in modules
that import them.  Each tuple here mirrors one such definition, in its order; ``tests/
test_cli_startup.py`` checks every one against the module it mirrors, so they cannot drift apart.
Names a light module already defines (the studies of :mod:`verify.regions`) are imported from it
instead.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence

#: :data:`verify.bench.BENCHMARKS`, in its order.
BENCHMARK_NAMES = ("hermite", "simulator", "regions", "certified")
#: :data:`verify.model.instance.GENERATORS`, in its order.
GENERATOR_NAMES = ("orthonormal", "separated", "claim2", "glm")
#: :data:`verify.simulate.modes.MODES`, in its order.
MODE_NAMES = ("frozen", "joint", "unconstrained", "nonorthogonal", "linearized", "scratch")
#: :data:`verify.simulate.sgd.SGD_ENGINES`.
SGD_ENGINES = ("auto", "compiled", "full", "reduced")
#: :data:`verify.model.hermite.METHODS`.
HERMITE_METHODS = ("auto", "exact", "quadrature")
#: :data:`verify.model.hermite.MIN_DPS`: the fewest decimal digits a precision may ask for.
MIN_DPS = 15


class RegistryNames(Sequence[str]):
    """A registry's names, sorted, as argparse ``choices``: from the registry itself once its module
    is loaded (a test may add an entry to it), else from the light tuple that mirrors it."""

    def __init__(self, module: str, attribute: str, names: Sequence[str]):
        self._module, self._attribute, self._names = module, attribute, tuple(names)

    def _current(self) -> list[str]:
        loaded = sys.modules.get(self._module)
        return sorted(self._names if loaded is None else getattr(loaded, self._attribute))

    def __getitem__(self, index):
        return self._current()[index]

    def __len__(self) -> int:
        return len(self._current())

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __contains__(self, name) -> bool:
        return name in self._current()


#: The benchmarks ``verify bench --only`` accepts.
BENCHMARKS = RegistryNames("verify.bench", "BENCHMARKS", BENCHMARK_NAMES)
