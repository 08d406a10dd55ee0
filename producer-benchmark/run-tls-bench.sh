#!/usr/bin/env bash
# The cost of TLS (docs/otlp.md, "TLS numbers"): the reference workload (lz4, 10 application threads, 4 send threads)
# to the in-process counting OTLP receiver over plain HTTP, HTTPS and mutual TLS, alternating, ROUNDS rounds of
# RECORDS records per mode after a warm-up round; prints every run and the medians with their ratios to plain HTTP
# (io.logproducer.benchmark.tls.TlsCostMain). Builds target/benchmarks.jar first unless JAR_BUILT=1.
# Environment: ROUNDS (5), RECORDS (2000000), WARMUP_RECORDS (1000000).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${JAR_BUILT:-0}" != "1" ]; then
  ./mvnw -B -o -q -pl producer-benchmark -am package -DskipTests
fi
uptime
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$JAVA" -Xmx1g --enable-native-access=ALL-UNNAMED -cp producer-benchmark/target/benchmarks.jar \
  io.logproducer.benchmark.tls.TlsCostMain --rounds "${ROUNDS:-5}" --records "${RECORDS:-2000000}" \
  --warmup-records "${WARMUP_RECORDS:-1000000}"
uptime
