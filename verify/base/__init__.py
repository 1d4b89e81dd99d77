"""The suite's foundations, which know nothing of the paper: errors, input validation and
the whitelist expression parser, budgets for symbolic work on untrusted text, files, the
on-disk cache and parallel sweeps."""
