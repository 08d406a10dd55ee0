package io.logproducer.internal;

import io.logproducer.BufferFullPolicy;
import io.logproducer.Callback;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerInterruptedException;
import io.logproducer.ProducerMetrics;
import io.logproducer.RecordTooLargeException;
import io.logproducer.SendResult;
import io.logproducer.internal.codec.Codec;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The producer's machinery behind {@link io.logproducer.Producer}: wires the budget, accumulator,
 * linger timer, send pool and completer around one exporter, and implements send, flush and close.
 * Internal: use {@code Producer}.
 */
public final class ProducerEngine {

  private static final InternalLogger log = InternalLogger.get(ProducerEngine.class);

  /** How long close waits for its threads after the outcomes are given, in ms. */
  static final long THREAD_STOP_MILLIS = 200;

  /**
   * What close may take beyond its grace period, in ms (stated in the Javadoc of {@code
   * Producer.close}).
   */
  public static final long CLOSE_SLACK_MILLIS = 1_000;

  /**
   * How long close may write queued batches to the spool beyond its grace period, in ms; with the
   * spool's wait for durability (at most 900 ms) within {@link #CLOSE_SLACK_MILLIS}.
   */
  static final long SPOOL_AT_CLOSE_MILLIS = 50;

  private static final int SCRATCH_INITIAL_BYTES = 4096;
  private static final int SCRATCH_KEEP_BYTES = 1024 * 1024;

  /**
   * Per application thread, the buffer a record is encoded into. Weakly held, and a plain {@code
   * ThreadLocal} of a JDK type: an application thread keeps no strong reference to the library
   * (nothing pins its class loader after close), and a buffer grown for a large record is collected
   * at the next GC.
   */
  private static final ThreadLocal<WeakReference<Scratch>> SCRATCH = new ThreadLocal<>();

  private static final SendResult DROPPED =
      new SendResult(
          SendResult.Status.DROPPED,
          0,
          1,
          0,
          "buffer full (totalSizeInBytes exhausted); record dropped",
          null);

  private final ProducerConfig config;
  private final Exporter exporter;
  private final RecordEncoder encoder;
  private final AttributeLimits attributeLimits;
  private final int maxRecordSize;
  private final MemoryBudget budget;
  private final ChunkPool pool;
  private final Metrics metrics;
  private final IncompleteBatches incomplete = new IncompleteBatches();
  private final Accumulator accumulator;
  private final LingerTimer timer;
  private final Sender sender;

  /** Spools batches whose deadline passes before a send thread took them; null without a spool. */
  private final ExpirySpooler expirySpooler;

  private final BatchCompleter completer;
  private final ProducerSpool spool;

  /** The linger timer's call at each batch's delivery deadline. */
  private final DeliveryDeadline deliveryDeadline;

  private final List<ProducerThread> threads = new ArrayList<>();
  private final AtomicInteger replacements = new AtomicInteger();
  private final RateLimitedLog dropLog = new RateLimitedLog(log, 10_000);
  private final AtomicBoolean closeStarted = new AtomicBoolean();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final JmxRegistration jmx;
  private final Thread shutdownHook;
  private volatile boolean closed;

  /** The thread that closes; joined by {@code close} so that it does not outlive it. */
  private volatile Thread closer;

