"""Printed formulas shared by several derivations, typed in as the paper prints them.

These are *claims*: the derivations compare them with :mod:`verify.derive.model`
and never use them to derive anything.  Formulas printed only once live in the
module that checks them.
"""

from __future__ import annotations

import sympy

from verify.derive.model import Setting, tensor_inner


def prop_4_T(l: int, s: int, setting: Setting):
    """Prop. 4: T(l,s) = ‖Σ_i λ_i w_i^{⊗s}‖² for odd l,
    k⟨Σ λ_i c_i w_i^{⊗s}, Σ λ_i ĉ_i w_i^{⊗s}⟩ otherwise."""
    lam = setting.lam
    if l % 2 == 1:
        return tensor_inner(lam, lam, s, setting)
    weighted = [lam[i] * setting.c[i] for i in range(setting.neurons)]
    weighted_hat = [lam[i] * setting.c_hat[i] for i in range(setting.neurons)]
    return setting.k * tensor_inner(weighted, weighted_hat, s, setting)


def prop_4_weight(l: int, s: int, setting: Setting, xi=None):
    """Prop. 4's weight of T(l,s) m^l: 2(ξ²/k)^{l+1} C(l+s,l)(l+s+1) μ_{l+s+1}² (1/(1+ξ²/k))^{l+s+1}."""
    xi = setting.xi if xi is None else xi
    k = setting.k
    return (2 * (xi**2 / k) ** (l + 1) * sympy.binomial(l + s, l) * (l + s + 1)
            * setting.mu[l + s + 1] ** 2 * (1 / (1 + xi**2 / k)) ** (l + s + 1))


def prop_4_term(l: int, s: int, setting: Setting):
    """One (l, s) term of Prop. 4's h(m), without m^l."""
    return prop_4_weight(l, s, setting) * prop_4_T(l, s, setting)
