#!/usr/bin/env bash
# Builds the OpenTelemetry Collector that producer-otlp's OtelCollectorInteropTest runs, from the Go module proxy,
# with the Collector Builder (ocb) and manifest.yaml beside this script. Prints the binary's path on its last line.
#
# Cached: the binary lives in $OTELCOL_CACHE (default ~/.cache/otelcol-logs-0.162.0) and is reused when present.
# Needs Go 1.24+; the first build takes about 2 minutes on 2 cores. Exit code 2 when Go is missing.
set -euo pipefail
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version=0.162.0
cache="${OTELCOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/otelcol-logs-$version}"
binary="$cache/otelcol-logs"

if [ -x "$binary" ]; then
  echo "$binary"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "build.sh: Go is not installed; the Collector interop test needs it to build the Collector" >&2
  exit 2
fi
mkdir -p "$cache/bin"
echo "build.sh: installing the Collector Builder v$version" >&2
GOBIN="$cache/bin" go install "go.opentelemetry.io/collector/cmd/builder@v$version" >&2
sed "s|OUTPUT_PATH|$cache|" "$script_dir/manifest.yaml" > "$cache/manifest.yaml"
echo "build.sh: building the Collector into $cache" >&2
"$cache/bin/builder" --config "$cache/manifest.yaml" >&2
if [ ! -x "$binary" ]; then
  echo "build.sh: the builder finished but $binary is missing" >&2
  exit 1
fi
echo "$binary"
