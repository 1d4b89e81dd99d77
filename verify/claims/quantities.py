r"""The quantities of the claim language, in exact, float64 and ball arithmetic.

One class, :class:`Quantities`, over the arithmetic it is handed (``EXACT`` SymPy numbers,
``FLOAT64`` doubles or Arb ``BALLS``, :mod:`verify.model.arithmetic`): one method per quantity
(h, Phi, hcoef, mu, K, Kp, T, grad_var, Eg) and one per scalar (:meth:`Quantities.scalar`), so
each quantity is defined in one place, its sources in the three arithmetics side by side (a
formula such as T(l, s) is written once over the arithmetic's numbers); the decision steps
substitute these into the parsed claim.  The
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

An arithmetic that cannot provide a quantity raises :class:`Unavailable` and the step that
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
from verify.certified.balls import BALLS, exact, integer_power
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
from verify.claims.gaussian_rules import exponential_type
from verify.claims.indexed import Entries, IndexedEntries
from verify.claims.language import DERIVED_SCALARS, GAUSSIAN
from verify.claims.parity import exact_coefficient, opaque_kernel
from verify.claims.statistics import gradient_energy
from verify.model.arithmetic import EXACT, FLOAT64
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
    """This arithmetic cannot evaluate this quantity (the step that asked escalates)."""


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
            # the closed form where there is one, else the opaque kernel, which knows the exact facts
            # of K's series (parity, K(0), K'(0), K(1)): h and Phi are functions of K on every family
            # (Proposition 4), so what is known of K carries to them (h(m) = h(-m) for tanh on glm)
            self._memo[key] = self._quantities._kernel_at(derivative, rho)
        return self._memo[key]

    def value(self, rho):
        return self._at(False, rho)

    def derivative(self, rho):
        return self._at(True, rho)


class Quantities(IndexedEntries):
    """The claim language's quantities of one configuration (``model``, ``activation``) in ``arithmetic``.

    - EXACT: SymPy closed forms on the model's exact numbers (:mod:`verify.claims.model`); where a
      kernel or an expectation has none, an opaque function that knows only its exact facts;
    - FLOAT64: the suite's fast paths (closed-form or series kernels, Appendix D.1); ``error_bound``
      collects the truncation bounds handed out, for the search's tolerance; ``seed`` and ``full``
      reach the Monte-Carlo quantity grad_var (``verify claim --seed/--full``);
    - BALLS: Arb balls (:mod:`verify.certified`) that provably contain every value; construct and
      evaluate inside :func:`verify.certified.balls.working_precision` (BALL_DPS); ``box`` is the
      configuration's box {symbol: (low, high)}, set by the certified step.
    """

    def __init__(self, model, activation, arithmetic, seed: int = 0, full: bool = False):
        if arithmetic not in (EXACT, FLOAT64, BALLS):
            raise ValueError(f"no quantities in the arithmetic {arithmetic.name}")
        self.model, self.act, self.arith = model, activation, arithmetic
        self.seed, self.full = seed, full
        self.rho = sympy.Symbol("rho", real=True)
        #: how a value was obtained, where the evidence should say so (Parseval, a quadrature)
        self.notes: list[str] = []
        self.error_bound = 0.0
        self.box: dict = {}
        self._memo: dict = {}

    def rebind(self, model) -> None:
        """Use another instance of the same configuration (a drawn sign pattern), keeping what
        depends only on the activation (coefficients, kernels)."""
        self.model = model
        for key in [k for k in self._memo if k in ("entries", "exact") or k[0] in ("hcoef", "population")]:
            del self._memo[key]

    @property
    def exact(self) -> bool:
        return self.arith is EXACT

    @property
    def balls(self) -> bool:
        return self.arith is BALLS

    def _exact_twin(self) -> Quantities:
        if "exact" not in self._memo:
            self._memo["exact"] = Quantities(self.model, self.act, EXACT)
        return self._memo["exact"]

    def record_error(self, bound: float) -> None:
        self.error_bound = max(self.error_bound, float(bound))

    def within_unit_interval(self, expr) -> bool:
        """True when ``expr`` is a box variable declared inside [-1, 1] (its true value lies there,
        whatever its balls' rounding)."""
        low, high = self.box.get(expr, (None, None))
        return low is not None and -1 <= low and high <= 1

    # --- the instance ------------------------------------------------------------------------------
    def entries(self) -> Entries:
        if "entries" not in self._memo:
            mod = self.model
            if self.exact:
                entries = Entries(mod.lam, mod.c, mod.c_hat, mod.gram)
            elif self.balls:
                view = mod.ball_view(arb(1))
                entries = Entries(view.lam, view.c, view.c_hat, view.gram)
            else:
                a = mod.arrays
                entries = Entries(a["lam"], a["c"], a["c_hat"], a["gram"])
            self._memo["entries"] = entries
        return self._memo["entries"]

    def T(self, l, s):
        """Σ_ij λ_iλ_j G_ij^s (l odd), k Σ_ij λ_iλ_j c_iĉ_j G_ij^s (l even): Proposition 4's T."""
        lam, c, c_hat, gram = self.entries()
        k, s, odd = self.model.k, int(s), int(l) % 2
        power = integer_power if self.balls else (lambda x, n: x**n)
        terms = [lam[i] * lam[j] * power(gram[i][j], s) * (1 if odd else c[i] * c_hat[j])
                 for i in range(k) for j in range(k)]
        total = self.arith.fsum(terms) if not self.balls else sum(terms, arb(0))
        return total if odd else k * total

    def scalar(self, name: str):
        """The instance's lam_min, lam_max, gamma and the activation's C_sigma, lstar."""
        if name in ("C_sigma", "lstar"):  # the activation's: kept across rebind
            key = ("scalar", name)
            if key not in self._memo:
                value = self.Kp(self._number(1)) if name == "C_sigma" else self._lstar()
                self._memo[key] = value if self.exact or self.balls else float(value)
            return self._memo[key]
        if self.balls:  # a ball has no order: the exact value, enclosed
            return constant(sympy.sympify(self._exact_twin().scalar(name)))
        if name == "gamma":  # 1 − max_{i≠j} |G_ij| (Assumption 5's separation)
            largest = self.model.largest_overlap
            value = sympy.Integer(1) if largest is None else 1 - largest
            return value if self.exact else float(value)
        lam, _, _, gram = self.entries()
        if name == "lam_min":
            value = min(lam)
        elif name == "lam_max":
            value = max(lam)
        else:
            raise KeyError(name)
        return value if self.exact else float(value)

    def _number(self, value):
        return exact(value) if self.balls else (float(value) if not self.exact else sympy.Integer(value))

    def _lstar(self):
        if self.balls:
            return constant(sympy.sympify(self._exact_twin()._lstar()))
        if self.exact:
            values = exact_coefficients(self.act, LSTAR_TERMS)
            if values is None:
                raise Unavailable(f"no exact Hermite coefficients for {self.act.name}")
            found = next((p for p in range(1, LSTAR_TERMS) if values[p] != 0), None)
        else:
            found = information_exponent(hermite_coefficients(self.act, LSTAR_TERMS, FLOAT_DPS))
        if found is None:
            raise Unavailable(f"mu_p = 0 for 1 <= p < {LSTAR_TERMS}")
        return sympy.Integer(found) if self.exact else float(found)

    # --- Gaussian expectations ---------------------------------------------------------------------
    def Eg(self, body):
        """E[body(g)]: exact (closed form, else opaque), float (mpmath quadrature with its error
        estimate), ball (the closed form's ball, else certified quadrature)."""
        body = integrand(_with_scalars(self, body), self.act)
        if self.exact:
            value = exact_expectation(body)
            return opaque_expectation(body) if value is None else value
        if not self.balls:
            value, error = float_expectation(body, self.act.kinks if self.act is not None else ())
            self.record_error(error)
            return value
        try:
            return constant(self._exact_twin().Eg(body))
        except ValueError:  # CertificationError: no closed form, or one the ball compiler cannot enclose
            pass
        try:
            value = ball_expectation(body, BALL_DPS)
        except (CertificationError, ValueError) as exc:
            raise Unavailable(f"Eg({body}): no closed form, and no certified quadrature ({exc})") from None
        self.notes.append(f"Eg({body}) by certified quadrature (rigorous error bound)")
        return value

    def norm(self, power: int):
        """N_0 = E σ(g)², N_1 = E σ'(g)² (Parseval's totals)."""
        return self.Eg(hermite_sums.NORMS[power])

    # --- infinite Hermite sums (verify.claims.hermite_sums) -----------------------------------------
    def hermite_sum(self, s):
        """The exact value of a Hermite sum (Parseval), for the exact arithmetic."""
        form = hermite_sums.recognise(s)
        value = hermite_sums.exact_value(form, self.mu, self.norm, self._kernel_at,
                                         self.within_unit_interval) if form is not None else None
        if value is None:
            raise Unavailable(f"{s} has no exact value (Parseval or Mehler give one only for "
                              "c*p**a*r**p*mu(p)**2 with |r| <= 1)")
        head = f" - its terms p < {form.low}" if form.low else ""
        if form.ratio == 1:
            norm = "E[dsigma(g)^2]" if form.power else "E[sigma(g)^2]"
            self.notes.append(f"{s} = c*({norm}{head}) exactly (Parseval)")
        else:
            total = "r*K'(r)" if form.power else "K(r)"
            shift = f"r^({form.offset})*" if form.offset else ""
            self.notes.append(f"{s} = c*{shift}({total}{head}) exactly "
                              "(Mehler: the series is the dual kernel)")
        return value

    def hermite_sum_function(self, s, argument):
        """A function of the free variables: float64 (``argument``: the symbols) with its tail bound
        recorded, or balls (``argument``: the ball compiler) with the Parseval tail interval."""
        form = hermite_sums.recognise(s)
        terms = hermite_sums.SERIES_TERMS
        if not self.balls:
            ((index, _, _),) = s.limits
            self.mu(terms)
            mu = self._memo["float_mu"][: terms + 1]
            norm = self.norm(form.power) if form is not None else 0.0
            if form is None:
                self.notes.append(f"{s}: no rigorous tail bound (heuristic error: twice its last "
                                  f"{terms // 2} terms)")
            return hermite_sums.float_function(form, s.function, index, argument, mu, norm, self.record_error)
        if form is None:
            raise Unavailable(f"{s}: no rigorous tail bound for a term of this shape")
        try:
            coefficients = certified_hermite_coefficients(self.act, terms + 1, BALL_DPS).balls
            value, tail = hermite_sums.ball_function(form, coefficients, self.norm(form.power), argument,
                                                     self.within_unit_interval(form.ratio))
        except (CertificationError, ValueError) as exc:  # TailError is a ValueError
            raise Unavailable(str(exc)) from None
        self.notes.append(f"{s}: {tail}")
        return value

    # --- Hermite coefficients and the dual kernel ----------------------------------------------------
    def mu(self, p):
        """μ_p: exact (closed forms, σ's symmetry, else E[σ h_p] by the exact rules or opaque),
        float (30-digit mpmath, rounded), ball (certified coefficients)."""
        if self.act is None:
            raise Unavailable("no activation")
        p = int(p)
        if self.balls:
            try:
                return certified_hermite_coefficients(self.act, p + 1, BALL_DPS).balls[p]
            except CertificationError as exc:
                raise Unavailable(str(exc)) from None
        if not self.exact:
            cached = self._memo.get("float_mu", [])
            if p >= len(cached):
                cached = hermite_coefficients(self.act, max(p + 1, 16), FLOAT_DPS).as_floats()
                self._memo["float_mu"] = cached
            return cached[p]
        values = exact_coefficients(self.act, p + 1)
        if values is not None:
            return values[p]
        value = exact_coefficient(self.act, p)
        if value is not None:
            return value
        sigma = self.act.expr.xreplace({self.act.x: GAUSSIAN})
        if p > 2 and exponential_type(sigma):
            # E[σ He_p] = E[σ^(p)] by p integrations by parts against φ (Rodrigues: He_p φ = (-1)^p φ^(p));
            # their boundary terms vanish and every E|σ^(j)| is finite when σ is of exponential type
            # (a finite sum of c gⁿ e^{λg}, sin and cos included): exp's μ_50 at once, not a
            # 50-term Hermite expansion
            return self.Eg(sympy.diff(sigma, GAUSSIAN, p)) / sympy.sqrt(sympy.factorial(p))
        weight = sympy.expand(probabilists_hermite(p, GAUSSIAN, sympy.Integer(1))) / sympy.sqrt(
            sympy.factorial(p))
        return self.Eg(sigma * weight)

    def kernel(self, derivative: bool = False):
        """The closed-form kernel (exact: a SymPy expression in ``rho``), the fast kernel (float) or the
        certified kernel (balls); Unavailable where there is none."""
        if self.act is None:
            raise Unavailable("no activation")
        key = ("kernel", derivative if self.exact else None)
        if key not in self._memo:
            if self.exact:
                expr = closed_form(self.act, derivative)
                if expr is not None:
                    (symbol,) = expr.free_symbols or {self.rho}
                    expr = expr.subs(symbol, self.rho)
                self._memo[key] = expr
            elif self.balls:
                try:
                    self._memo[key] = certified_kernel(self.act, BALL_DPS)
                except CertificationError as exc:
                    raise Unavailable(str(exc)) from None
            else:
                self._memo[key] = fast_kernel(self.act)
        if self._memo[key] is None:
            raise Unavailable(f"no closed-form kernel for {self.act.name}")
        return self._memo[key]

    def K(self, rho):
        return self._kernel_at(False, rho)

    def Kp(self, rho):
        return self._kernel_at(True, rho)

    def _kernel_at(self, derivative: bool, rho):
        if self.exact:
            try:
                return self.kernel(derivative).subs(self.rho, rho)
            except Unavailable:
                return self._opaque_kernel(derivative)(rho)
        kernel = self.kernel()
        if not self.balls:
            return kernel.derivative(rho) if derivative else kernel.value(rho)
        rho = exact(rho)
        if derivative and kernel.method == "series" and 1 - SERIES_RHO_MARGIN <= abs(rho).upper() < 1:
            raise Unavailable("the certified series kernel near |rho| = 1")
        return kernel.derivative(rho) if derivative else kernel.value(rho)

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

    # --- the population quantities (Appendix D.1) ----------------------------------------------------
    def _population(self, xi):
        if self.exact:
            key = ("population", xi)
            if key not in self._memo:
                self._memo[key] = Population(self.model.exact_view(xi), EXACT, _SubstitutedKernel(self))
            return self._memo[key]
        xi = exact(xi)
        key = ("population", xi.mid().str(40), xi.rad().str(5))
        if key not in self._memo:
            populations = [k for k in self._memo if k[0] == "population"]
            if len(populations) > 64:  # a prover over ξ makes a ball population per interval
                for old in populations:
                    del self._memo[old]
            view = self.model.ball_view(xi)
            view = type(view)(**{**view.__dict__, "activation": self.act})
            self._memo[key] = CertifiedPopulation(view, BALL_DPS, kernel=self.kernel(), gram=view.gram)
        return self._memo[key]

    def _float_view(self, xi):
        view = self.model.view(float(xi))
        return type(view)(**{**view.__dict__, "activation": self.act})

    def h(self, m, xi):
        if not (self.exact or self.balls):
            return h(self._float_view(xi), m)
        self._guard(m, xi)
        return self._population(xi).h(m)

    def Phi(self, m, xi):
        if not (self.exact or self.balls):
            return loss(self._float_view(xi), m)
        self._guard(m, xi)
        return self._population(xi).loss(m)

    def _guard(self, m, xi) -> None:
        """Balls: Unavailable when a series kernel would see |ρ_ij(m)| within SERIES_RHO_MARGIN of 1."""
        if not self.balls or self.kernel().method != "series":
            return
        m_up = float(abs(exact(m)).upper())
        x = exact(xi)
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
        """The coefficient of m^l in h: exact (derivatives at 0), float (the 30-digit series and its
        truncation bound); no certified series coefficients."""
        if self.balls:
            raise Unavailable("no certified series coefficients")
        if self.exact:
            return self._exact_hcoef(int(l), xi)
        key = ("hcoef", float(xi), int(l))
        if key not in self._memo:
            series = h_series(self.model.instance(float(xi)), int(l) + 1, FLOAT_DPS)
            self._memo[key] = (float(series.coefficients[int(l)]), float(series.s_bounds[int(l)]))
        value, bound = self._memo[key]
        self.record_error(bound)
        return value

    def _exact_hcoef(self, l: int, xi):
        """h^{(l)}(0)/l!.  h(m) = 2 Σ_ij λ_iλ_j ξ²A_ij K'(ρ_ij(m)) with ρ_ij(m) = B_ij + ξ²A_ij m
        affine in m (:class:`~verify.model.population.Population`), so by the chain rule
        h^{(l)}(0) = 2 Σ_ij λ_iλ_j (ξ²A_ij)^{l+1} K^{(l+1)}(B_ij): K' is differentiated in one
        variable (once per order, kept), and each distinct B_ij substituted once.  Differentiating
        the k²-term h(m) itself l times cost verify check about 15 CPU s."""
        key = ("hcoef", "exact", xi, l)
        if key not in self._memo:
            geometry = self._population(xi).geometry
            derivative = self._kernel_derivative(l + 1)
            at_base: dict = {}
            total = sympy.Integer(0)
            for weight, slope, base in zip(geometry.weights.flat, geometry.slope.flat, geometry.base.flat,
                                           strict=True):
                if weight == 0 or slope == 0:  # the pair's K' does not move with m
                    continue
                if base not in at_base:
                    at_base[base] = derivative.subs(self.rho, base)
                total += weight * slope ** (l + 1) * at_base[base]
            self._memo[key] = 2 * total / sympy.factorial(l)
        return self._memo[key]

    def _kernel_derivative(self, order: int):
        """d^order K/dρ^order as an expression in ``self.rho`` (K' differentiated order − 1 times)."""
        chain_key = ("kernel", "derivatives")
        if chain_key not in self._memo:
            self._memo[chain_key] = [self._kernel_at(True, self.rho)]
        chain = self._memo[chain_key]
        while len(chain) < order:
            chain.append(sympy.diff(chain[-1], self.rho))
        return chain[order - 1]

    def grad_var(self, m, xi):
        """E‖∇̂L‖² at overlap m: Monte Carlo only (float)."""
        if self.exact or self.balls:
            raise Unavailable("E|grad L|^2 is a Monte-Carlo mean: no closed form, no ball")
        return gradient_energy(self.model, float(xi), float(m), self.full, self.seed).mean
