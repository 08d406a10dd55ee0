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
import io.logproducer.spi.RecordEncoder;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's machinery behind {@link io.logproducer.Producer}: wires the budget, accumulator, linger timer,
 * send pool and completer around one exporter, and implements send, flush and close. Internal: use
 * {@code Producer}.
 */
public final class ProducerEngine {

  private static final Logger log = LoggerFactory.getLogger(ProducerEngine.class);
  private static final int SCRATCH_INITIAL_BYTES = 4096;
  private static final int SCRATCH_KEEP_BYTES = 1024 * 1024;
  private static final ThreadLocal<EncodeBuffer> SCRATCH =
      ThreadLocal.withInitial(() -> new EncodeBuffer(SCRATCH_INITIAL_BYTES));
  private static final SendResult DROPPED =
      new SendResult(SendResult.Status.DROPPED, 0, 1, 0, "buffer full (totalSizeInBytes exhausted); record dropped",
          null);

  private final ProducerConfig config;
  private final Exporter exporter;
  private final RecordEncoder encoder;
  private final int maxRecordSize;
  private final MemoryBudget budget;
  private final Metrics metrics;
  private final IncompleteBatches incomplete = new IncompleteBatches();
  private final Accumulator accumulator;
  private final LingerTimer timer;
  private final Sender sender;
  private final Thread[] threads;
  private final RateLimitedLog dropLog = new RateLimitedLog(log, 10_000);
  private final AtomicBoolean closeStarted = new AtomicBoolean();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private final ObjectName jmxName;
  private volatile boolean closed;

  /**
   * Starts a producer: the linger thread and {@code sendThreads} send threads.
   *
   * @throws IllegalArgumentException if the exporter cannot honour the configuration
   */
  public ProducerEngine(ProducerConfig config, Exporter exporter) {
    if (config == null || exporter == null) {
      throw new IllegalArgumentException("config and exporter must not be null");
    }
    this.config = config;
    this.exporter = exporter;
    Compression compression = config.getCompression() != null ? config.getCompression()
        : exporter.defaultCompression();
    if (!exporter.supports(compression)) {
      throw new IllegalArgumentException("compression " + compression + " is not supported by " + exporter.describe());
    }
    if (config.getBatchSizeInBytes() > exporter.maxBatchSizeInBytes()) {
      throw new IllegalArgumentException("batchSizeInBytes (" + config.getBatchSizeInBytes()
          + ") exceeds the exporter's maximum batch size (" + exporter.maxBatchSizeInBytes() + ")");
    }
    Codec codec = Codec.of(compression, config.getCompressionLevel());
    this.encoder = exporter.encoder();
    this.maxRecordSize = (int) Math.min(exporter.maxBatchSizeInBytes(), config.getTotalSizeInBytes());
    this.budget = new MemoryBudget(config.getTotalSizeInBytes());
    this.metrics = new Metrics(budget);
    int chunkSize = ChunkPool.chunkSizeFor(config.getBatchSizeInBytes());
    ChunkPool pool = new ChunkPool(chunkSize, (int) Math.min(Integer.MAX_VALUE,
        config.getTotalSizeInBytes() / chunkSize));
    BatchCompleter completer = new BatchCompleter(budget, metrics, incomplete);
    RetryPolicy retryPolicy = new RetryPolicy(config.getRetries(), config.getInitialRetryBackoffMillis(),
        config.getMaxRetryBackoffMillis());
    this.timer = new LingerTimer(this::sealForLinger, this::retryDue);
    this.sender = new Sender(exporter, codec, retryPolicy, completer, timer, metrics);
    this.accumulator = new Accumulator(pool, config.getBatchSizeInBytes(), config.getBatchCountThreshold(),
        TimeUnit.MILLISECONDS.toNanos(config.getLingerMillis()),
        TimeUnit.MILLISECONDS.toNanos(config.getDeliveryTimeoutMillis()), incomplete, timer::track, sender::enqueue);

    exporter.start(config);
    String id = config.getClientId();
    this.threads = new Thread[config.getSendThreads() + 1];
    threads[0] = new ProducerThread(this, id + "-linger", timer);
    for (int i = 1; i < threads.length; i++) {
      threads[i] = new ProducerThread(this, id + "-sender-" + i, sender::runLoop);
    }
    for (Thread t : threads) {
      t.start();
    }
    this.jmxName = config.isJmxEnabled() ? registerJmx(id) : null;
    log.debug("producer {} started: {} -> {} ({})", id, config, exporter.describe(), compression);
  }

  private void sealForLinger(ProducerBatch b) {
    accumulator.sealIfOpen(b);
  }

  private void retryDue(ProducerBatch b) {
    sender.enqueue(b);
  }

