"""Figure claims judged over many instances and wide step grids: the region where each holds.

Appendix B leaves λ, η, T and whether η is shared across the compared curves open, and each
figure of :mod:`verify.figures` is one instance per curve.  A *region study* judges a
figure's caption claims over a distribution of instances instead:

- every instance draws W's rotation, c, ĉ and û (``separated`` rows, c and ĉ uniform on the
  sphere, :mod:`verify.model.instance`); λ's shape is drawn too where it is not 1/k
  (:data:`~verify.regions.spec.LAMBDA_SHAPES`);
- every curve (an activation, frozen against joint ĉ, a level α of ‖Π_W u‖, or the linearized
  student against the fine-tuned one) runs on a step grid η·d spanning
  at least 10³, from above every curve's noise limit down;
- two protocols: one step *shared* by the compared curves, and the step *tuned* per curve
  (the best of the grid);
- online SGD (:mod:`verify.simulate.passage`: the compiled chain, many chains per call on
  all cores) where it is affordable, and below that the population flow
  (:func:`verify.simulate.drift.population_flow`, ĉ trained), used only after the two
  agree at the grid points where both run (the gap is reported per figure).

Per claim and cell (η, ξ, λ shape, protocol) the fraction of instances where the claim
holds gets a Clopper–Pearson interval; the *region* is the cells where the interval lies
above ½.  :mod:`verify.regions.runner` writes ``regions.json``, one heat map per figure and
the README's summary in words; :mod:`verify.regions.judge` measures which per-instance
quantity predicts the failures.
"""

from verify.regions.spec import STUDIES, StudySpec

__all__ = ["STUDIES", "StudySpec"]
