package io.logproducer.examples;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.otlp.OtlpEncoding;
import io.logproducer.otlp.OtlpExporterBuilder;
import io.logproducer.otlp.OtlpGrpcExporter;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.OtlpHttpExporterBuilder;
import io.logproducer.spi.Exporter;
import io.logproducer.testing.otlp.OtlpGrpcReceiver;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.IOException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The quick start: the reference workload over OTLP/HTTP (or OTLP/gRPC with {@code --protocol
 * grpc}), to an embedded receiver that decodes and counts every record (default) or to {@code
 * --endpoint URL}; with {@code --spool-dir}, through a disk spool, and with {@code --records 0
 * --spool-dir DIR --endpoint URL} it only drains the spool.
 */
final class OtlpCommand implements Command {

  @Override
  public String name() {
    return "otlp";
  }

  @Override
  public String summary() {
    return "the reference workload over OTLP/HTTP or OTLP/gRPC (the default sub-command).";
  }

  @Override
  public List<OptionSpec> options() {
    List<OptionSpec> options =
        new ArrayList<>(
            List.of(
                OptionSpec.value(
                    "endpoint",
                    "URL",
                    "send there (e.g. http://127.0.0.1:4318, or :4317 for grpc)",
                    "an embedded receiver"),
                OptionSpec.value(
                    "protocol", "P", "http (OTLP/HTTP) | grpc (OTLP/gRPC, HTTP/2)", "http"),
                OptionSpec.value("encoding", "E", "proto|json (json: http only)", "proto"),
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
    boolean grpc = grpc(options);
    OtlpExporterBuilder<?> exporter = exporter(options, grpc);
    if (options.records() == 0) {
      if (endpoint == null) {
        throw new IllegalArgumentException(
            "--records 0 drains the --spool-dir spool to --endpoint URL: give --endpoint");
      }
      exporter.setEndpoint(endpoint);
      Exporter drainTo = exporter.build();
      return SpoolDrain.run(
          WorkloadRunner.newProducer(config, drainTo),
          drainTo.describe(), // without user-info
          options.drainTimeoutMillis(),
          System.out,
          System.err);
    }
    Embedded receiver = null;
    if (endpoint == null) {
      receiver = grpc ? Embedded.grpc() : Embedded.http();
      endpoint = receiver.endpoint;
    }
    try {
      exporter.setEndpoint(endpoint);
      WorkloadRunner runner = new WorkloadRunner(options);
      Exporter built = exporter.build();
      Producer producer = WorkloadRunner.newProducer(config, built);
      System.err.printf(
          Locale.ROOT,
          "sending %,d records from %d threads to %s%s (%s)%n",
          options.records(),
          options.threads(),
          built.describe(), // without user-info
          receiver != null ? " (embedded receiver)" : "",
          producer.getConfig());
      Embedded r = receiver;
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

  private static boolean grpc(Options options) {
    String protocol = options.string("protocol", "http");
    return switch (protocol.toLowerCase(Locale.ROOT)) {
      case "http", "http/protobuf", "http/json" -> false;
      case "grpc" -> true;
      default ->
          throw new IllegalArgumentException(
              "--protocol must be http or grpc, was '" + protocol + "'");
    };
  }

  /** The exporter's settings from the options (all but the endpoint). */
  private static OtlpExporterBuilder<?> exporter(Options options, boolean grpc) {
    String encoding = options.string("encoding", "proto");
    if (!encoding.equalsIgnoreCase("proto")
        && !encoding.equalsIgnoreCase("protobuf")
        && !encoding.equalsIgnoreCase("json")) {
      throw new IllegalArgumentException(
          "--encoding must be proto or json, was '" + encoding + "'");
    }
    boolean json = encoding.equalsIgnoreCase("json");
    if (grpc && json) {
      throw new IllegalArgumentException("--encoding json is OTLP/HTTP only: drop --protocol grpc");
    }
    if (grpc) {
      return settings(options, OtlpGrpcExporter.builder());
    }
    OtlpHttpExporterBuilder http = OtlpHttpExporter.builder();
    http.setEncoding(json ? OtlpEncoding.JSON : OtlpEncoding.PROTOBUF);
    return settings(options, http);
  }

  /** The settings both protocols share. */
  private static <B extends OtlpExporterBuilder<B>> B settings(Options options, B exporter) {
    exporter.setServiceName("logproducer-quickstart");
    String header = options.string("header", null);
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

  /** The embedded counting receiver of either protocol. */
  private static final class Embedded implements AutoCloseable {
    final String endpoint;
    private final LongSupplier records;
    private final LongSupplier requests;
    private final AutoCloseable receiver;

    private Embedded(
        String endpoint, LongSupplier records, LongSupplier requests, AutoCloseable receiver) {
      this.endpoint = endpoint;
      this.records = records;
      this.requests = requests;
      this.receiver = receiver;
    }

    static Embedded http() throws IOException {
      OtlpReceiver r = OtlpReceiver.startCounting();
      return new Embedded(r.endpoint(), r::acceptedRecords, r::acceptedRequests, r);
    }

    static Embedded grpc() throws IOException {
      OtlpGrpcReceiver r = OtlpGrpcReceiver.startCounting();
      return new Embedded(r.endpoint(), r::acceptedRecords, r::acceptedRequests, r);
    }

    long acceptedRecords() {
      return records.getAsLong();
    }

    long acceptedRequests() {
      return requests.getAsLong();
    }

    @Override
    public void close() throws Exception {
      receiver.close();
    }
  }
}
