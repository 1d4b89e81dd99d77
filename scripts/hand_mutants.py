"""Hand-made mutants of the decision rules issue #48 added or changed, each run against the tests
that guard them: a mutant that survives names a hypothesis no test checks.

    python scripts/hand_mutants.py            # every mutant (about 15 min on 2 cores)
    python scripts/hand_mutants.py 3 7        # mutants 3 and 7

Each mutant is one textual replacement in one file (it must match exactly once); the file is
restored afterwards, whatever happens.  Prints one line per mutant: killed or SURVIVED.
mutmut (tox -e mutation) covers the modules it lists mechanically; these are the mutants a
reader of the rules would write first (drop a hypothesis, widen a bound, flip a default).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ["tests/test_singular_and_removable.py", "tests/test_claims_existence.py",
         "tests/test_claims_derivatives.py", "tests/test_claims_functions.py",
         "tests/test_whitebox48.py"]

#: (file, text, replacement, what the mutant breaks)
MUTANTS = [
    ("verify/base/singular.py", "LOCALLY_BOUNDED = (sympy.exp,", "LOCALLY_BOUNDED = (sympy.log, sympy.exp,",
     "log read as locally bounded: its zeros are no longer singular points"),
    ("verify/base/singular.py", "        if exponent.is_negative:\n            _zeros(", "        if False:\n            _zeros(",
     "a negative power's zeros dropped"),
    ("verify/base/singular.py", "    raise _Unknown  # default deny", "    return  # default allow",
     "an unknown function read as harmless (default allow)"),
    ("verify/base/singular.py", "    if base.is_nonnegative:\n        return\n", "    return\n",
     "a non-integer power or log of any base read as real"),
    ("verify/base/singular.py", '        state["complete"] = False', "        pass",
     "infinitely many zeros read as all of them"),
    ("verify/base/singular.py", "            if base.is_positive:\n", "            if True:\n",
     "a variable exponent of any base accepted"),
    ("verify/base/singular.py", "for j in range(m))", "for j in range(m - 1))",
     "removability: one derivative fewer checked"),
    ("verify/certified/removable.py", "            value += acb(arb(0, error), arb(0, error))\n", "",
     "the Taylor model's remainder dropped"),
    ("verify/certified/removable.py", "if not distance < radius / 2:", "if not distance < radius * 2:",
     "the model used outside its disc"),
    ("verify/certified/removable.py", "around = holomorphic(square, True)", "around = holomorphic(square, False)",
     "the disc's holomorphy not checked"),
    ("verify/certified/removable.py", "series.coeff(w, m + j)", "series.coeff(w, m + j + 1)",
     "the Taylor coefficients shifted by one"),
    ("verify/claims/gaussian_rules.py", "    if not exponential_type(derivative):\n        return None\n", "",
     "the Fubini hypothesis (exponential type) not checked"),
    ("verify/claims/gaussian_rules.py", "(1 - _S) ** (m - 1) * inner", "(1 - _S) ** m * inner",
     "the Taylor remainder's weight off by one power"),
    ("verify/claims/gaussian_rules.py", "/ sympy.factorial(m - 1)", "/ sympy.factorial(m)",
     "the Taylor remainder's factorial off by one"),
    ("verify/claims/universal.py", "    if any(node.is_Add for node in sympy.preorder_traversal(difference)):\n        return None\n", "",
     "sign rules trusted on sums (SymPy evaluates those numerically)"),
    ("verify/claims/universal.py", '_HOLDS_FOR_SIGN = {">": {1},', '_HOLDS_FOR_SIGN = {">": {1, 0},',
     "a strict inequality holds at equality"),
    ("verify/claims/universal.py", '    if verdict != "fails":\n        # A float64 value', '    if verdict == "holds":\n        # A float64 value',
     "an unconfirmed float64 violation refutes again"),
    ("verify/claims/steps.py", 'reason = unmet(step.hypotheses, rel) if result.status == "holds" else ""', 'reason = ""',
     "a holds accepted without its hypotheses"),
    ("verify/claims/outcome.py", "    if gridded:\n", "    if False:\n",
     "a grid of a continuous range decides a probability"),
    ("verify/claims/asymptotic.py", "deterministic = result.detail != _NO_CLOSED_FORM", "deterministic = False",
     "a deterministic log-log fit decides an order"),
    ("verify/claims/existence.py", "    found = singular_points(body)\n    if found is None:\n        return Existence(UNKNOWN, f\"the points",
     "    found = (set(), True)\n    if found is None:\n        return Existence(UNKNOWN, f\"the points",
     "existence: no singular point looked for"),
]


def run(index: int) -> bool:
    path, text, replacement, what = MUTANTS[index]
    file = ROOT / path
    original = file.read_text(encoding="utf-8")
    if original.count(text) != 1:
        print(f"{index:2d} BAD MUTANT (matches {original.count(text)} times): {what}")
        return True
    try:
        file.write_text(original.replace(text, replacement), encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider",
                               *TESTS], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    finally:
        file.write_text(original, encoding="utf-8")
    killed = done.returncode != 0
    print(f"{index:2d} {'killed  ' if killed else 'SURVIVED'} {path}: {what}", flush=True)
    return killed


def main(argv: list[str]) -> int:
    chosen = [int(a) for a in argv] or range(len(MUTANTS))
    survivors = [i for i in chosen if not run(i)]
    print(f"{len(chosen) - len(survivors)} of {len(chosen)} killed; survivors: {survivors or 'none'}")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
