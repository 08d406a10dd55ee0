package io.logproducer.kafka.dns;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.kafka.KafkaExporter;
import io.logproducer.testing.Outcomes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link KafkaBootstrapDnsTest}: started with {@code -Djdk.net.hosts.file}, it
 * builds a producer whose bootstrap host that file does not list, sends records, and reports on
 * standard output, one line per step ({@code STARTED}, {@code REFUSED <message>}, {@code RETRYING},
 * {@code RESULT ...}, {@code THREADS ...}). Arguments: bootstrap servers, topic, records before,
 * records after, deliveryTimeoutMillis, and "wait" (read one line from standard input after {@code
 * RETRYING}, before waiting for the outcomes) or "nowait", and optionally Kafka properties as
 * {@code name=value|name=value}.
 */
public final class DnsChild {

  private DnsChild() {}

  public static void main(String[] args) throws Exception {
    String bootstrap = args[0];
    String topic = args[1];
    int before = Integer.parseInt(args[2]);
    int after = Integer.parseInt(args[3]);
    long deliveryTimeout = Long.parseLong(args[4]);
    boolean waitForParent = args[5].equals("wait");
    Outcomes outcomes = new Outcomes();
    AtomicLong firstDelivered = new AtomicLong();
    Producer producer;
    try {
      producer =
          new Producer(
              ProducerConfig.builder()
                  .setClientId("dns-child")
                  .setLingerMillis(20)
                  .setBatchCountThreshold(100)
                  .setDeliveryTimeoutMillis(deliveryTimeout)
                  .setJmxEnabled(false)
                  .build(),
              KafkaExporter.builder()
                  .setBootstrapServers(bootstrap)
                  .setTopic(topic)
                  .setProperty("max.block.ms", 2_000)
                  .setProperty("request.timeout.ms", 2_000)
                  .setProperty("delivery.timeout.ms", 4_000)
                  .setProperties(extra(args))
                  .build());
    } catch (IllegalArgumentException e) {
      System.out.println("REFUSED " + e.getMessage());
      return;
    }
    System.out.println("STARTED");
    for (int i = 0; i < before; i++) {
      send(producer, outcomes, firstDelivered, i);
    }
    Outcomes.until(
        () -> producer.getMetrics().getRetries() > 0 || outcomes.total() >= before, 60_000);
    System.out.println("RETRYING " + outcomes.total());
    if (waitForParent) {
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    }
    outcomes.await(before, deliveryTimeout + 60_000);
    for (int i = before; i < before + after; i++) {
      send(producer, outcomes, firstDelivered, i);
    }
    outcomes.await(before + after, deliveryTimeout + 60_000);
    int notBuilt = 0;
    String aMessage = "";
    for (SendResult r : outcomes.all()) {
      if (r.getMessage() != null && r.getMessage().contains("Kafka client not built yet: ")) {
        notBuilt++;
        aMessage = r.getMessage();
      }
    }
    System.out.println(
        "RESULT total="
            + outcomes.total()
            + " distinct="
            + outcomes.distinctIds()
            + " duplicates="
            + outcomes.duplicates()
            + " delivered="
            + count(outcomes, SendResult.Status.DELIVERED)
            + " failed="
            + count(outcomes, SendResult.Status.FAILED)
            + " notBuilt="
            + notBuilt
            + " firstDeliveredAt="
            + firstDelivered.get()
            + " retries="
            + producer.getMetrics().getRetries()
            + " message="
            + aMessage.replace('\n', ' '));
    producer.close(5_000);
    Outcomes.until(() -> kafkaThreads().isEmpty(), 10_000);
    System.out.println("THREADS " + kafkaThreads());
  }

  private static void send(
      Producer producer, Outcomes outcomes, AtomicLong firstDelivered, int id) {
    producer.send(
        LogRecord.builder().setBody(Integer.toString(id)).build(),
        r -> {
          if (r.getStatus() == SendResult.Status.DELIVERED) {
            firstDelivered.compareAndSet(0, System.currentTimeMillis());
          }
          outcomes.callback(id).onCompletion(r);
        });
  }

  /** The optional seventh argument: Kafka properties as {@code name=value|name=value}. */
  private static Map<String, String> extra(String[] args) {
    Map<String, String> props = new LinkedHashMap<>();
    if (args.length > 6) {
      for (String p : args[6].split("\\|")) {
        int eq = p.indexOf('=');
        props.put(p.substring(0, eq), p.substring(eq + 1));
      }
    }
    return props;
  }

  private static int count(Outcomes outcomes, SendResult.Status status) {
    Integer c = outcomes.statusCounts().get(status);
    return c == null ? 0 : c;
  }

  private static String kafkaThreads() {
    StringBuilder sb = new StringBuilder();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive()
          && (t.getName().contains("dns-child") || t.getName().startsWith("kafka-producer"))) {
        sb.append(t.getName()).append(';');
      }
    }
    return sb.toString();
  }
}
