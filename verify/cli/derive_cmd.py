"""``verify derive [--check] [--out DIR]``: (re)generate the derivations."""

from __future__ import annotations

import sys
from pathlib import Path

from verify.base.files import output_directory


def add_parser(sub) -> None:
    p = sub.add_parser("derive", help="regenerate derivations/ (Markdown + LaTeX)",
                       description="Regenerate the SymPy derivations (h = -dPhi/dm, Proposition 4's series, "
                       "the dual kernels, the lazy and GLM limits...) as Markdown with LaTeX under "
                       "derivations/; --check regenerates in memory and exits 1 naming stale files.")
    p.add_argument("--out", default="derivations", help="output directory (default: derivations)")
    p.add_argument("--check", action="store_true",
                   help="regenerate in memory and exit 1 naming the files that would change")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: SymPy and the derivations load only when they are regenerated or checked
    from verify.derive import DERIVATIONS, stale, write_all

    if not args.check:
        # before Path(): Path("") is "." and "" must be refused; the files too, before the ~25 s of SymPy
        output_directory(args.out, "--out", writes=tuple(m.FILENAME for m in DERIVATIONS))
    out = Path(args.out)
    if args.check:
        changed = stale(out)
        if changed:
            sys.stderr.write(f"verify derive: out of date: {', '.join(changed)} "
                             "(run `verify derive`)\n")
            return 1
        print(f"derivations in {out}/ are up to date")
        return 0
    for path in write_all(out):
        print(f"wrote {path}")
    return 0
