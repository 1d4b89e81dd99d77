"""Named Hypothesis strategies shared by the property tests.

Each strategy has explicit bounds and includes the simple cases, so that
shrinking lands on readable counterexamples.
"""

from __future__ import annotations

from hypothesis import strategies as st

from verify.activations import builtin_names

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

from verify.instance import GENERATORS  # noqa: E402

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
