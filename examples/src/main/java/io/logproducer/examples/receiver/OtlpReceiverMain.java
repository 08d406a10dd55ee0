package io.logproducer.examples.receiver;

import io.logproducer.testing.otlp.OtlpReceiver;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs the test kit's counting {@link OtlpReceiver} as its own process (the benchmark sink): {@code
 * java -cp logproducer-examples.jar io.logproducer.examples.receiver.OtlpReceiverMain [--port P]
 * [--threads T]} ({@code --threads} is accepted and ignored: the receiver takes a thread per
 * concurrent request). Prints {@code listening <endpoint>} once ready, then every second (stdout) a
 * line {@code records=<n> requests=<n> wire_bytes=<n> body_bytes=<n> bad=<n> cpu_ns=<process CPU
 * nanoseconds>}. Stops when its standard input closes.
 */
public final class OtlpReceiverMain {

  private OtlpReceiverMain() {}

  public static void main(String[] args) throws Exception {
    int port = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--threads" -> Integer.parseInt(args[i + 1]); // checked, then ignored
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    try (OtlpReceiver receiver = OtlpReceiver.builder().counting().port(port).start()) {
      System.out.println("listening " + receiver.endpoint());
      System.out.flush();
      Thread stdinWatcher =
          new Thread(
              () -> {
                try {
                  while (System.in.read() >= 0) {
                    // drain until EOF
                  }
                } catch (java.io.IOException ignored) {
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
        System.out.printf(
            Locale.ROOT,
            "records=%d requests=%d wire_bytes=%d body_bytes=%d bad=%d cpu_ns=%d%n",
            receiver.acceptedRecords(),
            receiver.acceptedRequests(),
            receiver.acceptedWireBytes(),
            receiver.acceptedBodyBytes(),
            receiver.invalidRequestCount(),
            os.getProcessCpuTime());
        System.out.flush();
      }
    }
  }
}
