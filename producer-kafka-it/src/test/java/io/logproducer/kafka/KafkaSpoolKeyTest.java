package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.kafka.internal.Topics;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which Kafka batches the disk spool stores, and their shard keys' stored form. */
class KafkaSpoolKeyTest {

  @Test
  void otlpTopicKeysAreStoredAndRebuilt() {
    KafkaExporter e = KafkaExporter.builder().setTopic("logs").build();
    Object key = e.shardKey(LogRecord.builder().setBody("b").build());
    assertEquals("logs", key);
    byte[] stored = e.spoolShardKey(key);
    assertEquals("logs", e.spoolShardKey(stored));
  }

  @Test
  void otlpKeySlotsAreStoredAndRebuilt() {
    KafkaExporter e =
        KafkaExporter.builder()
            .setTopic("logs")
            .setEncoding(KafkaEncoding.OTLP_JSON)
            .setKeyAttribute("user")
            .build();
    Object key =
        e.shardKey(
            LogRecord.builder().setBody("b").setAttribute("user", AnyValue.of("u-17")).build());
    Topics.KeySlot slot = (Topics.KeySlot) key;
    byte[] stored = e.spoolShardKey(key);
    Object back = e.spoolShardKey(stored);
    assertEquals(slot, back);
    assertEquals(slot.partition(7), ((Topics.KeySlot) back).partition(7));
    assertArrayEquals(stored, e.spoolShardKey(back));
  }

  @Test
  void rawBatchesAreStoredWithTheirRecordSizes() {
    KafkaExporter e =
        KafkaExporter.builder()
            .setTopic("logs")
            .setEncoding(KafkaEncoding.RAW)
            .setKeyAttribute("user")
            .build();
    Object key =
        e.shardKey(
            LogRecord.builder().setBody("b").setAttribute("user", AnyValue.of("u-17")).build());
    assertEquals("logs", key, "a raw batch's shard is its topic; Kafka partitions by record key");
    byte[] stored = e.spoolShardKey(key);
    assertArrayEquals("Rlogs".getBytes(StandardCharsets.UTF_8), stored, "tag R, UTF-8");
    assertEquals("logs", e.spoolShardKey(stored));
    assertTrue(e.exportNeedsRecordSizes(), "export cuts one message per record out of the body");
  }

  @Test
  void aBatchStoredWithOneEncodingIsNotSentWithTheOther() {
    KafkaExporter raw =
        KafkaExporter.builder().setTopic("logs").setEncoding(KafkaEncoding.RAW).build();
    KafkaExporter otlp =
        KafkaExporter.builder().setTopic("logs").setEncoding(KafkaEncoding.OTLP_PROTO).build();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> otlp.spoolShardKey(raw.spoolShardKey("logs")));
    assertEquals(
        "a batch stored with the Kafka raw encoding cannot be sent with encoding otlp_proto",
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> raw.spoolShardKey(otlp.spoolShardKey("logs")));
    assertEquals(
        "not a stored Kafka raw shard key (a batch stored with an OTLP encoding cannot be sent with"
            + " the raw encoding)",
        e.getMessage());
    assertNull(raw.spoolShardKey((Object) Integer.valueOf(3)));
  }

  @Test
  void otlpBatchesNeedNoRecordSizes() {
    for (KafkaEncoding encoding :
        new KafkaEncoding[] {KafkaEncoding.OTLP_PROTO, KafkaEncoding.OTLP_JSON}) {
      KafkaExporter e = KafkaExporter.builder().setTopic("logs").setEncoding(encoding).build();
      assertFalse(e.exportNeedsRecordSizes(), encoding + ": one message per batch");
    }
  }

  @Test
  void keysOfOtherTypesAreNotStored() {
    KafkaExporter e = KafkaExporter.builder().setTopic("logs").build();
    assertNull(e.spoolShardKey((Object) Integer.valueOf(3)));
  }

  @Test
  void foreignStoredKeysAreRefused() {
    KafkaExporter e = KafkaExporter.builder().setTopic("logs").build();
    assertThrows(
        IllegalArgumentException.class, () -> e.spoolShardKey(new byte[] {'I', 0, 0, 0, 1}));
  }
}
