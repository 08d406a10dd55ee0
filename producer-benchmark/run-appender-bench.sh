#!/usr/bin/env bash
# AppenderBenchmark (the logback appender path on the logging thread: logproducer vs OpenTelemetry's logback
# appender vs a no-op appender) with 1 and 4 benchmark threads and the GC profiler (B/op). About 3 minutes on
# 2 cores. Extra arguments go to JMH, e.g. -p appender=otel,logproducer or -p otelMaxQueueSize=65536.
# Results: target/appender-bench-t1.txt and target/appender-bench-t4.txt (each trial's drop counts are printed in
# the "[AppenderBenchmark]" lines). Set SKIP_BUILD=1 to use the benchmarks.jar already built.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${SKIP_BUILD:-0}" != "1" ]; then
  ./mvnw -B -q package -pl producer-benchmark -am -DskipTests
fi
JAR=producer-benchmark/target/benchmarks.jar
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
for t in 1 4; do
  "$JAVA" -jar "$JAR" AppenderBenchmark -t "$t" -prof gc -f 1 -wi 3 -w 2s -i 5 -r 2s "$@" \
    | tee "producer-benchmark/target/appender-bench-t$t.txt"
done
grep -h -E "^\[AppenderBenchmark\]|^AppenderBenchmark\.log( |:gc\.alloc\.rate\.norm)" \
  producer-benchmark/target/appender-bench-t1.txt producer-benchmark/target/appender-bench-t4.txt
