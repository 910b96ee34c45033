#!/usr/bin/env bash
# `pnpm test`: every check to the end, every failure reported together (a first failure must not
# hide the rest: turbo's --continue, and each phase run whatever the one before it did). The last
# lines name what failed — the task, the test file, the test — because a CI log is often read
# from its tail only.
set -uo pipefail
failed=()
log=$(mktemp -t rag-test-all.XXXXXX)
trap 'rm -f "$log"' EXIT
run() {
  local name=$1
  shift
  printf '\n=== %s ===\n' "$name"
  "$@" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("$name")
}
run lint pnpm lint
run "typecheck and tests" pnpm exec turbo run typecheck test --concurrency=2 --continue
run "tests on PGlite" pnpm test:pglite
if [ ${#failed[@]} -gt 0 ]; then
  printf '\n=== what failed (from the output above) ===\n'
  sed 's/\x1b\[[0-9;]*m//g' "$log" |
    grep -E 'Failed:|ERR_PNPM|error TS[0-9]+| FAIL | × |Error: Test timed out|Hook timed out|Unhandled' |
    awk '!seen[$0]++' | head -n 200
  printf '\n=== failed: %s ===\n' "$(IFS=,; echo "${failed[*]}")"
  exit 1
fi
printf '\n=== every check passed ===\n'
