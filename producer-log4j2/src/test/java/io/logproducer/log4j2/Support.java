package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.logproducer.testing.appender.RepeatedAttributeKeys;
import io.logproducer.testing.otlp.Exchange;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;

final class Support {

  private Support() {}

  /** A LoggerContext of its own, configured from a test resource (not the global one). */
  static LoggerContext context(String resource) {
    URI uri;
    try {
      uri = Support.class.getClassLoader().getResource(resource).toURI();
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
    LoggerContext ctx = new LoggerContext(resource, null, uri);
    ctx.start();
    return ctx;
  }

  static URI resource(String resource) {
    try {
      return Support.class.getClassLoader().getResource(resource).toURI();
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  static LogproducerAppender appender(LoggerContext ctx, String name) {
    LogproducerAppender a = ctx.getConfiguration().getAppender(name);
    assertNotNull(a, "appender " + name + " configured");
    return a;
  }

  /** A port nothing listens on (bound, then closed). */
  static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * Waits for {@code condition}, checking every 5 ms, failing once {@code state} has shown no
   * change for {@code timeoutMillis}: the bound runs from the last progress, not from the start (a
   * saturated machine is slow, not stuck).
   */
  static void await(
      String what, BooleanSupplier condition, long timeoutMillis, Supplier<String> state) {
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
            "no progress for " + timeoutMillis + " ms waiting for " + what + "; " + state.get());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  /**
   * Waits until no thread named {@code prefix...} is alive: a stop returns within its bound and the
   * producer's threads end then, or a moment after on a busy machine.
   */
  static void awaitNoThreads(String prefix) {
    await(
        "no thread " + prefix + "* alive",
        () -> threads(prefix).isEmpty(),
        30_000,
        () -> threads(prefix).toString());
  }

  /** One received record with its resource's service.name and its ScopeLogs' scope name. */
  static final class Received {
    private final String service;
    private final String scope;
    private final ReceivedLogRecord record;

    Received(String service, String scope, ReceivedLogRecord record) {
      this.service = service;
      this.scope = scope;
      this.record = record;
    }

    String service() {
      return service;
    }

    String scope() {
      return scope;
    }

    ReceivedLogRecord record() {
      return record;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Received)) {
        return false;
      }
      Received other = (Received) o;
      return java.util.Objects.equals(service, other.service)
          && java.util.Objects.equals(scope, other.scope)
          && java.util.Objects.equals(record, other.record);
    }

    @Override
    public int hashCode() {
      return java.util.Objects.hash(service, scope, record);
    }

    @Override
    public String toString() {
      return "Received[service=" + service + ", scope=" + scope + ", record=" + record + "]";
    }

    String body() {
      return record.bodyString();
    }

    Map<String, Object> attributes() {
      return record.attributes();
    }

    /** The string attribute {@code key}, null if absent; fails if it is not a string. */
    String attr(String key) {
      Object v = record.attribute(key);
      if (v != null && !(v instanceof String)) {
        throw new AssertionError("attribute " + key + " is not a string: " + v);
      }
      return (String) v;
    }
  }

  /**
   * Records of every accepted (2xx) request, in arrival order; fails on an attribute key repeated
   * in a list.
   */
  static List<Received> delivered(OtlpReceiver server) {
    List<Received> out = new ArrayList<>();
    for (Exchange e : server.exchanges()) {
      if (!e.accepted()) {
        continue;
      }
      List<String> repeated = RepeatedAttributeKeys.in(e.request());
      if (!repeated.isEmpty()) {
        throw new AssertionError("duplicate attribute " + repeated);
      }
      for (ReceivedLogRecord r : e.request().records()) {
        out.add(
            new Received((String) r.resourceAttributes().get("service.name"), r.scopeName(), r));
      }
    }
    return out;
  }

  /**
   * {@code records} by event time (a stable sort): with the hand-off, an event mapped on the
   * logging thread (an exception, a large message, a full queue) can reach the receiver before
   * earlier events of its thread still queued.
   */
  static List<Received> inLoggedOrder(List<Received> records) {
    List<Received> sorted = new ArrayList<>(records);
    sorted.sort(java.util.Comparator.comparingLong(r -> r.record().timeUnixNano()));
    return sorted;
  }

  /** Names of live threads starting with {@code prefix}. */
  static List<String> threads(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(n -> n.startsWith(prefix))
        .sorted()
        .collect(Collectors.toList());
  }

  /** Collects log4j2 status messages (the appender's status channel). */
  static final class Status implements StatusListener {
    private final List<StatusData> data = new CopyOnWriteArrayList<>();

    static Status register() {
      Status s = new Status();
      StatusLogger.getLogger().registerListener(s);
      return s;
    }

    @Override
    public void log(StatusData d) {
      data.add(d);
    }

    @Override
    public Level getStatusLevel() {
      return Level.WARN;
    }

    private final java.util.concurrent.atomic.AtomicBoolean closed =
        new java.util.concurrent.atomic.AtomicBoolean();

    /** Unregisters (removeListener calls close() again: once only). */
    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        StatusLogger.getLogger().removeListener(this);
      }
    }

    List<String> messages(Level level) {
      return data.stream()
          .filter(d -> d.getLevel() == level)
          .map(d -> d.getMessage().getFormattedMessage())
          .collect(Collectors.toList());
    }
  }
}
