# Phases of a run, shared by .ci/run and test/all.sh (npm test): each phase's duration and result recorded, the
# output of phases that run beside others printed as one block when they end, and a table of all phases at the end.
# Sourced, not run. A run started inside another (npm test inside .ci/run) appends to the outer run's table
# (CHORUS_PHASES_DIR), and only the outer run prints it.

if [ -n "${CHORUS_PHASES_DIR:-}" ]; then
  LOGS=$CHORUS_PHASES_DIR
  PHASES_OWNER=0
else
  LOGS=$(mktemp -d -t chorus-ci-XXXXXX)
  export CHORUS_PHASES_DIR=$LOGS
  PHASES_OWNER=1
  # One line per finished phase: name, seconds, result (appended by the phases, also from background lanes).
  : > "$LOGS/phases"
fi
RUN_STARTED=$(date +%s)
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

summary() {
  local status=$?
  echo
  echo "CI phases (load average at start ${LOAD_AT_START}, at end $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"); $(nproc) cores)"
  printf '  %-28s %8s  %s\n' "phase" "seconds" "result"
  while IFS=$'\t' read -r name secs result; do printf '  %-28s %8s  %s\n' "$name" "$secs" "$result"; done < "$LOGS/phases"
  printf '  %-28s %8s  %s\n' "total (wall clock)" "$(( $(date +%s) - RUN_STARTED ))" "$([ "$status" = 0 ] && echo passed || echo FAILED)"
  # The end of each failed phase's output again (its failure summary), so the last lines of a run say what failed
  # even where only the tail of the console is kept.
  local log
  while IFS=$'\t' read -r name _ result; do
    log="$LOGS/${name//[^a-zA-Z0-9]/_}.log"
    if [ "$result" = FAILED ] && [ -f "$log" ]; then
      echo
      echo "The last ${FAILED_TAIL_LINES:-80} lines of the failed phase \"${name}\":"
      tail -n "${FAILED_TAIL_LINES:-80}" "$log"
    fi
  done < "$LOGS/phases"
  rm -rf "$LOGS"
}
if [ "$PHASES_OWNER" = 1 ]; then trap summary EXIT; fi

# phase NAME COMMAND...: run it, record its duration and result; its output goes straight to the console.
phase() {
  local name=$1 started result=passed
  shift
  started=$(date +%s)
  echo "== ${name}"
  "$@" || result=FAILED
  printf '%s\t%s\t%s\n' "$name" "$(( $(date +%s) - started ))" "$result" >> "$LOGS/phases"
  [ "$result" = passed ]
}

# quiet_phase NAME COMMAND...: as phase, its output kept in a log and printed as one block when it ends (for
# phases that run beside others).
quiet_phase() {
  local name=$1 log="$LOGS/${1//[^a-zA-Z0-9]/_}.log" status=0
  shift
  phase "$name" "$@" > "$log" 2>&1 || status=$?
  { echo "---- ${name} ----"; cat "$log"; echo "---- end of ${name} ($([ "$status" = 0 ] && echo passed || echo FAILED)) ----"; }
  return "$status"
}

# together COMMAND...: each argument is a command line (a function call) run in the background; waits for all.
# @returns non-zero when any failed (after every one has finished).
together() {
  local pids=() failed=0
  if [ "${CI_PARALLEL:-1}" = 0 ]; then
    for cmd in "$@"; do eval "$cmd" || failed=1; done
    return "$failed"
  fi
  for cmd in "$@"; do eval "$cmd" & pids+=("$!"); done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  return "$failed"
}

