package io.logproducer.examples.gse;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.examples.Command;
import io.logproducer.examples.OptionSpec;
import io.logproducer.examples.Options;
import io.logproducer.examples.WorkloadRunner;
import io.logproducer.gse.GseExporter;
import io.logproducer.gse.GseExporterBuilder;
import io.logproducer.testing.gse.GseAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code gse}: the reference workload to a BlueKing GSE agent's local data socket, in dynamic
 * frames with bk-collector's JSON body, at {@code --socket PATH} or {@code --tcp HOST:PORT}; with
 * neither, to an embedded agent (the test kit's {@link GseAgent} in {@link GseAgent.Mode#COUNTING}
 * mode) on a temporary Unix-domain socket, which checks the framing and counts every record.
 */
public final class GseCommand implements Command {

  @Override
  public String name() {
    return "gse";
  }

  @Override
  public String summary() {
    return "the reference workload to a BlueKing GSE agent's data socket (dynamic frames, bk-collector's JSON body).";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.value(
            "socket",
            "PATH",
            "the agent's Unix-domain socket, e.g. /var/run/ipc.state.report",
            null),
        OptionSpec.value(
            "tcp", "HOST:PORT", "or its TCP endpoint (the Windows agent: 127.0.0.1:47000)", null),
        OptionSpec.value("dataid", "ID", "the GSE dataid of the records", 1_500_001),
        OptionSpec.value(
            "item-format",
            "F",
            "record (bk-collector's record JSON) | body (the message line only)",
            "record"));
  }

  @Override
  public List<String> notes() {
    return List.of(
        "with neither --socket nor --tcp: an embedded agent on a temporary Unix socket that checks",
        "and counts every frame. The agent takes no compression.");
  }

  @Override
  public int run(Options options) throws Exception {
    String socket = options.string("socket", null);
    String tcp = options.string("tcp", null);
    int dataId = options.intValue("dataid", 1_500_001, 1, Integer.MAX_VALUE);
    String format = options.string("item-format", "record");
    ProducerConfig config = options.producerConfig().setClientId("gse-example").build();
    if (socket != null && tcp != null) {
      throw new IllegalArgumentException("--socket and --tcp exclude each other");
    }
    GseExporterBuilder exporter =
        GseExporter.builder()
            .setDataId(dataId)
            .setWriteTimeoutMillis(
                options.requestTimeoutMillis(GseExporter.DEFAULT_WRITE_TIMEOUT_MILLIS));
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
          options.records(),
          options.threads(),
          built.describe(),
          agent != null ? " (embedded agent)" : "",
          producer.getConfig());
      GseAgent a = agent;
      WorkloadRunner.Result result =
          new WorkloadRunner(options).run(producer, a == null ? null : a::records);
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
          options.records(), destination, config.getDeliveryTimeoutMillis(), verified, System.err);
    } finally {
      if (agent != null) {
        agent.close();
        Files.deleteIfExists(dir);
      }
    }
  }
}
