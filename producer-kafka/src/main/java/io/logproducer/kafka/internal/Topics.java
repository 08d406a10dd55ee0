package io.logproducer.kafka.internal;

import io.logproducer.AnyValue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Topic routing: validates topic names (Kafka's rule: 1 to 249 of {@code [a-zA-Z0-9._-]}, not
 * {@code .} or {@code ..}; {@code org.apache.kafka.common.internals.Topic}), gives each topic its
 * shard keys, and picks the partition of each batch message. Thread-safe.
 *
 * <p>Shard keys: without a key attribute, the topic name itself (one shard per topic). With one, a
 * {@link KeySlot} per (topic, slot), slot = ({@code String.hashCode()} of the key's text {@code &
 * 0x7fffffff}) mod {@code keySlots}: records with the same key share a slot, and a slot's batches
 * all go to partition {@code slot mod partitions}.
 */
public final class Topics {

  /** Kafka's longest topic name. */
  static final int MAX_NAME_LENGTH = 249;

  /** Valid names remembered (beyond it, names are validated on every send). */
  private static final int MAX_CACHED = 10_000;

  private final ConcurrentMap<String, String> valid = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, KeySlot[]> slots = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, AtomicInteger> nextPartition = new ConcurrentHashMap<>();
  private final int keySlots;

  /**
   * @param keySlots slots per topic for keyed batches, at least 1
   */
  public Topics(int keySlots) {
    this.keySlots = keySlots;
  }

  /**
   * Checks a topic name against Kafka's rules.
   *
   * @param topic the name
   * @return {@code topic}
   * @throws IllegalArgumentException naming the rule it breaks
   */
  public static String checkName(String topic) {
    if (topic == null || topic.isEmpty()) {
      throw new IllegalArgumentException("Kafka topic must not be empty");
    }
    if (topic.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(
          "Kafka topic is longer than " + MAX_NAME_LENGTH + " characters: " + topic);
    }
    if (topic.equals(".") || topic.equals("..")) {
      throw new IllegalArgumentException("Kafka topic cannot be '.' or '..'");
    }
    for (int i = 0; i < topic.length(); i++) {
      char c = topic.charAt(i);
      if (!(c >= 'a' && c <= 'z'
          || c >= 'A' && c <= 'Z'
          || c >= '0' && c <= '9'
          || c == '.'
          || c == '_'
          || c == '-')) {
        throw new IllegalArgumentException(
            "Kafka topic '"
                + topic
                + "' has an illegal character at index "
                + i
                + "; legal are ASCII letters, digits, '.', '_' and '-'");
      }
    }
    return topic;
  }

  /** {@code topic}, validated (remembered once valid). */
  public String topic(String topic) {
    String known = valid.get(topic);
    if (known != null) {
      return known;
    }
    checkName(topic);
    if (valid.size() < MAX_CACHED) {
      valid.putIfAbsent(topic, topic);
    }
    return topic;
  }

  /**
   * The shard of a record with key {@code key} (null: slot 0) in {@code topic} (already validated).
   */
  public KeySlot slot(String topic, AnyValue key) {
    KeySlot[] s = slots.get(topic);
    if (s == null) {
      KeySlot[] fresh = new KeySlot[keySlots];
      for (int i = 0; i < keySlots; i++) {
        fresh[i] = new KeySlot(topic, i);
      }
      s = slots.size() < MAX_CACHED ? putIfAbsent(topic, fresh) : fresh;
    }
    return s[key == null ? 0 : (keyText(key).hashCode() & 0x7fffffff) % keySlots];
  }

  private KeySlot[] putIfAbsent(String topic, KeySlot[] fresh) {
    KeySlot[] prior = slots.putIfAbsent(topic, fresh);
    return prior != null ? prior : fresh;
  }

  /** The text of a key value: a string as is, other kinds as {@link AnyValue#toString()}. */
  static String keyText(AnyValue key) {
    return key.getType() == AnyValue.Type.STRING ? key.asString() : key.toString();
  }

  /**
   * The partition of the next unkeyed batch message to {@code topic}: round-robin over its
   * partitions.
   *
   * @param topic the topic
   * @param partitions its partition count, at least 1
   * @return a partition in [0, partitions)
   */
  public int nextPartition(String topic, int partitions) {
    AtomicInteger next = nextPartition.get(topic);
    if (next == null) {
      AtomicInteger fresh = new AtomicInteger();
      next = nextPartition.putIfAbsent(topic, fresh);
      if (next == null) {
        next = fresh;
      }
    }
    return Math.floorMod(next.getAndIncrement(), partitions);
  }

  /** A shard of keyed records: one topic and one key slot. Immutable. */
  public static final class KeySlot {
    private final String topic;
    private final int slot;

    KeySlot(String topic, int slot) {
      this.topic = topic;
      this.slot = slot;
    }

    /**
     * {@return the slot {@code slot} of {@code topic}, rebuilt from a disk spool}
     *
     * @throws IllegalArgumentException if the topic is null or the slot negative
     */
    public static KeySlot of(String topic, int slot) {
      if (topic == null || slot < 0) {
        throw new IllegalArgumentException("not a Kafka key slot: " + topic + " #" + slot);
      }
      return new KeySlot(topic, slot);
    }

    /** {@return the topic} */
    public String topic() {
      return topic;
    }

    /** {@return the slot number, from 0} */
    public int slot() {
      return slot;
    }

    /** {@return the partition of this slot's batches among {@code partitions}} */
    public int partition(int partitions) {
      return slot % partitions;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof KeySlot
          && ((KeySlot) o).slot == slot
          && ((KeySlot) o).topic.equals(topic);
    }

    @Override
    public int hashCode() {
      return topic.hashCode() * 31 + slot;
    }

    @Override
    public String toString() {
      return topic + "#slot" + slot;
    }
  }
}
