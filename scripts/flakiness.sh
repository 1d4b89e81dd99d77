#!/usr/bin/env bash
# Run the default test suite N times (default 30) with different Hypothesis
# seeds under the randomized "dev" profile and count the failing runs.
# Usage: scripts/flakiness.sh [N] [extra pytest args...]
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}; shift || true
failures=0
for seed in $(seq 1 "$runs"); do
  if VERIFY_HYPOTHESIS_PROFILE=dev VERIFY_CACHE_DIR="$(mktemp -d)" \
     .venv/bin/python -m pytest -q -p no:cacheprovider --hypothesis-seed="$seed" "$@" > "/tmp/flaky-$seed.log" 2>&1; then
    echo "run $seed: pass"
  else
    failures=$((failures + 1))
    echo "run $seed: FAIL (log: /tmp/flaky-$seed.log)"
  fi
done
echo "failures: $failures of $runs"
[ "$failures" -eq 0 ]
