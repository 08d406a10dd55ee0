package io.logproducer.benchmark.harness;

import io.logproducer.testing.otlp.OtlpGrpcReceiver;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The suite's OTLP sink as its own process: the test kit's counting {@link OtlpReceiver}
 * (decompresses and counts every record) on 127.0.0.1 and, beside it on a free port, its counting
 * {@link OtlpGrpcReceiver} (OTLP/gRPC), {@code java -cp benchmarks.jar
 * io.logproducer.benchmark.harness.OtlpSinkMain [--port P] [--threads T]}. Prints {@code listening
 * <http endpoint> <grpc endpoint>} once ready, then every second (the two receivers' sums) a line
 * {@code records=<n> requests=<n> wire_bytes=<n> body_bytes=<n> bad=<n> cpu_ns=<process CPU
 * nanoseconds>} (read by {@link SinkProcess}); stops when its standard input closes.
 */
public final class OtlpSinkMain {

  private OtlpSinkMain() {}

  /**
   * Runs the sink until stdin closes.
   *
   * @param args {@link SinkProcess.Options}
   * @throws IOException if the receiver cannot listen
   * @throws InterruptedException if interrupted while serving
   */
  public static void main(String[] args) throws IOException, InterruptedException {
    int port = Cli.parse("OtlpSinkMain", new SinkProcess.Options(), args).port;
    try (OtlpReceiver r = OtlpReceiver.builder().counting().port(port).start();
        OtlpGrpcReceiver g = OtlpGrpcReceiver.builder().counting().start()) {
      serve(
          r.endpoint() + " " + g.endpoint(),
          () ->
              String.format(
                  Locale.ROOT,
                  "records=%d requests=%d wire_bytes=%d body_bytes=%d bad=%d",
                  r.acceptedRecords() + g.acceptedRecords(),
                  r.acceptedRequests() + g.acceptedRequests(),
                  r.acceptedWireBytes() + g.acceptedWireBytes(),
                  r.acceptedBodyBytes() + g.acceptedBodyBytes(),
                  r.invalidRequestCount() + g.invalidRequestCount()));
    }
  }

  /**
   * A sink process's protocol towards {@link SinkProcess}: prints {@code listening <endpoint>},
   * then every second {@code counters.get()} followed by {@code cpu_ns=<process CPU nanoseconds>},
   * until stdin closes.
   *
   * @param endpoint the sink's base URL
   * @param counters the counters part of a report line, e.g. {@code records=1 requests=1 ...}
   * @throws InterruptedException if interrupted while waiting
   */
  public static void serve(String endpoint, Supplier<String> counters) throws InterruptedException {
    System.out.println("listening " + endpoint);
    System.out.flush();
    Thread stdinWatcher =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // drain until EOF
                }
              } catch (IOException ignored) {
                // treat as EOF
              }
            },
            "stdin-watcher");
    stdinWatcher.setDaemon(true);
    stdinWatcher.start();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    while (stdinWatcher.isAlive()) {
      stdinWatcher.join(TimeUnit.SECONDS.toMillis(1));
      System.out.println(counters.get() + " cpu_ns=" + os.getProcessCpuTime());
      System.out.flush();
    }
  }
}
