"""Named Hypothesis strategies shared by the property tests.

Each strategy has explicit bounds and includes the simple cases, so that
shrinking lands on readable counterexamples.
"""

from __future__ import annotations

from hypothesis import strategies as st

from verify.model.activations import builtin_names

#: Registry activations (all of them: the cheap twins make this affordable).
registry_activations = st.sampled_from(builtin_names())

#: Smooth activations whose coefficients come from quadrature only.
quadrature_only_activations = st.sampled_from(["sigmoid", "tanh", "softplus", "gelu"])

#: Polynomials in x with small integer coefficients, as ``expr:`` names.
#: Degree ≤ 5 keeps the exact projection fast; the zero polynomial is allowed.
polynomial_expressions = st.lists(
    st.integers(min_value=-3, max_value=3), min_size=1, max_size=6
).map(lambda cs: "expr:" + " + ".join(f"({c})*x**{n}" for n, c in enumerate(cs)))

#: Piecewise polynomials with a kink at 0: a·Max(x,0)^n + b·x^m.
kinked_expressions = st.builds(
    lambda a, n, b, m: f"expr:{a}*Max(x, 0)**{n} + ({b})*x**{m}",
    st.integers(1, 3), st.integers(1, 3), st.integers(-2, 2), st.integers(0, 3),
)

#: Correlations in [−1, 1], including the endpoints and 0.
correlations = st.one_of(
    st.sampled_from([-1.0, -0.5, 0.0, 0.5, 1.0]),
    st.floats(min_value=-1.0, max_value=1.0, allow_nan=False),
)

#: Overlaps m = ⟨u, û⟩ ∈ [−1, 1] (used by the population tests).
overlaps = correlations

# --- problem instances and matrices (issue #7) -------------------------------------------
import math  # noqa: E402  (kept beside the strategies that need it)

import numpy as np  # noqa: E402

from verify.model.instance import GENERATORS  # noqa: E402

#: Seeds for the instance generators (the full 32-bit range).
seeds = st.integers(min_value=0, max_value=2**32 - 1)

#: Activations with a closed-form kernel (fast) and a few that go through the series.
instance_activations = st.sampled_from(["relu", "erf", "he3", "sigmoid", "softplus", "tanh"])


