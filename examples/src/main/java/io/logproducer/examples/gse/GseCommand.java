package io.logproducer.examples.gse;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.examples.CommonOptions;
import io.logproducer.examples.Main;
import io.logproducer.examples.WorkloadRunner;
import io.logproducer.gse.GseExporter;
import io.logproducer.gse.GseExporterBuilder;
import io.logproducer.testing.gse.GseAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gse}: the reference workload to a BlueKing GSE agent's local data socket, in dynamic
 * frames with bk-collector's JSON body, at {@code --socket PATH} or {@code --tcp HOST:PORT}; with
 * neither, to an embedded agent (the test kit's {@link GseAgent} in {@link GseAgent.Mode#COUNTING}
 * mode) on a temporary Unix-domain socket, which checks the framing and counts every record.
 */
@Command(
    name = "gse",
    description =
        "the reference workload to a BlueKing GSE agent's data socket (dynamic frames, bk-collector's"
            + " JSON body).",
    footerHeading = "%n",
    footer = {
      "with neither --socket nor --tcp: an embedded agent on a temporary Unix socket that checks",
      "and counts every frame. The agent takes no compression.",
      "",
      Main.SUMMARY_USAGE
    })
public final class GseCommand implements Callable<Integer> {

  @Option(
      names = "--socket",
      paramLabel = "PATH",
      description = "the agent's Unix-domain socket, e.g. /var/run/ipc.state.report")
  String socket;

  @Option(
      names = "--tcp",
      paramLabel = "HOST:PORT",
      description = "or its TCP endpoint (the Windows agent: 127.0.0.1:47000)")
  String tcp;

  @Option(
      names = "--dataid",
      paramLabel = "ID",
      description = "the GSE dataid of the records (default ${DEFAULT-VALUE})")
  long dataId = 1_500_001;

  @Option(
      names = "--item-format",
      paramLabel = "F",
      description =
          "record (bk-collector's record JSON) | body (the message line only) (default"
              + " ${DEFAULT-VALUE})")
  String format = "record";

  @Mixin CommonOptions common;

  @Override
  public Integer call() throws Exception {
    String socket = this.socket;
    int dataId = (int) CommonOptions.within("--dataid", this.dataId, 1, Integer.MAX_VALUE);
    ProducerConfig config = common.producerConfig().setClientId("gse-example").build();
    if (socket != null && tcp != null) {
      throw new IllegalArgumentException("--socket and --tcp exclude each other");
    }
    GseExporterBuilder exporter =
        GseExporter.builder()
            .setDataId(dataId)
            .setWriteTimeoutMillis(
                common.requestTimeoutMillis().orElse(GseExporter.DEFAULT_WRITE_TIMEOUT_MILLIS));
    switch (format.toLowerCase(Locale.ROOT)) {
      case "record" -> exporter.setItemFormat(GseExporter.ItemFormat.RECORD_JSON);
      case "body" -> exporter.setItemFormat(GseExporter.ItemFormat.BODY);
      default ->
          throw new IllegalArgumentException(
              "--item-format must be record or body, was '" + format + "'");
    }
    if (tcp != null) {
      int colon = tcp.lastIndexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("--tcp must be HOST:PORT, was '" + tcp + "'");
      }
      int port;
      try {
        port = Integer.parseInt(tcp.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--tcp must be HOST:PORT, was '" + tcp + "'");
      }
      exporter.setTcpEndpoint(tcp.substring(0, colon), port);
    }
    GseAgent agent = null;
    Path dir = null;
    if (socket == null && tcp == null) {
      dir = Files.createTempDirectory("gse-agent");
      agent = GseAgent.unix(dir.resolve("ipc.state.report"), GseAgent.Mode.COUNTING);
      socket = agent.socketPath().toString();
    }
    if (socket != null) {
      exporter.setUnixSocketPath(socket);
    }
    try {
      GseExporter built = exporter.build();
      Producer producer = WorkloadRunner.newProducer(config, built);
      System.err.printf(
          Locale.ROOT,
          "sending %,d records from %d threads to %s%s (%s)%n",
          common.records(),
          common.threads(),
          built.describe(),
          agent != null ? " (embedded agent)" : "",
          producer.getConfig());
      GseAgent a = agent;
      WorkloadRunner.Result result =
          new WorkloadRunner(common).run(producer, a == null ? null : a::records);
      boolean verified = true;
      if (a != null) {
        // Delivered means written to the socket: let the agent finish reading what is in flight.
        try {
          a.await(
              "the records delivered",
              () -> a.records() >= result.delivered() || a.violationCount() > 0,
              10_000);
        } catch (AssertionError timedOut) {
          // reported below as a mismatch, with the counts
        }
        System.err.printf(
            Locale.ROOT,
            "peak buffered %,d bytes of %,d; agent counted %,d records in %,d frames "
                + "(%.0f frames/s, %,d bytes read)%n",
            result.peakBufferedBytes(),
            producer.getConfig().getTotalSizeInBytes(),
            a.records(),
            a.dataFrames(),
            a.dataFrames() / result.seconds(),
            a.bytes());
        verified = a.records() == result.delivered() && a.violationCount() == 0;
        if (!verified) {
          System.err.printf(
              Locale.ROOT,
              "MISMATCH: producer reports %d delivered, agent counted %d, %d malformed "
                  + "frame(s)%s%n",
              result.delivered(),
              a.records(),
              a.violationCount(),
              a.violations().isEmpty() ? "" : " (first: " + a.violations().get(0) + ")");
        }
      }
      System.out.println(result.summary());
      String destination = "the GSE agent at " + (tcp != null ? "tcp:" + tcp : "unix:" + socket);
      return result.report(
          common.records(), destination, config.getDeliveryTimeoutMillis(), verified, System.err);
    } finally {
      if (agent != null) {
        agent.close();
        Files.deleteIfExists(dir);
      }
    }
  }
}
