package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;

/** Each test run sees the Kafka client it claims to test (see the two surefire runs in the pom). */
class KafkaClientVersionTest {

  @Test
  void theRunsClientIsTheExpectedOne() {
    assertEquals(System.getProperty("expected.kafka.version"), AppInfoParser.getVersion());
  }
}
