package io.logproducer.log4j2;

import io.logproducer.Producer;
import io.logproducer.appender.AppenderProducer;
import io.logproducer.appender.EventMapper;
import io.logproducer.appender.ExitHook;
import io.logproducer.appender.GseSettings;
import io.logproducer.appender.KafkaSettings;
import io.logproducer.appender.MappingSettings;
import io.logproducer.appender.OtlpSettings;
import io.logproducer.appender.ProducerSettings;
import java.io.Serializable;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Node;
import org.apache.logging.log4j.core.config.Property;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderAttribute;
import org.apache.logging.log4j.core.config.plugins.PluginBuilderFactory;
import org.apache.logging.log4j.core.config.plugins.PluginElement;
import org.apache.logging.log4j.core.impl.Log4jContextFactory;
import org.apache.logging.log4j.spi.LoggerContextFactory;

/**
 * A log4j2 appender that ships every event as an OpenTelemetry log record through a logproducer
 * {@link Producer}: over OTLP/HTTP ({@code <Otlp>}, or the {@code OTEL_EXPORTER_OTLP_*} environment
 * when no exporter element is given), to a BlueKing GSE agent ({@code <Gse>}) or to Apache Kafka
 * ({@code <Kafka>}).
 *
 * <pre>{@code
 * <Logproducer name="otlp" stopTimeoutMillis="10000">
 *   <Otlp endpoint="http://127.0.0.1:4318" serviceName="checkout"/>
 *   <ProducerSettings totalSizeInBytes="33554432" lingerMillis="200"/>
 *   <Mapping mdcExclude="password" captureCode="false"/>
 * </Logproducer>
 * }</pre>
 *
 * <p>By default ({@code queueSize="2048"}) the logging thread only takes a small copy of the event
 * (formatted message, level, time, names, thread, ThreadContext) and queues it; the appender's
 * worker thread {@code <clientId>-handoff} maps and encodes it. A full queue is not a drop: the
 * event is then mapped and sent on the logging thread, as are large events (a message over 2,048
 * characters, an exception, more than 32 ThreadContext entries or {@code MapMessage} pairs); {@code
 * queueSize="0"} maps every event there.
 *
 * <p>A {@code <Spool directory="…"/>} element ({@link SpoolElement}) gives the producer a disk
 * spool: events not delivered within {@code deliveryTimeoutMillis} or by the stop are SPOOLED
 * ({@link #spooledCount()}) and the next producer on the directory delivers them.
 *
 * <p>It never hurts the application: the logging thread never waits (the appender default {@code
 * bufferFullPolicy=DROP}; {@code BLOCK} waits at most {@code maxBlockMillis}), nothing is thrown
 * into the logging call, dropped events are counted and reported on log4j2's status channel at most
 * once per {@code reportIntervalMillis}; events of the producer's own threads (where httpclient5
 * logs), of the {@code io.logproducer} loggers and nested events on a thread already inside the
 * appender never reach the producer; stopping the appender (or its LoggerContext) ships what is
 * buffered and ends the producer's threads within {@code stopTimeoutMillis}.
 */
@Plugin(
    name = "Logproducer",
    category = Node.CATEGORY,
    elementType = Appender.ELEMENT_TYPE,
    printObject = true)
public final class LogproducerAppender extends AbstractAppender {

  /** Default {@code stopTimeoutMillis}: {@value}. */
  public static final long DEFAULT_STOP_TIMEOUT_MILLIS = 10_000;

  /** Default {@code reportIntervalMillis}: {@value}. */
  public static final long DEFAULT_REPORT_INTERVAL_MILLIS = 10_000;

  /**
   * How long a {@link #create}d appender's stop lets its queue drain into the shared producer
   * (which its owner flushes and closes): 10 s.
   */
  private static final long SHARED_STOP_TIMEOUT_MILLIS = 10_000;

  /** Default {@code queueSize}: {@value} events. */
  public static final int DEFAULT_QUEUE_SIZE = 2048;

  /** Largest {@code queueSize}: {@value} events. */
  public static final int MAX_QUEUE_SIZE = 1 << 20;

