package io.logproducer.benchmark.sls;

import io.logproducer.benchmark.harness.Cli;
import io.logproducer.benchmark.harness.OtlpSinkMain;
import io.logproducer.benchmark.harness.SinkProcess;

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
    int port = Cli.parse("SlsReceiverMain", new SinkProcess.Options(), args).port;
    try (SlsReceiver receiver = new SlsReceiver(port)) {
      OtlpSinkMain.serve(receiver.endpoint(), receiver::toString);
    }
  }
}
