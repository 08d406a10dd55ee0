package io.logproducer.logback;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import io.logproducer.testing.appender.RepeatedAttributeKeys;
import io.logproducer.testing.otlp.Exchange;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.net.ServerSocket;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.MDC;
import org.slf4j.spi.MDCAdapter;

/**
 * Shared helpers: a logback context configured from an XML test resource, decoded records, bounded
 * waits.
 */
final class LogbackTestSupport {

  private LogbackTestSupport() {}

  /**
   * A fresh LoggerContext configured by JoranConfigurator from {@code resource}, with context
   * properties.
   */
  static LoggerContext configure(String resource, Map<String, String> properties) throws Exception {
    LoggerContext ctx = new LoggerContext();
    ctx.setName(resource);
    useGlobalMdc(ctx);
    return configure(ctx, resource, properties);
  }

  /** Configures {@code ctx} (after a reset) from {@code resource}. */
  static LoggerContext configure(LoggerContext ctx, String resource, Map<String, String> properties)
      throws Exception {
    properties.forEach(ctx::putProperty);
    URL url = LogbackTestSupport.class.getClassLoader().getResource(resource);
    if (url == null) {
      throw new IllegalArgumentException("no test resource " + resource);
    }
    JoranConfigurator jc = new JoranConfigurator();
    jc.setContext(ctx);
    jc.doConfigure(url);
    ctx.start();
    return ctx;
  }

  /**
   * logback 1.5 gives each context its own MDC adapter; point it at SLF4J's (logback 1.3 always
   * uses that).
   */
  static void useGlobalMdc(LoggerContext ctx) {
    try {
      ctx.getClass().getMethod("setMDCAdapter", MDCAdapter.class).invoke(ctx, MDC.getMDCAdapter());
    } catch (NoSuchMethodException e) {
      // logback 1.3: LoggingEvent reads org.slf4j.MDC
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  static LogproducerAppender appender(LoggerContext ctx, String name) {
    return (LogproducerAppender) ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender(name);
  }

  /** The context's status messages (with their causes' messages), one a line. */
  static List<String> statuses(LoggerContext ctx, int minLevel) {
    List<String> out = new ArrayList<>();
    for (Status s : ctx.getStatusManager().getCopyOfStatusList()) {
      if (s.getLevel() >= minLevel) {
        out.add(s.getMessage());
      }
    }
    return out;
  }

  /** A 127.0.0.1 port nothing listens on (bound, then closed). */
  static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * Waits until {@code condition} holds, polling every 5 ms, failing once {@code state} has shown
   * no change for {@code timeoutMillis}.
   */
  static void await(
      String what, BooleanSupplier condition, long timeoutMillis, Supplier<String> state) {
    // the bound runs from the last progress (a change of the state shown), not from the start: a
    // saturated machine is slow, not stuck
    long idle = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    long deadline = System.nanoTime() + idle;
    String last = state.get();
    long nextLook = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
    while (!condition.getAsBoolean()) {
      long now = System.nanoTime();
      if (now - nextLook > 0) {
        nextLook = now + TimeUnit.MILLISECONDS.toNanos(100);
        String seen = state.get();
        if (!seen.equals(last)) {
          last = seen;
          deadline = now + idle;
        }
      }
      if (now - deadline > 0) {
        throw new AssertionError(
            "no progress for "
                + timeoutMillis
                + " ms waiting for "
                + what
                + ": "
                + state.get()
                + "; threads:\n"
                + threadDump());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  /** A decoded record and the scope and resource it arrived under. */
  static final class Decoded {
    private final String scopeName;
    private final Map<String, Object> resource;
    private final ReceivedLogRecord record;

    Decoded(String scopeName, Map<String, Object> resource, ReceivedLogRecord record) {
      this.scopeName = scopeName;
      this.resource = resource;
      this.record = record;
    }

    String scopeName() {
      return scopeName;
    }

    Map<String, Object> resource() {
      return resource;
    }

    ReceivedLogRecord record() {
      return record;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Decoded)) {
        return false;
      }
      Decoded other = (Decoded) o;
      return java.util.Objects.equals(scopeName, other.scopeName)
          && java.util.Objects.equals(resource, other.resource)
          && java.util.Objects.equals(record, other.record);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(scopeName, resource, record);
    }

    @Override
    public String toString() {
      return "Decoded[scopeName="
          + scopeName
          + ", resource="
          + resource
          + ", record="
          + record
          + "]";
    }

    String body() {
      return record.bodyString();
    }

    Map<String, Object> attributes() {
      return record.attributes();
    }
  }

  /**
   * Every record of every accepted request, in arrival order; fails on an attribute key repeated in
   * a list.
   */
  static List<Decoded> delivered(OtlpReceiver server) {
    List<Decoded> out = new ArrayList<>();
    for (Exchange e : server.exchanges()) {
      if (!e.accepted()) {
        continue;
      }
      List<String> repeated = RepeatedAttributeKeys.in(e.request());
      if (!repeated.isEmpty()) {
        throw new AssertionError("duplicate attribute " + repeated);
      }
      for (ReceivedLogRecord r : e.request().records()) {
        out.add(new Decoded(r.scopeName(), r.resourceAttributes(), r));
      }
    }
    return out;
  }

  /** Every live thread's name, state and stack (the top 12 frames), for a wait that timed out. */
  static String threadDump() {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      out.append('"').append(e.getKey().getName()).append("\" ").append(e.getKey().getState());
      StackTraceElement[] stack = e.getValue();
      for (int i = 0; i < Math.min(12, stack.length); i++) {
        out.append("\n    at ").append(stack[i]);
      }
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * Waits until no thread named {@code prefix...} is alive: a stop returns within its bound and the
   * producer's threads end then, or a moment after on a busy machine.
   */
  static void awaitNoThreads(String prefix) {
    await(
        "no thread " + prefix + "* alive",
        () -> liveThreads(prefix).isEmpty(),
        30_000,
        () -> liveThreads(prefix).toString());
  }

  /** Names of live threads starting with {@code prefix}. */
  static List<String> liveThreads(String prefix) {
    List<String> out = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith(prefix)) {
        out.add(t.getName());
      }
    }
    return out;
  }
}
