#!/usr/bin/env bash
# The soak (not run in CI): the reference workload at a steady rate through the real producer (OTLP/HTTP, lz4) to a
# receiver in its own JVM that goes down every --down-every-s seconds for --down-for-s seconds (alternately refusing
# connections and answering 503 + Retry-After: 1). Checks that memory stays bounded (heap after GC and thread count
# flat, buffered bytes within totalSizeInBytes), that nothing hangs, and that every accepted record gets exactly one
# outcome; writes <out>/SOAK.md (+ chart and CSVs under <out>/soak/). Exit code 0 = pass, 1 = fail, 2 = bad options.
# About --minutes + 1 minutes. Options are passed to io.logproducer.benchmark.soak.SoakMain:
#   --minutes N (10)  --down-every-s S (30)  --down-for-s S (10)  --threads T (10)  --rate R records/s (100000;
#   0 = as fast as possible)  --total-size-bytes B (67108864)  --out DIR (docs)  --max-block-ms M (60000)
#   --delivery-timeout-ms M (120000)  --send-threads S (8)  --compression C (lz4)  --close-timeout-s S (60)
#   --warmup-s S  --receiver-heap SIZE (768m)  --help
# The producer's JVM gets -Xmx512m (a leak shows within minutes); override with SOAK_JAVA_OPTS.
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
# Recorded in SOAK.md (read-only git commands).
if [ -z "${SOAK_COMMIT:-}" ] && command -v git >/dev/null 2>&1; then
  SOAK_COMMIT="$(git rev-parse --short HEAD 2>/dev/null || true)"
  if [ -n "$SOAK_COMMIT" ] && ! git diff --quiet HEAD -- 2>/dev/null; then
    SOAK_COMMIT="$SOAK_COMMIT + uncommitted changes"
  fi
  export SOAK_COMMIT
fi
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
# shellcheck disable=SC2086
exec "$JAVA" ${SOAK_JAVA_OPTS:--Xmx512m -XX:+UseG1GC} -cp "$JAR" io.logproducer.benchmark.soak.SoakMain "$@"
