#!/usr/bin/env bash
# `pnpm test`: every check to the end, every failure reported together (a first failure must not
# hide the rest: turbo's --continue, and each phase run whatever the one before it did).
set -uo pipefail
failed=()
run() {
  local name=$1
  shift
  printf '\n=== %s ===\n' "$name"
  "$@" || failed+=("$name")
}
run lint pnpm lint
run "typecheck and tests" pnpm exec turbo run typecheck test --concurrency=2 --continue
run "tests on PGlite" pnpm test:pglite
if [ ${#failed[@]} -gt 0 ]; then
  printf '\n=== failed: %s ===\n' "$(IFS=,; echo "${failed[*]}")"
  exit 1
fi
printf '\n=== every check passed ===\n'
