#!/usr/bin/env bash
# The composite action's run step: inputs arrive as HARNESS_* variables, secrets leave only as EVENT_API_* variables.
# Nothing an input holds is printed raw: the log shows it through the harness's inert quoting, and the outputs are
# written as name<<DELIMITER blocks with a delimiter no input can know.
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:?run.sh runs inside the composite action}"
delimiter="event-harness-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"

# One output of the step; a value never holds the delimiter's line (paths hold no line break, the rest are ours).
output() {
  printf '%s<<%s\n%s\n%s\n' "$1" "$delimiter" "$2" "$delimiter" >>"${GITHUB_OUTPUT:?}"
}

# Arguments as one line for the log, each shown and never obeyed (transport/untrusted-text.ts).
inert_words() {
  node "$action_path/action/inert-words.mjs" "$@" || echo "(the command line could not be shown)"
}

# A path never holds a line break: one in an input is refused before anything runs or is printed.
for name in CONFIG ACCEPTED BASELINE CA_FILE K6_BIN REPORT_DIR; do
  input="HARNESS_${name}"
  case "${!input:-}" in
    *$'\n'* | *$'\r'*)
      label="$(echo "$name" | tr 'A-Z_' 'a-z-')"
      echo "::error title=event-harness::the input ${label} holds a line break (CR or LF), which no path does; nothing was run"
      output verdict configuration-error
      output report-path ""
      output exit-code 2
      echo "**event-harness: configuration-error** (exit 2): the input ${label} holds a line break (CR or LF), which no path does; nothing was run." >>"${GITHUB_STEP_SUMMARY:?}"
      exit 2
      ;;
  esac
done

# Each non-empty input becomes the harness's own variable; an empty one leaves the job's variable alone.
for name in ISSUER AUTH_URL TOKEN_URL BASE_URL CLIENT_ID CLIENT_SECRET CLIENT_AUTH SCOPE AUDIENCE RESOURCE TOKEN_PARAMS \
  CHANNEL_ID TIMEOUT RUN_TIMEOUT INSECURE OLD_CLIENT_SECRET OLD_ACCESS_TOKEN; do
  input="HARNESS_${name}"
  if [ -n "${!input:-}" ]; then export "EVENT_API_${name}=${!input}"; fi
  unset "$input"
done
# The config file, its environment and the ledger are the harness's own settings (EVENT_HARNESS_*).
for name in CONFIG ENVIRONMENT ACCEPTED; do
  input="HARNESS_${name}"
  if [ -n "${!input:-}" ]; then export "EVENT_HARNESS_${name}=${!input}"; fi
  unset "$input"
done
if [ -n "${HARNESS_CA_FILE:-}" ]; then export NODE_EXTRA_CA_CERTS="$HARNESS_CA_FILE"; fi
if [ -n "${HARNESS_K6_BIN:-}" ]; then export K6_BIN="$HARNESS_K6_BIN"; fi

report_dir="${HARNESS_REPORT_DIR:-}"
if [ -z "$report_dir" ]; then
  report_dir="$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/event-harness-XXXXXX")"
fi

args=(run --report-dir "$report_dir")
if [ -n "${HARNESS_PARTS:-}" ]; then args+=(--parts "$HARNESS_PARTS"); fi
if [ -n "${HARNESS_PROFILE:-}" ]; then args+=(--profile "$HARNESS_PROFILE"); fi
if [ -n "${HARNESS_RATE:-}" ]; then args+=(--rate "$HARNESS_RATE"); fi
if [ -n "${HARNESS_EXPECT_OLD:-}" ]; then args+=(--expect-old "$HARNESS_EXPECT_OLD"); fi
if [ -n "${HARNESS_EXPECT_OLD_TOKENS:-}" ]; then args+=(--expect-old-tokens "$HARNESS_EXPECT_OLD_TOKENS"); fi
if [ -n "${HARNESS_SANDBOX_FAULT:-}" ]; then args+=(--sandbox-fault "$HARNESS_SANDBOX_FAULT"); fi
# A baseline is a path, never a secret: it goes on the command line, where the run's reproduce lines show it.
if [ -n "${HARNESS_BASELINE:-}" ]; then args+=(--baseline "$HARNESS_BASELINE"); fi
read -r -d '' -a scenarios <<<"${HARNESS_SCENARIOS:-}" || true
for scenario in "${scenarios[@]}"; do args+=(--scenario "$scenario"); done
# One threshold a line: an expression may hold spaces (p(95) < 300), a line never holds two.
while IFS= read -r threshold; do
  if [ -n "${threshold// /}" ]; then args+=(--threshold "$threshold"); fi
done <<<"${HARNESS_THRESHOLDS:-}"

# The package's own bin entry, so the action follows wherever the package puts its CLI.
bin="$(node -p 'require(process.argv[1]).bin["event-harness"]' "$action_path/package.json")"

echo "event-harness $(inert_words "${args[@]}")"
set +e
node "$action_path/$bin" "${args[@]}"
code=$?
set -e

case "$code" in
  0) verdict=passed ;;
  1) verdict=failed ;;
  2) verdict=configuration-error ;;
  *) verdict=undecided ;;
esac
output verdict "$verdict"
output report-path "$report_dir"
output exit-code "$code"

# The job summary gets the run's summary.md whatever the verdict, so a failure is explained where it is seen.
if [ -f "$report_dir/summary.md" ]; then
  cat "$report_dir/summary.md" >>"${GITHUB_STEP_SUMMARY:?}"
else
  echo "**event-harness: ${verdict}** (exit ${code}); no summary.md was written: the harness stopped before testing, see the log." >>"${GITHUB_STEP_SUMMARY:?}"
fi

if [ "$code" -ne 0 ]; then
  # A workflow command's message takes % as an escape: the path is shown inert, its % written as %25.
  shown="$(inert_words "$report_dir")"
  echo "::error title=event-harness::verdict ${verdict} (exit ${code}); reports in ${shown//%/%25}"
fi
exit "$code"
