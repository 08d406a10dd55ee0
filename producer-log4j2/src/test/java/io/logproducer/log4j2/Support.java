package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.logproducer.otlp.testing.LoopbackOtlpServer;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
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

  private Support() {
  }

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

  /** Waits for {@code condition}, checking every 5 ms, failing after {@code timeoutMillis}. */
  static void await(String what, BooleanSupplier condition, long timeoutMillis, Supplier<String> state) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeoutMillis + " ms waiting for " + what + "; "
            + state.get());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  /** One received record with its resource's service.name and its ScopeLogs' scope name. */
  record Received(String service, String scope, LogRecord record) {
    String body() {
      return record.getBody().getStringValue();
    }

    Map<String, AnyValue> attributes() {
      return record.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue,
          (a, b) -> {
            throw new AssertionError("duplicate attribute " + a);
          }, java.util.LinkedHashMap::new));
    }

    String attr(String key) {
      AnyValue v = attributes().get(key);
      return v == null ? null : v.getStringValue();
    }
  }

  /** Records of every accepted (2xx) request, in arrival order. */
  static List<Received> delivered(LoopbackOtlpServer server) {
    List<Received> out = new ArrayList<>();
    for (LoopbackOtlpServer.Exchange e : server.exchanges()) {
      if (!e.accepted()) {
        continue;
      }
      for (ResourceLogs rl : e.request().request().getResourceLogsList()) {
        String service = rl.getResource().getAttributesList().stream()
            .filter(kv -> kv.getKey().equals("service.name")).map(kv -> kv.getValue().getStringValue())
            .findFirst().orElse(null);
        for (ScopeLogs sl : rl.getScopeLogsList()) {
          for (LogRecord r : sl.getLogRecordsList()) {
            out.add(new Received(service, sl.getScope().getName(), r));
          }
        }
      }
    }
    return out;
  }

  /** Names of live threads starting with {@code prefix}. */
  static List<String> threads(String prefix) {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
        .filter(n -> n.startsWith(prefix)).sorted().toList();
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

    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    /** Unregisters (removeListener calls close() again: once only). */
    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        StatusLogger.getLogger().removeListener(this);
      }
    }

    List<String> messages(Level level) {
      return data.stream().filter(d -> d.getLevel() == level).map(d -> d.getMessage().getFormattedMessage())
          .toList();
    }
  }
}
