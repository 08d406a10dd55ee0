package io.logproducer.memory;

import io.logproducer.BufferExhaustedException;
import io.logproducer.BufferFullPolicy;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.testing.InMemoryExporter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Child-JVM main of {@code MemoryBoundTest}: measures the heap a producer retains when its receiver
 * refuses everything and 4 application threads send ~600-byte records until {@code send} throws
 * {@link BufferExhaustedException}, then what it retains once closed. Prints one {@code RESULT
 * key=value …} line; the test asserts on it. Run with {@code -XX:+UseSerialGC} so that heap "used"
 * after a full GC is the live set.
 *
 * <p>Argument: the configuration name, {@code a}…{@code e} (see {@link #config}).
 */
public final class MemoryBoundMain {

  public static final long TOTAL = 32L << 20;
  public static final int APP_THREADS = 4;
  public static final long MAX_BLOCK_MILLIS = 200;

  private MemoryBoundMain() {}

  /**
   * The producer settings of configuration {@code name} (all share the budget, retry and blocking
   * settings).
   */
  public static ProducerConfig.Builder config(String name) {
    ProducerConfig.Builder b =
        ProducerConfig.builder()
            .setClientId("membound-" + name)
            .setTotalSizeInBytes(TOTAL)
            .setRetries(Integer.MAX_VALUE)
            .setDeliveryTimeoutMillis(600_000)
            .setBufferFullPolicy(BufferFullPolicy.BLOCK)
            .setMaxBlockMillis(MAX_BLOCK_MILLIS);
    switch (name) {
      case "a": // defaults otherwise: batch 1 MiB, linger 1000 ms, 8 send threads
        return b;
      case "b":
        return b.setLingerMillis(1);
      case "c":
        return b.setBatchCountThreshold(1);
      case "d":
        return b.setBatchCountThreshold(16);
      case "e": // 1,000 shards (GSE with 1,000 dataids), 64 KiB batches
        return b.setBatchSizeInBytes(64 * 1024);
      case "e-linger60s": // as e, but linger cannot be what ships the open batches before send
        // gives up
        return b.setBatchSizeInBytes(64 * 1024).setLingerMillis(60_000);
      default:
        throw new IllegalArgumentException("unknown configuration " + name);
    }
  }

  /** Shards the configuration's records are spread over. */
  public static int shards(String name) {
    return name.startsWith("e") ? 1000 : 1;
  }

  public static void main(String[] args) throws Exception {
    io.logproducer.testsupport.ChildOutput.lineAtomic();
    String name = args[0];
    ProducerConfig config = config(name).build();
    int shards = shards(name);
    String filler = filler();

    // Warm up: load and initialise every class on the path (producer, JMX, slf4j, exceptions)
    // before the baseline,
    // so the baseline does not count class initialisation as retained by the producer under test.
    warmUp(filler);

    long baseline = HeapMeter.usedAfterGc();

    InMemoryExporter exporter = Exporters.refusing();
    Producer producer = new Producer(config, exporter);
    long start = System.nanoTime();
    AtomicLong callsAtFirstExhaustion = new AtomicLong(-1);
    AtomicLong millisToFirstExhaustion = new AtomicLong(-1);
    AtomicReference<Throwable> unexpected = new AtomicReference<>();
    AtomicReference<String> firstExhaustionMessage = new AtomicReference<>();
    CountDownLatch exhausted = new CountDownLatch(APP_THREADS);
    CountDownLatch release = new CountDownLatch(1);
    AtomicLong sent = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < APP_THREADS; t++) {
      int id = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  long i = 0;
                  while (true) {
                    long n = i++ * APP_THREADS + id;
                    LogRecord r =
                        LogRecord.builder()
                            .setBody(body(filler, n))
                            .setDestination(shards == 1 ? null : "d" + (n % shards))
                            .build();
                    try {
                      producer.send(r);
                      sent.incrementAndGet();
                    } catch (BufferExhaustedException e) {
                      if (callsAtFirstExhaustion.compareAndSet(-1, exporter.exportCalls())) {
                        millisToFirstExhaustion.set(
                            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                        firstExhaustionMessage.set(e.getMessage());
                      }
                      break;
                    }
                  }
                } catch (Throwable e) {
                  unexpected.compareAndSet(null, e);
                } finally {
                  exhausted.countDown();
                }
                // Stay alive (holding nothing of the producer's but its thread-local scratch,
                // weakly) until measured.
                try {
                  release.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "app-" + name + "-" + t);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    if (!exhausted.await(60, TimeUnit.SECONDS)) {
      System.out.println(
          "ERROR application threads did not see BufferExhaustedException within 60 s");
      System.exit(2);
    }
    if (unexpected.get() != null) {
      System.out.println("ERROR unexpected exception in an application thread:");
      unexpected.get().printStackTrace(System.out);
      System.exit(2);
    }

    // Measure twice, a second apart (send threads keep retrying meanwhile); keep the larger.
    long retained1 = HeapMeter.usedAfterGc() - baseline;
    histogram("measurement 1");
    HeapMeter.sleep(1000);
    long retained2 = HeapMeter.usedAfterGc() - baseline;
    histogram("measurement 2");
    long retained = Math.max(retained1, retained2);
    ProducerMetrics m = producer.getMetrics();
    long callsBeforeClose = exporter.exportCalls();

    release.countDown();
    for (Thread t : threads) {
      t.join(10_000);
    }
    long closeStart = System.nanoTime();
    producer.close(0);
    long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStart);
    long closedRetained = HeapMeter.usedAfterGc() - baseline;
    histogram("after close");
    dumpHeap();
    // close(0) returns within its bound; on a starved machine a thread may end a moment after
    List<String> alive = HeapMeter.liveThreads(config.getClientId());
    for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        !alive.isEmpty() && System.nanoTime() - deadline < 0;
        alive = HeapMeter.liveThreads(config.getClientId())) {
      HeapMeter.sleep(10);
    }
    ProducerMetrics after = producer.getMetrics();

    System.out.println(
        String.format(
            Locale.ROOT,
            "RESULT config=%s retained=%d retained1=%d retained2=%d total=%d sendThreads=%d batchSize=%d peak=%d "
                + "bufferedAtMeasure=%d recordsAccepted=%d sent=%d exporterCalls=%d callsAtFirstExhaustion=%d "
                + "millisToFirstExhaustion=%d lingerMillis=%d closedRetained=%d closeMillis=%d aliveThreads=%s "
                + "bufferedAfterClose=%d failedAfterClose=%d baseline=%d",
            name,
            retained,
            retained1,
            retained2,
            TOTAL,
            config.getSendThreads(),
            config.getBatchSizeInBytes(),
            m.getPeakBufferedBytes(),
            m.getBufferedBytes(),
            m.getRecordsAccepted(),
            sent.get(),
            callsBeforeClose,
            callsAtFirstExhaustion.get(),
            millisToFirstExhaustion.get(),
            config.getLingerMillis(),
            closedRetained,
            closeMillis,
            alive.isEmpty() ? "-" : String.join(",", alive),
            after.getBufferedBytes(),
            after.getRecordsFailed(),
            baseline));
    System.out.println("FIRST_EXHAUSTION " + firstExhaustionMessage.get());
    // Keep the producer and exporter reachable up to the last measurement: a closed producer must
    // hold nothing.
    if (producer.isClosed() && exporter.exportCalls() < 0) {
      System.out.println("unreachable");
    }
    System.exit(0);
  }

  /**
   * With -Dmembound.histogram=N, prints the top N lines of the live class histogram (diagnosis
   * only).
   */
  private static void histogram(String label) throws Exception {
    int lines = Integer.getInteger("membound.histogram", 0);
    if (lines <= 0) {
      return;
    }
    String h =
        (String)
            java.lang.management.ManagementFactory.getPlatformMBeanServer()
                .invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram",
                    new Object[] {new String[0]},
                    new String[] {String[].class.getName()});
    String[] all = h.split("\\R");
    System.out.println("HISTOGRAM " + label);
    for (int i = 0; i < Math.min(lines, all.length); i++) {
      System.out.println(all[i]);
    }
    System.out.println(all[all.length - 1]);
  }

  /** With -Dmembound.dump=FILE, writes a heap dump of live objects there (diagnosis only). */
  private static void dumpHeap() throws Exception {
    String file = System.getProperty("membound.dump");
    if (file != null) {
      java.lang.management.ManagementFactory.getPlatformMXBean(
              com.sun.management.HotSpotDiagnosticMXBean.class)
          .dumpHeap(file, true);
    }
  }

  private static void warmUp(String filler) {
    Producer p =
        new Producer(
            ProducerConfig.builder()
                .setClientId("membound-warmup")
                .setTotalSizeInBytes(1 << 20)
                .setBatchSizeInBytes(64 * 1024)
                .setMaxBlockMillis(20)
                .setLingerMillis(1)
                .setDeliveryTimeoutMillis(600_000)
                .build(),
            Exporters.refusing());
    try {
      for (long i = 0; ; i++) {
        p.send(LogRecord.builder().setBody(body(filler, i)).setDestination("d" + (i % 10)).build());
      }
    } catch (BufferExhaustedException expected) {
      // budget full: every class of the blocking path is loaded
    }
    p.close(0);
  }

  private static String filler() {
    StringBuilder sb = new StringBuilder(4096);
    for (int i = 0; sb.length() < 4096; i++) {
      sb.append("user=")
          .append(i * 7919 % 100_003)
          .append(" path=/api/v1/orders/")
          .append(i)
          .append(' ');
    }
    return sb.toString();
  }

  /** A record body of 560–639 chars (ASCII), different for every {@code n}. */
  static String body(String filler, long n) {
    int len = 560 + (int) (n % 80);
    int off = (int) ((n * 131) % (filler.length() - 700));
    return "#" + n + " " + filler.substring(off, off + len);
  }
}
