r"""The quantities of the claim language, in exact, float64 and ball arithmetic.

Each backend has one method per quantity (h, Phi, hcoef, mu, K, Kp, T, grad_var) and one
per scalar (:meth:`scalar`); the decision steps substitute these into the parsed claim.  The
quantities that depend on the scale take ξ as their last argument (the steps append it, so a
claim may range over ξ without rebuilding anything).  Formulas (Appendix D.1, derived in
:mod:`verify.model.population`), with n_i = √(D + ξ²c_i²), D = 1 (0 for the GLM, W = 0):

    h(m)    = 2ξ² Σ_ij λ_iλ_j c_iĉ_j K'(ρ_ij(m))/(n_i n̂_j),   ρ_ij(m) = (G_ij + ξ²c_iĉ_j m)/(n_i n̂_j),
    Φ(m)    = Σ_ij λ_iλ_j [K(ρ^tt_ij) + K(ρ^ss_ij) − 2K(ρ_ij(m))],
    hcoef(l) = the coefficient of m^l in h (:mod:`verify.model.series`),
    T(l, s) = Σ_ij λ_iλ_j G_ij^s (l odd),  k Σ_ij λ_iλ_j c_iĉ_j G_ij^s (l even)   (Proposition 4),
    mu(p)   = μ_p(σ),  K, Kp = the dual kernel and its derivative,
    C_sigma = Σ_p p μ_p² = K'(1) = E[σ'(g)²],  lstar = the first p ≥ 1 with μ_p ≠ 0,
    gamma   = 1 − max_{i≠j} |G_ij| (Assumption 5's separation; 1 for k = 1),
    grad_var(m) = E‖∇̂L(û; x)‖² at ⟨u, û⟩ = m (Monte Carlo, :mod:`verify.claims.statistics`),
    lam(i), c(i), chat(i), G(i, j) = the instance's entries (:mod:`verify.claims.indexed`),
    Eg(expr) = E over g ~ N(0, 1) of expr(g, σ(g), σ'(g)) (:mod:`verify.claims.gaussian`),
    Sum(c p^a r^p mu(p)**2, p, p0, oo) = partial sum plus Parseval tail (:mod:`verify.claims.hermite_sums`).

A backend that cannot provide a quantity raises :class:`Unavailable` and the step that
asked moves on (a closed form for tanh, a ball for a Monte-Carlo mean).
"""

from __future__ import annotations

import numpy as np
import sympy
from flint import arb

from verify.certified import (
    CertificationError,
    CertifiedPopulation,
    certified_hermite_coefficients,
    certified_kernel,
)
from verify.certified.balls import exact, integer_power
from verify.certified.compile import constant
from verify.claims import hermite_sums
from verify.claims.gaussian import (
    GaussianExpectationError,
    ball_expectation,
    exact_expectation,
    float_expectation,
    integrand,
    opaque_expectation,
)
from verify.claims.indexed import Entries, IndexedEntries
from verify.claims.language import DERIVED_SCALARS, GAUSSIAN
from verify.claims.parity import exact_coefficient, opaque_kernel
from verify.claims.statistics import gradient_energy
from verify.model.arithmetic import EXACT
from verify.model.diagnostics import information_exponent
from verify.model.fast_kernels import fast_kernel
from verify.model.hermite import hermite_coefficients
from verify.model.hermite_exact import exact_coefficients
from verify.model.kernels import closed_form
from verify.model.polynomials import probabilists_hermite
from verify.model.population import Population, h, loss
from verify.model.series import h_series

#: Quantities whose value depends on ξ (the steps append ξ as their last argument).
SCALE_DEPENDENT = ("h", "Phi", "hcoef", "grad_var")
#: Hermite terms scanned for the information exponent lstar (beyond: no information exponent found).
LSTAR_TERMS = 64
#: Digits of the mpmath evaluations behind the float backend's hcoef and mu (then rounded to double).
FLOAT_DPS = 30
#: Digits of the certified (Arb) evaluations: far more than any margin a claim is decided by.
BALL_DPS = 30
#: The certified *series* kernel (activations without a closed form) bounds the tail of K' by walking
#: p one at a time up to r/(1 − r) (verify/certified/kernels.py, _max_weight), which does not finish
#: when |ρ| is within a hair of 1; such balls are left to the search (Unavailable) below this margin.
SERIES_RHO_MARGIN = 1e-6


