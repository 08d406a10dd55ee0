package io.logproducer.benchmark.harness;

import com.aliyun.openservices.aliyun.log.producer.Callback;
import com.aliyun.openservices.aliyun.log.producer.LogProducer;
import com.aliyun.openservices.aliyun.log.producer.ProducerConfig;
import com.aliyun.openservices.aliyun.log.producer.ProjectConfig;
import com.aliyun.openservices.aliyun.log.producer.Result;
import com.aliyun.openservices.aliyun.log.producer.errors.ProducerException;
import com.aliyun.openservices.log.common.LogItem;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Drives the Aliyun Log Java producer ({@code com.aliyun.openservices:aliyun-log-producer}, the
 * producer the JD Cloud Java producer derives from) the way its documentation shows: one {@link
 * LogProducer}, one project, and for every record a {@link LogItem} (time in seconds plus its
 * nanosecond part; contents {@code message} = the body, then {@code level}, {@code thread}, {@code
 * location} = the attributes, all strings) handed to {@code send(project, logStore, topic, source,
 * item, callback)}. The callback counts delivered and failed records.
 *
 * <p>Settings from the {@link RunSpec}: {@code ioThreadCount} = {@code sendThreads}, {@code
 * totalSizeInBytes}, {@code batchSizeThresholdInBytes} = {@code batchSizeInBytes}, {@code
 * batchCountThreshold}, {@code lingerMs} = {@code lingerMillis}, {@code compressType} from {@code
 * compression} (lz4; zstd; deflate for gzip; none).
 *
 * <p><b>Where it sends.</b> The SDK (aliyun-log 0.6.117) refuses an IP address as the endpoint and
 * otherwise sends to {@code http://<project>.<endpoint>}, which resolves nowhere for a local sink.
 * Its direct mode does what a test needs: {@link ProjectConfig#setProxyIp} ({@code
 * Client.setRealServerIP}) makes it send to {@code http://<ip:port>} while the {@code Host} header
 * stays {@code <project>.<endpoint>}. So the endpoint is a name that never resolves and the sink's
 * {@code 127.0.0.1:port} is the "real server IP". The sink ignores the signature (the access key is
 * a dummy; the client still computes the MD5 and HMAC-SHA1 of every request, as it would against
 * SLS).
 *
 * <p><b>Flush.</b> The producer has no {@code flush()}: an open batch leaves when it is full or
 * when {@code lingerMs} has passed. {@link #flush()} therefore closes the producer, which sends the
 * open batches at once and returns when every batch has its outcome and every callback has run; the
 * phase's driver is not used after its flush (the harness then closes it).
 */
final class AliyunDriver implements Driver {

  static final String PROJECT = "logproducer-benchmark";
  static final String LOGSTORE = "reference";
  static final String TOPIC = "benchmark";
  static final String SOURCE = "127.0.0.1";

  /**
   * Never resolved (the requests go to the proxy IP); used in the Host header as SLS endpoints are.
   */
  static final String ENDPOINT = "sls-sink.invalid";

  static final String THREAD_PREFIX = "aliyun-log-producer-";

  private final LogProducer producer;
  private final long totalSizeInBytes;
  private final LongAdder accepted = new LongAdder();
  private final LongAdder delivered = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final Callback callback = this::completed;
  private volatile boolean closed;

  private final Object flushLock = new Object();
  private volatile boolean flushing;

  /**
   * @param endpoint the SLS sink, {@code http://127.0.0.1:<port>}
   */
  AliyunDriver(RunSpec spec, String endpoint) {
    URI uri = URI.create(endpoint);
    if (uri.getHost() == null || uri.getPort() < 0) {
      throw new IllegalArgumentException(
          "the Aliyun driver needs http://<ip>:<port>, got " + endpoint);
    }
    ProducerConfig config = new ProducerConfig();
    config.setIoThreadCount(spec.sendThreads());
    config.setTotalSizeInBytes(Math.toIntExact(spec.totalSizeInBytes()));
    config.setBatchSizeThresholdInBytes(spec.batchSizeInBytes());
    config.setBatchCountThreshold(spec.batchCountThreshold());
    config.setLingerMs(Math.toIntExact(spec.lingerMillis()));
    config.setCompressType(compressType(spec.compression()));
    totalSizeInBytes = config.getTotalSizeInBytes();
    producer = new LogProducer(config);
    ProjectConfig project =
        new ProjectConfig(
            PROJECT, ENDPOINT, "benchmark-access-key-id", "benchmark-access-key-secret");
    project.setProxyIp(uri.getHost() + ":" + uri.getPort());
    producer.putProjectConfig(project);
  }

  /**
   * The producer's {@code compressType} for a compression ("deflate" is SLS's name for
   * zlib/gzip-1).
   */
  static String compressType(Compression c) {
    return switch (c) {
      case LZ4 -> "lz4";
      case ZSTD -> "zstd";
      case GZIP -> "deflate";
      case NONE -> "";
    };
  }

  /** The record as the Aliyun producer's users build one: contents are strings. */
  static LogItem toLogItem(LogRecord r) {
    long nanos = r.getTimeUnixNano();
    LogItem item = new LogItem((int) (nanos / 1_000_000_000L));
    item.SetTimeNsPart((int) (nanos % 1_000_000_000L));
    item.PushBack("message", r.getBody().asString());
    for (int i = 0, n = r.getAttributeCount(); i < n; i++) {
      item.PushBack(r.getAttributeKey(i), r.getAttributeValue(i).asString());
    }
    return item;
  }

  @Override
  public void send(LogRecord record) {
    LogItem item = toLogItem(record);
    try {
      producer.send(PROJECT, LOGSTORE, TOPIC, SOURCE, item, callback);
      accepted.increment();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failed.increment();
    } catch (ProducerException e) {
      // TimeoutException: no buffer space within maxBlockMs; LogSizeTooLargeException
      failed.increment();
    }
  }

  private void completed(Result result) {
    if (result.isSuccessful()) {
      delivered.increment();
    } else {
      failed.increment();
    }
    if (flushing) { // only while flush() waits: no lock on the measured path
      synchronized (flushLock) {
        flushLock.notifyAll();
      }
    }
  }

  @Override
  public void flush() {
    flushing = true;
    closeProducer();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    synchronized (flushLock) {
      // Every callback notifies while flushing, so each check below follows a completion (or the
      // deadline).
      while (delivered.sum() + failed.sum() < accepted.sum()) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          break;
        }
        try {
          flushLock.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  @Override
  public Counters counters() {
    long buffered = closed ? 0 : totalSizeInBytes - producer.availableMemoryInBytes();
    return new Counters(
        accepted.sum(), delivered.sum(), failed.sum(), 0, -1, -1, -1, -1, -1, -1, 0, buffered);
  }

  /**
   * {@code aliyun-log-producer-<n>-io-thread-<i>} (serialise, compress, sign and send a batch),
   * {@code -mover} (hands full and lingered batches to the IO threads), {@code
   * -success-batch-handler} and {@code -failure-batch-handler} (run the callbacks), {@code
   * -timeout-thread-<i>} (the SDK's request timeouts).
   */
  @Override
  public String threadGroup(String name) {
    return group(name);
  }

  static String group(String name) {
    if (!name.startsWith(THREAD_PREFIX)) {
      return null;
    }
    if (name.contains("-io-thread-")) {
      return "io";
    }
    if (name.endsWith("-mover")) {
      return "mover";
    }
    if (name.endsWith("-batch-handler")) {
      return "callback";
    }
    if (name.contains("-timeout-thread-")) {
      return "timeout";
    }
    return "aliyun-other";
  }

  @Override
  public void close() {
    closeProducer();
  }

  private synchronized void closeProducer() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      producer.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ProducerException e) {
      throw new IllegalStateException("closing the Aliyun producer failed", e);
    }
  }
}
