"""The built-in paper packs, one directory each (:mod:`verify.paper.pack`).

A pack is data; a built-in pack may also carry a package of coded checks, which pack.toml's
``coded_checks`` names and :func:`verify.checks.packs.code_modules` imports by that name (a user's
pack directory is data only)."""
