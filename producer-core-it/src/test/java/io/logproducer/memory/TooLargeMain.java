package io.logproducer.memory;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.RecordTooLargeException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Child-JVM main of {@code MemoryBoundTest}: 8 threads each send one record whose body is a
 * 20,000,000-char string to a producer with an 8 MiB budget, in a JVM of {@code -Xmx256m}. The 8
 * bodies alone take 160 MB; had the producer sized a buffer for any of them (20–60 MB each) before
 * refusing it, the JVM would run out of heap. Prints {@code TOO_LARGE_OK …} and exits 0 when every
 * send threw {@link RecordTooLargeException} and nothing ran out of memory; exits 3 otherwise.
 */
public final class TooLargeMain {

  public static final String MARKER = "TOO_LARGE_OK";
  static final int THREADS = 8;
  static final int CHARS = 20_000_000;

  private TooLargeMain() {}

  public static void main(String[] args) throws Exception {
    Producer producer =
        new Producer(
            ProducerConfig.builder()
                .setClientId("toolarge")
                .setTotalSizeInBytes(8L << 20)
                .setBatchSizeInBytes(1 << 20)
                .build(),
            Exporters.asciiOrUtf8());
    AtomicInteger tooLarge = new AtomicInteger();
    AtomicReference<Throwable> other = new AtomicReference<>();
    List<String> messages = new ArrayList<>();
    CountDownLatch ready = new CountDownLatch(THREADS);
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int id = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  // Threads 0-3: ASCII through writeUtf8; 4-5: 'é' (2 UTF-8 bytes each) through
                  // writeUtf8; 6-7: ASCII
                  // through writeAscii. Each thread has its own 20 MB string (Latin-1 compact
                  // strings).
                  char c = id < 4 ? (char) ('a' + id) : id < 6 ? '\u00e9' : (char) ('x' + id - 6);
                  String body = String.valueOf(c).repeat(CHARS);
                  LogRecord record =
                      LogRecord.builder()
                          .setBody(body)
                          .setDestination(id >= 6 ? "ascii" : "plain")
                          .build();
                  ready.countDown();
                  go.await();
                  try {
                    producer.send(record);
                    other.compareAndSet(
                        null,
                        new AssertionError(
                            "thread " + id + ": send accepted a 20,000,000-char record"));
                  } catch (RecordTooLargeException e) {
                    tooLarge.incrementAndGet();
                    synchronized (messages) {
                      messages.add(
                          "thread "
                              + id
                              + ": "
                              + e.getMessage()
                              + " [record>="
                              + e.getRecordSizeInBytes()
                              + ", max="
                              + e.getMaxRecordSizeInBytes()
                              + "]");
                    }
                  }
                } catch (Throwable e) {
                  other.compareAndSet(null, e);
                  ready.countDown();
                }
              },
              "toolarge-app-" + t);
      threads.add(thread);
      thread.start();
    }
    ready.await();
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    ProducerMetrics m = producer.getMetrics();
    producer.close(0);
    messages.forEach(System.out::println);
    if (other.get() != null) {
      System.out.println("FAILED: " + other.get());
      other.get().printStackTrace(System.out);
      System.exit(3);
    }
    if (tooLarge.get() != THREADS || m.getRecordsAccepted() != 0 || m.getPeakBufferedBytes() != 0) {
      System.out.println("FAILED: tooLarge=" + tooLarge.get() + " metrics=" + m);
      System.exit(3);
    }
    System.out.println(
        MARKER
            + " tooLarge="
            + tooLarge.get()
            + " peakBuffered="
            + m.getPeakBufferedBytes()
            + " maxHeap="
            + Runtime.getRuntime().maxMemory());
    System.exit(0);
  }
}
