package io.logproducer.logback;

import ch.qos.logback.classic.LoggerContext;
import io.logproducer.Producer;
import io.logproducer.testing.Outcomes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;

/**
 * The child JVM of {@link LogbackKafkaDnsTest}: configures {@code kafka-dns.xml} with a bootstrap
 * host its hosts file ({@code -Djdk.net.hosts.file}) does not list yet, logs events, and reports on
 * standard output ({@code STARTED}, {@code RETRYING}, {@code RESULT ...}, {@code THREADS ...}).
 * After {@code RETRYING} it reads one line from standard input (the name resolves now), waits for
 * the events' outcomes, logs more and stops the context. Arguments: bootstrap servers, topic,
 * events before, events after.
 */
public final class KafkaDnsChild {

  private KafkaDnsChild() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> props = new HashMap<>();
    props.put("kafka.bootstrap", args[0]);
    props.put("kafka.topic", args[1]);
    int before = Integer.parseInt(args[2]);
    int after = Integer.parseInt(args[3]);
    LoggerContext ctx = LogbackTestSupport.configure("kafka-dns.xml", props);
    LogproducerAppender appender = (LogproducerAppender) ctx.getLogger("app").getAppender("LP");
    System.out.println("STARTED " + (appender != null && appender.isStarted()));
    Logger log = ctx.getLogger("app.dns");
    for (int i = 0; i < before; i++) {
      log.info("{}", i);
    }
    Producer producer = appender.getProducer();
    Outcomes.until(() -> producer.getMetrics().getRetries() > 0, 60_000);
    System.out.println("RETRYING " + producer.getMetrics().getRetries());
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    Outcomes.until(() -> settled(producer) >= before, 90_000);
    for (int i = before; i < before + after; i++) {
      log.info("{}", i);
    }
    producer.flush();
    System.out.println(
        "RESULT started="
            + appender.isStarted()
            + " accepted="
            + producer.getMetrics().getRecordsAccepted()
            + " sent="
            + producer.getMetrics().getRecordsSent()
            + " failed="
            + producer.getMetrics().getRecordsFailed()
            + " dropped="
            + producer.getMetrics().getRecordsDropped()
            + " appenderDropped="
            + appender.droppedCount()
            + " appenderFailed="
            + appender.failedCount());
    ctx.stop();
    Outcomes.until(() -> threads().isEmpty(), 10_000);
    System.out.println("THREADS " + threads());
  }

  private static long settled(Producer p) {
    return p.getMetrics().getRecordsSent()
        + p.getMetrics().getRecordsFailed()
        + p.getMetrics().getRecordsRejected()
        + p.getMetrics().getRecordsDropped();
  }

  private static String threads() {
    StringBuilder sb = new StringBuilder();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive()
          && (t.getName().startsWith("lp-dns") || t.getName().startsWith("kafka-producer"))) {
        sb.append(t.getName()).append(';');
      }
    }
    return sb.toString();
  }
}
