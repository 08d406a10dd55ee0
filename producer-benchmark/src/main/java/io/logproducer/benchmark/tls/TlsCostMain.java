package io.logproducer.benchmark.tls;

import io.logproducer.Compression;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.benchmark.harness.Cli;
import io.logproducer.benchmark.report.Report;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.OtlpHttpExporterBuilder;
import io.logproducer.testing.ReferenceWorkload;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.tls.TestPki;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The cost of TLS on the reference workload: the real producer (the harness's reference settings:
 * 10 application threads, 4 send threads, 100 MiB buffer, 2 MiB / 32,768-record batches, linger 2
 * s, lz4) sending {@link ReferenceWorkload} records as fast as it can to an in-process {@link
 * OtlpReceiver} in counting mode on 127.0.0.1, over plain HTTP, HTTPS (server certificate only) and
 * mutual TLS (client certificate required), with certificates of a {@link TestPki} CA made at
 * start. The modes alternate within each round (rotated each round so none always runs first),
 * after one warm-up round that is not counted; every run has a fresh receiver, producer and
 * exporter, so its handshake count is its own.
 *
 * <p>A run sends a fixed number of records (split over the application threads), flushes, checks
 * that the receiver counted exactly that many, and reports: records/s (records over the wall time
 * from the first send to the end of the flush, handshakes included), process CPU per record ({@code
 * com.sun.management.OperatingSystemMXBean}) and, of it, the receiver's threads' ({@code HTTP-*},
 * which decrypt on the server side: the receiver runs in this process), and the exporter's TLS
 * handshakes. A fixed count rather than a fixed time: on a machine shared with other work a run
 * then still measures whole batches. Then the medians per mode and their ratios to plain HTTP, as a
 * Markdown table.
 *
 * <pre>
 * ./mvnw -B -o -pl producer-benchmark -am package -DskipTests
 * java -Xmx1g -cp producer-benchmark/target/benchmarks.jar \
 *     io.logproducer.benchmark.tls.TlsCostMain [--rounds 5] [--records 2000000] [--warmup-records 1000000]
 * </pre>
 */
public final class TlsCostMain {

  private static final int MIB = 1 << 20;
  private static final int APP_THREADS = 10;
  private static final int SEND_THREADS = 4;

  /** What the connection to the receiver is. */
  enum Mode {
    HTTP("plain HTTP"),
    HTTPS("HTTPS (server certificate)"),
    MTLS("mutual TLS");

    final String title;

    Mode(String title) {
      this.title = title;
    }
  }