@st.composite
def instances(draw, activations=instance_activations, max_k: int = 12, max_d: int = 64):
    """An instance from every generator: k ∈ 1…12, d ≤ 64, ξ ∈ (0, 3√k], λ default or drawn,
    c and ĉ quantized (Assumption 3) or on the unit sphere (the paper's simulations).

    ``claim2`` fixes λ = 1, quantized c and ξ = 1 by construction (and needs
    d > 1 + k(k+1)/2, so its k is capped at 9 to fit d ≤ 64); ``glm`` fixes λ = 1/k and
    c = ĉ = 1/√k.
    """
    kind = draw(st.sampled_from(sorted(GENERATORS)))
    k = draw(st.integers(1, 9 if kind == "claim2" else max_k))
    low = {"claim2": 2 + k * (k + 1) // 2, "glm": 1}.get(kind, k + 1)
    d = draw(st.integers(min_value=low, max_value=max(low, max_d)))
    xi = 1.0 if kind == "claim2" else draw(
        st.floats(min_value=1e-3, max_value=3 * math.sqrt(k), allow_nan=False, exclude_min=False))
    kwargs = {}
    if kind in ("orthonormal", "separated"):
        kwargs["quantized"] = draw(st.booleans())
        if draw(st.booleans()):
            lam = draw(st.lists(st.floats(-2, 2, allow_nan=False).filter(lambda v: abs(v) > 1e-3),
                                min_size=k, max_size=k))
            kwargs["lam"] = np.array(lam)
    return GENERATORS[kind](k, d, xi, draw(activations), draw(seeds), **kwargs)


@st.composite
def gram_matrices(draw, max_k: int = 12):
    """G = W Wᵀ for k unit rows in R^d: independent uniform rows or orthonormal rows."""
    k = draw(st.integers(1, max_k))
    d = draw(st.integers(k, k + 20))
    rng = np.random.default_rng(draw(seeds))
    g = rng.standard_normal((k, d))
    if draw(st.booleans()):
        rows = np.linalg.qr(g.T)[0].T[:k]
    else:
        rows = g / np.linalg.norm(g, axis=1, keepdims=True)
    return rows @ rows.T


@st.composite
def psd_bounded_diagonal(draw, max_k: int = 12):
    """(Q, q_min², q_max²): a PSD k×k matrix V Vᵀ whose diagonal lies in [q_min², q_max²]
    (Claim 3 is the case q_min = q_max = 1; Corollary 27 the general one).  Includes the
    extreme shapes: identity, all-ones, and a block of ones beside an identity."""
    k = draw(st.integers(2, max_k))
    shape = draw(st.sampled_from(["random", "identity", "ones", "block"]))
    rng = np.random.default_rng(draw(seeds))
    if shape == "identity":
        v = np.eye(k)
    elif shape == "ones":
        v = np.ones((k, 1))
    elif shape == "block":
        b = draw(st.integers(1, k))
        v = np.zeros((k, k - b + 1))
        v[:b, 0] = 1.0
        v[b:, 1:] = np.eye(k - b)
    else:
        v = rng.standard_normal((k, draw(st.integers(1, k))))
        v /= np.linalg.norm(v, axis=1, keepdims=True)
    q_min, q_max = draw(st.floats(0.2, 1.0)), draw(st.floats(1.0, 3.0))
    scales = rng.uniform(q_min, q_max, size=k)
    v = v * scales[:, None]
    return v @ v.T, q_min**2, q_max**2


# --- hostile and careless text (issue #26): grammar-aware fuzzing ------------------------------
#: Number literals from tiny to huge: the parser's digit and magnitude limits sit in this range.
fuzz_numbers = st.one_of(
    st.integers(0, 12).map(str),
    st.sampled_from(["0.5", "1e-300", "1e300", "1e-400", "1e400", "10**30", "10**31", "9" * 31, "0.1",
                     "2**1000", "1_000", "3.0e10", "0", "1e-200", "7.25"]),
    st.integers(0, 10**40).map(str),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e305, max_value=1e305).map(repr),
)
_ONE_ARGUMENT = ["exp", "log", "sqrt", "sin", "cos", "tanh", "sinh", "cosh", "atan", "asinh", "erf", "erfc",
                 "Abs", "abs", "sign", "Heaviside", "cbrt", "factorial", "gamma", "eval", "__import__"]


def expression_text(names: tuple[str, ...] = ("x",), extra_calls: tuple[str, ...] = ()) -> st.SearchStrategy:
    """Expressions over ``names``: deep nesting, towers, powers, special functions, bad constructs."""
    leaves = st.one_of(st.sampled_from([*names, "pi", "E", "oo", "zoo", "nan", "y"]), fuzz_numbers)

    def extend(children):
        return st.one_of(
            st.builds(lambda a, op, b: f"({a}){op}({b})", children,
                      st.sampled_from(["+", "-", "*", "/", "**", "//", "%", "@", "<", "=="]), children),
            st.builds(lambda f, a: f"{f}({a})", st.sampled_from([*_ONE_ARGUMENT, *extra_calls]), children),
            st.builds(lambda f, a, b: f"{f}({a}, {b})",
                      st.sampled_from(["Max", "Min", "hermite_prob", "binomial", "atan2"]),
                      children, children),
            st.builds(lambda a: f"-({a})", children),
            st.builds(lambda a, n: f"({a})**{n}", children, st.sampled_from(["2", "100", "101", "-1", "0.5",
                                                                               "10**9", "x"])),
            st.builds(lambda f, a, n: f"{f}(" * n + a + ")" * n,
                      st.sampled_from(["exp", "log", "sin", "sqrt", "("]), children, st.integers(2, 80)),
        )

    bad = st.sampled_from(["", " ", "x.__class__", "[x]", "lambda: 1", "x if x else 1", "'s'", "x[0]",
                           "(" * 300 + "x" + ")" * 300, "x" + "+x" * 3000, "ｅxp(x)", "f(x=1)", "x\x00"])
    return st.one_of(bad, st.recursive(leaves, extend, max_leaves=12))


