#!/usr/bin/env bash
# Runs the README's test command (./mvnw -B verify, extra arguments passed on) while busy-looping
# processes keep every core at 100 %, as on a loaded CI runner: a test whose verdict depends on how
# fast the machine is fails here. BUSY=N sets the number of busy loops (default: the number of cores).
# The loops are niced like ordinary work (nice 0) and are stopped however the build ends.
set -euo pipefail
cd "$(dirname "$0")/.."

busy="${BUSY:-$(nproc)}"
pids=()
stop_busy() {
  for p in "${pids[@]:-}"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
}
trap stop_busy EXIT INT TERM

for _ in $(seq 1 "$busy"); do
  bash -c 'while :; do :; done' &
  pids+=("$!")
done
echo "== $busy busy loops (pids ${pids[*]}) keep the cores saturated; load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
status=0
./mvnw -B verify "$@" || status=$?
end=$(date +%s)
echo "== ./mvnw -B verify under $busy busy loops: exit $status after $((end - start)) s; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"
