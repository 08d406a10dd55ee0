#!/usr/bin/env bash
# Runs the real OpenTelemetry Collector that consumes OTLP logs from Kafka (built by build.sh beside this script,
# once) with config.yaml: it reads TOPIC from its earliest offset, in a consumer group of its own, and its debug
# exporter prints a line with "log records": N for every batch it decodes. Runs in the foreground; Ctrl-C stops it.
#
#   tools/otelcol-kafka/run.sh BOOTSTRAP TOPIC [ENCODING] [LOGFILE]
#   tools/otelcol-kafka/run.sh 127.0.0.1:9092 otlp_logs otlp_json /tmp/otelcol-kafka.log
#
# ENCODING: otlp_proto (default; one Kafka message = one serialized ExportLogsServiceRequest), otlp_json, raw or
# text. BOOTSTRAP may list several brokers, comma-separated. With LOGFILE the output is also written there; sum
# the counts with:  grep -o '"log records": [0-9]*' LOGFILE | awk '{s+=$3} END {print s+0}'
# Messages the Collector cannot decode are logged at error level and not counted.
set -euo pipefail
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ $# -lt 2 ] || [ $# -gt 4 ]; then
  echo "usage: run.sh BOOTSTRAP TOPIC [ENCODING] [LOGFILE]   e.g. run.sh 127.0.0.1:9092 otlp_logs otlp_json" >&2
  exit 64
fi
bootstrap="$1"
topic="$2"
encoding="${3:-otlp_proto}"
logfile="${4:-}"
# Kafka topic names are [a-zA-Z0-9._-]; checking keeps the YAML below well-formed.
[[ "$topic" =~ ^[A-Za-z0-9._-]+$ ]] || { echo "run.sh: not a Kafka topic name: $topic" >&2; exit 64; }
[[ "$encoding" =~ ^[A-Za-z0-9_]+$ ]] || { echo "run.sh: not an encoding name: $encoding" >&2; exit 64; }
bootstrap_pattern='^[][A-Za-z0-9.:,_-]+$'  # host:port[,host:port...], IPv6 hosts in brackets
[[ "$bootstrap" =~ $bootstrap_pattern ]] || { echo "run.sh: not a bootstrap list: $bootstrap" >&2; exit 64; }

binary="$(bash "$script_dir/build.sh" | tail -1)"
brokers="[\"${bootstrap//,/\", \"}\"]"
group="logproducer-otelcol-run-$$-$(date +%s)"
config="$(mktemp -t otelcol-kafka-config.XXXXXX.yaml)"
trap 'rm -f "$config"' EXIT
sed -e "s|^\( *brokers: \).*# filled in\$|\1$brokers|" \
    -e "s|^\( *group_id: \).*# filled in\$|\1$group|" \
    -e "s|^\( *topics: \).*# filled in\$|\1[\"$topic\"]|" \
    -e "s|^\( *encoding: \).*# filled in\$|\1$encoding|" \
    "$script_dir/config.yaml" > "$config"
if grep -q '# filled in$' "$config"; then
  echo "run.sh: config.yaml has a '# filled in' line of an unexpected shape" >&2
  exit 1
fi
echo "run.sh: OpenTelemetry Collector reading $topic ($encoding) from $bootstrap, group $group" >&2
if [ -n "$logfile" ]; then
  "$binary" --config "$config" 2>&1 | tee "$logfile"
else
  "$binary" --config "$config"
fi
