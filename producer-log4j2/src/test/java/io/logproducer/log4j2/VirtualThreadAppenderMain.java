package io.logproducer.log4j2;

import io.logproducer.appender.VirtualThreadAppenderChild;
import io.logproducer.testsupport.VirtualThreadChild;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;

/**
 * The child JVM of {@link VirtualThreadAppenderTest} (run with {@code
 * -Djdk.virtualThreadScheduler.parallelism=2}): virtual threads log through the log4j2 appender
 * (queue of 64, a 64 KiB budget with {@code BLOCK}) while the receiver holds its responses, so they
 * wait in the hand-off and in the budget; every 100th also flushes the producer. Prints {@code
 * PINNED total=N ours=M}, {@code EVENTS ...} and {@code RESULT ok}, or {@code RESULT failed: why}
 * and exits 1. The run is {@link VirtualThreadAppenderChild}'s; log4j2's part is here.
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

  private static VirtualThreadAppenderChild.Appender start(String endpoint) {
    System.setProperty("vthreads.otlp.endpoint", endpoint);
    LoggerContext ctx = Support.context("vthreads.xml");
    LogproducerAppender lp = Support.appender(ctx, "vthreads");
    Logger log = ctx.getLogger("app.vthreads");
    return new VirtualThreadAppenderChild.Appender(
        lp.getProducer(),
        log::info,
        log::info,
        lp::droppedCount,
        lp::failedCount,
        ctx::stop,
        r ->
            Support.delivered(r).stream().map(Support.Received::body).collect(Collectors.toList()));
  }
}
