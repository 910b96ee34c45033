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
timed() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  local status=$?
  printf '%s\t%s\n' "$name" $((SECONDS - start)) >>"$phases"
  return $status
}

# Runs a phase, its output shown and kept for the summary, its wall time noted.
run() {
  local name=$1
  shift
  printf '\n=== %s ===\n' "$name"
  timed "$name" "$@" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("$name")
}

# The web app the browser tests serve, and each process's bundle (started without tsx while it is
# current: a worker's start costs about 1.5 s of CPU instead of 5, and the suite starts some 150
# processes, parse children among them).
run "build (the web app, the processes' bundles)" pnpm exec turbo run build --output-logs=errors-only

# A phase in the background: its output kept in a file until `shown` prints it and notes how it ended.
declare -A pids=()
started() {
  local name=$1
  shift
  timed "$name" "$@" >"$work/$name.log" 2>&1 &
  pids[$name]=$!
}
shown() {
  local name=$1
  wait "${pids[$name]}"
  local status=$?
  printf '\n=== %s ===\n' "$name"
  tee -a "$log" <"$work/$name.log"
  [ "$status" -eq 0 ] || failed+=("$name")
}

# The native pass in two lanes at once. The long tail (vitest.config.ts:
# a platform brought up, workers killed, a 60-page scan, a browser walking a view) runs one file at
# a time beside the rest: two of them at once ran each other down (their processes, their polling)
# to half their speed. Every integration file's SQL is recorded for choosing the PGlite pass; lint
# and the typecheck run beside the lanes.
native() {
  local report=$1 workers=$2
  shift 2
  env TEST_SQL_LOG="$work/sql" pnpm exec vitest run --maxWorkers "$workers" --reporter=default --reporter=json \
    --outputFile.json="$work/$report.json" "$@"
}
# The rest in two workers: its files wait on their databases, queues and child processes much of
# the time (one worker each, the machine's two cores were 1.4 busy on average).
started "tests: the long tail (native Postgres)" native native-long 1 --project long
started "tests: the rest (native Postgres)" native native-rest 2 --project integration --project unit
run lint pnpm lint
run typecheck pnpm typecheck

# The PGlite pass (what `pnpm start` embeds), once both lanes have ended: the fewest, quickest
# files that together send every statement of the platform's own the native pass sent; then proof
# that the files that passed there covered them all. (Started beside the rest of the native pass,
# from the files logged so far, it chose slow files whose statements quicker ones would have sent
# later, and slowed both: the machine is busy throughout, so overlapping saves nothing.)
shown "tests: the long tail (native Postgres)"
shown "tests: the rest (native Postgres)"
if runner choose-pglite "$work/sql" "$work/pglite.files"; then
  mapfile -t chosen <"$work/pglite.files"
  run "tests on PGlite (${#chosen[@]} files)" env TEST_DB_BACKEND=pglite pnpm exec vitest run \
    --project long --project integration --reporter=default --reporter=json \
    --outputFile.json="$work/pglite.json" "${chosen[@]}"
  run "PGlite coverage of the native pass's SQL" runner check-pglite "$work/sql" "$work/pglite.json"
else
  failed+=("choosing the PGlite pass")
fi
native_reports=("$work/native-long.json" "$work/native-rest.json")

runner report "$phases" "$work/sql" "${native_reports[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  printf '\n=== what failed (from the output above) ===\n'
  sed 's/\x1b\[[0-9;]*m//g' "$log" |
    grep -E 'Failed:|ERR_PNPM|error TS[0-9]+| FAIL | × |Error: Test timed out|Hook timed out|Unhandled|PGlite coverage:|layers:' |
    awk '!seen[$0]++' | head -n 200
  printf '\n=== failed: %s ===\n' "$(IFS=,; echo "${failed[*]}")"
  exit 1
fi
printf '\n=== every check passed ===\n'