#: Activation texts as the command line takes them.
fuzz_activations = st.one_of(registry_activations, expression_text().map(lambda e: "expr:" + e),
                             st.sampled_from(["expr:", "swish", "expr:exp(400)*x", "expr:x*1e300",
                                              "expr:((x+1)**100+1)**100", "expr:exp(exp(exp(exp(x))))"]))

#: Claims: a relation between expressions in the quantities, scalars and Sum, plus broken ones.
_CLAIM_NAMES = ("m", "k", "xi", "d", "C_sigma", "lam_max", "n")
_quantity = st.builds(lambda q, a: f"{q}({a})", st.sampled_from(["h", "Phi", "mu", "hcoef", "K", "Kp"]),
                      st.sampled_from(["0", "m", "1", "n", "-1", "2", "0.5", "k"]))
fuzz_claims = st.one_of(
    st.builds(lambda a, op, b: f"{a} {op} {b}",
              st.one_of(_quantity, expression_text(_CLAIM_NAMES, ("binomial",))),
              st.sampled_from(["==", "<=", ">=", "<", ">", "!=", "=", ""]),
              st.one_of(_quantity, expression_text(_CLAIM_NAMES),
                        st.sampled_from(["O(k)", "Theta(d)", "Omega(1)", "0"]))),
    st.sampled_from(["binomial(10**30, 10**15) >= 0", "Sum(Sum(i*j, i, 0, 3), j, 0, 3) >= 0",
                     "Sum(i, i, 0, 10**30) >= 0", "Sum(1/2**i, i, 0, oo) == 2", "h(m) >= h(oo)",
                     "exp(exp(exp(exp(10)))) > 0", "mu(1) == 0.5000000000001", "T(1, 2) >= 0"]),
)

#: --for quantifiers: ranges, sets, bindings; huge, complex and unbounded ends.
_bound = st.one_of(fuzz_numbers, st.sampled_from(["-1", "sqrt(-1)", "oo", "10**30", "pi", "log(0)", "1/0"]))
fuzz_quantifiers = st.one_of(
    st.builds(lambda n, a, b: f"{n} in [{a}, {b}]", st.sampled_from(_CLAIM_NAMES), _bound, _bound),
    st.builds(lambda n, a, b: f"{n} in {a}..{b}", st.sampled_from(_CLAIM_NAMES), _bound, _bound),
    st.builds(lambda n, vs: f"{n} in {{{', '.join(vs)}}}", st.sampled_from(_CLAIM_NAMES),
              st.lists(_bound, max_size=6)),
    st.builds(lambda n, e: f"{n} = {e}", st.sampled_from(_CLAIM_NAMES), expression_text(("k",))),
    st.sampled_from(["n in 0..999999999999", "m in {" + ",".join(["1"] * 5000) + "}", "xi = sqrt(-1)",
                     "m in (0, 1)", "k in 1..10**20", "garbage"]),
)
fuzz_seeds = st.one_of(st.sampled_from(["0..999999999", "0..3", "{1, 2}", "-1", "1e3", "0..", "5"]),
                       st.builds(lambda a, b: f"{a}..{b}", st.integers(0, 10**12), st.integers(0, 10**12)))


def _nest(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


#: Instance JSON documents: valid ones with one field broken, and hostile shapes.
fuzz_instance_values = st.one_of(
    st.integers(-10**70, 10**70), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.none(), st.booleans(), st.builds(_nest, st.integers(0, 60)),
    st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=5),
    fuzz_activations,
)
