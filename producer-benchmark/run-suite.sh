#!/usr/bin/env bash
# Runs the standard performance suite: raw data to docs/perf-data/, then docs/PERFORMANCE.md and the charts under
# docs/performance/ from that data. About 20 minutes on 2 cores. The Aliyun Log Java producer's runs use the class
# path the benchmark module's package phase copies to producer-benchmark/target/aliyun-lib/ (not in benchmarks.jar).
# Options are passed to io.logproducer.benchmark.harness.PerformanceSuite:
#   --quick (a ~4.5-minute smoke run), --skip-jmh, --warmup S, --duration S, --repeats N, --passes N,
#   --budget-minutes M, --docs DIR, --note TEXT (this run's row in docs/perf-data/history.tsv), --run 'key=value …' (ad-hoc runs, no report), --jmh-only,
#   --report-only (rebuild the page and charts from docs/perf-data/ without measuring anything),
#   --long-runs (only the steady state and 20 M records from the JVM's start with the JVM's default heap, lz4 and
#   zstd-1, with their own calibration, into docs/perf-data/long-run.tsv; then the page; ~7 minutes)
# Set SKIP_BUILD=1 to use the artifacts already built.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${SKIP_BUILD:-0}" != "1" ]; then
  echo "building (./mvnw -q -DskipTests install) …"
  ./mvnw -q -DskipTests install
  # The benchmark module may not be listed in the parent's <modules>: build it explicitly.
  ./mvnw -q -DskipTests -f producer-benchmark/pom.xml package
fi

JAR=producer-benchmark/target/benchmarks.jar
if [ ! -f "$JAR" ]; then
  echo "missing $JAR: build it with ./mvnw -q -DskipTests -f producer-benchmark/pom.xml package" >&2
  exit 1
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
exec "$JAVA" -Xmx1g -cp "$JAR" io.logproducer.benchmark.harness.PerformanceSuite "$@"