  /**
   * Starts a producer: the linger thread and {@code sendThreads} send threads.
   *
   * @throws IllegalArgumentException if the exporter cannot honour the configuration
   * @throws IllegalStateException if the compression's library is missing or cannot load
   */
  public ProducerEngine(ProducerConfig config, Exporter exporter) {
    if (config == null || exporter == null) {
      throw new IllegalArgumentException("config and exporter must not be null");
    }
    this.config = config;
    this.exporter = exporter;
    // send() and flush() from the first virtual threads must not load these (see ClassInit)
    ClassInit.initialize(Scratch.class, CallbackContext.class, ProducerThread.class);
    ExporterCapabilities capabilities = exporter.capabilities();
    if (capabilities == null) {
      throw new IllegalArgumentException(
          "exporter " + exporter.describe() + " declared null capabilities");
    }
    Compression compression = compression(config, capabilities, exporter);
    int batchSize = batchSize(config, capabilities, exporter);
    checkDeliveryTimeout(config, capabilities, exporter);
    // An exporter whose transport compresses (Kafka's record batches) gets uncompressed bodies.
    Codec codec =
        Codec.loaded(
            capabilities.compressesItself() ? Compression.NONE : compression,
            config.getCompressionLevel());
    this.encoder = exporter.encoder();
    this.attributeLimits = new AttributeLimits(config);
    long total = config.getTotalSizeInBytes();
    this.maxRecordSize = maxRecordSize(capabilities.maxBatchSizeInBytes(), total);
    this.budget = new MemoryBudget(total);
    this.pool = new ChunkPool(ChunkPool.chunkSizeFor(batchSize, total), budget);
    budget.setReusable(pool::hasFree);
    this.metrics = new Metrics(budget, pool);
    RetryPolicy retryPolicy =
        new RetryPolicy(
            config.getRetries(),
            config.getInitialRetryBackoffMillis(),
            config.getMaxRetryBackoffMillis());
    this.spool =
        config.getSpool() == null
            ? null
            : ProducerSpool.open(config.getSpool(), exporter, codec.compression(), retryPolicy);
    metrics.useSpool(spool);
    this.completer =
        new BatchCompleter(
            this,
            budget,
            metrics,
            incomplete,
            spool == null ? SpoolOutcomes.NONE : spool.outcomes());
    SendQueue queue = new SendQueue();
    this.timer = new LingerTimer(incomplete, this::sealForLinger, queue::add, this::expire);
    this.sender =
        new Sender(
            queue, exporter, codec, retryPolicy, completer, timer, metrics, budget, batchSize);
    this.accumulator =
        new Accumulator(
            pool,
            budget,
            batchSize,
            config.getBatchCountThreshold(),
            TimeUnit.MILLISECONDS.toNanos(config.getLingerMillis()),
            TimeUnit.MILLISECONDS.toNanos(config.getDeliveryTimeoutMillis()),
            incomplete,
            timer,
            sender::enqueue);
    if (spool != null) {
      sender.writeAheadTo(spool.writer());
    }
    this.expirySpooler = spool == null ? null : spool.expirySpooler(sender);
    this.deliveryDeadline =
        new DeliveryDeadline(
            config.getDeliveryTimeoutMillis(),
            this::sealForLinger,
            completer,
            spool,
            expirySpooler,
            metrics::noteError,
            exporter);
    try {
      exporter.start(config);
    } catch (RuntimeException | Error e) {
      if (spool != null) {
        spool.close(); // unlock the directory: no producer owns it
      }
      throw e;
    }
    String id = config.getClientId();
    startThreads(id, config.getSendThreads());
    this.jmx = config.isJmxEnabled() ? JmxRegistration.register(id, metrics) : null;
    this.shutdownHook = config.isShutdownHookEnabled() ? registerShutdownHook(id) : null;
    log.info(
        "producer {} started: {} -> {}, compression {}{}",
        id,
        config,
        exporter.describe(),
        compression,
        config.getCompressionLevel() == 0 ? "" : " level " + config.getCompressionLevel());
  }

  /**
   * The compression requests use: the configured one, else the exporter's default; checked against
   * both.
   */
  private static Compression compression(
      ProducerConfig config, ExporterCapabilities capabilities, Exporter exporter) {
    Compression compression =
        config.getCompression() != null
            ? config.getCompression()
            : capabilities.defaultCompression();
    if (!capabilities.supports(compression)) {
      throw new IllegalArgumentException(
          "compression " + compression + " is not supported by " + exporter.describe());
    }
    ProducerConfig.checkCompressionLevel(compression, config.getCompressionLevel());
    return compression;
  }

