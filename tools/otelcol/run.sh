#!/usr/bin/env bash
# Runs the real OpenTelemetry Collector (built by build.sh beside this script, once) with config.yaml: an OTLP/HTTP
# receiver on 127.0.0.1:PORT and the debug exporter. Use it to watch the quick start reach a real Collector:
#
#   tools/otelcol/run.sh [PORT]          # default 4318; Ctrl-C stops it
#   java -jar examples/target/logproducer-examples.jar --endpoint http://127.0.0.1:4318 --compression zstd
#
# Every batch the Collector receives prints a line with "log records": N. Sum them to count what arrived:
#   tools/otelcol/run.sh 2>&1 | tee /tmp/otelcol.log;  grep -o '"log records": [0-9]*' /tmp/otelcol.log | awk '{s+=$3} END {print s}'
set -euo pipefail
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
port="${1:-4318}"
binary="$(bash "$script_dir/build.sh" | tail -1)"
config="$(mktemp -t otelcol-config.XXXXXX.yaml)"
trap 'rm -f "$config"' EXIT
sed "s|127.0.0.1:4318|127.0.0.1:$port|" "$script_dir/config.yaml" > "$config"
echo "run.sh: OpenTelemetry Collector on http://127.0.0.1:$port (OTLP/HTTP, /v1/logs)" >&2
"$binary" --config "$config"
