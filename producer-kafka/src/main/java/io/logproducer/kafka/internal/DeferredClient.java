package io.logproducer.kafka.internal;

import io.logproducer.internal.InternalLogger;
import io.logproducer.spi.ExportResult;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;

/**
 * The Kafka client of one exporter, built once: when the exporter starts, or — when the only thing
 * wrong is that no {@code bootstrap.servers} host resolves yet (a pod up before its Kafka service
 * name is in DNS) — later, by a send thread.
 *
 * <p><b>At start</b> ({@link #start()}) the client is built on the calling thread, as Kafka's
 * {@code KafkaProducer} constructor does it. If Kafka refuses because no bootstrap host resolves
 * ({@link KafkaErrors#unresolvedBootstrap}), the rest of the configuration is checked by building a
 * client for {@code 127.0.0.1:1} and closing it at once: settings that can never work (an unknown
 * value, a class that does not exist, a SASL or TLS configuration Kafka refuses, a malformed {@code
 * host:port}) still throw; only an unresolved name defers the build.
 *
 * <p><b>Deferred.</b> {@link #get()}, called by the send threads for each export, builds the client
 * when a backoff has passed: {@value #FIRST_BACKOFF_MILLIS} ms after the last attempt, doubling per
 * failed attempt up to {@value #MAX_BACKOFF_MILLIS} ms. An attempt first resolves the bootstrap
 * hosts itself (quietly: the Kafka constructor would log its whole configuration each time) and
 * builds the client only once one resolves. One thread builds at a time; the others, and every
 * export while the backoff runs, get {@link #notBuilt()} at once: a retryable failure "Kafka client
 * not built yet: &lt;cause&gt;" (so the producer keeps the batch, within {@code totalSizeInBytes},
 * and retries it with its own backoff until {@code deliveryTimeoutMillis}). A build that fails for
 * another reason (which the check at start makes unlikely) fails the batches for good with "Kafka
 * client cannot be built: &lt;cause&gt;", and is retried as well.
 *
 * <p>Thread-safe. {@link #close()} never waits for a build: a client built after it is closed by
 * the thread that built it, so no client thread outlives both.
 */
final class DeferredClient {

  /** Backoff after the first failed attempt to build the client, in ms. */
  static final long FIRST_BACKOFF_MILLIS = 100L;

  /** Largest backoff between two attempts to build the client, in ms. */
  static final long MAX_BACKOFF_MILLIS = 5_000L;

  /** The bootstrap of the configuration check at start: resolvable, and nothing listens there. */
  static final String CHECK_BOOTSTRAP = "127.0.0.1:1";

  private static final InternalLogger log = InternalLogger.get(DeferredClient.class);
  private static final Object CLOSED = new Object();

  private final Map<String, Object> properties;
  private final Function<Map<String, Object>, Producer<byte[], byte[]>> factory;
  private final String bootstrap;

  /** The secret values of the properties, kept out of every message ({@link SecretProperties}). */
  private final List<String> secrets;

  /** Null (not built yet), the client, or {@link #CLOSED}. */
  private final AtomicReference<Object> slot = new AtomicReference<>();

  private final ReentrantLock building = new ReentrantLock();
  private long startNanos; // guarded by building
  private long nextAttemptNanos; // guarded by building
  private long backoffMillis = FIRST_BACKOFF_MILLIS; // guarded by building
  private int attempts; // guarded by building
  private volatile String cause = "not started";
  private volatile Throwable causeError;
  private volatile boolean fatal;

  /**
   * @param properties the Kafka producer properties, complete ({@code bootstrap.servers} a String)
   * @param factory builds a client from properties; throws Kafka's {@code KafkaException} (or
   *     {@code ConfigException}) when Kafka refuses them
   */
  DeferredClient(
      Map<String, Object> properties,
      Function<Map<String, Object>, Producer<byte[], byte[]>> factory) {
    this.properties = new HashMap<>(properties);
    this.factory = factory;
    this.bootstrap = String.valueOf(properties.get("bootstrap.servers"));
    this.secrets = SecretProperties.secretValues(properties);
  }

  /**
   * Builds the client on this thread; if no bootstrap host resolves yet, checks the rest of the
   * configuration and defers the build (logging why at WARN).
   *
   * @return true if the client was built, false if its build is deferred
   * @throws IllegalArgumentException if Kafka refuses the configuration for any other reason, with
   *     Kafka's message
   */
  boolean start() {
    building.lock();
    try {
      startNanos = System.nanoTime();
      try {
        slot.compareAndSet(null, factory.apply(properties));
        return true;
      } catch (KafkaException e) {
        ConfigException unresolved = KafkaErrors.unresolvedBootstrap(e);
        if (unresolved == null) {
          throw refused(e);
        }
        checkTheRest();
        attempts = 1;
        note(unresolved.getMessage() + " (" + bootstrap + ")", unresolved, false);
        log.warn(
            "Kafka bootstrap.servers {} does not resolve yet ({}): the producer starts without its"
                + " Kafka client, keeps the records (within totalSizeInBytes, each until its"
                + " deliveryTimeoutMillis) and builds the client once a bootstrap host resolves,"
                + " trying every {} to {} ms",
            bootstrap,
            SecretProperties.scrub(unresolved.getMessage(), secrets),
            FIRST_BACKOFF_MILLIS,
            MAX_BACKOFF_MILLIS);
        return false;
      }
    } finally {
      building.unlock();
    }
  }

