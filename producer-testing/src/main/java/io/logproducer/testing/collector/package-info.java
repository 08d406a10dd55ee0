/**
 * A real OpenTelemetry Collector in tests: {@link io.logproducer.testing.collector.CollectorBinary}
 * finds the binary (a system property, an environment variable, build.sh's cache, or a build when
 * Go is installed) or says why the test must skip; {@link
 * io.logproducer.testing.collector.OtelCollector} runs it with a configuration and counts what its
 * debug exporter printed. Needs the project's {@code tools/<tool>/} directory above the working
 * directory for a build or a configuration template.
 */
package io.logproducer.testing.collector;
