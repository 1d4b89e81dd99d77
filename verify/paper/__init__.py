"""The paper the suite checks, as data: its text, its displays, and the ledger of what decides each.

- :mod:`verify.paper.source`: the COLT text of Dayı & Chen (vendored, with its SHA-256), its
  sections and its displayed equations (``$$ … $$`` blocks), each with a stable id;
- ``ledger.toml``: one entry per display, saying what kind of statement it is and what decides it
  (a check of ``verify check``, or the reason it cannot be decided by computation), read by
  :mod:`verify.paper.ledger`.
"""
