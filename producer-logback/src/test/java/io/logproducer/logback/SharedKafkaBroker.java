package io.logproducer.logback;

import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import java.nio.file.Paths;

/**
 * One Kafka broker for this module's Kafka tests ({@link LogbackKafkaTest}, {@link
 * LogbackKafkaDnsTest}), each on a topic of its own: a broker is a child JVM that takes seconds to
 * start, and what the tests check does not depend on a fresh one. Started on first use in a test
 * JVM; the broker's own shutdown hook stops it when that JVM exits.
 */
final class SharedKafkaBroker {

  private static EmbeddedKafkaBroker broker;

  private SharedKafkaBroker() {}

  /** {@return the running broker, started now if there is none (or it died)} */
  static synchronized EmbeddedKafkaBroker get() {
    if (broker == null || !broker.isRunning()) {
      broker =
          EmbeddedKafkaBroker.start(
              Paths.get("target", "kafka-logback-" + ProcessHandle.current().pid()));
    }
    return broker;
  }
}
