"""The mutation score of the decision modules, from mutmut's results (run ``mutmut run`` first;
``tox -e mutation`` does both).

Every surviving mutant is classed by what it changes:

- ``text``: only the contents of string literals (mutmut's "XX...XX" and case changes) on a line
  that builds a message (a ``detail``, an evidence string, an error).  Messages are read by people,
  never by a decision, so such a mutant cannot change a verdict;
- ``logic``: anything else.  These are listed one by one (module, function, the changed line), to be
  killed by a statement of tests/calibration/routes/decision_routes.toml or argued in the notes.

Usage: python scripts/mutation_report.py [--markdown FILE]
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import textwrap
import tokenize
from collections import Counter

_MUTANT = re.compile(r"^\s*(\S+__mutmut_\d+): (\w[\w ]*)$")


def _mutmut(*args: str) -> str:
    return subprocess.run([sys.executable, "-m", "mutmut", *args], capture_output=True, text=True,
                          check=False).stdout


def without_strings(code: str) -> str:
    """The code (a line, or a block such as a function's source) with every string literal's
    contents dropped, its tokens otherwise kept."""
    try:
        text = textwrap.dedent(code).strip() + "\n"
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return code.strip()
    kept = []
    for token in tokens:
        if token.type == tokenize.STRING:
            kept.append("''")
        elif token.type in (tokenize.FSTRING_START, tokenize.FSTRING_MIDDLE, tokenize.FSTRING_END) \
                if hasattr(tokenize, "FSTRING_START") else False:
            kept.append("''")
        else:
            kept.append(token.string)
    return " ".join(kept)


def classify(name: str) -> tuple[str, str, str]:
    """(class, original line, mutated line) of one mutant."""
    return classify_diff(_mutmut("show", name))


def classify_diff(diff: str) -> tuple[str, str, str]:
    """(class, original line, mutated line) of one mutant's unified diff."""
    removed = [line[1:] for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    before, after = " / ".join(s.strip() for s in removed), " / ".join(s.strip() for s in added)
    same_code = [without_strings(a) for a in removed] == [without_strings(b) for b in added]
    compared = re.search(r"==|!=|\bin\b|\[op\]|: \(|\"(<=|<|>=|>|==|holds|fails|undecided)\"", before)
    return ("text" if same_code and removed and not compared else "logic"), before, after


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", help="also write the report as Markdown to this file")
    args = parser.parse_args(argv)
    statuses = {}
    for line in _mutmut("results", "--all", "true").splitlines():
        match = _MUTANT.match(line)
        if match:
            statuses[match.group(1)] = match.group(2).strip()
    if not statuses:
        print("no mutmut results: run `mutmut run` first", file=sys.stderr)
        return 2
    counts = Counter(statuses.values())
    survivors = [n for n, s in statuses.items() if s == "survived"]
    classes = {n: classify(n) for n in survivors}
    logic = sorted((n for n, c in classes.items() if c[0] == "logic"))
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    tested = killed + len(survivors)
    untested = len(statuses) - tested
    lines = [f"mutants: {len(statuses)}, {tested} tested ({untested} not yet: an interrupted run); killed "
             f"{killed} (timeouts {counts.get('timeout', 0)}), survived {len(survivors)} "
             f"({len(survivors) - len(logic)} text-only, {len(logic)} logic); score "
             f"{killed / max(1, tested):.1%} of the tested, {killed / max(1, killed + len(logic)):.1%} of "
             "those that can change a decision"]
    by_function = Counter(n.split("__mutmut_")[0] for n in logic)
    lines += ["", "| function | logic survivors |", "|---|---|"]
    lines += [f"| {f.replace('.x_', '.', 1)} | {c} |" for f, c in by_function.most_common()]
    lines += ["", "logic survivors:"]
    lines += [f"- {n}: `{classes[n][1][:100]}` -> `{classes[n][2][:100]}`" for n in logic]
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
