package io.logproducer.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.spi.ExportResult;
import io.logproducer.testing.Outcomes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client built once, at start or later: which refusals defer it, the backoff, one build under
 * concurrent callers, and a close racing a build. The factory stands in for the {@code
 * KafkaProducer} constructor, failing as it does ({@code KafkaErrors.unresolvedBootstrap} is
 * checked against the real constructor's refusals by {@code KafkaBootstrapDnsTest}); the bootstrap
 * is an IP literal, so the client's own resolution check always passes here.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeferredClientTest {

  private static final String DNS = "No resolvable bootstrap urls given in bootstrap.servers";

  private static Map<String, Object> props() {
    Map<String, Object> p = new HashMap<>();
    p.put("bootstrap.servers", "127.0.0.1:9092");
    p.put("client.id", "deferred");
    return p;
  }

  private static KafkaException unresolved() {
    return new KafkaException("Failed to construct kafka producer", new ConfigException(DNS));
  }

  private static MockProducer<byte[], byte[]> client() {
    return new MockProducer<>(); // the constructor kafka-clients 3.x and 4.x both have
  }

  /** Fails the first {@code failures} builds of the real bootstrap as unresolved; counts calls. */
  private static class Factory implements Function<Map<String, Object>, Producer<byte[], byte[]>> {
    final AtomicInteger builds = new AtomicInteger();
    final AtomicInteger checks = new AtomicInteger();
    final List<MockProducer<byte[], byte[]>> made = new ArrayList<>();
    final int failures;
    final KafkaException checkFailure;

    Factory(int failures, KafkaException checkFailure) {
      this.failures = failures;
      this.checkFailure = checkFailure;
    }

    @Override
    public synchronized Producer<byte[], byte[]> apply(Map<String, Object> p) {
      if (DeferredClient.CHECK_BOOTSTRAP.equals(p.get("bootstrap.servers"))) {
        checks.incrementAndGet();
        assertEquals("deferred-config-check", p.get("client.id"));
        if (checkFailure != null) {
          throw checkFailure;
        }
      } else if (builds.incrementAndGet() <= failures) {
        throw unresolved();
      }
      MockProducer<byte[], byte[]> m = client();
      made.add(m);
      return m;
    }
  }

  @Test
  void anUnresolvedBootstrapDefersTheBuildUntilABackoffHasPassed() {
    Factory f = new Factory(2, null);
    DeferredClient c = new DeferredClient(props(), f);
    assertFalse(c.start(), "deferred");
    assertEquals(1, f.checks.get(), "the rest of the configuration was checked");
    assertTrue(f.made.get(0).closed(), "and the checking client closed");
    ExportResult r = c.notBuilt();
    assertEquals(ExportResult.Kind.RETRYABLE, r.kind());
    assertEquals("Kafka client not built yet: " + DNS + " (127.0.0.1:9092)", r.message());
    assertNull(c.get(), "the first retry fails as well (it is due at once)");
    assertEquals(2, f.builds.get());
    for (int i = 0; i < 100; i++) {
      assertNull(c.get(), "within the 100 ms backoff nothing is built");
    }
    assertTrue(f.builds.get() <= 3, "at most one more attempt: " + f.builds.get());
    assertTrue(Outcomes.until(() -> c.get() != null, 10_000), "built after the backoff");
    assertEquals(3, f.builds.get());
    assertSame(f.made.get(1), c.get());
    c.close();
    assertTrue(f.made.get(1).closed());
    assertNull(c.get());
    assertEquals("Kafka client closed", c.notBuilt().message());
  }

  @Test
  void otherRefusalsThrowAtStartEvenWhenTheBootstrapDoesNotResolve() {
    Factory fatal =
        new Factory(0, null) {
          @Override
          public synchronized Producer<byte[], byte[]> apply(Map<String, Object> p) {
            throw new ConfigException("acks", "most", "String must be one of: all, -1, 0, 1");
          }
        };
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> new DeferredClient(props(), fatal).start());
    assertEquals(
        "the Kafka producer configuration was refused: Invalid value most for configuration acks:"
            + " String must be one of: all, -1, 0, 1",
        e.getMessage());
    Factory badSasl =
        new Factory(
            1,
            new KafkaException(
                "Failed to construct kafka producer",
                new KafkaException(
                    "Failed to create new NetworkClient",
                    new IllegalArgumentException("Could not find a 'KafkaClient' entry in JAAS"))));
    IllegalArgumentException sasl =
        assertThrows(
            IllegalArgumentException.class, () -> new DeferredClient(props(), badSasl).start());
    assertEquals(
        "the Kafka producer configuration was refused: Failed to construct kafka producer (Failed"
            + " to create new NetworkClient: Could not find a 'KafkaClient' entry in JAAS)",
        sasl.getMessage());
    assertEquals(1, badSasl.checks.get());
  }

  @Test
  void concurrentCallersBuildOnce() throws Exception {
    Factory f = new Factory(1, null);
    DeferredClient c = new DeferredClient(props(), f);
    assertFalse(c.start());
    int threads = 8;
    CyclicBarrier barrier = new CyclicBarrier(threads);
    List<Thread> callers = new ArrayList<>();
    List<Producer<byte[], byte[]>> got = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  barrier.await();
                  Outcomes.until(() -> c.get() != null, 10_000);
                  synchronized (got) {
                    got.add(c.get());
                  }
                } catch (Exception e) {
                  throw new AssertionError(e);
                }
              });
      t.start();
      callers.add(t);
    }
    for (Thread t : callers) {
      t.join(20_000);
    }
    assertEquals(threads, got.size());
    assertEquals(2, f.builds.get(), "one failed start, one build");
    for (Producer<byte[], byte[]> p : got) {
      assertSame(f.made.get(1), p);
    }
    c.close();
  }

  @Test
  void aCloseDuringABuildLeavesTheNewClientClosed() throws Exception {
    CountDownLatch building = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<MockProducer<byte[], byte[]>> made = new ArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    DeferredClient c =
        new DeferredClient(
            props(),
            p -> {
              int call = calls.incrementAndGet();
              if (call == 1) {
                throw unresolved();
              }
              if (call == 3) { // the deferred build (call 2 is the check at start)
                building.countDown();
                try {
                  release.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              MockProducer<byte[], byte[]> m = client();
              synchronized (made) {
                made.add(m);
              }
              return m;
            });
    assertFalse(c.start());
    Thread sender = new Thread(c::get);
    sender.start();
    assertTrue(building.await(20, TimeUnit.SECONDS));
    c.close(); // returns at once: it does not wait for the build
    release.countDown();
    sender.join(20_000);
    assertEquals(2, made.size());
    assertTrue(made.get(1).closed(), "the client built after close() was closed by its builder");
    assertNull(c.get());
    assertNotNull(c.notBuilt());
  }
}