  /** Builds a client for {@link #CHECK_BOOTSTRAP} with the same settings, and closes it. */
  private void checkTheRest() {
    Map<String, Object> check = new HashMap<>(properties);
    check.put("bootstrap.servers", CHECK_BOOTSTRAP);
    check.put("client.id", properties.get("client.id") + "-config-check");
    try {
      factory.apply(check).close(Duration.ZERO);
    } catch (KafkaException e) {
      throw refused(e);
    }
  }

  /**
   * {@return "the Kafka producer configuration was refused: " and Kafka's message, with its causes'
   * in parentheses (the one that names the setting is often two levels down); the values of secret
   * properties replaced by {@value SecretProperties#MASK}, in the message and in the cause chain
   * (see {@link SecretProperties#scrubbed})}
   */
  IllegalArgumentException refused(KafkaException e) {
    StringBuilder m = new StringBuilder("the Kafka producer configuration was refused: ");
    m.append(e.getMessage());
    String causes = "";
    Throwable c = e.getCause();
    for (int depth = 0; c != null && c != e && depth < 8; depth++, c = c.getCause()) {
      if (c.getMessage() != null) {
        causes += (causes.isEmpty() ? "" : ": ") + c.getMessage();
      }
    }
    if (!causes.isEmpty()) {
      m.append(" (").append(causes).append(')');
    }
    return new IllegalArgumentException(
        SecretProperties.scrub(m.toString(), secrets), SecretProperties.scrubbed(e, secrets));
  }

  /**
   * {@return the client, built now if its build was deferred and the backoff has passed; null if
   * there is none (not built yet, or closed): then {@link #notBuilt()} says why}
   */
  Producer<byte[], byte[]> get() {
    Producer<byte[], byte[]> p = built();
    if (p != null || slot.get() == CLOSED || !building.tryLock()) {
      return p;
    }
    try {
      if (slot.get() == null && System.nanoTime() - nextAttemptNanos >= 0) {
        attempt();
      }
    } finally {
      building.unlock();
    }
    return built();
  }

  @SuppressWarnings("unchecked")
  private Producer<byte[], byte[]> built() {
    Object s = slot.get();
    return s instanceof Producer ? (Producer<byte[], byte[]>) s : null;
  }

  /** One attempt to build the deferred client; the caller holds {@link #building}. */
  private void attempt() {
    attempts++;
    UnknownHostException unknown = unresolvedHosts();
    if (unknown != null) {
      note(
          "No resolvable bootstrap urls given in bootstrap.servers ("
              + bootstrap
              + "; "
              + unknown.getMessage()
              + ")",
          unknown,
          false);
    } else {
      try {
        Producer<byte[], byte[]> p = factory.apply(properties);
        if (slot.compareAndSet(null, p)) {
          log.info(
              "Kafka client for bootstrap.servers {} built after {} attempt(s) in {} ms: a"
                  + " bootstrap host resolves now",
              bootstrap,
              attempts,
              TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        } else {
          p.close(Duration.ZERO); // closed meanwhile: no client may outlive close()
        }
        return;
      } catch (KafkaException e) {
        ConfigException unresolved = KafkaErrors.unresolvedBootstrap(e);
        if (unresolved != null) {
          note(unresolved.getMessage() + " (" + bootstrap + ")", unresolved, false);
        } else {
          note(refused(e).getMessage(), e, true);
        }
      } catch (RuntimeException e) { // not Kafka's refusal: still backed off, never in a loop
        note(e.toString(), e, true);
      }
    }
    nextAttemptNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMillis);
    backoffMillis = Math.min(MAX_BACKOFF_MILLIS, backoffMillis * 2);
    log.debug("Kafka client not built (attempt {}): {}", attempts, cause);
  }

  /** Null if a bootstrap host resolves (or none is well formed: Kafka then says why), else why. */
  private UnknownHostException unresolvedHosts() {
    UnknownHostException last = null;
    for (String url : bootstrap.split(",")) {
      String host = url.trim().isEmpty() ? null : Utils.getHost(url.trim());
      if (host == null) {
        continue;
      }
      try {
        InetAddress.getAllByName(host);
        return null;
      } catch (UnknownHostException e) {
        last = e;
      } catch (RuntimeException e) { // e.g. a SecurityException: let Kafka try
        return null;
      }
    }
    return last;
  }

  /** Notes why there is no client; secret values scrubbed from both. */
  private void note(String why, Throwable error, boolean isFatal) {
    cause = SecretProperties.scrub(why, secrets);
    causeError = SecretProperties.scrubbed(error, secrets);
    fatal = isFatal;
  }

  /**
   * {@return why there is no client, as an export's answer: retryable "Kafka client not built yet:
   * &lt;cause&gt;" while the bootstrap does not resolve, final "Kafka client cannot be built:
   * &lt;cause&gt;" when Kafka refused it otherwise, final "Kafka client closed" after close}
   */
  ExportResult notBuilt() {
    if (slot.get() == CLOSED) {
      return ExportResult.failed("Kafka client closed", null);
    }
    String why = cause;
    return fatal
        ? ExportResult.failed("Kafka client cannot be built: " + why, causeError)
        : ExportResult.retryable("Kafka client not built yet: " + why, causeError, -1);
  }

  /** Closes the client, if built, without waiting; a build under way closes its own. Idempotent. */
  void close() {
    Object s = slot.getAndSet(CLOSED);
    if (s instanceof Producer) {
      ((Producer<?, ?>) s).close(Duration.ZERO);
    }
  }
}
