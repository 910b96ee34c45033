#!/usr/bin/env bash
# `pnpm test`: every check to the end, every failure reported together (a first failure must not
# hide the rest: each phase runs whatever the one before it did). What runs where and why:
# docs/testing.md. The last lines name what failed — the phase, the test file, the test — because
# a CI log is often read from its tail only; before them, the slowest files and each phase's time.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
# What the run leaves for reading after it: vitest's reports, each file's SQL, the PGlite files.
work=test-results
rm -rf "$work" && mkdir -p "$work"
log=$work/all.log
phases=$work/phases.tsv
runner() { node --import tsx tooling/test-runner/src/main.ts "$@"; }

# Runs a phase, its output shown and kept for the summary, its wall time noted.
run() {
  local name=$1 start=$SECONDS
  shift
  printf '\n=== %s ===\n' "$name"
  "$@" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("$name")
  printf '%s\t%s\n' "$name" $((SECONDS - start)) >>"$phases"
}

# Lint and typecheck need no service and little of the tests' waiting: they run beside the native
# pass, their output held back and shown after it, so the two do not interleave.
checks() {
  local start=$SECONDS status=0
  pnpm lint >"$work/lint.log" 2>&1 || status=1
  printf 'lint\t%s\n' $((SECONDS - start)) >"$work/checks.tsv"
  start=$SECONDS
  pnpm typecheck >"$work/typecheck.log" 2>&1 || status=$((status | 2))
  printf 'typecheck (beside the native pass)\t%s\n' $((SECONDS - start)) >>"$work/checks.tsv"
  return $status
}
checks &
checks_pid=$!

run "build (the web app the browser tests serve)" pnpm exec turbo run build --output-logs=errors-only
# Every test file once, natively, each integration file's SQL recorded for choosing the PGlite pass.
run "tests (native Postgres)" env TEST_SQL_LOG="$work/sql" pnpm exec vitest run \
  --reporter=default --reporter=json --outputFile.json="$work/native.json"

wait "$checks_pid"
checks_status=$?
for part in lint typecheck; do
  printf '\n=== %s ===\n' "$part"
  tee -a "$log" <"$work/$part.log"
done
[ $((checks_status & 1)) -eq 0 ] || failed+=(lint)
[ $((checks_status & 2)) -eq 0 ] || failed+=(typecheck)
cat "$work/checks.tsv" >>"$phases"

# The PGlite pass (what `pnpm start` embeds): the fewest, quickest files that together send every
# statement the native pass sent; then proof that the files that passed there covered them all.
if [ -f "$work/native.json" ] && runner choose-pglite "$work/sql" "$work/native.json" "$work/pglite-files"; then
  mapfile -t chosen <"$work/pglite-files"
  run "tests on PGlite (${#chosen[@]} files)" env TEST_DB_BACKEND=pglite pnpm exec vitest run \
    --project long --project integration --reporter=default --reporter=json \
    --outputFile.json="$work/pglite.json" "${chosen[@]}"
  run "PGlite coverage of the native pass's SQL" runner check-pglite "$work/sql" "$work/pglite.json"
else
  failed+=("choosing the PGlite pass")
fi

[ -f "$work/native.json" ] && runner report "$work/native.json" "$phases"
if [ ${#failed[@]} -gt 0 ]; then
  printf '\n=== what failed (from the output above) ===\n'
  sed 's/\x1b\[[0-9;]*m//g' "$log" |
    grep -E 'Failed:|ERR_PNPM|error TS[0-9]+| FAIL | × |Error: Test timed out|Hook timed out|Unhandled|PGlite coverage:|layers:' |
    awk '!seen[$0]++' | head -n 200
  printf '\n=== failed: %s ===\n' "$(IFS=,; echo "${failed[*]}")"
  exit 1
fi
printf '\n=== every check passed ===\n'
