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
