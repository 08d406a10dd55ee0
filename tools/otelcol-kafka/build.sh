#!/usr/bin/env bash
# Builds the OpenTelemetry Collector that producer-kafka's tests run (contrib Kafka receiver + debug exporter),
# from the Go module proxy, with the Collector Builder (ocb) and manifest.yaml beside this script.
# The binary's path is printed on the last line of stdout; everything else goes to stderr.
#
# Cached: the binary is kept in $OTELCOL_KAFKA_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/otelcol-kafka-0.155.0)
# and a present one is reused without touching the network, so running this again is cheap. Needs Go 1.24+; the
# first build takes a few minutes on 2 cores. Exit code 2 when Go is missing, 1 when the build fails.
set -euo pipefail
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version=0.155.0
cache="${OTELCOL_KAFKA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/otelcol-kafka-$version}"
binary="$cache/otelcol-kafka"

if [ -x "$binary" ]; then
  echo "$binary"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "build.sh: Go is not installed (no 'go' on the PATH); producer-kafka's Collector tests need Go 1.24+ to" \
    "build the Kafka-consuming Collector, or OTELCOL_KAFKA_BIN pointing at one" >&2
  exit 2
fi
mkdir -p "$cache/bin"
echo "build.sh: installing the Collector Builder v$version" >&2
GOBIN="$cache/bin" go install "go.opentelemetry.io/collector/cmd/builder@v$version" >&2
# Each run builds in a directory of its own and renames the binary into place at the end, so two test JVMs
# building at once (or an interrupted build) never leave a half-written binary behind.
work="$(mktemp -d "$cache/build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
sed "s|OUTPUT_PATH|$work|" "$script_dir/manifest.yaml" > "$work/manifest.yaml"
echo "build.sh: building the Collector into $cache (the first time takes a few minutes)" >&2
"$cache/bin/builder" --config "$work/manifest.yaml" >&2
if [ ! -x "$work/otelcol-kafka" ]; then
  echo "build.sh: the builder finished but $work/otelcol-kafka is missing" >&2
  exit 1
fi
mv -f "$work/otelcol-kafka" "$binary"
echo "$binary"
