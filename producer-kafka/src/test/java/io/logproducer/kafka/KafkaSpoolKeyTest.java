package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.kafka.internal.Topics;
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
  void rawBatchesAreNotStoredBecauseExportCutsThemPerRecord() {
    KafkaExporter e =
        KafkaExporter.builder().setTopic("logs").setEncoding(KafkaEncoding.RAW).build();
    assertNull(e.spoolShardKey(e.shardKey(LogRecord.builder().setBody("b").build())));
  }

  @Test
  void foreignStoredKeysAreRefused() {
    KafkaExporter e = KafkaExporter.builder().setTopic("logs").build();
    assertThrows(
        IllegalArgumentException.class, () -> e.spoolShardKey(new byte[] {'I', 0, 0, 0, 1}));
  }
}
