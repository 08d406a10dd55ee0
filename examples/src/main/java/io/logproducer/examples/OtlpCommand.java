package io.logproducer.examples;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.otlp.OtlpEncoding;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.OtlpHttpExporterBuilder;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The quick start: the reference workload over OTLP/HTTP, to an embedded receiver that decodes and
 * counts every record (default) or to {@code --endpoint URL}; with {@code --spool-dir}, through a
 * disk spool, and with {@code --records 0 --spool-dir DIR --endpoint URL} it only drains the spool.
 */
final class OtlpCommand implements Command {

  @Override
  public String name() {
    return "otlp";
  }

  @Override
  public String summary() {
    return "the reference workload over OTLP/HTTP (the default sub-command).";
  }

  @Override
  public List<OptionSpec> options() {
    List<OptionSpec> options =
        new ArrayList<>(
            List.of(
                OptionSpec.value(
                    "endpoint",
                    "URL",
                    "send there (e.g. http://127.0.0.1:4318)",
                    "an embedded receiver"),
                OptionSpec.value("encoding", "E", "proto|json", "proto"),
                OptionSpec.value(
                    "header", "K=V", "an extra request header (e.g. X-BK-TOKEN=...)", null),
                OptionSpec.value(
                    "ca", "FILE", "PEM CA certificates trusted for an https endpoint", "JDK"),
                OptionSpec.value(
                    "client-key",
                    "FILE",
                    "PKCS#8 PEM key for mutual TLS (with --client-cert)",
                    null),
                OptionSpec.value(
                    "client-cert", "FILE", "PEM certificate chain for mutual TLS", null)));
    options.addAll(Options.SPOOL);
    return options;
  }

  @Override
  public int run(Options options) throws Exception {
    String endpoint = options.string("endpoint", null);
    ProducerConfig config = options.producerConfig().setClientId("quickstart").build();
    OtlpHttpExporterBuilder exporter = exporter(options);
    if (options.records() == 0) {
      if (endpoint == null) {
        throw new IllegalArgumentException(
            "--records 0 drains the --spool-dir spool to --endpoint URL: give --endpoint");
      }
      exporter.setEndpoint(endpoint);
      OtlpHttpExporter drainTo = exporter.build();
      return SpoolDrain.run(
          WorkloadRunner.newProducer(config, drainTo),
          drainTo.describe(), // without user-info
          options.drainTimeoutMillis(),
          System.out,
          System.err);
    }
    OtlpReceiver receiver = null;
    if (endpoint == null) {
      receiver = OtlpReceiver.startCounting();
      endpoint = receiver.endpoint();
    }
    try {
      exporter.setEndpoint(endpoint);
      WorkloadRunner runner = new WorkloadRunner(options);
      OtlpHttpExporter built = exporter.build();
      Producer producer = WorkloadRunner.newProducer(config, built);
      System.err.printf(
          Locale.ROOT,
          "sending %,d records from %d threads to %s%s (%s)%n",
          options.records(),
          options.threads(),
          built.describe(), // without user-info
          receiver != null ? " (embedded receiver)" : "",
          producer.getConfig());
      OtlpReceiver r = receiver;
      WorkloadRunner.Result result = runner.run(producer, r == null ? null : r::acceptedRecords);
      System.err.printf(
          Locale.ROOT,
          "%s%npeak buffered %,d bytes of %,d%s%n",
          producer.getMetrics(),
          result.peakBufferedBytes(),
          producer.getConfig().getTotalSizeInBytes(),
          r == null
              ? ""
              : String.format(
                  Locale.ROOT,
                  "; receiver counted %,d records in %,d requests",
                  r.acceptedRecords(),
                  r.acceptedRequests()));
      System.out.println(result.summary());
      ProducerMetrics m = producer.getMetrics();
      // the receiver also counts what replay delivered from the spool (of earlier runs or this one)
      long expected = result.delivered() + m.getSpoolRecordsDelivered();
      boolean verified = r == null || r.acceptedRecords() == expected;
      if (!verified) {
        System.err.printf(
            Locale.ROOT,
            "MISMATCH: producer reports %d delivered (%d of them from the spool), receiver counted "
                + "%d%n",
            expected,
            m.getSpoolRecordsDelivered(),
            r.acceptedRecords());
      }
      return result.report(
          options.records(),
          built.describe(),
          config.getDeliveryTimeoutMillis(),
          verified,
          System.err);
    } finally {
      if (receiver != null) {
        receiver.close();
      }
    }
  }

  /** The exporter's settings from the options (all but the endpoint). */
  private static OtlpHttpExporterBuilder exporter(Options options) {
    String encoding = options.string("encoding", "proto");
    String header = options.string("header", null);
    OtlpHttpExporterBuilder exporter =
        OtlpHttpExporter.builder().setServiceName("logproducer-quickstart");
    switch (encoding.toLowerCase(Locale.ROOT)) {
      case "proto", "protobuf" -> exporter.setEncoding(OtlpEncoding.PROTOBUF);
      case "json" -> exporter.setEncoding(OtlpEncoding.JSON);
      default ->
          throw new IllegalArgumentException(
              "--encoding must be proto or json, was '" + encoding + "'");
    }
    if (header != null) {
      int eq = header.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "--header must be NAME=VALUE (the value is not shown: it may be a secret)");
      }
      exporter.addHeader(header.substring(0, eq), header.substring(eq + 1));
    }
    String ca = options.string("ca", null);
    if (ca != null) {
      exporter.setTrustedCertificatesPath(Paths.get(ca));
    }
    String clientKey = options.string("client-key", null);
    String clientCert = options.string("client-cert", null);
    if ((clientKey == null) != (clientCert == null)) {
      throw new IllegalArgumentException("--client-key and --client-cert go together");
    }
    if (clientKey != null) {
      exporter.setClientTlsPaths(Paths.get(clientKey), Paths.get(clientCert));
    }
    if (options.has("request-timeout-ms")) {
      exporter.setTimeoutMillis(
          options.requestTimeoutMillis(OtlpHttpExporter.DEFAULT_TIMEOUT_MILLIS));
    }
    return exporter;
  }
}
