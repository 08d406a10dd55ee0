package io.logproducer.logback;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.logproducer.appender.VirtualThreadAppenderChild;
import io.logproducer.testsupport.VirtualThreadChild;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The child JVM of {@link VirtualThreadAppenderTest} (run with {@code
 * -Djdk.virtualThreadScheduler.parallelism=2}): virtual threads log through the logback appender
 * (queue of 64, a 64 KiB budget with {@code BLOCK}) while the receiver holds its responses, so they
 * wait in the hand-off and in the budget; every 100th also flushes the producer. Prints {@code
 * PINNED total=N ours=M}, {@code EVENTS ...} and {@code RESULT ok}, or {@code RESULT failed: why}
 * and exits 1. The run is {@link VirtualThreadAppenderChild}'s; logback's part is here.
 */
public final class VirtualThreadAppenderMain {

  static final int THREADS = 10_000;

  private VirtualThreadAppenderMain() {}

  public static void main(String[] args) {
    VirtualThreadChild.main(
        args,
        THREADS,
        (threads, failures) ->
            VirtualThreadAppenderChild.run(threads, failures, VirtualThreadAppenderMain::start));
  }

  private static VirtualThreadAppenderChild.Appender start(String endpoint) throws Exception {
    LoggerContext ctx =
        LogbackTestSupport.configure("vthreads.xml", Map.of("otlp.endpoint", endpoint));
    LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
    Logger log = ctx.getLogger("app.vthreads");
    return new VirtualThreadAppenderChild.Appender(
        lp.getProducer(),
        log::info,
        log::info,
        lp::droppedCount,
        lp::failedCount,
        ctx::stop,
        r ->
            LogbackTestSupport.delivered(r).stream()
                .map(LogbackTestSupport.Decoded::body)
                .collect(Collectors.toList()));
  }
}