class Unavailable(Exception):
    """This backend cannot evaluate this quantity (the step that asked escalates)."""


def _with_scalars(backend, body):
    """``body`` with the derived scalars (C_sigma, lam_max, ...) replaced by the backend's values."""
    return body.xreplace({s: backend.scalar(s.name) for s in body.free_symbols if s.name in DERIVED_SCALARS})


class _SubstitutedKernel:
    """K and K' of a closed form at SymPy arguments, each distinct ρ substituted once (for quantized c
    and G = I only a handful of distinct ρ_ij remain among the k² pairs)."""

    def __init__(self, quantities):
        self._quantities, self._memo = quantities, {}

    def _at(self, derivative: bool, rho):
        key = (derivative, rho)
        if key not in self._memo:
            q = self._quantities
            self._memo[key] = q.kernel(derivative).subs(q.rho, rho)
        return self._memo[key]

    def value(self, rho):
        return self._at(False, rho)

    def derivative(self, rho):
        return self._at(True, rho)


class ExactQuantities(IndexedEntries):
    """SymPy closed forms on the model's exact numbers (:mod:`verify.claims.model`)."""

    def __init__(self, model, activation):
        self.model, self.act = model, activation
        self.rho = sympy.Symbol("rho", real=True)
        self._kernels: dict[bool, object] = {}
        self._populations: dict = {}
        #: how a value was obtained, where the evidence should say so (Parseval for a Hermite sum)
        self.notes: list[str] = []

    def entries(self) -> Entries:
        mod = self.model
        return Entries(mod.lam, mod.c, mod.c_hat, mod.gram)

    def Eg(self, body):
        """The closed form, else the opaque E(Lambda(g, body)) (see verify.claims.gaussian.OPAQUE)."""
        body = integrand(_with_scalars(self, body), self.act)
        value = exact_expectation(body)
        return opaque_expectation(body) if value is None else value

    def norm(self, power: int):
        """N_0 = E σ(g)², N_1 = E σ'(g)² exactly (Parseval's totals)."""
        return self.Eg(hermite_sums.NORMS[power])

    def hermite_sum(self, s):
        form = hermite_sums.recognise(s)
        value = hermite_sums.exact_value(form, self.mu, self.norm) if form is not None else None
        if value is None:
            raise Unavailable(f"{s} has no exact value (Parseval gives one only for c*p**a*mu(p)**2)")
        head = f" - its terms p < {form.low}" if form.low else ""
        self.notes.append(f"{s} = c*(E[{'dsigma' if form.power else 'sigma'}(g)^2]{head}) exactly (Parseval)")
        return value

    def kernel(self, derivative: bool):

        if self.act is None:
            raise Unavailable("no activation")
        if derivative not in self._kernels:
            expr = closed_form(self.act, derivative)
            if expr is not None:
                (symbol,) = expr.free_symbols or {self.rho}
                expr = expr.subs(symbol, self.rho)
            self._kernels[derivative] = expr
        if self._kernels[derivative] is None:
            raise Unavailable(f"no closed-form kernel for {self.act.name}")
        return self._kernels[derivative]

    def _population(self, xi) -> Population:
        if xi not in self._populations:
            self._populations[xi] = Population(self.model.exact_view(xi), EXACT, _SubstitutedKernel(self))
        return self._populations[xi]

    def h(self, m, xi):
        return self._population(xi).h(m)

    def Phi(self, m, xi):
        return self._population(xi).loss(m)

    def hcoef(self, l, xi):
        t = sympy.Dummy("t", real=True)
        return sympy.diff(self.h(t, xi), t, int(l)).subs(t, 0) / sympy.factorial(int(l))

    def mu(self, p):
        """μ_p exactly: the suite's closed forms, σ's symmetry, else E[σ(g) h_p(g)] by the exact
        Gaussian rules or as an opaque expectation (verify.claims.gaussian.OPAQUE)."""
        if self.act is None:
            raise Unavailable("no activation")
        values = exact_coefficients(self.act, int(p) + 1)
        if values is not None:
            return values[int(p)]
        value = exact_coefficient(self.act, int(p))
        if value is not None:
            return value
        weight = sympy.expand(probabilists_hermite(int(p), GAUSSIAN, sympy.Integer(1))) / sympy.sqrt(
            sympy.factorial(int(p)))
        return self.Eg(self.act.expr.xreplace({self.act.x: GAUSSIAN}) * weight)

    def K(self, rho):
        try:
            return self.kernel(False).subs(self.rho, rho)
        except Unavailable:
            return self._opaque_kernel(False)(rho)

    def Kp(self, rho):
        try:
            return self.kernel(True).subs(self.rho, rho)
        except Unavailable:
            return self._opaque_kernel(True)(rho)

    def _opaque_kernel(self, derivative: bool):
        """K or K′ as a function that knows its series' exact facts (verify.claims.parity)."""
        if self.act is None:
            raise Unavailable("no activation")
        sigma = self.act.expr.xreplace({self.act.x: GAUSSIAN})
        try:
            slope = self.act.derivative_expr.xreplace({self.act.x: GAUSSIAN})
            derivative_moment = self.Eg(slope**2)
        except GaussianExpectationError:  # a jump: σ′ has a Dirac delta, E σ′² is infinite
            derivative_moment = None
        return opaque_kernel(self.act, derivative, self.mu(0), self.mu(1), self.Eg(sigma**2),
                             derivative_moment)

    def T(self, l, s):
        mod, k = self.model, self.model.k
        if int(l) % 2:
            return sum(mod.lam[i] * mod.lam[j] * mod.gram[i][j] ** int(s) for i in range(k) for j in range(k))
        return k * sum(
            mod.lam[i] * mod.lam[j] * mod.c[i] * mod.c_hat[j] * mod.gram[i][j] ** int(s)
            for i in range(k)
            for j in range(k)
        )

    def grad_var(self, m, xi):
        raise Unavailable("E|grad L|^2 has no closed form here (Monte Carlo only)")

    def scalar(self, name: str):
        mod = self.model
        if name == "lam_min":
            return min(mod.lam)
        if name == "lam_max":
            return max(mod.lam)
        if name == "gamma":
            off = [abs(mod.gram[i][j]) for i in range(mod.k) for j in range(mod.k) if i != j]
            return 1 - max(off) if off else sympy.Integer(1)
        if name == "C_sigma":
            return self.Kp(sympy.Integer(1))
        if name == "lstar":

            values = exact_coefficients(self.act, LSTAR_TERMS)
            if values is None:
                raise Unavailable(f"no exact Hermite coefficients for {self.act.name}")
            found = next((p for p in range(1, LSTAR_TERMS) if values[p] != 0), None)
            if found is None:
                raise Unavailable(f"mu_p = 0 for 1 <= p < {LSTAR_TERMS}")
            return sympy.Integer(found)
        raise KeyError(name)