  /**
   * {@code batchSizeInBytes}, lowered (and logged once) to what one request of the exporter may
   * carry.
   */
  private static int batchSize(
      ProducerConfig config, ExporterCapabilities capabilities, Exporter exporter) {
    int batchSize = config.getBatchSizeInBytes();
    if (batchSize > capabilities.maxBatchSizeInBytes()) {
      batchSize = capabilities.maxBatchSizeInBytes();
      log.info(
          "batchSizeInBytes {} is above what one request to {} may carry; batches are sealed at {} bytes",
          config.getBatchSizeInBytes(),
          exporter.describe(),
          batchSize);
    }
    return batchSize;
  }

  /** Refuses a delivery timeout that leaves a batch no whole attempt (as Kafka refuses one). */
  private static void checkDeliveryTimeout(
      ProducerConfig config, ExporterCapabilities capabilities, Exporter exporter) {
    long requestTimeout = capabilities.requestTimeoutMillis();
    if (requestTimeout > 0
        && config.getDeliveryTimeoutMillis() < config.getLingerMillis() + requestTimeout) {
      throw new IllegalArgumentException(
          "deliveryTimeoutMillis ("
              + config.getDeliveryTimeoutMillis()
              + ") must be at least lingerMillis ("
              + config.getLingerMillis()
              + ") + the exporter's request timeout ("
              + requestTimeout
              + " ms, "
              + exporter.describe()
              + "), so that a batch gets at least one whole attempt");
    }
  }

  /**
   * Starts the linger thread and the send threads; if one cannot start, stops what started and
   * rethrows.
   */
  private void startThreads(String id, int sendThreads) {
    try {
      startThread(id + "-linger", timer);
      for (int i = 1; i <= sendThreads; i++) {
        startThread(id + "-sender-" + i, sender::runLoop);
      }
      if (expirySpooler != null) {
        startThread(id + "-spool-expiry", expirySpooler);
      }
      if (spool != null) {
        List<Runnable> replay = spool.replayTasks(sendThreads, metrics);
        for (int i = 0; i < replay.size(); i++) {
          startThread(id + "-spool-replay" + (i == 0 ? "" : "-" + i), replay.get(i));
        }
      }
    } catch (Throwable t) { // e.g. OutOfMemoryError: unable to create native thread
      timer.stop();
      sender.stop();
      if (spool != null) {
        spool.close();
      }
      try {
        exporter.close();
      } catch (Throwable suppressed) {
        t.addSuppressed(suppressed);
      }
      throw t;
    }
  }

  /**
   * The largest encoded record accepted, in bytes: the exporter's maximum batch size, and below the
   * budget by room for the batch's bookkeeping and chunk rounding (at most half the budget or 64
   * KiB + 1/64 of it).
   */
  static int maxRecordSize(int exporterMax, long total) {
    long allowance = Math.min(total / 2, 65_536 + total / 64);
    return (int)
        Math.max(16, Math.min(Math.min(exporterMax, total - allowance), EncodeBuffer.MAX_LIMIT));
  }

  private void startThread(String name, Runnable task) {
    ProducerThread t = new ProducerThread(this, name, task, this::onThreadDeath);
    synchronized (threads) {
      threads.add(t);
    }
    t.start();
  }

  /**
   * A producer thread's task threw (the loops catch everything, so this is a last resort): replace
   * it.
   */
  private void onThreadDeath(ProducerThread dead, Throwable cause) {
    try {
      log.error("producer thread {} died: {}", dead.getName(), cause.toString(), cause);
    } catch (Throwable ignored) {
      // nothing to do
    }
    if (closed) {
      return;
    }
    try {
      startThread(dead.getName() + "-r" + replacements.incrementAndGet(), dead.task());
    } catch (Throwable t) {
      // could not replace it now; the deadline watchdog still gives every batch its outcome
    }
  }

  private Thread registerShutdownHook(String id) {
    Thread hook = new Thread(this::closeFromShutdownHook, id + "-shutdown-hook");
    hook.setContextClassLoader(
        ProducerEngine.class.getClassLoader()); // not the caller's: see ProducerThread
    try {
      Runtime.getRuntime().addShutdownHook(hook);
      return hook;
    } catch (IllegalStateException e) { // the JVM is already shutting down
      return null;
    }
  }

