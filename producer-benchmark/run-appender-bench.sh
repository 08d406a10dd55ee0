#!/usr/bin/env bash
# The logging appenders, measured and written into docs/PERFORMANCE.md ("Logging appenders").
#
# Default: io.logproducer.benchmark.appenders.AppenderSuite, every appender in its own JVM and class path against one
# receiver in its own JVM (logback: ours, ours inline, FileAppender, OpenTelemetry's, Aliyun's; log4j2: ours, ours
# inline, RandomAccessFileAppender, OpenTelemetry's), saturated and paced, 1 and 4 logging threads, plus 200,000
# events/s from 4 threads through our defaults. It writes docs/perf-data/appender-suite.tsv (with --profile also
# docs/perf-data/appender-profile-{logback,log4j2}.tsv) and then run-suite.sh --report-only refills the page.
# Options go to the suite: --quick (under 5 minutes: fewer events, 1 run per cell), --only logback/otel,..., --regime
# saturated|paced, --threads 1,4, --runs N, --profile, --no-high-rate, --out F, --target D (--help lists them). The full
# run takes the median of 3 runs per cell (about 25 minutes on 2 cores).
#
# --jmh: the earlier method instead (the "Microbenchmark and end to end in one JVM" part of the section):
#  1. AppenderBenchmark (the logback appender path on the logging thread: logproducer, logproducer inside logback's
#     AsyncAppender, OpenTelemetry's logback appender, a no-op appender) with 1 and 4 benchmark threads and the GC
#     profiler (B/op). About 3 minutes on 2 cores. Extra arguments go to JMH, e.g. -p appender=otel,logproducer or
#     -p otelMaxQueueSize=65536. Results: target/appender-bench-t1.txt and target/appender-bench-t4.txt (each trial's
#     drop counts are printed in the "[AppenderBenchmark]" lines).
#  2. End to end through each framework: the examples jar's `logback` and `log4j2` commands, 3 runs each of 1,000,000
#     records to the embedded OTLP receiver (about 10-15 s a run); their final lines go to target/appender-e2e.txt.
#  3. io.logproducer.benchmark.report.AppenderResults turns these into docs/perf-data/appenders.tsv, and
#     run-suite.sh --report-only regenerates docs/PERFORMANCE.md from docs/perf-data/.
# Set SKIP_BUILD=1 to use the jars already built, SKIP_JMH=1 to reuse the JMH output already in target/,
# E2E_RUNS / E2E_RECORDS to change the end-to-end runs (default 3 runs of 1000000 records), APPENDER_NOTE to publish
# a remark about the measurement with the data (e.g. that the machine was not idle).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--jmh" ]; then
  if [ "${SKIP_BUILD:-0}" != "1" ]; then
    # benchmarks.jar (the sinks and the suite), target/classes, target/appender-lib/ and target/aliyun-lib/ (the
    # children's class paths).
    ./mvnw -B -q package -pl producer-benchmark -am -DskipTests
  fi
  JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  "$JAVA" -cp producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.appenders.AppenderSuite "$@"
  SKIP_BUILD=1 producer-benchmark/run-suite.sh --report-only
  exit 0
fi
shift

if [ "${SKIP_BUILD:-0}" != "1" ]; then
  # The examples jar runs the end-to-end part; the benchmark jar the JMH part.
  ./mvnw -B -q package -pl producer-benchmark,examples -am -DskipTests
fi
JAR=producer-benchmark/target/benchmarks.jar
EXAMPLES=examples/target/logproducer-examples.jar
OUT=producer-benchmark/target
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
for f in "$JAR" "$EXAMPLES"; do
  if [ ! -f "$f" ]; then
    echo "missing $f: build with ./mvnw -B -q package -pl producer-benchmark,examples -am -DskipTests" >&2
    exit 1
  fi
done

if [ "${SKIP_JMH:-0}" != "1" ]; then
  for t in 1 4; do
    "$JAVA" -jar "$JAR" AppenderBenchmark -t "$t" -prof gc -f 1 -wi 3 -w 2s -i 5 -r 2s "$@" \
      | tee "$OUT/appender-bench-t$t.txt"
  done
fi
grep -h -E "^\[AppenderBenchmark\]|^AppenderBenchmark\.log( |:gc\.alloc\.rate\.norm)" \
  "$OUT/appender-bench-t1.txt" "$OUT/appender-bench-t4.txt"

RUNS="${E2E_RUNS:-3}"
RECORDS="${E2E_RECORDS:-1000000}"
E2E="$OUT/appender-e2e.txt"
: > "$E2E"
for fw in logback log4j2; do
  for run in $(seq 1 "$RUNS"); do
    echo "end to end: $fw, run $run of $RUNS, $RECORDS records …"
    # The final line accounts for every record; a run that did not deliver them all exits 1 and is kept as measured.
    last=$("$JAVA" -jar "$EXAMPLES" "$fw" --records "$RECORDS" --quiet | tail -n 1) || true
    echo "framework=$fw run=$run records=$RECORDS $last" | tee -a "$E2E"
  done
done

"$JAVA" -cp "$JAR" io.logproducer.benchmark.report.AppenderResults "$OUT/appender-bench-t1.txt" \
  "$OUT/appender-bench-t4.txt" "$E2E" docs/perf-data/appenders.tsv "${APPENDER_NOTE:-}"
SKIP_BUILD=1 producer-benchmark/run-suite.sh --report-only