  /** The external context Spring Boot's Log4J2LoggingSystem gives the LoggerContext it manages. */
  static final String SPRING_BOOT_MARKER = "org.springframework.boot.logging.LoggingSystem";

  private final ProducerSettings producerSettings;
  private final OtlpSettings otlp;
  private final GseSettings gse;
  private final KafkaSettings kafka;
  private final MappingSettings mapping;
  private final EventMapper<LogEvent> mapper;
  private final Log4j2EventAdapter adapter;
  private final AppenderProducer producer;
  private final int queueSize;
  private volatile HandOffPath handOff; // null: mapped and sent on the logging thread
  private final Configuration configuration; // null when built outside a configuration
  private Boolean exitHookWanted; // the producer settings' shutdownHookEnabled, read at first start
  private volatile ExitHook exitHook;
  private volatile Producer sharedProducer; // useProducer: built and closed by its owner

  private LogproducerAppender(
      String name,
      Filter filter,
      Layout<? extends Serializable> layout,
      boolean ignoreExceptions,
      Property[] properties,
      ProducerSettings producerSettings,
      OtlpSettings otlp,
      GseSettings gse,
      KafkaSettings kafka,
      MappingSettings mapping,
      long stopTimeoutMillis,
      long reportIntervalMillis,
      int queueSize,
      Configuration configuration) {
    super(name, filter, layout, ignoreExceptions, properties);
    this.queueSize = queueSize;
    this.configuration = configuration;
    this.producerSettings = producerSettings;
    this.otlp = otlp;
    this.gse = gse;
    this.kafka = kafka;
    this.mapping = mapping;
    this.adapter = new Log4j2EventAdapter(mapping.useLayout() ? layout : null);
    this.mapper =
        new EventMapper<LogEvent>(mapping, adapter, producerSettings.maxAttributesPerRecord());
    this.producer =
        new AppenderProducer(name, stopTimeoutMillis, reportIntervalMillis, LOGGER::warn);
  }

  /**
   * An appender for code that installs it itself rather than through a configuration file (the
   * Spring Boot starter): it sends through {@code producer}, which the caller built and closes
   * after stopping the appender (see {@link #useProducer(Producer)}). Not started: the caller adds
   * it to a configuration and starts it. Events go through the default hand-off queue ({@value
   * #DEFAULT_QUEUE_SIZE}); the producer's {@code flush()} and {@code close} cover it.
   *
   * @param name the appender's name, not empty
   * @param mapping how events become records, not null; read now, later changes are not seen
   * @param producer a running producer, not null
   * @param reportIntervalMillis least time between two reports of dropped events, at least 1
   * @param configuration the configuration it is added to, or null
   * @return the appender
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static LogproducerAppender create(
      String name,
      MappingSettings mapping,
      Producer producer,
      long reportIntervalMillis,
      Configuration configuration) {
    return create(name, mapping, producer, DEFAULT_QUEUE_SIZE, reportIntervalMillis, configuration);
  }

  /**
   * {@link #create(String, MappingSettings, Producer, long, Configuration)} with a {@code
   * queueSize}.
   *
   * @param name the appender's name, not empty
   * @param mapping how events become records, not null; read now, later changes are not seen
   * @param producer a running producer, not null
   * @param queueSize the hand-off queue's capacity; 0 maps and sends on the logging thread
   * @param reportIntervalMillis least time between two reports of dropped events, at least 1
   * @param configuration the configuration it is added to, or null
   * @return the appender
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static LogproducerAppender create(
      String name,
      MappingSettings mapping,
      Producer producer,
      int queueSize,
      long reportIntervalMillis,
      Configuration configuration) {
    if (name == null || name.isEmpty() || mapping == null || producer == null) {
      throw new IllegalArgumentException("name, mapping and producer must be given");
    }
    if (queueSize < 0 || queueSize > MAX_QUEUE_SIZE) {
      throw new IllegalArgumentException(
          "queueSize must be 0 or in [1, " + MAX_QUEUE_SIZE + "], was " + queueSize);
    }
    LogproducerAppender appender =
        new LogproducerAppender(
            name,
            null,
            null,
            true,
            Property.EMPTY_ARRAY,
            new ProducerSettings(),
            null,
            null,
            null,
            mapping,
            SHARED_STOP_TIMEOUT_MILLIS,
            reportIntervalMillis,
            queueSize,
            configuration);
    appender.useProducer(producer);
    return appender;
  }

  /**
   * The builder log4j2 fills from the XML.
   *
   * @param <B> the builder type
   * @return a new builder
   */
  @PluginBuilderFactory
  public static <B extends Builder<B>> B newBuilder() {
    return new Builder<B>().asBuilder();
  }

