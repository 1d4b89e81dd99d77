r"""What to write instead: a hint for each refusal of a claim, so that the one-line error names the
problem *and* the fix (issue 53).

- a model variable used without a quantifier (``h(m) >= 0``): the ``--for`` to add;
- ``=`` where ``==`` is meant;
- LaTeX (``\mathbb{E}``, ``\frac``, ``\le``, ``\sigma'``): the claim language's spelling;
- a misspelt name or function: the closest ones (edit distance, :func:`difflib.get_close_matches`).

The hint is appended to the parser's own message; it never changes what is refused.
"""

from __future__ import annotations

import difflib
import re

#: Model variables a claim quantifies, with the range of the --for to suggest.
QUANTIFIED = {
    "m": "m in [-1, 1]",
    "rho": "rho in [-1, 1]",
    "xi": "xi in [1/100, 4]",
    "k": "k in 1..16",
    "d": "d in 4..64",
    "p": "p in 0..10",
    "l": "l in 0..10",
    "s": "s in 0..10",
    "t": "t in [0, 1]",
    "eta": "eta in [1/1000, 1/10]",
    "a": "a in [0, 1]",
    "x": "x in [-1, 1]",
}

#: LaTeX a theorist types, and the claim language's spelling of it.
LATEX = (
    (r"\\mathbb\s*\{?\s*E|\\E\b|\\operatorname\{E\}", r"\mathbb{E}_g[f(g)] is Eg(f(g))"),
    (r"\\frac|\\tfrac|\\dfrac", r"\frac{a}{b} is a/b"),
    (r"\\(?:le|leq|leqslant)\b", r"\le is <="),
    (r"\\(?:ge|geq|geqslant)\b", r"\ge is >="),
    (r"\\sqrt", r"\sqrt{x} is sqrt(x)"),
    (r"\\sum", r"\sum_{i=1}^k a_i is Sum(a(i), i, 1, k)"),
    (r"\\mu_", r"\mu_p is mu(p)"),
    (r"\\(?:sigma|phi|rho|xi|lambda|pi)\b", r"Greek letters are spelt out: \sigma(g) is sigma(g), \xi is xi"),
    (r"\\cdot|\\times", r"\cdot is *"),
    (r"\^\s*\{|\^", r"x^{2} is x**2"),
)


def hint(text: str, message: str, names: list[str], functions: list[str]) -> str:
    """A hint for the refusal ``message`` of the claim ``text`` ('' when there is none to give);
    ``names`` and ``functions`` are what the claim language admits there."""
    unknown = re.search(r"unknown (name|function) '([^']+)'", message)
    if unknown:
        kind, name = unknown.groups()
        if kind == "name" and name in QUANTIFIED:
            return (f"{name} is a variable of the claim: quantify it, e.g. --for '{QUANTIFIED[name]}' (in a "
                    f"ledger entry: for = ['{QUANTIFIED[name]}'])")
        close = difflib.get_close_matches(name, names if kind == "name" else functions, n=3, cutoff=0.6)
        if close:
            return "did you mean " + " or ".join(repr(c) for c in close) + "?"
        return ""
    expectation = re.search(r"\bE\s*\[", text)
    if "subscripts are not allowed" in message and expectation:
        return "the Gaussian expectation is written Eg(f(g)), not E[...]"
    if "cannot parse" not in message:
        return ""
    if "\\" in text or re.search(r"\w'\s*\(", text):
        found = [spelling for pattern, spelling in LATEX if re.search(pattern, text)]
        if re.search(r"\w'\s*\(", text):
            found.append("sigma'(g) is dsigma(g)")
        if expectation:
            found.append("E[f(g)] is Eg(f(g))")
        if re.search(r"(?<![<>=!])=(?!=)", text):
            found.append("= is ==")
        return ("this reads as LaTeX, which the claim language does not take: "
                + "; ".join(dict.fromkeys(found or ["see docs/claims.md for the claim language"])))
    if re.search(r"(?<![<>=!])=(?!=)", text):
        return "write == for equality (a single = is not a relation)"
    if expectation:
        return "the Gaussian expectation is written Eg(f(g)), not E[...]"
    return ""
