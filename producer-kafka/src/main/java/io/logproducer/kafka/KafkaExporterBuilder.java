package io.logproducer.kafka;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.kafka.internal.SecretProperties;
import io.logproducer.kafka.internal.Topics;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds a {@link KafkaExporter}. Defaults: bootstrap servers {@value
 * KafkaExporter#DEFAULT_BOOTSTRAP_SERVERS}, topic {@value KafkaExporter#DEFAULT_TOPIC}, encoding
 * {@code otlp_proto}, compression none, no key attribute, resource {@code service.name=}{@value
 * KafkaExporter#DEFAULT_SERVICE_NAME} plus the {@linkplain #setResourceDetection detected}
 * attributes, scope {@value KafkaExporter#DEFAULT_SCOPE_NAME}, and the Kafka producer properties of
 * {@link KafkaExporter} (any of which {@link #setProperty} overrides). Not thread-safe; {@link
 * #build()} may be called more than once.
 */
public final class KafkaExporterBuilder {

  /** Most key slots per topic: {@value}. */
  public static final int MAX_KEY_SLOTS = 1024;

  private String bootstrapServers = KafkaExporter.DEFAULT_BOOTSTRAP_SERVERS;
  private String topic = KafkaExporter.DEFAULT_TOPIC;
  private KafkaEncoding encoding = KafkaEncoding.OTLP_PROTO;
  private Compression compression = Compression.NONE;
  private String keyAttribute;
  private int keySlots = KafkaExporter.DEFAULT_KEY_SLOTS;
  private final Map<String, AnyValue> resourceAttributes = new LinkedHashMap<>();
  private String scopeName = KafkaExporter.DEFAULT_SCOPE_NAME;
  private String scopeVersion;
  private boolean instrumentationScopeFromRecords;
  private boolean resourceDetection = true;
  private final Map<String, Object> properties = new LinkedHashMap<>();

  KafkaExporterBuilder() {
    resourceAttributes.put(
        KafkaExporter.SERVICE_NAME_KEY, AnyValue.of(KafkaExporter.DEFAULT_SERVICE_NAME));
  }

  /**
   * The Kafka {@code bootstrap.servers}: {@code host:port} pairs separated by commas.
   *
   * @param servers e.g. {@code "kafka-1:9092,kafka-2:9092"}
   * @return this builder
   * @throws IllegalArgumentException if null or blank
   */
  public KafkaExporterBuilder setBootstrapServers(String servers) {
    if (servers == null || servers.trim().isEmpty()) {
      throw new IllegalArgumentException("bootstrapServers must not be empty");
    }
    this.bootstrapServers = servers.trim();
    return this;
  }

  /**
   * The topic of records without a {@link io.logproducer.LogRecord#getDestination() destination}; a
   * record's destination, when set, is its topic (each topic is a shard of its own: a batch holds
   * records of one topic).
   *
   * @param topic a Kafka topic name: 1 to 249 of ASCII letters, digits, {@code .}, {@code _},
   *     {@code -}
   * @return this builder
   * @throws IllegalArgumentException if the name breaks Kafka's rules
   */
  public KafkaExporterBuilder setTopic(String topic) {
    this.topic = Topics.checkName(topic);
    return this;
  }

  /**
   * What a message holds; see {@link KafkaEncoding}.
   *
   * @param encoding not null
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  public KafkaExporterBuilder setEncoding(KafkaEncoding encoding) {
    if (encoding == null) {
      throw new IllegalArgumentException("encoding must not be null");
    }
    this.encoding = encoding;
    return this;
  }

  /**
   * The Kafka {@code compression.type} used when the producer's {@link
   * io.logproducer.ProducerConfig#getCompression() compression} is not set; default none (Kafka's
   * default). The Kafka client compresses its record batches itself (and consumers, the Collector's
   * receiver included, decode them), so the producer does not compress bodies for this exporter.
   *
   * @param compression not null
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  public KafkaExporterBuilder setCompression(Compression compression) {
    if (compression == null) {
      throw new IllegalArgumentException("compression must not be null");
    }
    this.compression = compression;
    return this;
  }

  /**
   * Keys messages by a record attribute, for consumers that need the records of one key in order in
   * one partition. {@code raw}: the attribute's value (a string as UTF-8, bytes as is, other kinds
   * as their text) is each message's key, and Kafka's partitioner puts equal keys in one partition
   * (records without it go to their batch's partition). {@code otlp_proto} / {@code otlp_json}:
   * records are batched by key slot, slot = ({@code String.hashCode()} of the key's text {@code &
   * 0x7fffffff}) mod {@link #setKeySlots(int) keySlots}, and every batch of a slot goes to
   * partition slot mod the topic's partition count; the messages have no key. Either way, a key's
   * records keep their order only with {@code sendThreads = 1} (several send threads ship batches
   * concurrently, as Kafka needs {@code max.in.flight.requests.per.connection = 1} without
   * idempotence). Default: none (each batch goes to the next partition, round-robin).
   *
   * @param attributeKey the attribute's key, or null for none
   * @return this builder
   * @throws IllegalArgumentException if empty
   */
  public KafkaExporterBuilder setKeyAttribute(String attributeKey) {
    if (attributeKey != null && attributeKey.isEmpty()) {
      throw new IllegalArgumentException("key attribute must not be empty (null for none)");
    }
    this.keyAttribute = attributeKey;
    return this;
  }

  /**
   * Key slots per topic for keyed OTLP batches (see {@link #setKeyAttribute(String)}), in [1,
   * {@value #MAX_KEY_SLOTS}]; default {@value KafkaExporter#DEFAULT_KEY_SLOTS}. Each slot is a
   * shard with its own open batch: more slots spread keys over more partitions (use at least the
   * partition count) but make smaller batches.
   *
   * @param slots the slot count
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public KafkaExporterBuilder setKeySlots(int slots) {
    if (slots < 1 || slots > MAX_KEY_SLOTS) {
      throw new IllegalArgumentException(
          "keySlots must be in [1, " + MAX_KEY_SLOTS + "], was " + slots);
    }
    this.keySlots = slots;
    return this;
  }

  /**
   * The {@code service.name} resource attribute of {@code otlp_*} messages; default {@value
   * KafkaExporter#DEFAULT_SERVICE_NAME}.
   *
   * @param name not empty
   * @return this builder
   * @throws IllegalArgumentException if null or empty
   */
  public KafkaExporterBuilder setServiceName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("service name must not be empty");
    }
    return setResourceAttribute(KafkaExporter.SERVICE_NAME_KEY, AnyValue.of(name));
  }

  /**
   * A {@code Resource} attribute of {@code otlp_*} messages (insertion order kept; a key set twice
   * keeps its first position and last value).
   *
   * @param key non-empty
   * @param value not null
   * @return this builder
   * @throws IllegalArgumentException if the key is null or empty, or the value null
   */
  public KafkaExporterBuilder setResourceAttribute(String key, String value) {
    if (value == null) {
      throw new IllegalArgumentException("resource attribute '" + key + "' value must not be null");
    }
    return setResourceAttribute(key, AnyValue.of(value));
  }

  /**
   * As {@link #setResourceAttribute(String, String)}, with any {@link AnyValue}.
   *
   * @param key non-empty
   * @param value not null
   * @return this builder
   * @throws IllegalArgumentException if the key is null or empty, or the value null
   */
  public KafkaExporterBuilder setResourceAttribute(String key, AnyValue value) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("resource attribute key must not be empty");
    }
    if (value == null) {
      throw new IllegalArgumentException("resource attribute '" + key + "' value must not be null");
    }
    resourceAttributes.put(key, value);
    return this;
  }

  /**
   * Whether {@code otlp_*} messages' {@code Resource} also holds the attributes detected from this
   * process and its environment; default true. Detected (each when known): {@code
   * telemetry.sdk.name} ({@code logproducer}), {@code telemetry.sdk.language} ({@code java}),
   * {@code telemetry.sdk.version}; {@code host.name}, {@code host.arch}; {@code os.type}, {@code
   * os.description}, {@code os.version}; {@code process.pid}, {@code process.executable.path},
   * {@code process.runtime.name}, {@code process.runtime.version}, {@code
   * process.runtime.description} (never the command line); {@code service.instance.id} (a random
   * UUID per JVM); {@code container.id} (from {@code /proc/self/cgroup}, else {@code
   * /proc/self/mountinfo}); {@code k8s.pod.name}, {@code k8s.pod.uid}, {@code k8s.namespace.name},
   * {@code k8s.node.name} (from {@code OTEL_RESOURCE_ATTRIBUTES_POD_NAME}, {@code
   * OTEL_RESOURCE_ATTRIBUTES_POD_UID}, {@code OTEL_RESOURCE_ATTRIBUTES_POD_NAMESPACE}, {@code
   * OTEL_RESOURCE_ATTRIBUTES_NODE_NAME}). They are computed once per JVM, at the first {@link
   * #build()} that needs them (the host name lookup waits at most 2 seconds), never per record; a
   * detector that fails is left out (a DEBUG line). The attributes set on this builder ({@link
   * #setServiceName}, {@link #setResourceAttribute}, and so the appenders' {@code
   * resourceAttributes} setting) win key by key. The {@code raw} encoding has no resource and is
   * not affected. See {@code docs/resource.md}.
   *
   * @param detection false to send only the attributes set here
   * @return this builder
   */
  public KafkaExporterBuilder setResourceDetection(boolean detection) {
    this.resourceDetection = detection;
    return this;
  }

  /**
   * The {@code InstrumentationScope} of {@code otlp_*} messages' records; default name {@value
   * KafkaExporter#DEFAULT_SCOPE_NAME}, no version.
   *
   * @param name non-empty
   * @param version may be null
   * @return this builder
   * @throws IllegalArgumentException if {@code name} is null or empty
   */
  public KafkaExporterBuilder setScope(String name, String version) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("scope name must not be empty");
    }
    this.scopeName = name;
    this.scopeVersion = version;
    return this;
  }

  /**
   * Whether each record's {@link io.logproducer.LogRecord#getInstrumentationScopeName() scope name}
   * (the logger name, from the logging appenders) becomes its {@code InstrumentationScope} in
   * {@code otlp_*} messages, each record then in a {@code ScopeLogs} of its own; as the OTLP/HTTP
   * exporter's option of the same name. Default false.
   *
   * @param fromRecords true to scope each record by its own scope name
   * @return this builder
   */
  public KafkaExporterBuilder setInstrumentationScopeFromRecords(boolean fromRecords) {
    this.instrumentationScopeFromRecords = fromRecords;
    return this;
  }

  /**
   * A Kafka producer property (see Kafka's producer configuration: security, SASL, TLS, {@code
   * acks}, {@code enable.idempotence}, {@code max.request.size}, {@code compression.type}, {@code
   * linger.ms}, …), passed to the client as given, over the exporter's defaults. {@code
   * bootstrap.servers} is the same as {@link #setBootstrapServers}; {@code compression.type} here
   * wins over the producer's compression (e.g. for {@code snappy}). The client validates the values
   * when the producer starts.
   *
   * <p>Secrets: the value of a property whose name looks secret is never printed by the exporter
   * (not in its {@code toString} or {@code describe}, the exceptions of {@link #build()}, {@link
   * KafkaExporter#start} and the Kafka client's refusals, the outcomes' messages and errors, or its
   * log lines): it prints as {@code ****}, and where a message of Kafka's quotes it, it is replaced
   * by {@code ****} (a value shorter than 4 characters is not searched for there). A name looks
   * secret when, in lower case, it contains {@code password}, {@code passwd}, {@code jaas}, {@code
   * secret}, {@code token}, {@code credential}, {@code private} or {@code user.info}, or its last
   * part (split at {@code .}, {@code _}, {@code -}) is {@code key} or {@code apikey}: {@code
   * sasl.jaas.config} (each option value inside it too, e.g. the {@code password="..."}), {@code
   * ssl.key.password}, {@code ssl.keystore.password}, {@code ssl.truststore.password}, {@code
   * ssl.keystore.key}, {@code sasl.oauthbearer.client.credentials.client.secret}, {@code
   * basic.auth.user.info}. Kafka's own configuration log line (at INFO, logger {@code
   * org.apache.kafka.clients.producer.ProducerConfig}) shows its {@code PASSWORD}-typed properties
   * as {@code [hidden]}.
   *
   * @param name the property name
   * @param value its value (a String, or the type Kafka documents); null removes a property set
   *     before
   * @return this builder
   * @throws IllegalArgumentException if the name is empty, names a serializer (the exporter sends
   *     bytes), or a numeric property this exporter sizes itself by ({@code max.request.size},
   *     {@code max.block.ms}, {@code delivery.timeout.ms}) is not a positive number
   */
  public KafkaExporterBuilder setProperty(String name, Object value) {
    if (name == null || name.trim().isEmpty()) {
      throw new IllegalArgumentException("Kafka property name must not be empty");
    }
    if (name.equals("key.serializer") || name.equals("value.serializer")) {
      throw new IllegalArgumentException(name + " cannot be set: the exporter sends byte arrays");
    }
    if (name.equals("bootstrap.servers")) {
      return setBootstrapServers(value == null ? null : value.toString());
    }
    if (value == null) {
      properties.remove(name);
      return this;
    }
    if (KafkaExporter.SIZING_PROPERTIES.contains(name)) {
      positive(name, value);
    }
    properties.put(name, value);
    return this;
  }

  /**
   * {@link #setProperty} for each entry, in the map's order (secret-looking values are never
   * printed, as there).
   *
   * @param properties Kafka producer properties
   * @return this builder
   * @throws IllegalArgumentException as {@link #setProperty}
   */
  public KafkaExporterBuilder setProperties(Map<String, ?> properties) {
    for (Map.Entry<String, ?> e : properties.entrySet()) {
      setProperty(e.getKey(), e.getValue());
    }
    return this;
  }

  static long positive(String name, Object value) {
    long v;
    try {
      v =
          value instanceof Number
              ? ((Number) value).longValue()
              : Long.parseLong(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Kafka property "
              + name
              + " must be a number, was "
              + SecretProperties.printable(name, value));
    }
    if (v <= 0) {
      throw new IllegalArgumentException(
          "Kafka property "
              + name
              + " must be positive, was "
              + SecretProperties.printable(name, value));
    }
    return v;
  }

  /**
   * {@return a new exporter} It creates no connection or thread until the producer starts it,
   * except at the JVM's first {@code otlp_*} exporter with {@linkplain #setResourceDetection
   * resource detection}: that reads the detected attributes (a short-lived daemon thread looks up
   * the host name, waited for at most 2 seconds).
   *
   * @throws IllegalArgumentException if {@code max.request.size} leaves no room for records after
   *     the framing
   */
  public KafkaExporter build() {
    return new KafkaExporter(this);
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  String topic() {
    return topic;
  }

  KafkaEncoding encoding() {
    return encoding;
  }

  Compression compression() {
    return compression;
  }

  String keyAttribute() {
    return keyAttribute;
  }

  int keySlots() {
    return keySlots;
  }

  Map<String, AnyValue> resourceAttributes() {
    return new LinkedHashMap<>(resourceAttributes);
  }

  boolean resourceDetection() {
    return resourceDetection;
  }

  String scopeName() {
    return scopeName;
  }

  String scopeVersion() {
    return scopeVersion;
  }

  boolean instrumentationScopeFromRecords() {
    return instrumentationScopeFromRecords;
  }

  Map<String, Object> properties() {
    return new LinkedHashMap<>(properties);
  }
}