  /**
   * Builds a {@link LogproducerAppender} from the XML: attributes {@code name}, {@code
   * stopTimeoutMillis}, {@code reportIntervalMillis}, {@code ignoreExceptions}; elements {@code
   * <Otlp>}, {@code <Gse>} or {@code <Kafka>}, {@code <ProducerSettings>}, {@code <Spool>}, {@code
   * <Mapping>}, a layout (the body when {@code <Mapping useLayout="true">}) and a filter.
   *
   * @param <B> the builder type
   */
  public static class Builder<B extends Builder<B>> extends AbstractAppender.Builder<B>
      implements org.apache.logging.log4j.core.util.Builder<LogproducerAppender> {

    @PluginBuilderAttribute private String stopTimeoutMillis;

    @PluginBuilderAttribute private String reportIntervalMillis;

    @PluginBuilderAttribute private String queueSize;

    @PluginElement("Otlp")
    private OtlpElement otlp;

    @PluginElement("Gse")
    private GseElement gse;

    @PluginElement("Kafka")
    private KafkaElement kafka;

    @PluginElement("ProducerSettings")
    private ProducerSettingsElement producerSettings;

    @PluginElement("Mapping")
    private MappingElement mapping;

    @PluginElement("Spool")
    private SpoolElement spool;

    /** Creates a builder with the defaults. */
    public Builder() {}

    /**
     * How long stopping the appender lets buffered events ship before the producer is closed.
     *
     * @param millis at least 0; default {@value LogproducerAppender#DEFAULT_STOP_TIMEOUT_MILLIS}
     * @return this builder
     */
    public B setStopTimeoutMillis(long millis) {
      this.stopTimeoutMillis = Long.toString(millis);
      return asBuilder();
    }

    /**
     * Least time between two reports of dropped or failed events on log4j2's status channel.
     *
     * @param millis at least 1; default {@value LogproducerAppender#DEFAULT_REPORT_INTERVAL_MILLIS}
     * @return this builder
     */
    public B setReportIntervalMillis(long millis) {
      this.reportIntervalMillis = Long.toString(millis);
      return asBuilder();
    }

    /**
     * Events waiting for the appender's own worker thread ({@code <clientId>-handoff}), which maps
     * and sends them: the logging thread only takes what the mapping needs (formatted message,
     * level, time, names, thread, context). 0 maps and sends on the logging thread. An event that
     * finds the queue full, or that is large (a message over 2,048 characters, an exception, more
     * than 32 context entries or {@code MapMessage} pairs), is mapped and sent on the logging
     * thread: the queue never drops. Events in the queue are held outside {@code totalSizeInBytes}.
     *
     * @param size 0, or in [1, {@value LogproducerAppender#MAX_QUEUE_SIZE}] (rounded up to a power
     *     of two); default {@value LogproducerAppender#DEFAULT_QUEUE_SIZE}
     * @return this builder
     */
    public B setQueueSize(int size) {
      this.queueSize = Integer.toString(size);
      return asBuilder();
    }

    /**
     * The OTLP/HTTP exporter (the default, from the environment, when no exporter element is set).
     *
     * @param otlp the {@code <Otlp>} element
     * @return this builder
     */
    public B setOtlp(OtlpElement otlp) {
      this.otlp = otlp;
      return asBuilder();
    }

    /**
     * The GSE agent exporter.
     *
     * @param gse the {@code <Gse>} element
     * @return this builder
     */
    public B setGse(GseElement gse) {
      this.gse = gse;
      return asBuilder();
    }

    /**
     * The Apache Kafka exporter (needs {@code io.logproducer:producer-kafka} on the class path).
     *
     * @param kafka the {@code <Kafka>} element
     * @return this builder
     */
    public B setKafka(KafkaElement kafka) {
      this.kafka = kafka;
      return asBuilder();
    }

    /**
     * The producer's settings.
     *
     * @param producerSettings the {@code <ProducerSettings>} element
     * @return this builder
     */
    public B setProducerSettings(ProducerSettingsElement producerSettings) {
      this.producerSettings = producerSettings;
      return asBuilder();
    }

    /**
     * The producer's disk spool (none when unset).
     *
     * @param spool the {@code <Spool>} element
     * @return this builder
     */
    public B setSpool(SpoolElement spool) {
      this.spool = spool;
      return asBuilder();
    }

    /**
     * The event-to-record mapping.
     *
     * @param mapping the {@code <Mapping>} element
     * @return this builder
     */
    public B setMapping(MappingElement mapping) {
      this.mapping = mapping;
      return asBuilder();
    }

    /**
     * Whether {@code otlp}, if any, holds together what one attribute alone cannot tell (a {@code
     * clientKey} without its {@code clientCertificate}); reports it, naming the appender, if not.
     */
    private static boolean otlpComplete(String name, OtlpElement otlp) {
      if (otlp == null || !otlp.valid()) {
        return true; // an invalid attribute is reported already
      }
      try {
        otlp.settings().check();
        return true;
      } catch (RuntimeException e) {
        Settings.STATUS.error(
            "Logproducer appender '{}': invalid <Otlp>: {}", name, e.getMessage());
        return false;
      }
    }

    /**
     * Builds the appender, or reports what is invalid on log4j2's status channel and returns null
     * (log4j2 then does not create the appender).
     *
     * @return the appender, or null if a setting is invalid
     */
    @Override
    public LogproducerAppender build() {
      String name = getName();
      if (name == null || name.isEmpty()) {
        Settings.STATUS.error("Logproducer appender: the attribute name is required");
        return null;
      }
      boolean valid =
          (otlp == null || otlp.valid())
              && (gse == null || gse.valid())
              && (kafka == null || kafka.valid())
              && (producerSettings == null || producerSettings.valid())
              && (mapping == null || mapping.valid())
              && (spool == null || spool.valid());
      final long[] stopAndReport = {DEFAULT_STOP_TIMEOUT_MILLIS, DEFAULT_REPORT_INTERVAL_MILLIS};
      final int[] queue = {DEFAULT_QUEUE_SIZE};
      Settings attributes =
          new Settings("Logproducer name=\"" + name + "\"")
              .apply(
                  "stopTimeoutMillis",
                  stopTimeoutMillis,
                  v -> {
                    stopAndReport[0] = Settings.parseLong("stopTimeoutMillis", v);
                    if (stopAndReport[0] < 0) {
                      throw new IllegalArgumentException(
                          "stopTimeoutMillis must be >= 0, was " + v);
                    }
                  })
              .apply(
                  "reportIntervalMillis",
                  reportIntervalMillis,
                  v -> {
                    stopAndReport[1] = Settings.parseLong("reportIntervalMillis", v);
                    if (stopAndReport[1] < 1) {
                      throw new IllegalArgumentException(
                          "reportIntervalMillis must be >= 1, was " + v);
                    }
                  })
              .apply(
                  "queueSize",
                  queueSize,
                  v -> {
                    queue[0] = Settings.parseInt("queueSize", v);
                    if (queue[0] < 0 || queue[0] > MAX_QUEUE_SIZE) {
                      throw new IllegalArgumentException(
                          "queueSize must be 0 or in [1, " + MAX_QUEUE_SIZE + "], was " + v);
                    }
                  });
      valid &= attributes.valid();
      valid &= otlpComplete(name, otlp);
      if ((otlp != null ? 1 : 0) + (gse != null ? 1 : 0) + (kafka != null ? 1 : 0) > 1) {
        Settings.STATUS.error(
            "Logproducer appender '{}': more than one of <Otlp>, <Gse>, <Kafka> is configured;"
                + " choose one",
            name);
        valid = false;
      }
      ProducerSettings settings =
          producerSettings != null ? producerSettings.settings() : new ProducerSettings();
      if (valid && spool != null) {
        try {
          spool.settings().toSpoolConfig(); // validates the spool's settings together
          settings.useSpool(spool.settings());
        } catch (RuntimeException e) {
          Settings.STATUS.error(
              "Logproducer appender '{}': invalid <Spool>: {}", name, e.getMessage());
          valid = false;
        }
      }
      if (valid) {
        try {
          settings.toConfig(name); // validates the combination of the settings
        } catch (RuntimeException e) {
          Settings.STATUS.error(
              "Logproducer appender '{}': invalid <ProducerSettings>: {}", name, e.getMessage());
          valid = false;
        }
      }
      if (!valid) {
        Settings.STATUS.error(
            "Logproducer appender '{}' not created: invalid settings (see above)", name);
        return null;
      }
      return new LogproducerAppender(
          name,
          getFilter(),
          getLayout(),
          isIgnoreExceptions(),
          getPropertyArray(),
          settings,
          otlp != null ? otlp.settings() : null,
          gse != null ? gse.settings() : null,
          kafka != null ? kafka.settings() : null,
          mapping != null ? mapping.settings() : new MappingSettings(),
          stopAndReport[0],
          stopAndReport[1],
          queue[0],
          getConfiguration());
    }
  }

