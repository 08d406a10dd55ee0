#!/usr/bin/env bash
# Runs the real OpenTelemetry Collector (built by build.sh beside this script, once) with config.yaml: an OTLP/HTTP
# receiver on 127.0.0.1:PORT, an OTLP/gRPC receiver on 127.0.0.1:GRPC_PORT and the debug exporter. Use it to watch
# the quick start reach a real Collector:
#
#   tools/otelcol/run.sh [PORT [GRPC_PORT]]          # defaults 4318 and 4317; Ctrl-C stops it
#   java -jar examples/target/logproducer-examples.jar --endpoint http://127.0.0.1:4318 --compression zstd
#   java -jar examples/target/logproducer-examples.jar --protocol grpc --endpoint http://127.0.0.1:4317
#
# Every batch the Collector receives prints a line with "log records": N. Sum them to count what arrived:
#   tools/otelcol/run.sh 2>&1 | tee /tmp/otelcol.log;  grep -o '"log records": [0-9]*' /tmp/otelcol.log | awk '{s+=$3} END {print s}'
set -euo pipefail
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
port="${1:-4318}"
grpc_port="${2:-4317}"
binary="$(bash "$script_dir/build.sh" | tail -1)"
config="$(mktemp -t otelcol-config.XXXXXX.yaml)"
trap 'rm -f "$config"' EXIT
# config.yaml has the HTTP protocol only (the tests move it to a free port); the gRPC one is added here.
sed -e "s|127.0.0.1:4318|127.0.0.1:$port|" \
    -e "s|^    protocols:\$|    protocols:\n      grpc:\n        endpoint: 127.0.0.1:$grpc_port|" \
    "$script_dir/config.yaml" > "$config"
echo "run.sh: OpenTelemetry Collector on http://127.0.0.1:$port (OTLP/HTTP, /v1/logs) and" \
  "http://127.0.0.1:$grpc_port (OTLP/gRPC)" >&2
"$binary" --config "$config"
