package io.logproducer.memory;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.Severity;
import io.logproducer.testing.InMemoryExporter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Run by {@code ClassLoaderLeakTest} inside a child class loader that loaded producer-core itself:
 * a producer with JMX and the shutdown hook enabled (the defaults) sends 1,000 records from the
 * calling thread (one of them 340 KB, some with callbacks, one through {@code sendAsync}), flushes
 * and closes. {@link #get()} returns the producer's clientId afterwards. Throws if any record was
 * not delivered.
 */
public final class LeakScenario implements Runnable, Supplier<String> {

  private volatile String clientId;

  @Override
  public void run() {
    ProducerConfig config = ProducerConfig.builder().build(); // defaults: JMX and shutdown hook on
    clientId = config.getClientId();
    InMemoryExporter exporter = Exporters.accepting();
    AtomicInteger delivered = new AtomicInteger();
    Producer producer = new Producer(config, exporter);
    try {
      CompletableFuture<SendResult> future = null;
      for (int i = 0; i < 1000; i++) {
        String body = i == 500 ? "L".repeat(340_000) : "record " + i + " of the leak scenario";
        LogRecord r =
            LogRecord.builder()
                .setSeverity(Severity.INFO)
                .setBody(body)
                .setAttribute("i", i)
                .build();
        if (i == 1) {
          future = producer.sendAsync(r);
        } else if (i % 10 == 0) {
          producer.send(
              r,
              result -> {
                if (result.isSuccess()) {
                  delivered.incrementAndGet();
                }
              });
        } else {
          producer.send(r);
        }
      }
      producer.flush();
      SendResult async = future.get(10, TimeUnit.SECONDS);
      if (!async.isSuccess() || delivered.get() != 100) {
        throw new IllegalStateException(
            "not delivered: async=" + async + " callbacks=" + delivered.get());
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      producer.close();
    }
    ProducerMetrics m = producer.getMetrics();
    if (m.getRecordsSent() != 1000
        || exporter.recordsDelivered() != 1000
        || m.getBufferedBytes() != 0) {
      throw new IllegalStateException("expected 1000 records delivered: " + m);
    }
  }

  @Override
  public String get() {
    return clientId;
  }
}
