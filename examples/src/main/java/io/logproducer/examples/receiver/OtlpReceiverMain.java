package io.logproducer.examples.receiver;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link EmbeddedOtlpReceiver} as its own process (the benchmark sink):
 * {@code java -cp logproducer-examples.jar io.logproducer.examples.receiver.OtlpReceiverMain [--port P]
 * [--threads T]}. Prints {@code listening <endpoint>} once ready, then every second (stdout) a line
 * {@code records=<n> requests=<n> wire_bytes=<n> body_bytes=<n> bad=<n> cpu_ns=<process CPU nanoseconds>}.
 * Stops when its standard input closes.
 */
public final class OtlpReceiverMain {

  private OtlpReceiverMain() {
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    int threads = 4;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--threads" -> threads = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    try (EmbeddedOtlpReceiver receiver = new EmbeddedOtlpReceiver(port, threads)) {
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
        System.out.printf(Locale.ROOT, "records=%d requests=%d wire_bytes=%d body_bytes=%d bad=%d cpu_ns=%d%n",
            receiver.records(), receiver.requests(), receiver.wireBytes(), receiver.bodyBytes(),
            receiver.badRequests(), os.getProcessCpuTime());
        System.out.flush();
      }
    }
  }
}
