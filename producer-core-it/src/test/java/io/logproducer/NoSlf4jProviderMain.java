package io.logproducer;

import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import java.net.ConnectException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Child JVM for {@link NoSlf4jProviderTest}: an exporter whose receiver refuses every connection
 * (or, with the argument {@code hang}, one whose export never answers), one record with a 1.5 s
 * delivery timeout. Prints the outcome and the metrics' last error to stdout, as an application
 * would.
 */
public final class NoSlf4jProviderMain {

  private NoSlf4jProviderMain() {}

  public static void main(String[] args) throws Exception {
    InMemoryExporter exporter = InMemoryExporter.builder().setBodiesOnly(true).build();
    boolean hang = args.length > 0 && args[0].equals("hang");
    if (hang) {
      exporter.hold();
    } else {
      exporter.respondWith(
          r ->
              ExportResult.retryable(
                  "Connection refused", new ConnectException("Connection refused"), -1));
    }
    ProducerConfig config =
        ProducerConfig.builder()
            .setClientId("silence")
            .setLingerMillis(10)
            .setDeliveryTimeoutMillis(1_500)
            .setInitialRetryBackoffMillis(100)
            .setMaxRetryBackoffMillis(200)
            .setJmxEnabled(false)
            .build();
    try (Producer producer = new Producer(config, exporter)) {
      CompletableFuture<SendResult> f =
          producer.sendAsync(LogRecord.builder().setBody("hello").build());
      try {
        f.get(10, TimeUnit.SECONDS);
        System.out.println("outcome: delivered");
      } catch (java.util.concurrent.ExecutionException e) {
        System.out.println("outcome: " + ((DeliveryException) e.getCause()).getResult());
      }
      System.out.println("lastError: " + producer.getMetrics().getLastError());
      exporter.release();
    }
  }
}
