#!/usr/bin/env bash
# Runs the standard performance suite and writes docs/PERFORMANCE.md (+ charts under docs/performance/).
# About 12 minutes on 2 cores. Options are passed to io.logproducer.benchmark.PerformanceSuite:
#   --quick (a ~4-minute smoke run), --skip-jmh, --warmup S, --duration S, --repeats N, --docs DIR, --report-only
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
exec "$JAVA" -Xmx1g -cp "$JAR" io.logproducer.benchmark.PerformanceSuite "$@"
