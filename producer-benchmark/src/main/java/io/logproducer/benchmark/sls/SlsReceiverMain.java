package io.logproducer.benchmark.sls;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link SlsReceiver} as its own process, the sink of the suite's Aliyun runs, with the OTLP sink's protocol
 * towards the suite ({@code OtlpReceiverMain}'s, read by {@code SinkProcess}):
 * {@code java -cp benchmarks.jar io.logproducer.benchmark.sls.SlsReceiverMain [--port P]}. Prints
 * {@code listening <endpoint>} once ready, then every second (stdout) a line {@code records=<n> requests=<n>
 * wire_bytes=<n> body_bytes=<n> bad=<n> cpu_ns=<process CPU nanoseconds> contents=<n>}. Stops when its standard
 * input closes.
 */
public final class SlsReceiverMain {

  private SlsReceiverMain() {
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--threads" -> {
          // accepted for SinkProcess: the server runs one thread per connection
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    try (SlsReceiver receiver = new SlsReceiver(port)) {
      System.out.println("listening " + receiver.endpoint());
      System.out.flush();
      Thread stdinWatcher = new Thread(() -> {
        try {
          while (System.in.read() >= 0) {
            // drain until EOF
          }
        } catch (java.io.IOException ignored) {
          // treat as EOF
        }
      }, "stdin-watcher");
      stdinWatcher.setDaemon(true);
      stdinWatcher.start();
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      while (stdinWatcher.isAlive()) {
        stdinWatcher.join(TimeUnit.SECONDS.toMillis(1));
        System.out.printf(Locale.ROOT,
            "records=%d requests=%d wire_bytes=%d body_bytes=%d bad=%d cpu_ns=%d contents=%d%n",
            receiver.records(), receiver.requests(), receiver.wireBytes(), receiver.bodyBytes(),
            receiver.badRequests(), os.getProcessCpuTime(), receiver.contents());
        System.out.flush();
      }
    }
  }
}
