"""What a region study is, as data: its curves, claims, axes and the two tiers' sizes."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: λ's shapes (Appendix B never gives λ): ``equal`` λ = 1/k·1 (the figures' choice), ``signed``
#: λ_i = ±1/k with signs drawn per instance (λ·c and λ·ĉ, which set h(0), then vary far more).
LAMBDA_SHAPES = ("equal", "signed")
#: A run that has not reached its level by this many times its population-flow time is
#: counted as not reaching it at that step (noise-limited: the drift no longer sets its course).
HORIZON_OVER_FLOW = 4.0
#: The population flow stands in for SGD below the smallest SGD step only when, at the two
#: smallest SGD steps of each curve, the median |t_SGD/t_flow − 1| is at most this.
FLOW_GAP_TOLERANCE = 0.25
#: Two-sided confidence of the Clopper–Pearson interval on each cell's fraction of instances:
#: a cell is in a claim's region when the interval lies above 1/2 (20 of 20 instances give a
#: lower end of 0.77, 17 of 20 of 0.55); about one cell in a hundred may be misplaced, which
#: is why the README states regions, not single cells.
CONFIDENCE = 0.99


@dataclass(frozen=True)
class Curve:
    """One compared curve: ``label`` in the plots, trained in ``mode`` with ``activation``;
    ``xi_over_sqrt_k`` (Fig. 6's curves) sets the curve's own ξ = xi_over_sqrt_k·√k instead of
    the cell's."""

    label: str
    activation: str
    mode: str
    xi_over_sqrt_k: float | None = None


@dataclass(frozen=True)
class Claim:
    """A caption claim judged per instance at each cell of ``figure``'s ξ values.

    ``kind``: ``reach`` (every curve reaches ``level``), ``ratio`` (every curve reaches it and
    the slowest time is within ``bound`` × the fastest), ``sooner`` (curve ``first`` reaches
    it before curve ``second``), ``grows`` (the last curve takes at least ``bound`` × the first
    curve's time, which must be finite; never reaching counts as longer) or ``monotone`` (no
    curve is faster than the one before it, in the curves' order)."""

    figure: str
    text: str
    kind: str
    bound: float | None = None
    first: str | None = None
    second: str | None = None


@dataclass(frozen=True)
class Tier:
    k: int
    d: int
    instances: int
    #: log10(η·d) from ``grid_top`` down to ``grid_bottom`` in steps of ``grid_step``
    grid_top: float
    grid_bottom: float
    grid_step: float
    #: SGD runs only where HORIZON_OVER_FLOW × the flow time is at most this many samples
    sgd_cap: int

    @property
    def grid(self) -> list[float]:
        n = round((self.grid_top - self.grid_bottom) / self.grid_step)
        return [10 ** (self.grid_top - i * self.grid_step) for i in range(n + 1)]


@dataclass(frozen=True)
class StudySpec:
    """A study: its ``curves`` compared at ``level`` (and ``levels`` recorded), per ξ of ``xis``
    (figure name -> ξ as a function of k), for ``claims``."""

    name: str
    paper: str
    curves: tuple[Curve, ...]
    level: float
    xis: dict[str, tuple[str, object]]  # cell label -> (figure, ξ(k))
    claims: tuple[Claim, ...]
    tiers: dict[str, Tier]
    choices: dict[str, str]

    def xi_values(self, k: int) -> dict[str, float]:
        return {label: float(f(k)) for label, (_, f) in self.xis.items()}

    def figure_of(self, xi_label: str) -> str:
        return self.xis[xi_label][0]


#: Every study's sizes: quick (k = 10, d = 100, 20 instances, half decades of eta*d from 10^5 to
#: 10^-2) and full (k = 20, d = 400, 24 instances, quarter decades).
TIERS = {
    "quick": Tier(k=10, d=100, instances=20, grid_top=5.0, grid_bottom=-2.0, grid_step=0.5, sgd_cap=400_000),
    "full": Tier(k=20, d=400, instances=24, grid_top=5.0, grid_bottom=-2.0, grid_step=0.25,
                 sgd_cap=8_000_000),
}

_COMMON_CHOICES = {
    "model": "Appendix D.1's normalised model with u_hat projected onto span(W)-perp (eq. (4)), the one "
    "the theorems and the population flow describe",
    "start": "m_0 = sign(h(0)) / sqrt(d) (Theorems 11-13's start), u_hat_0 otherwise uniform; c_hat_0 the "
    "instance's",
    "instance": "separated rows, c and c_hat uniform on S^{k-1}, one draw per instance seed shared by every "
    "curve, xi and lambda shape (paired comparisons)",
    "c_step": "c_hat's step equals u_hat's",
    "horizon": f"a run that has not reached the level by {HORIZON_OVER_FLOW:g} x its population-flow time "
    "counts as not reaching it at that step",
    "replicas": "one SGD run per (instance, curve, step): the instances carry the spread",
}

ACTIVATIONS = (
    Curve("relu", "relu", "joint"),
    Curve("sigmoid", "sigmoid", "joint"),
    Curve("quadratic", "quadratic", "joint"),
    Curve("He3", "he3", "joint"),
)

ACTIVATION_STUDY = StudySpec(
    name="activations",
    paper="Figs. 1(a)/4(b) and 4(a): the time to weak recovery is not sensitive to the activation",
    curves=ACTIVATIONS,
    level=0.5,
    xis={"1": ("fig4a", lambda k: 1.0), "sqrt(k)/2": ("fig1a_4b", lambda k: math.sqrt(k) / 2)},
    claims=(
        Claim("fig4a", "every activation reaches weak recovery |m| >= 1/2", "reach"),
        Claim("fig4a", "steps to weak recovery agree across activations within a factor 3", "ratio", 3.0),
        Claim("fig1a_4b", "every activation reaches weak recovery |m| >= 1/2", "reach"),
        Claim("fig1a_4b", "steps to weak recovery agree across activations within a factor 5", "ratio", 5.0),
    ),
    tiers=TIERS,
    choices={
        **_COMMON_CHOICES,
        "curves": "ReLU, sigmoid, quadratic, He3 trained jointly (Appendix B's four)",
    },
)

JOINT_FROZEN_STUDY = StudySpec(
    name="joint-frozen",
    paper="Fig. 2: freezing c_hat leads to somewhat longer time scales than joint training",
    curves=(Curve("joint", "relu", "joint"), Curve("frozen", "relu", "frozen")),
    level=0.9,
    xis={
        "0.32": ("fig2", lambda k: 10**-0.5),
        "1": ("fig2", lambda k: 1.0),
        "3.2": ("fig2", lambda k: 10**0.5),
    },
    claims=(
        Claim("fig2", "joint and frozen runs both reach m >= 0.9", "reach"),
        Claim(
            "fig2",
            "joint training reaches m >= 0.9 sooner than frozen c_hat",
            "sooner",
            first="joint",
            second="frozen",
        ),
    ),
    tiers=TIERS,
    choices={
        **_COMMON_CHOICES,
        "activation": "ReLU (Appendix B's)",
        "xi": "'xi = Theta(1)': 10^(-1/2), 1 and 10^(1/2)",
    },
)

PLATEAU_STUDY = StudySpec(
    name="plateau",
    paper="Fig. 1(b) = Fig. 6: the plateau before weak recovery lengthens as xi grows (He3, joint training)",
    curves=tuple(
        Curve(label, "he3", "joint", r)
        for label, r in (
            ("xi=sqrt(k)/4", 0.25),
            ("xi=sqrt(k)/2", 0.5),
            ("xi=sqrt(k)", 1.0),
            ("xi=sqrt(10k)", 10**0.5),
            ("xi=10sqrt(k)", 10.0),
        )
    ),
    level=0.5,
    xis={"sqrt(k) x {1/4, 1/2, 1, sqrt(10), 10}": ("fig1b_6", lambda k: 1.0)},
    claims=(
        Claim(
            "fig1b_6",
            "the plateau before weak recovery (first |m| >= 1/2) does not shorten as xi grows",
            "monotone",
        ),
        Claim("fig1b_6", "at the largest xi the plateau is at least 3x the smallest xi's", "grows", 3.0),
        Claim("fig1b_6", "every xi reaches weak recovery |m| >= 1/2", "reach"),
    ),
    tiers=TIERS,
    choices={
        **_COMMON_CHOICES,
        "activation": "He3 (Appendix B's choice for Fig. 6)",
        "xi": "xi / sqrt(k) in {1/4, 1/2, 1, sqrt(10), 10} (Appendix B's grid, as the figures module)",
        "output scale": "no 1/xi factor (Appendix D.1): with it a shared eta would shrink the effective "
        "step like xi^-4, which the tuned protocol undoes anyway",
    },
)

STUDIES: dict[str, StudySpec] = {s.name: s for s in (ACTIVATION_STUDY, JOINT_FROZEN_STUDY, PLATEAU_STUDY)}
