"""The training variants the paper runs (§2 eq. (4), Appendix B) and the engines.

========================  ==========  ==============  ===========================================
mode                      ĉ trained   û ⊥ span(W)     what it is
========================  ==========  ==============  ===========================================
``frozen``                no          projected       the analysed algorithm, eq. (4)
``joint``                 yes         projected       Figs. 2(a), 3(b): ĉ trained too
``unconstrained``         yes         not projected   Figs. 4, 6: "do not enforce û ⊥ w_i"
``nonorthogonal``         no          not projected   Fig. 5: teacher u with ‖Π_W u‖ = α > 0
``linearized``            yes         projected       Fig. 3(a): student = first-order Taylor
                                                      expansion around the base model
``scratch``               no          (W = 0)         no base model: the GLM end (Remark 15, §1.2)
========================  ==========  ==============  ===========================================

Normalisation of ĉ (``joint``, ``unconstrained``, ``linearized``): the paper samples c on
S^{k−1} (Appendix B) and the student has the same parametrisation, so ĉ is trained like
û: the gradient in ĉ is projected onto the tangent space of S^{k−1} and the step is
followed by ĉ ← ĉ/‖ĉ‖.  (A quantized ĉ ∈ {±1/√k}^k is a unit vector, so it is a valid
start, but it does not stay quantized.)

Appendix B does not say whether ĉ is trained in Fig. 5; ``nonorthogonal`` keeps it
frozen, as in the analysed algorithm, and lets û leave span(W)⊥ (with û projected onto
span(W)⊥ the overlap could never exceed √(1 − α²)).  Every mode starts û uniformly on
the unit sphere of span(W)⊥, as §2 does (for ``scratch`` that is all of S^{d−1}).

Engines: ``full`` draws x ∈ R^d; ``reduced`` is the exact chain of
:mod:`verify.simulate.reduced`.  The reduced chain is exact in distribution for every
mode above (the derivation in that module needs only that the update is a function of
⟨w_j, x⟩, ⟨u, x⟩, ⟨û, x⟩ times vectors in span(W, u, û, x), which holds for each);
:func:`check_engine` is where a mode that is not would be refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from verify.base.errors import InvalidParameterError

ENGINES = ("full", "reduced")


@dataclass(frozen=True)
class Mode:
    """One training variant (see the module table)."""

    name: str
    train_c: bool
    constrained: bool  # project the û-gradient onto span(W)⊥
    linearized: bool = False
    scratch: bool = False
    needs_nonorthogonal_u: bool = False
    reduced_exact: bool = True
    figure: str = ""


MODES: dict[str, Mode] = {m.name: m for m in (
    Mode("frozen", train_c=False, constrained=True, figure="eq. (4), Fig. 2(b)"),
    Mode("joint", train_c=True, constrained=True, figure="Figs. 2(a), 3(b)"),
    Mode("unconstrained", train_c=True, constrained=False, figure="Figs. 4, 6"),
    Mode("nonorthogonal", train_c=False, constrained=False, needs_nonorthogonal_u=True,
         figure="Fig. 5"),
    Mode("linearized", train_c=True, constrained=True, linearized=True, figure="Fig. 3(a)"),
    Mode("scratch", train_c=False, constrained=True, scratch=True, figure="Remark 15, Fig. 6"),
)}


def get_mode(name: str | Mode) -> Mode:
    """The :class:`Mode` called ``name``; :class:`InvalidParameterError` for an unknown one."""
    if isinstance(name, Mode):
        return name
    if name not in MODES:
        raise InvalidParameterError(f"unknown mode {name!r}; the modes are {', '.join(MODES)}")
    return MODES[name]


def check_engine(mode: Mode, engine: str) -> None:
    """Refuse an unknown engine, or a (mode, engine) pair that is not exact."""
    if engine not in ENGINES:
        raise InvalidParameterError(f"unknown engine {engine!r}; the engines are {', '.join(ENGINES)}")
    if engine == "reduced" and not mode.reduced_exact:
        raise InvalidParameterError(f"mode {mode.name!r} is not exact on the reduced engine "
                                    f"(its update is not a function of the projections); use "
                                    f"--engine full")


def check_instance(mode: Mode, instance) -> None:
    """A mode's demands on the instance (a base model to linearise around, a tilted u)."""
    if mode.linearized and instance.scratch:
        raise InvalidParameterError("mode 'linearized' expands around the base model, but this "
                                    "instance has none (scratch, W = 0)")
    if mode.needs_nonorthogonal_u and not instance.allow_nonorthogonal_u:
        raise InvalidParameterError("mode 'nonorthogonal' (Fig. 5) needs an instance whose u has a "
                                    "component in span W (generate it with alpha > 0)")