  /** One measured run. */
  record Run(
      Mode mode,
      double recordsPerSecond,
      double cpuMicrosPerRecord,
      double receiverMicros,
      long hs) {

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%-5s %,12.0f records/s  %7.3f CPU us/record (receiver threads %6.3f)  handshakes %d",
          mode,
          recordsPerSecond,
          cpuMicrosPerRecord,
          receiverMicros,
          hs);
    }
  }

  private final TestPki pki;
  private final TestPki.Issued server;
  private final TestPki.Issued client;
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  private TlsCostMain(Path dir) {
    this.pki = TestPki.create(dir);
    this.server = pki.server();
    this.client = pki.client("benchmark");
  }

  /** The options ({@code --help} lists them). */
  @Command(name = "TlsCostMain", mixinStandardHelpOptions = true)
  static final class Options {
    @Option(names = "--rounds", description = "measured rounds (default 5)")
    int rounds = 5;

    @Option(names = "--records", description = "records per run (default 2,000,000)")
    long records = 2_000_000;

    @Option(names = "--warmup-records", description = "per mode in the warm-up round (1,000,000)")
    long warmup = 1_000_000;
  }

  /**
   * Runs the comparison and prints every run and the medians.
   *
   * @param args {@link Options}
   * @throws Exception when a run cannot start
   */
  public static void main(String[] args) throws Exception {
    Options o = Cli.parse(new Options(), args);
    int rounds = o.rounds;
    long records = o.records;
    long warmup = o.warmup;
    Path dir = Files.createTempDirectory("tls-bench-");
    TlsCostMain bench = new TlsCostMain(dir);
    System.out.printf(
        Locale.ROOT,
        "TLS cost, reference workload, lz4, %d app threads, %d send threads; %s, %d cores, %s %s;"
            + " %d rounds of %,d records per mode, after a warm-up round of %,d%n",
        APP_THREADS,
        SEND_THREADS,
        LocalDate.now(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.name"),
        System.getProperty("java.version"),
        rounds,
        records,
        warmup);
    Mode[] modes = Mode.values();
    for (Mode m : modes) {
      System.out.println("warm-up (not counted): " + bench.run(m, warmup));
    }
    Map<Mode, List<Run>> runs = new EnumMap<>(Mode.class);
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < modes.length; k++) {
        Mode m = modes[(r + k) % modes.length];
        Run run = bench.run(m, records);
        System.out.println("round " + (r + 1) + ": " + run);
        runs.computeIfAbsent(m, x -> new ArrayList<>()).add(run);
      }
    }
    System.out.println();
    System.out.println(table(runs));
  }

  /**
   * The medians per mode (with the slowest and fastest run, the least and most CPU) and their
   * ratios to plain HTTP, as Markdown.
   */
  static String table(Map<Mode, List<Run>> runs) {
    StringBuilder s = new StringBuilder();
    s.append("| connection | runs | records/s (median) | slowest–fastest | vs HTTP")
        .append(" | process CPU µs/record (median) | least–most | vs HTTP")
        .append(" | of it receiver threads µs/record | handshakes per run |\n");
    s.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    double baseRate = median(runs.get(Mode.HTTP), Run::recordsPerSecond);
    double baseCpu = median(runs.get(Mode.HTTP), Run::cpuMicrosPerRecord);
    for (Map.Entry<Mode, List<Run>> e : runs.entrySet()) {
      List<Run> list = e.getValue();
      double rate = median(list, Run::recordsPerSecond);
      double cpu = median(list, Run::cpuMicrosPerRecord);
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %,.0f | %,.0f–%,.0f | %.2f | %.2f | %.2f–%.2f | %.2f | %.2f | %s |%n",
              e.getKey().title,
              list.size(),
              rate,
              min(list, Run::recordsPerSecond),
              -min(list, r -> -r.recordsPerSecond()),
              rate / baseRate,
              cpu,
              min(list, Run::cpuMicrosPerRecord),
              -min(list, r -> -r.cpuMicrosPerRecord()),
              cpu / baseCpu,
              median(list, Run::receiverMicros),
              list.stream().map(Run::hs).toList()));
    }
    return s.toString();
  }

  private static double min(List<Run> list, ToDoubleFunction<Run> metric) {
    return list.stream().mapToDouble(metric).min().orElse(Double.NaN);
  }

  private static double median(List<Run> list, ToDoubleFunction<Run> metric) {
    return Report.median(list.stream().mapToDouble(metric).toArray());
  }

  /** One run of {@code mode}, {@code records} records: a fresh receiver, producer and exporter. */
  Run run(Mode mode, long records) throws Exception {
    OtlpReceiver.Builder rb = OtlpReceiver.builder().counting();
    if (mode != Mode.HTTP) {
      SSLContext ctx = pki.serverContext(server);
      rb.tls(ctx, mode == Mode.MTLS);
    }
    try (OtlpReceiver receiver = rb.start()) {
      OtlpHttpExporterBuilder eb =
          OtlpHttpExporter.builder().setEndpoint(receiver.endpoint()).setServiceName("tls-bench");
      if (mode != Mode.HTTP) {
        eb.setTrustedCertificatesPath(pki.caFile());
      }
      if (mode == Mode.MTLS) {
        eb.setClientTlsPaths(client.keyFile(), client.certificateFile());
      }
      OtlpHttpExporter exporter = eb.build();
      ProducerConfig config =
          ProducerConfig.builder()
              .setClientId("tls-bench-" + mode.name().toLowerCase(Locale.ROOT))
              .setTotalSizeInBytes(100L * MIB)
              .setBatchSizeInBytes(2 * MIB)
              .setBatchCountThreshold(32_768)
              .setLingerMillis(2_000)
              .setSendThreads(SEND_THREADS)
              .setCompression(Compression.LZ4)
              .setJmxEnabled(false)
              .build();
      List<Thread> app = new ArrayList<>();
      long cpu0 = os.getProcessCpuTime();
      long recv0 = receiverThreadsCpu();
      long t0 = System.nanoTime();
      long t1;
      long cpu1;
      long recv1;
      try (Producer producer = new Producer(config, exporter)) {
        for (int t = 0; t < APP_THREADS; t++) {
          long from = records * t / APP_THREADS;
          long to = records * (t + 1) / APP_THREADS;
          Thread th =
              new Thread(
                  () -> {
                    ReferenceWorkload w = new ReferenceWorkload();
                    for (long seq = from; seq < to; seq++) {
                      producer.send(w.next(seq));
                    }
                  },
                  "app-" + t);
          th.start();
          app.add(th);
        }
        for (Thread th : app) {
          th.join();
        }
        producer.flush();
        t1 = System.nanoTime();
        cpu1 = os.getProcessCpuTime();
        recv1 = receiverThreadsCpu();
      }
      if (receiver.acceptedRecords() != records) {
        throw new IllegalStateException(
            mode + ": the receiver counted " + receiver.acceptedRecords() + " of " + records);
      }
      double rate = records / ((t1 - t0) / 1e9);
      double cpu = (cpu1 - cpu0) / 1e3 / records;
      double receiverCpu = (recv1 - recv0) / 1e3 / records;
      return new Run(mode, rate, cpu, receiverCpu, exporter.getTlsHandshakes());
    }
  }

  /**
   * CPU nanoseconds of the receiver's live threads ({@code HTTP-*}: the listener and one worker per
   * connection; read before the producer closes its connections, so that their workers still live).
   */
  private long receiverThreadsCpu() {
    long sum = 0;
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info != null && info.getThreadName().startsWith("HTTP-")) {
        long ns = threads.getThreadCpuTime(info.getThreadId());
        sum += Math.max(ns, 0);
      }
    }
    return sum;
  }
}
