package io.logproducer.benchmark.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark sink in its own JVM: {@link OtlpSinkMain}, a real OTLP/HTTP receiver on 127.0.0.1
 * that decompresses and counts every record and reports its counters and its process CPU every
 * second (or, for the Aliyun producer, {@link #SLS_MAIN}: the same kind of server speaking SLS
 * PutLogs, reporting alike). This class starts it, reads its reports on a daemon thread, and stops
 * it by closing its stdin.
 */
public final class SinkProcess implements AutoCloseable {

  /** The OTLP/HTTP sink (logproducer and the OpenTelemetry SDK). */
  public static final String OTLP_MAIN = "io.logproducer.benchmark.harness.OtlpSinkMain";

  /** The SLS PutLogs sink (the Aliyun Log Java producer). */
  public static final String SLS_MAIN = "io.logproducer.benchmark.sls.SlsReceiverMain";

  /** The sink mains' options ({@code --port P --threads T}). */
  @Command(mixinStandardHelpOptions = true)
  public static final class Options {
    @Option(names = "--port", description = "the HTTP port; 0 (default): a free one")
    public int port;

    @Option(names = "--threads", description = "accepted and ignored: the servers size their own")
    int threads;
  }

  private final Process process;
  private final String endpoint;
  private final String grpcEndpoint; // null for a sink without a gRPC listener
  private final List<SinkStats> history = new ArrayList<>();
  private final Thread reader;

  /**
   * Starts the sink and waits until it listens.
   *
   * @param java the java executable
   * @param classpath a classpath holding {@link OtlpSinkMain}
   * @param jvmArgs extra JVM options (heap)
   * @param threads receiver request threads
   */
  public SinkProcess(String java, String classpath, List<String> jvmArgs, int threads)
      throws IOException {
    this(java, classpath, jvmArgs, threads, OTLP_MAIN);
  }

  /**
   * Starts the sink {@code mainClass} ({@link #OTLP_MAIN} or {@link #SLS_MAIN}, both print {@code
   * listening <url>} and then one report a second) and waits until it listens.
   */
  public SinkProcess(
      String java, String classpath, List<String> jvmArgs, int threads, String mainClass)
      throws IOException {
    List<String> cmd = new ArrayList<>(List.of(java, PerformanceSuite.ENABLE_NATIVE_ACCESS));
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of("-cp", classpath, mainClass, "--port", "0", "--threads", "" + threads));
    process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String first = out.readLine();
    if (first == null || !first.startsWith("listening ")) {
      process.destroyForcibly();
      throw new IOException("the sink did not start: " + first);
    }
    // "listening <url> [<grpc url>]"
    String[] urls = first.substring("listening ".length()).trim().split("\\s+");
    endpoint = urls[0];
    grpcEndpoint = urls.length > 1 ? urls[1] : null;
    reader =
        new Thread(
            () -> {
              try {
                String line;
                while ((line = out.readLine()) != null) {
                  SinkStats s = SinkStats.parse(line, System.nanoTime());
                  if (s != null) {
                    synchronized (history) {
                      history.add(s);
                      history.notifyAll();
                    }
                  }
                }
              } catch (IOException ignored) {
                // sink gone
              }
            },
            "sink-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** The base endpoint, e.g. {@code http://127.0.0.1:43123}. */
  public String endpoint() {
    return endpoint;
  }

  /**
   * The base endpoint for {@code spec}: the OTLP/gRPC listener's for protocol {@code grpc}, else
   * {@link #endpoint()}.
   *
   * @throws IllegalStateException if {@code spec} wants gRPC and this sink has no gRPC listener
   */
  public String endpoint(RunSpec spec) {
    if (!spec.grpc()) {
      return endpoint;
    }
    if (grpcEndpoint == null) {
      throw new IllegalStateException("this sink has no OTLP/gRPC listener: " + endpoint);
    }
    return grpcEndpoint;
  }

  public long pid() {
    return process.pid();
  }

  /** The newest report, waiting up to 3 s for the first one. */
  public SinkStats latest() throws InterruptedException {
    synchronized (history) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      while (history.isEmpty() && System.nanoTime() < deadline) {
        history.wait(100);
      }
      return history.isEmpty()
          ? new SinkStats(0, 0, 0, 0, 0, 0, System.nanoTime())
          : history.get(history.size() - 1);
    }
  }

  /**
   * The first report read after {@code nanos} ({@code System.nanoTime()}), waiting up to {@code
   * waitMillis}.
   */
  public SinkStats firstAfter(long nanos, long waitMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    synchronized (history) {
      while (true) {
        for (int i = history.size() - 1; i >= 0; i--) {
          SinkStats s = history.get(i);
          if (s.readAtNanos() - nanos < 0) {
            break;
          }
          if (i == 0 || history.get(i - 1).readAtNanos() - nanos < 0) {
            return s;
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return null;
        }
        history.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }
  }

  /**
   * Waits for the first report at or above {@code target} records, at most {@code waitMillis} (the
   * producer counts a record delivered only after the sink answered, so it is normally in the next
   * report). Returns that report, or the newest one on timeout.
   */
  public SinkStats awaitRecords(long target, long waitMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    // Only a report read after this call reflects everything the caller saw acknowledged.
    SinkStats s = firstAfter(System.nanoTime(), waitMillis);
    while (s != null && s.records() < target) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      s = firstAfter(s.readAtNanos() + 1, TimeUnit.NANOSECONDS.toMillis(left));
    }
    return s != null ? s : latest();
  }

  /** All reports read between two instants. */
  public List<SinkStats> between(long fromNanos, long toNanos) {
    List<SinkStats> out = new ArrayList<>();
    synchronized (history) {
      for (SinkStats s : history) {
        if (s.readAtNanos() - fromNanos >= 0 && s.readAtNanos() - toNanos <= 0) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** Stops the sink (closes its stdin) and waits for it to exit. */
  @Override
  public void close() {
    try {
      OutputStream in = process.getOutputStream();
      in.close();
    } catch (IOException ignored) {
      // already gone
    }
    awaitExit(process, 10);
  }

  /** Waits up to {@code seconds} for {@code process} to exit, then kills it. */
  public static void awaitExit(Process process, long seconds) {
    try {
      if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
