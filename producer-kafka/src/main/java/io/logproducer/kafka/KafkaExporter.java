package io.logproducer.kafka;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.kafka.internal.KafkaTransport;
import io.logproducer.kafka.internal.RawRecordEncoder;
import io.logproducer.kafka.internal.Topics;
import io.logproducer.otlp.encoding.internal.JsonWireFormat;
import io.logproducer.otlp.encoding.internal.ProtobufWireFormat;
import io.logproducer.otlp.encoding.internal.WireFormat;
import io.logproducer.otlp.encoding.internal.resource.ResourceDetector;
import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Ships the producer's sealed batches to Apache Kafka with the official client ({@code
 * kafka-clients} 3.9 or 4.x), in the encodings the OpenTelemetry Collector's Kafka receiver reads
 * ({@link KafkaEncoding}): by default one message per batch holding one {@code
 * ExportLogsServiceRequest} ({@code otlp_proto}), to topic {@value #DEFAULT_TOPIC}.
 *
 * <pre>{@code
 * Producer producer = new Producer(ProducerConfig.builder().setCompression(Compression.ZSTD).build(),
 *     KafkaExporter.builder().setBootstrapServers("kafka-1:9092").setServiceName("checkout").build());
 * }</pre>
 *
 * <p><b>Routing.</b> A record's {@link LogRecord#getDestination() destination}, when set, is its
 * topic (validated at {@code send}: an illegal name is an {@link IllegalArgumentException} there);
 * each topic is a shard, so a batch holds one topic's records. Each batch message goes to the
 * topic's next partition, round-robin (sticky per batch); with a {@linkplain
 * KafkaExporterBuilder#setKeyAttribute(String) key attribute}, by key instead.
 *
 * <p><b>Size.</b> A message never exceeds the client's {@code max.request.size} (default {@value
 * #DEFAULT_MAX_REQUEST_SIZE_IN_BYTES} bytes): the {@linkplain #capabilities() declared} largest
 * batch is that less the request framing and Kafka's per-message overhead ({@value
 * #KAFKA_MESSAGE_OVERHEAD_BYTES} bytes), the producer seals batches below it (a larger {@code
 * batchSizeInBytes} is lowered to it), and a batch the broker still finds too large ({@code
 * message.max.bytes}) is split in halves; only a single record too large fails.
 *
 * <p><b>Resource.</b> {@code otlp_*} messages carry {@code service.name} and the attributes set on
 * the builder, over the attributes detected from the process (host, OS, process, runtime, {@code
 * service.instance.id}, container, Kubernetes; computed once per JVM, at {@link
 * KafkaExporterBuilder#build()}); {@link KafkaExporterBuilder#setResourceDetection(boolean)} turns
 * detection off.
 *
 * <p><b>Compression</b> is Kafka's: the producer's {@link ProducerConfig#getCompression()
 * compression} (or this exporter's {@linkplain KafkaExporterBuilder#setCompression default})
 * becomes the client's {@code compression.type} and {@link ProducerConfig#getCompressionLevel()
 * compressionLevel} its {@code compression.<type>.level}; bodies are not compressed twice (it
 * {@linkplain ExporterCapabilities#compressesItself() compresses itself}).
 *
 * <p><b>Outcomes.</b> A batch's records are delivered when Kafka acknowledges its message(s) (with
 * the defaults: {@code acks=all}, idempotent). The client retries retriable errors itself within
 * its {@code delivery.timeout.ms} (idempotently: no duplicates from those); when it gives up, the
 * producer's retry policy retries the batch as a new message until {@code deliveryTimeoutMillis}
 * (at-least-once: such a retry may duplicate a message whose acknowledgement was lost). Final
 * failures fail the records through their callbacks with Kafka's message: authorization and
 * authentication errors, an invalid topic, a topic the cluster does not have once the metadata wait
 * ({@code max.block.ms}) ran out, a record too large. Only the producer's send threads call the
 * client: the application's {@code send} never waits for Kafka metadata or the client's buffer.
 * {@code flush} returns when every message is acknowledged (the client's buffer is then empty);
 * {@code close} closes the client.
 *
 * <p><b>Kafka producer properties</b> set by the exporter (any can be overridden with {@link
 * KafkaExporterBuilder#setProperty}): {@code acks=all}, {@code enable.idempotence=true}, {@code
 * linger.ms=0} (the producer already batched), {@code batch.size=262144}, {@code
 * max.block.ms=}{@value #DEFAULT_MAX_BLOCK_MILLIS}, {@code request.timeout.ms=}{@value
 * #DEFAULT_KAFKA_REQUEST_TIMEOUT_MILLIS}, {@code delivery.timeout.ms=}{@value
 * #DEFAULT_KAFKA_DELIVERY_TIMEOUT_MILLIS}, {@code client.id=} the producer's {@code clientId} (the
 * client's thread is {@code kafka-producer-network-thread | <clientId>}). One {@link #export} waits
 * at most {@code max.block.ms + delivery.timeout.ms} (its {@linkplain
 * ExporterCapabilities#requestTimeoutMillis() request timeout}); the producer requires {@code
 * deliveryTimeoutMillis} to exceed that plus {@code lingerMillis}.
 *
 * <p><b>Bootstrap not resolvable yet.</b> Kafka's client refuses to be built when no {@code
 * bootstrap.servers} host resolves (a pod started before its Kafka service name is in DNS). The
 * exporter then starts anyway (after checking that the rest of the configuration is accepted: any
 * other refusal still throws from {@link #start}); the producer keeps the records within {@code
 * totalSizeInBytes}; each export meanwhile fails retryably with "Kafka client not built yet:
 * &lt;cause&gt;" (logged at a bounded rate by the producer; a record still waiting at its {@code
 * deliveryTimeoutMillis} fails with it); and a send thread builds the client once a bootstrap host
 * resolves, trying at most every 100 ms, backing off to every 5 s. The records then ship in the
 * usual way. The JVM caches a failed lookup for {@code networkaddress.cache.negative.ttl} seconds
 * (10 by default), which adds to the wait.
 *
 * <p>Thread-safe. A {@link io.logproducer.Producer} owns its exporter and calls it as {@link
 * Exporter} describes.
 */
public final class KafkaExporter implements Exporter {

  /** Default bootstrap servers: {@value} (as the OpenTelemetry Collector's Kafka exporter). */
  public static final String DEFAULT_BOOTSTRAP_SERVERS = "localhost:9092";

  /** Default topic: {@value} (the OpenTelemetry Collector's default topic for logs). */
  public static final String DEFAULT_TOPIC = "otlp_logs";

  /** Kafka's default {@code max.request.size}: {@value} bytes. */
  public static final int DEFAULT_MAX_REQUEST_SIZE_IN_BYTES = 1_000_000;

  /**
   * Default {@code max.block.ms}, how long a send thread waits for metadata or buffer space:
   * {@value} ms.
   */
  public static final long DEFAULT_MAX_BLOCK_MILLIS = 10_000L;

  /** Default {@code request.timeout.ms}: {@value} ms. */
  public static final long DEFAULT_KAFKA_REQUEST_TIMEOUT_MILLIS = 10_000L;

  /**
   * Default {@code delivery.timeout.ms}, the client's own retry window per message: {@value} ms.
   */
  public static final long DEFAULT_KAFKA_DELIVERY_TIMEOUT_MILLIS = 30_000L;

  /** Default key slots per topic for keyed OTLP batches: {@value}. */
  public static final int DEFAULT_KEY_SLOTS = 16;

  /**
   * Bytes Kafka adds to a message's key and value when it checks {@code max.request.size}: {@value}
   * (a v2 record batch header, 61, plus the largest record overhead, 21; {@code
   * DefaultRecordBatch.estimateBatchSizeUpperBound}).
   */
  public static final int KAFKA_MESSAGE_OVERHEAD_BYTES = 82;

  /** Default {@code InstrumentationScope} name: {@value}. */
  public static final String DEFAULT_SCOPE_NAME = "io.logproducer";

  /** Default {@code service.name}: {@value}. */
  public static final String DEFAULT_SERVICE_NAME = "unknown_service:java";

  static final String SERVICE_NAME_KEY = "service.name";
  static final Set<String> SIZING_PROPERTIES =
      Collections.unmodifiableSet(
          new HashSet<>(Arrays.asList("max.request.size", "max.block.ms", "delivery.timeout.ms")));

  private final String bootstrapServers;
  private final String topic;

  /** The tag byte of a stored key slot ({@link #spoolShardKey(Object)}). */
  private static final byte KEY_SLOT_TAG = 'K';

  /** The tag byte of a stored topic of the raw encoding ({@link #spoolShardKey(Object)}). */
  private static final byte RAW_TOPIC_TAG = 'R';

  private final KafkaEncoding encoding;
  private final Compression compression;
  private final String keyAttribute;
  private final Map<String, Object> userProperties;
  private final WireFormat format; // null for raw
  private final Map<String, AnyValue> resource; // empty for raw
  private final RecordEncoder encoder;
  private final int maxRequestSizeInBytes;
  private final ExporterCapabilities capabilities;
  private final Topics topics;
  private volatile KafkaTransport transport;

  KafkaExporter(KafkaExporterBuilder b) {
    this.bootstrapServers = b.bootstrapServers();
    this.topic = b.topic();
    this.encoding = b.encoding();
    this.compression = b.compression();
    this.keyAttribute = b.keyAttribute();
    this.userProperties = b.properties();
    this.topics = new Topics(b.keySlots());
    switch (encoding) {
      case OTLP_JSON:
        resource = ResourceDetector.resource(b.resourceDetection(), b.resourceAttributes());
        format =
            new JsonWireFormat(
                resource, b.scopeName(), b.scopeVersion(), b.instrumentationScopeFromRecords());
        encoder = format.encoder();
        break;
      case RAW:
        resource = Collections.emptyMap();
        format = null;
        encoder = new RawRecordEncoder(keyAttribute);
        break;
      default:
        resource = ResourceDetector.resource(b.resourceDetection(), b.resourceAttributes());
        format =
            new ProtobufWireFormat(
                resource, b.scopeName(), b.scopeVersion(), b.instrumentationScopeFromRecords());
        encoder = format.encoder();
    }
    this.maxRequestSizeInBytes =
        (int)
            Math.min(
                Integer.MAX_VALUE, sizing("max.request.size", DEFAULT_MAX_REQUEST_SIZE_IN_BYTES));
    int room = maxRequestSizeInBytes - KAFKA_MESSAGE_OVERHEAD_BYTES;
    int maxBatchSizeInBytes = format == null ? room : format.maxBatchSizeInBytes(room);
    if (maxBatchSizeInBytes < 1) {
      throw new IllegalArgumentException(
          "max.request.size ("
              + maxRequestSizeInBytes
              + ") leaves no room for records after the message framing");
    }
    long requestTimeoutMillis =
        sizing("max.block.ms", DEFAULT_MAX_BLOCK_MILLIS)
            + sizing("delivery.timeout.ms", DEFAULT_KAFKA_DELIVERY_TIMEOUT_MILLIS);
    // The Kafka client compresses its record batches (none, gzip, lz4 or zstd): bodies reach export
    // uncompressed.
    this.capabilities =
        ExporterCapabilities.builder(maxBatchSizeInBytes)
            .setDefaultCompression(compression)
            .setCompressesItself(true)
            .setRequestTimeoutMillis(requestTimeoutMillis)
            .build();
  }

  private long sizing(String name, long defaultValue) {
    Object v = userProperties.get(name);
    return v == null ? defaultValue : KafkaExporterBuilder.positive(name, v);
  }

  /** {@return a builder with the defaults} */
  public static KafkaExporterBuilder builder() {
    return new KafkaExporterBuilder();
  }

  /**
   * Creates the Kafka client (it connects on the first send) with the exporter's defaults, the
   * producer's compression and {@code clientId}, and the properties given to the builder. When no
   * {@code bootstrap.servers} host resolves yet (the only refusal of Kafka's that may pass), the
   * exporter starts without its client, logs why at WARN, and builds it later (see the class
   * comment, <b>Bootstrap not resolvable yet</b>).
   *
   * @throws IllegalArgumentException if the Kafka client refuses the properties for any other
   *     reason (its message included): an unknown value, a class that does not exist, a SASL or TLS
   *     configuration it refuses, a malformed {@code host:port}
   */
  @Override
  public void start(ProducerConfig config) {
    Map<String, Object> p = kafkaProperties(config);
    KafkaTransport t = new KafkaTransport(p, capabilities.requestTimeoutMillis() + 1_000L);
    t.start();
    transport = t;
  }

  /**
   * The Kafka producer properties for {@code config}: the exporter's defaults, then the builder's
   * properties.
   */
  Map<String, Object> kafkaProperties(ProducerConfig config) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("bootstrap.servers", bootstrapServers);
    p.put("client.id", config.getClientId());
    p.put("acks", "all");
    p.put("enable.idempotence", "true");
    p.put("linger.ms", "0");
    p.put("batch.size", "262144");
    p.put("max.block.ms", Long.toString(DEFAULT_MAX_BLOCK_MILLIS));
    p.put("request.timeout.ms", Long.toString(DEFAULT_KAFKA_REQUEST_TIMEOUT_MILLIS));
    p.put("delivery.timeout.ms", Long.toString(DEFAULT_KAFKA_DELIVERY_TIMEOUT_MILLIS));
    Compression c = config.getCompression() != null ? config.getCompression() : compression;
    String type = c.name().toLowerCase(Locale.ROOT);
    p.put("compression.type", type);
    if (config.getCompressionLevel() != 0) {
      p.put("compression." + type + ".level", Integer.toString(config.getCompressionLevel()));
    }
    p.putAll(userProperties);
    return p;
  }

  /**
   * {@return the builder's compression as the default, applied by the Kafka client (it compresses
   * itself: every compression supported, bodies reach {@link #export} uncompressed); {@code
   * max.request.size} less Kafka's message overhead and, for OTLP, the request framing as the
   * largest batch; {@code max.block.ms + delivery.timeout.ms}, the longest one export waits for
   * Kafka, as the request timeout}
   */
  @Override
  public ExporterCapabilities capabilities() {
    return capabilities;
  }

  @Override
  public RecordEncoder encoder() {
    return encoder;
  }

  /**
   * The record's topic (its destination, else the default topic; validated); with a key attribute
   * and an OTLP encoding, the topic's key slot.
   *
   * @throws IllegalArgumentException if the destination is not a legal Kafka topic name
   */
  @Override
  public Object shardKey(LogRecord record) {
    String dest = record.getDestination();
    String t = dest == null ? topic : topics.topic(dest);
    if (keyAttribute == null || format == null) {
      return t;
    }
    return topics.slot(t, record.getAttribute(keyAttribute));
  }

  /** OTLP: the {@code ExportLogsServiceRequest}; raw: the encoded records back to back. */
  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    if (format != null) {
      format.writeRequest(batch, out);
    } else {
      batch.writeTo(out);
    }
  }

  /** Sends the batch's message(s) and waits for Kafka's acknowledgement; never throws. */
  @Override
  public ExportResult export(Batch batch, byte[] body, int length, Compression bodyCompression) {
    KafkaTransport t = transport;
    Object shard = batch.shardKey();
    String target =
        shard instanceof Topics.KeySlot ? ((Topics.KeySlot) shard).topic() : (String) shard;
    ExportResult notReady = t.notReady();
    if (notReady != null) {
      return notReady;
    }
    try {
      int partitions;
      try {
        partitions = t.partitionCount(target);
      } catch (RuntimeException e) {
        return t.failure(e, target);
      }
      int partition =
          shard instanceof Topics.KeySlot
              ? ((Topics.KeySlot) shard).partition(partitions)
              : topics.nextPartition(target, partitions);
      List<ProducerRecord<byte[], byte[]>> messages;
      if (format != null) {
        byte[] value = body.length == length ? body : Arrays.copyOf(body, length);
        messages = Collections.singletonList(new ProducerRecord<>(target, partition, null, value));
      } else {
        messages = new ArrayList<>(batch.recordCount());
        int offset = 0;
        for (int i = 0; i < batch.recordCount(); i++) {
          int size = batch.recordSize(i);
          byte[][] kv = RawRecordEncoder.split(body, offset, size);
          offset += size;
          // Keyed records: Kafka's partitioner hashes the key; the others stay in the batch's
          // partition.
          messages.add(
              new ProducerRecord<>(target, kv[0] != null ? null : partition, kv[0], kv[1]));
        }
      }
      return t.send(messages, target);
    } catch (RuntimeException e) {
      return ExportResult.failed(
          "sending to Kafka topic " + target + " failed unexpectedly: " + e, e);
    }
  }

  /**
   * The stored form of a shard key for the disk spool. Every encoding is stored. With an OTLP
   * encoding a batch is one message whose value is the stored body: a topic is stored in the
   * default form, a key slot (with a key attribute) as the tag {@code 'K'}, the slot (big-endian
   * int32) and the topic (UTF-8). With the {@code raw} encoding the stored body is the records'
   * encodings back to back, uncompressed (the Kafka client compresses), and {@link #export} cuts
   * one message per record out of it by the record sizes stored beside it ({@link
   * #exportNeedsRecordSizes()}); a keyed raw record's partition is again chosen by Kafka's
   * partitioner from its key. A raw batch's topic is stored as the tag {@code 'R'} and the topic
   * (UTF-8), so that an exporter with another encoding does not send the body as its own (see
   * {@link #spoolShardKey(byte[])}). Null for any other key.
   */
  @Override
  public byte[] spoolShardKey(Object shardKey) {
    if (format == null) {
      if (!(shardKey instanceof String)) {
        return null;
      }
      byte[] t = ((String) shardKey).getBytes(StandardCharsets.UTF_8);
      return ByteBuffer.allocate(1 + t.length).put(RAW_TOPIC_TAG).put(t).array();
    }
    if (shardKey instanceof Topics.KeySlot) {
      Topics.KeySlot k = (Topics.KeySlot) shardKey;
      byte[] t = k.topic().getBytes(StandardCharsets.UTF_8);
      return ByteBuffer.allocate(5 + t.length).put(KEY_SLOT_TAG).putInt(k.slot()).put(t).array();
    }
    return shardKey instanceof String ? Exporter.super.spoolShardKey(shardKey) : null;
  }

  /**
   * {@return true for the {@code raw} encoding, whose {@link #export} sends one message per record,
   * cut out of the body by each record's size; false for the OTLP encodings (one message per
   * batch)}
   */
  @Override
  public boolean exportNeedsRecordSizes() {
    return format == null;
  }

  /**
   * The shard key {@link #spoolShardKey(Object)} stored.
   *
   * @throws IllegalArgumentException if the bytes are not a stored Kafka shard key, or were stored
   *     with the {@code raw} encoding and this exporter has an OTLP one, or the other way round
   *     (the replay then drops the batch and counts it in {@code spoolBatchesCorrupt}, with a WARN
   *     log holding this message, rather than send a body its topic's readers would not understand)
   */
  @Override
  public Object spoolShardKey(byte[] stored) {
    boolean raw = stored != null && stored.length >= 1 && stored[0] == RAW_TOPIC_TAG;
    if (raw != (format == null)) {
      throw new IllegalArgumentException(
          raw
              ? "a batch stored with the Kafka raw encoding cannot be sent with encoding "
                  + encoding.configName()
              : "not a stored Kafka raw shard key (a batch stored with an OTLP encoding cannot be"
                  + " sent with the raw encoding)");
    }
    if (raw) {
      return new String(stored, 1, stored.length - 1, StandardCharsets.UTF_8);
    }
    if (stored != null && stored.length >= 5 && stored[0] == KEY_SLOT_TAG) {
      ByteBuffer b = ByteBuffer.wrap(stored, 1, stored.length - 1);
      int slot = b.getInt();
      return Topics.KeySlot.of(
          new String(stored, 5, stored.length - 5, StandardCharsets.UTF_8), slot);
    }
    Object key = Exporter.super.spoolShardKey(stored);
    if (!(key instanceof String)) {
      throw new IllegalArgumentException("not a stored Kafka shard key: " + key);
    }
    return key;
  }

  /** {@code kafka://<bootstrap servers>/<topic> (<encoding>)}. */
  @Override
  public String describe() {
    return "kafka://" + bootstrapServers + "/" + topic + " (" + encoding.configName() + ")";
  }

  /** {@return {@code "kafka"}} */
  @Override
  public String name() {
    return "kafka";
  }

  /** Closes the Kafka client without waiting (every batch has its outcome by then). Idempotent. */
  @Override
  public void close() {
    KafkaTransport t = transport;
    if (t != null) {
      t.close();
    }
  }

  @Override
  public String toString() {
    return "KafkaExporter{bootstrapServers="
        + bootstrapServers
        + ", topic="
        + topic
        + ", encoding="
        + encoding.configName()
        + ", compression="
        + compression
        + (keyAttribute != null ? ", keyAttribute=" + keyAttribute : "")
        + ", maxRequestSizeInBytes="
        + maxRequestSizeInBytes
        + ", properties="
        + userProperties.keySet()
        + "}";
  }

  // For tests.

  Map<String, AnyValue> resource() {
    return resource;
  }

  KafkaEncoding encoding() {
    return encoding;
  }

  String topic() {
    return topic;
  }
}