  /**
   * Starts the producer; if the exporter cannot be built here (e.g. no Unix sockets on this JVM),
   * reports it on log4j2's status channel and stays stopped.
   */
  @Override
  public void start() {
    try {
      Producer shared = sharedProducer;
      if (shared != null) {
        exitHookWanted = false;
        producer.attach(shared);
      } else {
        takeOverShutdownHook();
        producer.start(producerSettings, otlp, gse, kafka, getName(), mapping.scopeFromLogger());
      }
    } catch (RuntimeException
        | LinkageError e) { // LinkageError: a mismatched logproducer jar on the class path
      LOGGER.error("Logproducer appender '{}' not started: {}", getName(), e.getMessage(), e);
      return;
    }
    if (queueSize > 0) {
      handOff =
          new HandOffPath(
              producer,
              mapper,
              adapter,
              mapping,
              producerSettings.maxAttributesPerRecord(),
              queueSize);
    }
    if (exitHookWanted) {
      exitHook =
          ExitHook.register(
              producer.producer().getConfig().getClientId() + "-exit-hook",
              this::frameworkStopsAtExit,
              () -> isStopping() || isStopped(),
              this::stop,
              producer.producer().getConfig().getShutdownHookTimeoutMillis());
    }
    super.start();
  }

  /**
   * The appender, not its producer, owns the JVM exit ({@link ExitHook}): the producer's own hook
   * is turned off; {@code shutdownHookEnabled="false"} in {@code <ProducerSettings>} turns both
   * off.
   */
  private void takeOverShutdownHook() {
    if (exitHookWanted == null) {
      exitHookWanted = producerSettings.toConfig(getName()).isShutdownHookEnabled();
    }
    producerSettings.setShutdownHookEnabled(false);
  }

