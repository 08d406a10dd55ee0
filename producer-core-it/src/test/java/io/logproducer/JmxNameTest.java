package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.InMemoryExporter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The metrics MBean's name when producers share a {@code clientId}: the second is {@code
 * instance=2}, and whoever holds an instance name takes the plain name back once its owner has
 * closed, so a JMX scraper keyed on the plain name finds the live producer. Each test uses a fresh
 * {@code clientId}; the MBeans are those of the platform MBean server.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JmxNameTest {

  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

  private final String id = "jmx-name-" + UUID.randomUUID();

  private Producer producer() {
    return new Producer(
        ProducerConfig.builder().setClientId(id).setJmxEnabled(true).setLingerMillis(5).build(),
        InMemoryExporter.create());
  }

  private ObjectName plain() throws Exception {
    return new ObjectName("io.logproducer:type=Producer,clientId=" + ObjectName.quote(id));
  }

  private ObjectName instance(int n) throws Exception {
    return new ObjectName(plain() + ",instance=" + n);
  }

  private Set<ObjectName> names() throws Exception {
    return SERVER.queryNames(new ObjectName(plain() + ",*"), null);
  }

  /** Sends {@code n} records through {@code p} and waits for them, so its MBean shows {@code n}. */
  private static void send(Producer p, int n) {
    for (int i = 0; i < n; i++) {
      p.send(LogRecord.builder().setBody("r" + i).build());
    }
    p.flush();
  }

  private long recordsSent(ObjectName name) throws Exception {
    return (Long) SERVER.getAttribute(name, "RecordsSent");
  }

  @Test
  void theSecondProducerTakesThePlainNameWhenTheFirstCloses() throws Exception {
    Producer first = producer();
    Producer second = producer();
    assertEquals(new HashSet<>(Arrays.asList(plain(), instance(2))), names());
    send(first, 3);
    send(second, 7);
    assertEquals(3L, recordsSent(plain()));
    assertEquals(7L, recordsSent(instance(2)));

    first.close(0);
    assertEquals(Set.of(plain()), names(), "the second moved to the plain name");
    assertEquals(7L, recordsSent(plain()), "the plain name now reads the second producer");
    send(second, 1);
    assertEquals(8L, recordsSent(plain()));

    second.close(0);
    assertEquals(Set.of(), names(), "nothing left");
  }

  @Test
  void withThreeProducersThePlainNameAlwaysBelongsToExactlyOneLiveProducer() throws Exception {
    int[][] orders = {{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {1, 2, 0}, {0, 2, 1}, {2, 0, 1}};
    for (int[] order : orders) {
      List<Producer> producers = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Producer p = producer();
        send(p, 100 + i); // each producer's MBean shows its own count
        producers.add(p);
      }
      assertEquals(
          new HashSet<>(Arrays.asList(plain(), instance(2), instance(3))), names(), "at start");
      Set<Long> live = new HashSet<>(Arrays.asList(100L, 101L, 102L));
      for (int k : order) {
        producers.get(k).close(0);
        live.remove(100L + k);
        Set<ObjectName> names = names();
        assertEquals(live.size(), names.size(), "one name per live producer: " + names);
        if (!live.isEmpty()) {
          assertTrue(names.contains(plain()), "the plain name is held: " + names);
        }
        Set<Long> shown = new HashSet<>();
        for (ObjectName n : names) {
          shown.add(recordsSent(n));
        }
        assertEquals(live, shown, "each name reads a distinct live producer, order " + order[0]);
      }
      assertEquals(Set.of(), names());
    }
  }

  @Test
  void aProducerOpenedAfterAMoveGetsAFreeInstanceName() throws Exception {
    Producer a = producer();
    Producer b = producer();
    a.close(0);
    Producer c = producer();
    assertEquals(new HashSet<>(Arrays.asList(plain(), instance(2))), names());
    send(b, 5);
    send(c, 9);
    assertEquals(5L, recordsSent(plain()));
    assertEquals(9L, recordsSent(instance(2)));
    b.close(0);
    assertEquals(Set.of(plain()), names());
    assertEquals(9L, recordsSent(plain()));
    c.close(0);
    assertEquals(Set.of(), names());
  }
}