  private void closeFromShutdownHook() {
    if (closeStarted.get()) {
      return;
    }
    int pending = incomplete.size();
    if (pending > 0) {
      log.warn(
          "producer {} was not closed before the JVM exits; closing it now (up to {} ms) to ship {} pending "
              + "batch(es)",
          config.getClientId(),
          config.getShutdownHookTimeoutMillis(),
          pending);
    }
    close(config.getShutdownHookTimeoutMillis());
  }

  private void sealForLinger(ProducerBatch b) {
    accumulator.sealIfOpen(b);
  }

  /** The linger timer's call at a batch's deadline: FAILED (or SPOOLED), or false: not yet. */
  private boolean expire(ProducerBatch b) {
    return deliveryDeadline.test(b);
  }

  /** See {@link io.logproducer.Producer#send(LogRecord, Callback)}. */
  public void send(LogRecord given, Callback callback) {
    if (given == null) {
      throw new IllegalArgumentException("record must not be null");
    }
    if (closed) {
      throw new IllegalStateException("cannot send after the producer is closed");
    }
    LogRecord record = attributeLimits.apply(given); // O(1) when within the limits
    Scratch scratch = scratch();
    EncodeBuffer buf = scratch.buffer;
    scratch.inUse = true;
    try {
      buf.reset();
      buf.setLimit(maxRecordSize);
      encoder.encode(
          record, buf); // throws RecordTooLargeException before growing past maxRecordSize
      int size = buf.size();
      if (size > maxRecordSize) {
        throw new RecordTooLargeException(size, maxRecordSize);
      }
      append(exporter.shardKey(record), buf.array(), size, callback);
    } finally {
      scratch.inUse = false;
      if (buf.capacity() > SCRATCH_KEEP_BYTES) {
        buf.shrinkTo(SCRATCH_INITIAL_BYTES);
      }
    }
  }

  private static Scratch scratch() {
    WeakReference<Scratch> ref = SCRATCH.get();
    Scratch s = ref == null ? null : ref.get();
    if (s == null) {
      s = new Scratch();
      SCRATCH.set(new WeakReference<>(s));
    } else if (s.inUse) {
      return new Scratch(); // a send from a callback inside a send on this thread
    }
    return s;
  }

  /**
   * Appends under the budget: waits for bytes outside every lock, holding none of the budget while
   * it waits, then tries again with them as credit.
   */
  private void append(Object shardKey, byte[] src, int size, Callback callback) {
    long credit = 0;
    long firstWait = 0;
    long deadline = 0;
    boolean waited = false;
    metrics.recordsAccepted.increment();
    boolean accepted = false;
    try {
      while (true) {
        long need = accumulator.append(shardKey, src, size, callback, credit);
        if (need == 0) {
          credit = 0;
          accepted = true;
          return;
        }
        if (need + credit > budget.total()) {
          throw new RecordTooLargeException(
              "record of "
                  + size
                  + " encoded bytes needs "
                  + (need + credit)
                  + " bytes of buffer with its batch, more than totalSizeInBytes ("
                  + budget.total()
                  + ")",
              size,
              maxRecordSize);
        }
        if (pool.hasFree() && pool.drain() > 0) {
          continue; // chunks alone did not do (a new batch's bookkeeping needs bytes): retry with
          // them freed as bytes; terminates, as the pool only refills when batches complete
        }
        if (accumulator.relievePressure(need + credit)) {
          continue; // open batches were sealed (and compacted): they ship and free their bytes
        }
        if (budget.tryReserve(need)) {
          credit += need;
          continue;
        }
        if (closed) {
          throw new IllegalStateException("cannot send after the producer is closed");
        }
        if (config.getBufferFullPolicy() == BufferFullPolicy.DROP) {
          drop(callback);
          return;
        }
        // Never wait on our own thread or in a callback: the budget is freed by our own threads.
        long maxBlock = CallbackContext.isOwnedBy(this) ? 0 : config.getMaxBlockMillis();
        if (!waited) {
          waited = true;
          firstWait = System.nanoTime();
          deadline = firstWait + TimeUnit.MILLISECONDS.toNanos(maxBlock);
        }
        long remaining =
            Math.max(0, (deadline - System.nanoTime() + 999_999) / 1_000_000); // ms, rounded up
        // Never wait holding budget (see MemoryBudget): give the credit back, wait for it all.
        long wanted = need + credit;
        if (credit > 0) {
          credit = 0;
          budget.release(wanted - need);
        }
        if (budget.reserve(wanted, remaining, firstWait)) {
          credit = wanted;
        } // else chunks were pooled meanwhile: try again with them
      }
    } finally {
      if (!accepted) {
        metrics.recordsAccepted.decrement();
      }
      if (credit > 0) {
        budget.release(credit);
      }
    }
  }