  /**
   * Whether log4j2 stops this appender at JVM exit by itself: its shutdown hook is on (the default:
   * {@code shutdownHook} of the configuration and {@code log4j2.shutdownHookEnabled}), or Spring
   * Boot manages the LoggerContext (Spring Boot turns log4j2's hook off and stops the context from
   * its own shutdown handler, after the application's).
   */
  private boolean frameworkStopsAtExit() {
    Configuration config = configuration;
    if (config == null) {
      return false;
    }
    LoggerContext context = config.getLoggerContext();
    if (context != null && SPRING_BOOT_MARKER.equals(context.getExternalContext())) {
      return true;
    }
    LoggerContextFactory factory = LogManager.getFactory();
    return config.isShutdownHookEnabled()
        && factory instanceof Log4jContextFactory
        && ((Log4jContextFactory) factory).isShutdownHookEnabled();
  }

  /**
   * Queues the event for the worker ({@code queueSize} &gt; 0), or maps it and hands it to the
   * producer on this thread; never waits under {@code DROP}, never throws.
   *
   * @param event the event, read only during this call
   */
  @Override
  public void append(LogEvent event) {
    // Under async loggers and AsyncAppender this runs on log4j2's thread: the event's thread tells
    // whether it came from the producer's own threads (httpclient5's DEBUG logging on a send
    // thread).
    String threadName = event.getThreadName();
    if (threadName != null && producer.isProducerThread(threadName)) {
      return;
    }
    // The OpenTelemetry span current at the logging call: only on the thread that logged the event
    // (under async loggers and AsyncAppender, the current span here is log4j2's thread's).
    EventMapper<LogEvent> m = mapper;
    Object span =
        m.readsSpan() && event.getThreadId() == Thread.currentThread().getId()
            ? m.captureSpan()
            : null;
    HandOffPath path = handOff;
    if (path != null) {
      path.append(event, span);
    } else {
      HandOffPath.sendInline(producer, m, event, span);
    }
  }

