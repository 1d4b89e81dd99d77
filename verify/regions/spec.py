"""What a region study is, as data: its curves, claims, axes and the two tiers' sizes."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
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
#: Independent SGD runs behind each instance's time at a tuned step: the tuned protocol judges an
#: instance from their median, so the one run that made a step the fastest does not decide alone
#: (replicas of one instance differed by 45-67 % in their tuned times).  Not a Tier field: the
#: sweep cache's key of the first runs stays the same.
REPLICAS = 5


@dataclass(frozen=True)
class Curve:
    """One compared curve: ``label`` in the plots, trained in ``mode`` with ``activation``;
    ``xi_over_sqrt_k`` (Fig. 6's curves) sets the curve's own ξ = xi_over_sqrt_k·√k instead of
    the cell's; ``alpha`` (Fig. 5) draws the teacher with ‖Π_W u‖ = alpha.

    A curve with no population flow of its own (α > 0, where Assumption 2 fails; the linearized
    student) names a ``yardstick``: an earlier curve whose flow gives its start m₀ and its
    horizon, ``horizon_factor`` × the yardstick's.  Below its smallest SGD step its time is
    unknown, never the yardstick's."""

    label: str
    activation: str
    mode: str
    xi_over_sqrt_k: float | None = None
    alpha: float | None = None
    yardstick: str | None = None
    horizon_factor: float = 1.0


def curve_params(curve: Curve) -> dict:
    """``curve`` as a task parameter: its fields less those at their defaults (a curve's sweep
    cache key does not change when a field is added)."""
    defaults = Curve("", "", "")
    return {
        name: value
        for name, value in dataclasses.asdict(curve).items()
        if name in ("label", "activation", "mode") or value != getattr(defaults, name)
    }


@dataclass(frozen=True)
class Claim:
    """A caption claim judged per instance at each cell of ``figure``'s ξ values.

    ``kind``: ``reach`` (every curve reaches ``level``), ``ratio`` (every curve reaches it and
    the slowest time is within ``bound`` × the fastest), ``sooner`` (series ``first`` reaches
    it before series ``second``), ``grows`` (the last curve takes at least ``bound`` × the first
    curve's time, which must be finite; never reaching counts as longer), ``monotone`` (no
    curve is faster than the one before it, in the curves' order) or ``loss_above`` (curve
    ``first``'s population loss at the end of its run is at least ``bound`` × curve
    ``second``'s, both run for the same number of samples at the same step).

    A series is a curve's label (its |⟨û_t, u⟩|) or ``LABEL:c`` (its |⟨ĉ_t, c⟩|).  ``level``
    defaults to the study's; ``curves`` restricts reach/ratio to some curves."""

    figure: str
    text: str
    kind: str
    bound: float | None = None
    first: str | None = None
    second: str | None = None
    level: float | None = None
    curves: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.kind in ("sooner", "loss_above") and (self.first is None or self.second is None):
            raise ValueError(f"a {self.kind} claim names its first and second series: {self.text!r}")
        if self.kind in ("ratio", "grows", "loss_above") and self.bound is None:
            raise ValueError(f"a {self.kind} claim has a bound: {self.text!r}")

    @property
    def pair(self) -> tuple[str, str]:
        """(first, second) of a ``sooner`` or ``loss_above`` claim."""
        if self.first is None or self.second is None:
            raise ValueError(f"{self.kind} claim {self.text!r} compares no pair of series")
        return self.first, self.second

    @property
    def factor(self) -> float:
        """The bound of a ``ratio``, ``grows`` or ``loss_above`` claim."""
        if self.bound is None:
            raise ValueError(f"{self.kind} claim {self.text!r} has no bound")
        return self.bound


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
    xis: dict[str, tuple[str, Callable[[int], float]]]  # cell label -> (figure, ξ(k))
    claims: tuple[Claim, ...]
    tiers: dict[str, Tier]
    choices: dict[str, str]
    #: |⟨ĉ_t, c⟩| levels timed in every run (for ``LABEL:c`` series)
    c_levels: tuple[float, ...] = ()
    #: every run goes to its horizon (for ``loss_above``: the loss after equal samples)
    to_horizon: bool = False
    #: Monte-Carlo samples of the final loss where it has no closed form (0: no loss)
    loss_samples: int = 0

    def levels(self) -> tuple[float, ...]:
        """Every |m| level a run times: 1/2, the study's, and its claims'."""
        return tuple(sorted({0.5, self.level, *(c.level for c in self.claims if c.level is not None)}))

    def task_options(self) -> dict:
        """The run options beyond the curves and tier (only those set, so the sweep cache keys
        of studies that use none stay as they were)."""
        out: dict = {}
        if self.c_levels:
            out["c_levels"] = list(self.c_levels)
        if self.to_horizon:
            out["to_horizon"] = True
        if self.loss_samples:
            out["loss_samples"] = self.loss_samples
        if self.levels() != tuple(sorted({0.5, self.level})):
            out["levels"] = list(self.levels())
        return out

    def xi_values(self, k: int) -> dict[str, float]:
        return {label: float(f(k)) for label, (_, f) in self.xis.items()}

    def figure_of(self, xi_label: str) -> str:
        return self.xis[xi_label][0]

    def output_files(self) -> tuple[str, ...]:
        """The files a run of the study writes into its output directory."""
        figures = dict.fromkeys(self.figure_of(x) for x in self.xis)
        return (f"regions.{self.name}.json", *(f"{fig}.regions.png" for fig in figures))


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
    "replicas": f"one SGD run per (instance, curve, step) for the shared step; {REPLICAS} independent "
    "runs at each curve's tuned step, judged by their median",
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

#: Fig. 5's levels of ‖Π_W u‖ (the figures module's; the paper lists none).
ALPHAS = (0.0, 0.25, 0.5, 0.75)
#: An α > 0 curve runs RATIO_BOUND × the α = 0 curve's horizon: whenever α = 0 reaches within
#: its horizon, every α > 0 time that "within a factor 3" needs is observed.
ORTHOGONALITY_RATIO = 3.0

#: Appendix B does not say whether ĉ is trained in Fig. 5: both, each α = 0 curve the
#: yardstick of its own protocol's α > 0 curves.
C_PROTOCOLS = (("frozen", "nonorthogonal"), ("trained", "unconstrained"))


def _alpha_label(protocol: str, alpha: float) -> str:
    return f"c_hat {protocol}, alpha={alpha:g}"


def _orthogonality_claims(protocol: str) -> tuple[Claim, ...]:
    labels = tuple(_alpha_label(protocol, a) for a in ALPHAS)
    return (
        Claim("fig5", f"c_hat {protocol}: every alpha = ||Pi_W u|| reaches weak recovery |m| >= 1/2", "reach",
              level=0.5, curves=labels),
        Claim(
            "fig5",
            f"c_hat {protocol}: steps to weak recovery agree across alpha within a factor 3 (qualitatively "
            "the same)",
            "ratio",
            ORTHOGONALITY_RATIO,
            level=0.5,
            curves=labels,
        ),
        Claim(
            "fig5",
            f"c_hat {protocol}: at alpha = 1/2 the run completes the S-curve (|m| >= 0.8, the figures "
            "module's reading)",
            "reach",
            level=0.8,
            curves=(_alpha_label(protocol, 0.5),),
        ),
    )


ORTHOGONALITY_STUDY = StudySpec(
    name="orthogonality",
    paper="Fig. 5: with ||Pi_W u|| = alpha > 0 (Assumption 2 violated) the overlap curves are qualitatively "
    "those of alpha = 0",
    curves=tuple(
        Curve(_alpha_label(protocol, a), "relu", mode, alpha=a,
              yardstick=None if a == 0 else _alpha_label(protocol, 0.0),
              horizon_factor=1.0 if a == 0 else ORTHOGONALITY_RATIO)
        for protocol, mode in C_PROTOCOLS
        for a in ALPHAS
    ),
    level=0.8,
    xis={"1": ("fig5", lambda k: 1.0), "sqrt(k)/2": ("fig5", lambda k: math.sqrt(k) / 2)},
    claims=tuple(c for protocol, _ in C_PROTOCOLS for c in _orthogonality_claims(protocol)),
    # half decades at full size too: eight curves, the α > 0 ones with 3x horizons, cost as much
    # as the other four studies together, and quarter decades put the full tier past an hour
    tiers={**TIERS, "full": dataclasses.replace(TIERS["full"], grid_step=0.5)},
    choices={
        **_COMMON_CHOICES,
        "model": "Appendix D.1's normalised model, u = alpha u1 + sqrt(1 - alpha^2) u2 (Appendix B), u_hat "
        "not projected onto span(W)-perp (projected, |m| could never pass sqrt(1 - alpha^2)); c_hat "
        "frozen (mode nonorthogonal, the analysed algorithm) or trained (mode unconstrained, as Figs. "
        "4 and 6): Appendix B does not say which",
        "xi": "Appendix B gives no xi for Fig. 5: 1 (the figures module's) and sqrt(k)/2",
        "alphas": "{0, 1/4, 1/2, 3/4} (the paper's levels are not listed)",
        "yardstick": "the population flow assumes u_hat in span(W)-perp, so it never stands in for these "
        "runs; the alpha = 0 curve's flow (c_hat frozen or trained as the curve) sets its start and "
        f"horizon, and alpha > 0 curves run {ORTHOGONALITY_RATIO:g} x that horizon with records as "
        "finely spaced; below a curve's smallest SGD step its time is unknown",
        "start": "m_0 = sign(h(0)) / sqrt(d) with h of the alpha = 0 instance, u_hat_0 otherwise uniform "
        "in span(W)-perp",
    },
)

#: Monte-Carlo samples of the linearized student's final population loss (its SE is then about
#: 1-2 % of the loss; the fine-tuned student's loss is a closed form).
LINEARIZED_LOSS_SAMPLES = 20_000

LINEARIZED_STUDY = StudySpec(
    name="linearized",
    paper="Fig. 3: at xi = Theta(sqrt k) the linearized network cannot reach small loss, and joint training "
    "learns u before c",
    curves=(
        Curve("joint", "relu", "joint"),
        Curve("linearized", "relu", "linearized", yardstick="joint"),
    ),
    level=0.9,
    xis={"sqrt(k)": ("fig3", lambda k: math.sqrt(k)), "sqrt(k)/2": ("fig3", lambda k: math.sqrt(k) / 2)},
    claims=(
        Claim(
            "fig3",
            "after equal samples at the same step, the linearized student's population loss is at least 5x "
            "the fine-tuned student's",
            "loss_above",
            5.0,
            first="linearized",
            second="joint",
        ),
        Claim("fig3", "the fine-tuned student (joint) reaches |m| >= 0.9", "reach", curves=("joint",)),
        Claim(
            "fig3",
            "joint training: |<u_hat_t, u>| reaches 1/2 before |<c_hat_t, c>| first does (u is learned "
            "before c)",
            "sooner",
            first="joint",
            second="joint:c",
            level=0.5,
        ),
    ),
    tiers=TIERS,
    choices={
        **_COMMON_CHOICES,
        "curves": "the fine-tuned student (u_hat and c_hat trained jointly) and its first-order Taylor "
        "expansion around the base model (mode linearized, u_hat and c_hat trained), ReLU",
        "xi": "'xi = Theta(sqrt(k))': sqrt(k) and sqrt(k)/2",
        "horizon": f"both students run {HORIZON_OVER_FLOW:g} x the fine-tuned student's population-flow "
        "time to |m| = 0.9 (c_hat trained), not stopping at a level, so their final losses follow "
        "equal samples at the same step",
        "loss": "fine-tuned: closed form (Appendix D.1); linearized: Monte Carlo of "
        f"{LINEARIZED_LOSS_SAMPLES} fresh samples with its SE; an instance is decided when "
        "|z| >= 4.89 (a wrong decision from sampling noise is rarer than 1e-6), else unknown; a "
        "diverged run did not reach a small loss at that step",
        "c overlap": "|<c_hat_t, c>| timed on the same run as |m| (at the same records: a tie is unknown); "
        "no flow stands in for it",
        "tuned": "loss_above at tuned steps: each student at the grid step of its lowest final loss among "
        "those where SGD ran",
    },
    c_levels=(0.5,),
    to_horizon=True,
    loss_samples=LINEARIZED_LOSS_SAMPLES,
)

STUDIES: dict[str, StudySpec] = {
    s.name: s
    for s in (ACTIVATION_STUDY, JOINT_FROZEN_STUDY, PLATEAU_STUDY, ORTHOGONALITY_STUDY, LINEARIZED_STUDY)
}
