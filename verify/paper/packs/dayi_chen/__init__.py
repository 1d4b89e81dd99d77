"""The Dayı–Chen pack: the paper the suite was built for (pack.toml, the text, ledger.d/) and its
coded checks (:mod:`verify.paper.packs.dayi_chen.checks`)."""