  /**
   * Whether log4j2 must compute the caller's location for each event: only with {@code <Mapping
   * captureCode="true">} (or a layout that prints it, when the layout is the body).
   *
   * @return true if the appender reads {@link LogEvent#getSource()}
   */
  @Override
  public boolean requiresLocation() {
    return mapping.captureCode() || (mapping.useLayout() && super.requiresLocation());
  }

  /**
   * Sends what is queued (events still queued when {@code stopTimeoutMillis} runs out are counted
   * as dropped), ships what is buffered and closes the producer, all within {@code
   * stopTimeoutMillis} (log4j2's own timeout is not used: the appender's is the bound); afterwards
   * no producer thread runs.
   *
   * @param timeout log4j2's timeout (not used)
   * @param timeUnit its unit
   * @return true
   */
  @Override
  public boolean stop(long timeout, TimeUnit timeUnit) {
    ExitHook hook = exitHook;
    exitHook = null;
    if (hook != null) {
      hook.remove();
    }
    setStopping();
    super.stop(timeout, timeUnit, false);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(producer.stopTimeoutMillis());
    HandOffPath path = handOff;
    if (path != null) {
      path.stop(producer.stopTimeoutMillis()); // the worker sends what is queued, then ends
      handOff = null;
    }
    producer.stop(Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
    setStopped();
    return true;
  }

  /** {@return the running hand-off, or null without a queue (queueSize 0) or when stopped} */
  HandOffPath handOffPath() {
    return handOff;
  }

  /** {@return events dropped since start: refused by the producer (full buffer) or not mappable} */
  public long droppedCount() {
    return producer.droppedCount();
  }

  /**
   * {@return events accepted by the producer but not delivered; SPOOLED events are not failures
   * ({@link #spooledCount()})}
   */
  public long failedCount() {
    return producer.failedCount();
  }

  /**
   * {@return events not delivered yet but durably stored in the {@code <Spool>}: the next producer
   * on its directory delivers them}
   */
  public long spooledCount() {
    return producer.spooledCount();
  }

  /**
   * Makes this appender send through {@code producer}, which its owner built, flushes and closes
   * (the Spring Boot starter shares one producer between the appender and the application's {@code
   * Producer} bean). The exporter, producer and spool settings are then ignored; {@link #stop(long,
   * TimeUnit)} lets the producer go without closing it, and no exit hook is registered. Call it
   * before {@link #start()}, from code.
   *
   * @param producer a running producer, or null to build one from the settings (the default)
   */
  public void useProducer(Producer producer) {
    this.sharedProducer = producer;
  }

  /**
   * Reports at once, on log4j2's status channel, the dropped and failed events not reported yet
   * (nothing when there are none). For the owner of a producer given to {@link
   * #useProducer(Producer)}: {@link #stop(long, TimeUnit)} lets that producer go without closing
   * it, so the records its owner's close fails ({@code FAILED_AT_CLOSE}) are counted by this
   * appender after its stop; the owner calls this once the producer is closed, and they are in the
   * last report. Never throws.
   */
  public void reportLosses() {
    producer.reportNow();
  }

  /** {@return the running producer (for its metrics), or null before start and after stop} */
  public Producer getProducer() {
    return producer.producer();
  }
}