class FloatQuantities(IndexedEntries):
    """float64 values through the suite's fast paths (closed-form or series kernels, Appendix D.1).

    ``seed`` and ``full`` reach the Monte-Carlo quantity grad_var (``verify claim --seed/--full``)."""

    def __init__(self, model, activation, seed: int = 0, full: bool = False):
        self.model, self.act = model, activation
        self.seed, self.full = seed, full
        self._mu: list[float] = []
        self._series: dict = {}
        self._activation_scalars: dict[str, float] = {}
        #: the largest truncation bound of a series value handed out (hcoef, quadratures, Hermite
        #: sums' tails), for the search's tolerance
        self.error_bound = 0.0
        self.notes: list[str] = []

    def entries(self) -> Entries:
        a = self.model.arrays
        return Entries(a["lam"], a["c"], a["c_hat"], a["gram"])

    def record_error(self, bound: float) -> None:
        self.error_bound = max(self.error_bound, float(bound))

    def Eg(self, body):
        kinks = self.act.kinks if self.act is not None else ()
        value, error = float_expectation(integrand(_with_scalars(self, body), self.act), kinks)
        self.record_error(error)
        return value

    def hermite_sum_function(self, s, symbols):
        """A float function of ``symbols``: the sum's first SERIES_TERMS terms, its tail bound recorded."""
        ((index, _, _),) = s.limits
        form = hermite_sums.recognise(s)
        terms = hermite_sums.SERIES_TERMS
        self.mu(terms)
        mu = self._mu[: terms + 1]
        norm = self.Eg(hermite_sums.NORMS[form.power]) if form is not None else 0.0
        if form is None:
            self.notes.append(f"{s}: no rigorous tail bound (heuristic error: twice its last "
                              f"{terms // 2} terms)")
        return hermite_sums.float_function(form, s.function, index, symbols, mu, norm, self.record_error)

    def _view(self, xi):
        view = self.model.view(float(xi))
        return type(view)(**{**view.__dict__, "activation": self.act})

    def h(self, m, xi):

        return h(self._view(xi), m)

    def Phi(self, m, xi):

        return loss(self._view(xi), m)

    def hcoef(self, l, xi):

        key = (self.model, float(xi), int(l))
        if key not in self._series:
            series = h_series(self.model.instance(float(xi)), int(l) + 1, FLOAT_DPS)
            self._series[key] = (float(series.coefficients[int(l)]), float(series.s_bounds[int(l)]))
        value, bound = self._series[key]
        self.error_bound = max(self.error_bound, bound)
        return value

    def mu(self, p):

        p = int(p)
        if p >= len(self._mu):
            coeffs = hermite_coefficients(self.act, max(p + 1, 16), FLOAT_DPS)
            self._mu = coeffs.as_floats()
        return self._mu[p]

    def K(self, rho):

        return fast_kernel(self.act).value(rho)

    def Kp(self, rho):

        return fast_kernel(self.act).derivative(rho)

    def T(self, l, s):
        a = self.model.arrays
        power = a["gram"] ** int(s)
        weights = np.outer(a["lam"], a["lam"])
        if int(l) % 2:
            return float(np.sum(weights * power))
        return float(self.model.k * np.sum(weights * np.outer(a["c"], a["c_hat"]) * power))

    def grad_var(self, m, xi):

        return gradient_energy(self.model, float(xi), float(m), self.full, self.seed).mean

    def scalar(self, name: str) -> float:
        if name in ("C_sigma", "lstar"):
            if name not in self._activation_scalars:
                self._activation_scalars[name] = self._activation_scalar(name)
            return self._activation_scalars[name]
        a = self.model.arrays
        if name == "lam_min":
            return float(a["lam"].min())
        if name == "lam_max":
            return float(a["lam"].max())
        if name == "gamma":
            off = np.abs(a["gram"][~np.eye(self.model.k, dtype=bool)])
            return float(1 - off.max()) if off.size else 1.0
        raise KeyError(name)

    def _activation_scalar(self, name: str) -> float:
        if name == "C_sigma":
            return float(self.Kp(np.array(1.0)))

        found = information_exponent(hermite_coefficients(self.act, LSTAR_TERMS, FLOAT_DPS))
        if found is None:
            raise Unavailable(f"mu_p = 0 for 1 <= p < {LSTAR_TERMS}")
        return float(found)