  private void drop(Callback callback) {
    metrics.recordsDropped.increment();
    dropLog.warn(
        () -> "buffer full (totalSizeInBytes " + budget.total() + "); dropping records", null);
    if (callback != null) {
      Object previous = CallbackContext.enter(this);
      try {
        callback.onCompletion(DROPPED);
      } catch (Throwable t) {
        dropLog.warn("a send callback threw; ignored", t);
      } finally {
        CallbackContext.exit(previous);
      }
    }
  }

  /** See {@link io.logproducer.Producer#flush()}. */
  public void flush() {
    ProducerBatch[] pending = incomplete.snapshot();
    accumulator.sealAll();
    if (CallbackContext.isOwnedBy(this)) {
      return; // from a callback: waiting would wait for ourselves
    }
    try {
      for (ProducerBatch b : pending) {
        b.await(Long.MAX_VALUE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProducerInterruptedException("interrupted while flushing", e);
    }
  }

  /** See {@link io.logproducer.Producer#close(long)}. */
  public void close(long timeoutMillis) {
    if (timeoutMillis < 0) {
      throw new IllegalArgumentException("timeoutMillis must be >= 0, was " + timeoutMillis);
    }
    long grace = Math.min(timeoutMillis, Long.MAX_VALUE / 4_000_000L);
    if (CallbackContext.isOwnedBy(this)) {
      // From a callback: we cannot wait for our own threads or callbacks. Close with no grace, on a
      // closer thread.
      if (startClose(0)) {
        log.warn(
            "producer {} closed from a callback: closing without a grace period; undelivered records fail "
                + "at close",
            config.getClientId());
      }
      return;
    }
    startClose(grace);
    awaitTermination(grace + CLOSE_SLACK_MILLIS);
  }

  /** Starts closing on a closer thread, once; true if this call started it. */
  private boolean startClose(long graceMillis) {
    if (!closeStarted.compareAndSet(false, true)) {
      return false;
    }
    closed = true;
    ProducerThread closer =
        new ProducerThread(
            this, config.getClientId() + "-closer", () -> doClose(graceMillis), null);
    this.closer = closer;
    try {
      closer.start();
    } catch (Throwable t) { // cannot start a thread: close on this one
      doClose(graceMillis);
    }
    return true;
  }

  /**
   * Waits for the close to end, up to {@code millis}, ignoring interrupts (the interrupt status is
   * kept).
   */
  private void awaitTermination(long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    boolean interrupted = false;
    try {
      while (true) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          log.warn(
              "producer {}: close did not finish in time (a callback may be blocking); returning",
              config.getClientId());
          return;
        }
        try {
          if (terminated.await(remaining, TimeUnit.NANOSECONDS)) {
            Thread c = closer;
            if (c != null && c != Thread.currentThread()) {
              c.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            return;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void doClose(long graceMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
    try {
      closed = true;
      removeShutdownHook();
      budget.close(); // wakes senders blocked on the budget: they fail, having reserved nothing
      accumulator.closeAndSealAll(); // after this no record can be appended to any batch
      if (spool != null) {
        // queued batches go to the spool now, so that those still undelivered after the grace
        // period get SPOOLED; at least SPOOL_AT_CLOSE_MILLIS even with no grace period
        sender.spoolQueued(
            Math.max(
                deadline,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SPOOL_AT_CLOSE_MILLIS)));
      }
      awaitIncomplete(deadline);
    } finally {
      try {
        sender.abort();
        if (spool != null) {
          spool.beforeAbort(); // what is durable in the spool gets SPOOLED, not FAILED_AT_CLOSE
        }
        abortIncomplete();
      } finally {
        try {
          if (expirySpooler != null) {
            expirySpooler.stop(); // what it holds got its outcome from abortIncomplete
          }
          timer.stop();
          sender.stop();
          if (!joinThreads(THREAD_STOP_MILLIS)) {
            closeExporter(); // make in-flight requests fail fast
            interruptThreads();
            if (!joinThreads(THREAD_STOP_MILLIS)) {
              log.warn(
                  "producer {}: some threads did not stop within {} ms of close (a callback or the exporter "
                      + "is blocking); they end when it returns",
                  config.getClientId(),
                  2 * THREAD_STOP_MILLIS);
            }
          }
          abortIncomplete();
        } finally {
          closeExporter();
          if (spool != null) {
            spool.close();
          }
          pool.close();
          if (jmx != null) {
            jmx.unregister();
          }
          try {
            log.debug("producer {} closed: {}", config.getClientId(), metrics.snapshot());
          } finally {
            terminated.countDown();
          }
        }
      }
    }
  }

  private void awaitIncomplete(long deadline) {
    for (ProducerBatch b : incomplete.snapshot()) {
      while (!b.isDone()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return;
        }
        try {
          b.await(remaining);
        } catch (InterruptedException e) {
          // the closer thread is interrupted by no one; keep the grace period
        }
      }
    }
  }

  /**
   * Gives every batch still without an outcome FAILED_AT_CLOSE (those in flight keep their memory
   * until return).
   */
  private void abortIncomplete() {
    timer.drainRetries();
    for (ProducerBatch b : incomplete.snapshot()) {
      String last = b.lastError == null ? "" : "; last error: " + b.lastError;
      SendResult r =
          new SendResult(
              SendResult.Status.FAILED_AT_CLOSE,
              b.attempt(),
              b.recordCount(),
              0,
              (b.state() == ProducerBatch.IN_FLIGHT
                      ? "producer closed while the batch was in flight"
                      : "producer closed before the batch was delivered")
                  + last,
              b.lastCause);
      if (b.tryAbort()) {
        completer.complete(b, r, 0, true);
      } else if (b.tryTimeOutInFlight()) {
        completer.complete(b, r, 0, false);
      }
    }
  }

  private void closeExporter() {
    try {
      exporter.close();
    } catch (Throwable t) {
      log.warn("closing {} failed", exporter.describe(), t);
    }
  }

  private void removeShutdownHook() {
    if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs (and finds the producer closed) or is running
      }
    }
  }

  private ProducerThread[] threads() {
    synchronized (threads) {
      return threads.toArray(new ProducerThread[0]);
    }
  }

  private void interruptThreads() {
    for (Thread t : threads()) {
      if (t != Thread.currentThread()) {
        t.interrupt();
      }
    }
  }

  private boolean joinThreads(long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    for (Thread t : threads()) {
      if (t == Thread.currentThread()) {
        continue;
      }
      long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      try {
        t.join(Math.max(1, remaining));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      if (t.isAlive()) {
        return false;
      }
    }
    return true;
  }

  /** A snapshot of the counters. */
  public ProducerMetrics metrics() {
    return metrics.snapshot();
  }

  public ProducerConfig config() {
    return config;
  }

  public boolean isClosed() {
    return closed;
  }

  /** A thread's encode buffer, and whether a send on that thread is using it. */
  private static final class Scratch {
    final EncodeBuffer buffer = new EncodeBuffer(SCRATCH_INITIAL_BYTES);
    boolean inUse;
  }
}