  /** See {@link io.logproducer.Producer#send(LogRecord, Callback)}. */
  public void send(LogRecord record, Callback callback) {
    if (record == null) {
      throw new IllegalArgumentException("record must not be null");
    }
    if (closed) {
      throw new IllegalStateException("cannot send after the producer is closed");
    }
    EncodeBuffer buf = SCRATCH.get();
    buf.reset();
    try {
      encoder.encode(record, buf);
      int size = buf.size();
      if (size > maxRecordSize) {
        throw new RecordTooLargeException(size, maxRecordSize);
      }
      Object shardKey = exporter.shardKey(record);
      if (!reserve(size, callback)) {
        return;
      }
      metrics.recordsAccepted.increment();
      try {
        accumulator.append(shardKey, buf.array(), size, callback); // refuses appends after close, under its lock
      } catch (Throwable t) {
        metrics.recordsAccepted.decrement();
        budget.release(size);
        throw t;
      }
    } finally {
      if (buf.capacity() > SCRATCH_KEEP_BYTES) {
        buf.shrinkTo(SCRATCH_INITIAL_BYTES);
      }
    }
  }

  private boolean reserve(int size, Callback callback) {
    if (budget.tryReserve(size)) {
      return true;
    }
    if (config.getBufferFullPolicy() == BufferFullPolicy.DROP) {
      metrics.recordsDropped.increment();
      dropLog.warn("buffer full (totalSizeInBytes " + budget.total() + "); dropping records", null);
      if (callback != null) {
        try {
          callback.onCompletion(DROPPED);
        } catch (Throwable t) {
          dropLog.warn("a send callback threw; ignored", t);
        }
      }
      return false;
    }
    // From our own thread (a callback) we must not wait: the budget is freed by our own threads.
    long maxBlock = ProducerThread.isOwnedBy(this) ? 0 : config.getMaxBlockMillis();
    budget.reserve(size, maxBlock);
    return true;
  }

  /** See {@link io.logproducer.Producer#flush()}. */
  public void flush() {
    ProducerBatch[] pending = incomplete.snapshot();
    accumulator.sealAll();
    if (ProducerThread.isOwnedBy(this)) {
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
    if (ProducerThread.isOwnedBy(this)) {
      // From a callback: we cannot wait for our own threads. Close with no grace on a helper thread.
      if (closeStarted.compareAndSet(false, true)) {
        closed = true;
        budget.close();
        log.warn("producer {} closed from its own thread (a callback): closing without waiting; "
            + "undelivered records fail at close", config.getClientId());
        Thread closer = new Thread(() -> doClose(0), config.getClientId() + "-closer");
        closer.setDaemon(true);
        closer.start();
      }
      return;
    }
    if (closeStarted.compareAndSet(false, true)) {
      doClose(timeoutMillis);
    } else {
      try {
        terminated.await(timeoutMillis, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void doClose(long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.min(timeoutMillis, Long.MAX_VALUE / 4_000_000L));
    boolean interrupted = false;
    try {
      closed = true;
      budget.close(); // wakes senders blocked on the budget: they fail, having reserved nothing
      accumulator.closeAndSealAll(); // after this no record can be appended to any batch
      for (ProducerBatch b : incomplete.snapshot()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          break;
        }
        try {
          b.await(remaining);
        } catch (InterruptedException e) {
          interrupted = true;
          break;
        }
      }
      sender.abort();
      timer.stop();
      abortPending("producer closed before the batch was sent");
      sender.stop();
      if (!join(threads, 200)) {
        exporter.close(); // make in-flight requests fail fast
        for (Thread t : threads) {
          t.interrupt();
        }
        if (!join(threads, 30_000)) {
          log.warn("producer {}: send threads did not stop within 30 s of close", config.getClientId());
        }
      }
      abortPending("producer closed before the batch was sent");
    } finally {
      try {
        exporter.close();
      } catch (Throwable t) {
        log.warn("closing {} failed", exporter.describe(), t);
      }
      unregisterJmx();
      terminated.countDown();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      ProducerMetrics m = metrics.snapshot();
      log.debug("producer {} closed: {}", config.getClientId(), m);
    }
  }

  /** Completes every batch not in flight as FAILED_AT_CLOSE. */
  private void abortPending(String message) {
    timer.drainRetries();
    sender.drain();
    for (ProducerBatch b : incomplete.snapshot()) {
      if (b.state() == ProducerBatch.OPEN) {
        continue; // cannot happen: closeAndSealAll sealed every open batch and refuses new ones
      }
      if (b.tryAbort()) {
        String last = b.lastError == null ? "" : "; last error: " + b.lastError;
        sender.completeAborted(b, new SendResult(SendResult.Status.FAILED_AT_CLOSE, b.attempt(), b.recordCount(), 0,
            message + last, b.lastCause));
      }
    }
  }

  private static boolean join(Thread[] threads, long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    for (Thread t : threads) {
      long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (remaining <= 0 && t.isAlive()) {
        return false;
      }
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

  private ObjectName registerJmx(String clientId) {
    try {
      ObjectName name = new ObjectName("io.logproducer:type=Producer,clientId=" + ObjectName.quote(clientId));
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      server.registerMBean(new StandardMBean(metrics, io.logproducer.ProducerMetricsMXBean.class, true), name);
      return name;
    } catch (Exception | LinkageError e) {
      log.warn("could not register JMX metrics for producer {}: {}", clientId, e.toString());
      return null;
    }
  }

  private void unregisterJmx() {
    if (jmxName != null) {
      try {
        ManagementFactory.getPlatformMBeanServer().unregisterMBean(jmxName);
      } catch (Exception | LinkageError e) {
        log.debug("could not unregister {}", jmxName, e);
      }
    }
  }
}