class BallQuantities(IndexedEntries):
    """Arb balls (:mod:`verify.certified`): every value provably contains the true one.

    Construct and evaluate inside :func:`verify.certified.balls.working_precision` (BALL_DPS)."""

    def __init__(self, model, activation):
        self.model, self.act = model, activation
        self._population: dict = {}
        self._kernel = None
        self._entries: Entries | None = None
        self._exact = ExactQuantities(model, activation)
        self.notes: list[str] = []
        #: the configuration's box {symbol: (low, high)}, set by the certified step
        self.box: dict = {}

    def within_unit_interval(self, expr) -> bool:
        """True when ``expr`` is a box variable declared inside [-1, 1] (its true value lies there,
        whatever its balls' rounding)."""
        low, high = self.box.get(expr, (None, None))
        return low is not None and -1 <= low and high <= 1

    def entries(self) -> Entries:
        if self._entries is None:
            view = self.model.ball_view(arb(1))
            self._entries = Entries(view.lam, view.c, view.c_hat, view.gram)
        return self._entries

    def Eg(self, body):
        """The exact expectation as a ball, else a ball from certified quadrature (else Unavailable)."""
        body = _with_scalars(self, body)
        try:
            return constant(self._exact.Eg(body))
        except ValueError:  # CertificationError: no closed form, or one the ball compiler cannot enclose
            pass
        try:
            value = ball_expectation(integrand(body, self.act), BALL_DPS)
        except (CertificationError, ValueError) as exc:
            raise Unavailable(f"Eg({body}): no closed form, and no certified quadrature ({exc})") from None
        self.notes.append(f"Eg({body}) by certified quadrature (rigorous error bound)")
        return value

    def hermite_sum_function(self, s, compile_ball):
        """env -> a ball of the sum: SERIES_TERMS certified terms plus the Parseval tail interval."""
        form = hermite_sums.recognise(s)
        if form is None:
            raise Unavailable(f"{s}: no rigorous tail bound for a term of this shape")
        try:
            terms = hermite_sums.SERIES_TERMS + 1
            coefficients = certified_hermite_coefficients(self.act, terms, BALL_DPS).balls
            norm = self.Eg(hermite_sums.NORMS[form.power])
            value, tail = hermite_sums.ball_function(form, coefficients, norm, compile_ball,
                                                     self.within_unit_interval(form.ratio))
        except (CertificationError, ValueError) as exc:  # TailError is a ValueError
            raise Unavailable(str(exc)) from None
        self.notes.append(f"{s}: {tail}")
        return value

    def kernel(self):

        if self._kernel is None:
            try:
                self._kernel = certified_kernel(self.act, BALL_DPS)
            except CertificationError as exc:
                raise Unavailable(str(exc)) from None
        return self._kernel

    def population(self, xi):

        xi = _ball(xi)
        key = (xi.mid().str(40), xi.rad().str(5))
        if key not in self._population:
            if len(self._population) > 64:
                self._population.clear()
            view = self.model.ball_view(xi)
            view = type(view)(**{**view.__dict__, "activation": self.act})
            self._population[key] = CertifiedPopulation(view, BALL_DPS, kernel=self.kernel(), gram=view.gram)
        return self._population[key]

    def h(self, m, xi):
        self._guard(m, xi)
        return self.population(xi).h(m)

    def Phi(self, m, xi):
        self._guard(m, xi)
        return self.population(xi).loss(m)

    def _guard(self, m, xi) -> None:
        """Unavailable when a series kernel would see |ρ_ij(m)| within SERIES_RHO_MARGIN of 1 (see above)."""
        if self.kernel().method != "series":
            return
        m_up = float(abs(_ball(m)).upper())
        x = _ball(xi)
        x2_up, x2_low = float((x * x).upper()), float((x * x).lower())
        a = self.model.arrays
        diag = 0.0 if self.model.scratch else 1.0
        n_low = np.sqrt(diag + x2_low * a["c"] ** 2)
        n_hat_low = np.sqrt(diag + x2_low * a["c_hat"] ** 2)
        numerator = np.abs(a["gram"]) + x2_up * np.abs(np.outer(a["c"], a["c_hat"])) * m_up
        r = float(np.max(np.minimum(numerator / np.outer(n_low, n_hat_low), 1.0)))
        if 1 - SERIES_RHO_MARGIN <= r < 1 or (r >= 1 and m_up < 1):
            raise Unavailable("the certified series kernel near |rho| = 1")

    def hcoef(self, l, xi):
        raise Unavailable("no certified series coefficients")

    def mu(self, p):

        try:
            return certified_hermite_coefficients(self.act, int(p) + 1, BALL_DPS).balls[int(p)]
        except CertificationError as exc:
            raise Unavailable(str(exc)) from None

    def K(self, rho):
        return self.kernel().value(_ball(rho))

    def Kp(self, rho):
        rho = _ball(rho)
        if self.kernel().method == "series" and 1 - SERIES_RHO_MARGIN <= abs(rho).upper() < 1:
            raise Unavailable("the certified series kernel near |rho| = 1")
        return self.kernel().derivative(rho)

    def T(self, l, s):


        view = self.model.ball_view(arb(1))
        k = self.model.k
        gram = view.gram
        total = arb(0)
        for i in range(k):
            for j in range(k):
                term = view.lam[i] * view.lam[j] * integer_power(gram[i][j], int(s))
                total += term if int(l) % 2 else term * view.c[i] * view.c_hat[j]
        return total if int(l) % 2 else k * total

    def grad_var(self, m, xi):
        raise Unavailable("a Monte-Carlo mean has no ball")

    def scalar(self, name: str):


        if name == "C_sigma":
            return self.Kp(arb(1))
        return constant(sympy.sympify(ExactQuantities(self.model, self.act).scalar(name)))


def _ball(value):
    """An int (an exact argument such as h(0)) as an exact ball; balls pass through."""

    return exact(value)
