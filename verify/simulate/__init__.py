"""Monte Carlo and online SGD for the paper's model (issue 4).

- :mod:`~verify.simulate.montecarlo`: Φ, the projected gradient and h(m) from fresh
  samples, with standard errors, in memory-bounded chunks;
- :mod:`~verify.simulate.sgd`: online SGD (eq. (4), Appendix B) in every mode of
  :mod:`~verify.simulate.modes`, on the ``full`` engine (:mod:`~verify.simulate.full`),
  the exact ``reduced`` one (:mod:`~verify.simulate.reduced`) or that chain ``compiled``
  with numba (:mod:`~verify.simulate.compiled`);
- :mod:`~verify.simulate.drift`: the population dynamics of eq. (6);
- :mod:`~verify.simulate.trajectory`: recorded runs and their CSV/NPZ files.
"""

from verify.simulate.drift import DriftPath, drift_map, drift_ode, recovery_times
from verify.simulate.modes import ENGINES, MODES, Mode, get_mode
from verify.simulate.montecarlo import CHUNK_BYTES, GradientEstimate, estimate_gradient
from verify.simulate.sgd import SGD_ENGINES, simulate
from verify.simulate.trajectory import Trajectory, load_trajectory, save_trajectory

__all__ = [
    "CHUNK_BYTES", "ENGINES", "MODES", "SGD_ENGINES", "DriftPath", "GradientEstimate", "Mode", "Trajectory",
    "drift_map", "drift_ode", "estimate_gradient", "get_mode", "load_trajectory", "recovery_times",
    "save_trajectory", "simulate",
]
