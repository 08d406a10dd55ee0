#!/usr/bin/env bash
# The disk spool's overhead (docs/PERFORMANCE.md, "The disk spool"): the end-to-end harness (reference workload,
# lz4, the harness's default logproducer settings, the loopback OTLP sink up) run memory-only, then with a write-ahead
# spool under each durability policy (GROUP_COMMIT 200 ms, EVERY_BATCH, NONE), alternating, ROUNDS rounds; prints the
# medians: records/s, producer-process CPU µs per record and the spool's disk writes (write_bytes of /proc/self/io).
# Each spooled run gets a fresh directory under SPOOL_PARENT (deleted after it), which must be on the disk the spool
# is meant for, not a tmpfs: the script prints its file system. Raw data: $OUT/perf-data/adhoc.tsv.
# Environment: SPOOL_PARENT (/var/tmp/logproducer-spool-bench), ROUNDS (3), OUT (/tmp/logproducer-spool-bench),
# WARMUP / DURATION (seconds, 3 / 8), JFR=1 (a JFR profile of every GROUP_COMMIT run, under $OUT/perf-data/),
# EXTRA (more key=value settings for every run, e.g. EXTRA=rateLimit=100000 to compare CPU at a paced rate).
# Build the jar first: ./mvnw -B -o -pl producer-benchmark -am package -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false
set -euo pipefail
cd "$(dirname "$0")/.."
SPOOL_PARENT=${SPOOL_PARENT:-/var/tmp/logproducer-spool-bench}
ROUNDS=${ROUNDS:-3}
OUT=${OUT:-/tmp/logproducer-spool-bench}
JAR=producer-benchmark/target/benchmarks.jar
mkdir -p "$SPOOL_PARENT" "$OUT"
rm -f "$OUT/perf-data/adhoc.tsv"
echo "spool parent: $SPOOL_PARENT"; df -T "$SPOOL_PARENT" | tail -1; uptime

jfr=""
if [ "${JFR:-0}" = "1" ]; then jfr=" jfr=true"; fi
x="${EXTRA:+ $EXTRA}"
runs=()
for _ in $(seq "$ROUNDS"); do
  runs+=(--run "label=memory-only$x")
  runs+=(--run "label=GROUP_COMMIT spoolDir=$SPOOL_PARENT spoolDurability=GROUP_COMMIT$jfr$x")
  runs+=(--run "label=EVERY_BATCH spoolDir=$SPOOL_PARENT spoolDurability=EVERY_BATCH$x")
  runs+=(--run "label=NONE spoolDir=$SPOOL_PARENT spoolDurability=NONE$x")
done
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$JAVA" -Xmx1g -cp "$JAR" io.logproducer.benchmark.harness.PerformanceSuite --docs "$OUT" \
  --warmup "${WARMUP:-3}" --duration "${DURATION:-8}" --budget-minutes 30 "${runs[@]}"

# Medians per label from adhoc.tsv: "<section>\t<spec k=v …>\tRESULT k=v …".
awk -F'\t' '
  function median(s,   a, n, i, j, t) {
    n = split(s, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  {
    split($2, spec, " "); label = ""
    for (k in spec) if (spec[k] ~ /^label=/) label = substr(spec[k], 7)
    n = split($3, kv, " "); delete v
    for (i = 2; i <= n; i++) { eq = index(kv[i], "="); v[substr(kv[i], 1, eq - 1)] = substr(kv[i], eq + 1) }
    if (!(label in order)) { order[label] = ++labels; names[labels] = label }
    rps[label] = rps[label] " " v["delivered"] / v["seconds"]
    cpu[label] = cpu[label] " " v["cpuNanos"] / 1000 / v["delivered"]
    disk[label] = disk[label] " " v["diskWriteBytes"] / 1e6 / v["seconds"]
    runs[label]++
  }
  END {
    base_r = median(rps["memory-only"]); base_c = median(cpu["memory-only"])
    printf "%-14s %5s %12s %8s %12s %8s %14s\n", "run", "runs", "records/s", "vs mem", "CPU us/rec", "vs mem", "disk MB/s"
    for (i = 1; i <= labels; i++) {
      l = names[i]; r = median(rps[l]); c = median(cpu[l])
      printf "%-14s %5d %12.0f %7.1f%% %12.3f %+7.1f%% %14.1f\n", l, runs[l], r, 100 * r / base_r, c, 100 * (c / base_c - 1), median(disk[l])
    }
  }' "$OUT/perf-data/adhoc.tsv"
