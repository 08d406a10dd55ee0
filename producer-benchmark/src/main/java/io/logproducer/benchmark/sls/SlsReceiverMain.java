package io.logproducer.benchmark.sls;

import io.logproducer.benchmark.harness.OtlpSinkMain;
import java.util.Locale;

/**
 * Runs {@link SlsReceiver} as its own process, the sink of the suite's Aliyun runs, with the OTLP
 * sink's protocol towards the suite ({@link OtlpSinkMain#serve}, read by {@code SinkProcess}):
 * {@code java -cp benchmarks.jar io.logproducer.benchmark.sls.SlsReceiverMain [--port P]}. Prints
 * {@code listening <endpoint>} once ready, then every second (stdout) a line {@code records=<n>
 * requests=<n> wire_bytes=<n> body_bytes=<n> bad=<n> contents=<n> cpu_ns=<process CPU
 * nanoseconds>}. Stops when its standard input closes.
 */
public final class SlsReceiverMain {

  private SlsReceiverMain() {}

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
      OtlpSinkMain.serve(
          receiver.endpoint(),
          () ->
              String.format(
                  Locale.ROOT,
                  "records=%d requests=%d wire_bytes=%d body_bytes=%d bad=%d contents=%d",
                  receiver.records(),
                  receiver.requests(),
                  receiver.wireBytes(),
                  receiver.bodyBytes(),
                  receiver.badRequests(),
                  receiver.contents()));
    }
  }
}
