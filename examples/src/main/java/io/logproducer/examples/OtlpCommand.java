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
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The quick start: the reference workload over OTLP/HTTP (or OTLP/gRPC with {@code --protocol
 * grpc}), to an embedded receiver that decodes and counts every record (default) or to {@code
 * --endpoint URL}; with {@code --spool-dir}, through a disk spool, and with {@code --records 0
 * --spool-dir DIR --endpoint URL} it only drains the spool.
 */
@Command(
    name = "otlp",
    description = "the reference workload over OTLP/HTTP or OTLP/gRPC (the default sub-command).",
    footerHeading = "%n",
    footer = Main.SUMMARY_USAGE)
final class OtlpCommand implements Callable<Integer> {

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description =
          "send there (e.g. http://127.0.0.1:4318, or :4317 for grpc) (default an embedded"
              + " receiver)")
  String endpoint;

  @Option(
      names = "--protocol",
      paramLabel = "P",
      description = "http (OTLP/HTTP) | grpc (OTLP/gRPC, HTTP/2) (default ${DEFAULT-VALUE})")
  String protocol = "http";

  @Option(
      names = "--encoding",
      paramLabel = "E",
      description = "proto|json (json: http only) (default ${DEFAULT-VALUE})")
  String encoding = "proto";

  @Option(
      names = "--header",
      paramLabel = "K=V",
      description = "an extra request header (e.g. X-BK-TOKEN=...)")
  String header;

  @Option(
      names = "--ca",
      paramLabel = "FILE",
      description = "PEM CA certificates trusted for an https endpoint (default JDK)")
  Path ca;

  @Option(
      names = "--client-key",
      paramLabel = "FILE",
      description = "PKCS#8 PEM key for mutual TLS (with --client-cert)")
  Path clientKey;

  @Option(
      names = "--client-cert",
      paramLabel = "FILE",
      description = "PEM certificate chain for mutual TLS")
  Path clientCert;

  @Mixin SpoolOptions spool;

  @Mixin CommonOptions common;

  @Override
  public Integer call() throws Exception {
    String endpoint = this.endpoint;
    ProducerConfig config =
        common.producerConfig().setSpool(spool.config()).setClientId("quickstart").build();
    boolean grpc = grpc();
    OtlpExporterBuilder<?> exporter = exporter(grpc);
    if (common.records(spool.on()) == 0) {
      if (endpoint == null) {
        throw new IllegalArgumentException(
            "--records 0 drains the --spool-dir spool to --endpoint URL: give --endpoint");
      }
      exporter.setEndpoint(endpoint);
      Exporter drainTo = exporter.build();
      return SpoolDrain.run(
          WorkloadRunner.newProducer(config, drainTo),
          drainTo.describe(), // without user-info
          spool.drainTimeoutMillis(),
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
      WorkloadRunner runner = new WorkloadRunner(common);
      Exporter built = exporter.build();
      Producer producer = WorkloadRunner.newProducer(config, built);
      System.err.printf(
          Locale.ROOT,
          "sending %,d records from %d threads to %s%s (%s)%n",
          common.records(),
          common.threads(),
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
          common.records(),
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

  private boolean grpc() {
    return switch (protocol.toLowerCase(Locale.ROOT)) {
      case "http", "http/protobuf", "http/json" -> false;
      case "grpc" -> true;
      default ->
          throw new IllegalArgumentException(
              "--protocol must be http or grpc, was '" + protocol + "'");
    };
  }

  /** The exporter's settings from the options (all but the endpoint). */
  private OtlpExporterBuilder<?> exporter(boolean grpc) {
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
      return settings(OtlpGrpcExporter.builder());
    }
    OtlpHttpExporterBuilder http = OtlpHttpExporter.builder();
    http.setEncoding(json ? OtlpEncoding.JSON : OtlpEncoding.PROTOBUF);
    return settings(http);
  }

  /** The settings both protocols share. */
  private <B extends OtlpExporterBuilder<B>> B settings(B exporter) {
    exporter.setServiceName("logproducer-quickstart");
    if (header != null) {
      int eq = header.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "--header must be NAME=VALUE (the value is not shown: it may be a secret)");
      }
      exporter.addHeader(header.substring(0, eq), header.substring(eq + 1));
    }
    if (ca != null) {
      exporter.setTrustedCertificatesPath(ca);
    }
    if ((clientKey == null) != (clientCert == null)) {
      throw new IllegalArgumentException("--client-key and --client-cert go together");
    }
    if (clientKey != null) {
      exporter.setClientTlsPaths(clientKey, clientCert);
    }
    common.requestTimeoutMillis().ifPresent(exporter::setTimeoutMillis);
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
