"""Benchmarks that report ratios measured side by side in one run.

Absolute times on shared machines are noise; a ratio of two engines timed in
the same process, interleaved, is what the README quotes.  Each benchmark
module exposes ``run(quick: bool) -> dict`` with a ``rows`` list.
"""

from verify.bench import certified_bench, hermite_bench, regions_bench, simulator_bench

BENCHMARKS = {"hermite": hermite_bench, "simulator": simulator_bench, "regions": regions_bench,
              "certified": certified_bench}
