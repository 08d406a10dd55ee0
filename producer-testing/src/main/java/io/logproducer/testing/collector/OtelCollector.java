package io.logproducer.testing.collector;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One running real OpenTelemetry Collector process whose pipeline ends in the debug exporter, for
 * interop tests: it tells when the Collector is ready ({@code "Everything is ready"} in its log),
 * how many log records it has exported (the sum of the debug exporter's per-batch {@code "log
 * records": N}), its error lines and the tail of its log. It needs a Collector binary ({@link
 * CollectorBinary} finds or builds one; building needs Go) and a configuration text the test fills
 * in (receiver, ports, verbosity).
 *
 * <pre>{@code
 * try (OtelCollector collector = OtelCollector.launch(BINARY.binary(), config)) {
 *   assertTrue(collector.awaitReady(30_000), collector.logTail());
 *   ... send 100 records ...
 *   assertEquals(100, collector.awaitRecordCount(100, 30_000), collector.logTail());
 * }
 * }</pre>
 *
 * <p>Timeouts are in milliseconds; waits read the log every 25 ms. The log is read incrementally,
 * so counting stays cheap on long logs; keep the debug exporter's log sampling off in the
 * configuration, or batches go uncounted. Thread-safe: every method may be called from any thread.
 */
public final class OtelCollector implements AutoCloseable {

  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
  private static final long EXIT_SECONDS = 10;
  private static final int TAIL_LINES = 60;
  private static final int MAX_LINE_BYTES = 1 << 20;
  private static final String READY = "Everything is ready";

  /** The OTLP receiver's HTTP protocol line, with its indentation and line end. */
  private static final Pattern HTTP_PROTOCOL = Pattern.compile("(?m)^( *)http:[ \\t]*\\r?\\n");

  private static final Pattern LOG_RECORDS = Pattern.compile("\"log records\": (\\d+)");

  /** The Collector's console log: {@code <time> TAB <level> TAB ...}; these levels are errors. */
  private static final Pattern ERROR_LINE =
      Pattern.compile("^[^\\t]*\\t(error|dpanic|panic|fatal)\\t");

  private final Process process;
  private final Path dir;
  private final Path log;

  // What the log has shown so far; read incrementally by scan(), guarded by this.
  private long readOffset;
  private String partialLine = "";
  private boolean ready;
  private long records;
  private final List<String> errorLines = new ArrayList<>();
  private final Deque<String> tail = new ArrayDeque<>();

  private OtelCollector(Process process, Path dir, Path log) {
    this.process = process;
    this.dir = dir;
    this.log = log;
  }

  /**
   * Writes {@code config} to a new temporary directory and starts {@code binary --config <it>}, its
   * output (stdout and stderr) going to a log file there. Does not wait: call {@link
   * #awaitReady(long)}.
   *
   * @param binary the Collector executable
   * @param config the Collector's YAML configuration, with every value filled in
   * @return the running Collector; close it
   * @throws IOException when the directory, its files or the process cannot be created
   * @throws IllegalArgumentException when {@code binary} or {@code config} is null
   */
  public static OtelCollector launch(Path binary, String config) throws IOException {
    if (binary == null || config == null) {
      throw new IllegalArgumentException(
          "binary and config must not be null: " + binary + ", " + config);
    }
    Path dir = Files.createTempDirectory("otelcol-");
    Path configFile = dir.resolve("config.yaml");
    Files.write(configFile, config.getBytes(StandardCharsets.UTF_8));
    Path log = dir.resolve("collector.log");
    Process process =
        new ProcessBuilder(binary.toString(), "--config", configFile.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    return new OtelCollector(process, dir, log);
  }

  /**
   * Returns {@code config} with a {@code tls} block added to its one {@code http:} protocol (the
   * OTLP receiver's {@code receivers.otlp.protocols.http}), so that the receiver serves HTTPS with
   * TLS 1.2 or later: the Collector's {@code configtls} server settings {@code cert_file}, {@code
   * key_file}, {@code min_version: "1.2"} and, when {@code clientCaFile} is given, {@code
   * client_ca_file}, with which the Collector requires a client certificate that CA issued (mutual
   * TLS; Go's {@code RequireAndVerifyClientCert}).
   *
   * <pre>{@code
   * String tlsConfig = OtelCollector.withHttpTls(config, server.certificateFile(),
   *     server.keyFile(), pki.caFile()); // io.logproducer.testing.tls.TestPki
   * try (OtelCollector collector = OtelCollector.launch(BINARY.binary(), tlsConfig)) { ... }
   * }</pre>
   *
   * @param config the Collector's YAML configuration, with exactly one line {@code http:} (nothing
   *     after the colon), under which the block is indented by two more spaces
   * @param certFile the server's certificate chain (PEM)
   * @param keyFile the server's private key (PEM)
   * @param clientCaFile the CA certificate(s) (PEM) client certificates must be issued by, or null
   *     for server-only TLS
   * @return the configuration with the block
   * @throws IllegalArgumentException when {@code config}, {@code certFile} or {@code keyFile} is
   *     null, or {@code config} has no or several {@code http:} lines
   */
  public static String withHttpTls(String config, Path certFile, Path keyFile, Path clientCaFile) {
    if (config == null || certFile == null || keyFile == null) {
      throw new IllegalArgumentException(
          "config, certFile and keyFile must not be null: "
              + (config == null ? "config" : certFile == null ? "certFile" : "keyFile"));
    }
    Matcher m = HTTP_PROTOCOL.matcher(config);
    if (!m.find()) {
      throw new IllegalArgumentException("config has no line \"http:\" to add tls to:\n" + config);
    }
    int end = m.end();
    String indent = m.group(1) + "  ";
    if (m.find()) {
      throw new IllegalArgumentException("config has several lines \"http:\":\n" + config);
    }
    StringBuilder block = new StringBuilder();
    block.append(indent).append("tls:\n");
    block.append(indent).append("  cert_file: ").append(yamlString(certFile)).append('\n');
    block.append(indent).append("  key_file: ").append(yamlString(keyFile)).append('\n');
    if (clientCaFile != null) {
      block.append(indent).append("  client_ca_file: ").append(yamlString(clientCaFile));
      block.append('\n');
    }
    block.append(indent).append("  min_version: \"1.2\"\n");
    return config.substring(0, end) + block + config.substring(end);
  }

  /**
   * Returns {@code config} with the OTLP receiver's gRPC protocol added beside its one {@code
   * http:} protocol ({@code receivers.otlp.protocols.grpc}, OTLP/gRPC on {@code
   * 127.0.0.1:<grpcPort>}, the Collector's defaults otherwise: {@code max_recv_msg_size_mib} 4,
   * gzip, zstd and snappy message encodings).
   *
   * <pre>{@code
   * String config = OtelCollector.withGrpc(baseConfig, grpcPort);
   * try (OtelCollector collector = OtelCollector.launch(BINARY.binary(), config)) { ... }
   * }</pre>
   *
   * @param config the Collector's YAML configuration, with exactly one line {@code http:}
   * @param grpcPort the TCP port of the gRPC endpoint, in [1, 65535]
   * @return the configuration with a {@code grpc:} block before the {@code http:} line
   * @throws IllegalArgumentException when {@code config} is null, has no or several {@code http:}
   *     lines, or the port is out of range
   */
  public static String withGrpc(String config, int grpcPort) {
    if (config == null) {
      throw new IllegalArgumentException("config must not be null");
    }
    if (grpcPort < 1 || grpcPort > 65535) {
      throw new IllegalArgumentException("grpcPort must be in [1, 65535], was " + grpcPort);
    }
    Matcher m = HTTP_PROTOCOL.matcher(config);
    if (!m.find()) {
      throw new IllegalArgumentException(
          "config has no line \"http:\" to add grpc beside:\n" + config);
    }
    int start = m.start();
    String indent = m.group(1);
    if (m.find()) {
      throw new IllegalArgumentException("config has several lines \"http:\":\n" + config);
    }
    String block = indent + "grpc:\n" + indent + "  endpoint: 127.0.0.1:" + grpcPort + "\n";
    return config.substring(0, start) + block + config.substring(start);
  }

  /** A path as a double-quoted YAML string. */
  private static String yamlString(Path path) {
    return "\"" + path.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /**
   * Waits until the Collector logs {@code "Everything is ready"}, exits, or {@code timeoutMillis}
   * pass.
   *
   * @param timeoutMillis the longest wait, in milliseconds
   * @return true when it reported ready and is still running; false when it exited or was not ready
   *     in time (then close it; {@link #logTail()} and {@link #errors()} say why)
   */
  public boolean awaitReady(long timeoutMillis) {
    poll(timeoutMillis, () -> !process.isAlive() || reportedReady());
    return reportedReady() && process.isAlive();
  }

  /**
   * The number of log records the Collector has exported so far: the sum of the debug exporter's
   * per-batch {@code "log records": N} lines.
   *
   * @return the count so far
   */
  public synchronized long recordCount() {
    scan();
    return records;
  }

  /**
   * Waits until the Collector has exported at least {@code expected} log records, exits, or {@code
   * timeoutMillis} pass. Compare the result with {@code expected}: more means records were counted
   * twice (or others arrived), less that they did not arrive in time.
   *
   * @param expected the count to wait for
   * @param timeoutMillis the longest wait, in milliseconds
   * @return {@link #recordCount()} when it reached {@code expected}, or at the deadline
   */
  public long awaitRecordCount(long expected, long timeoutMillis) {
    poll(timeoutMillis, () -> recordCount() >= expected || !process.isAlive());
    return recordCount();
  }

  /**
   * The Collector's log lines at error level so far (the first line of each entry, without the
   * stack trace that follows it).
   *
   * @return a copy, oldest first
   */
  public synchronized List<String> errors() {
    scan();
    return new ArrayList<>(errorLines);
  }

  /**
   * The last lines of the Collector's log, for assertion messages.
   *
   * @return up to 60 lines, joined by newlines, with a line still being written last
   */
  public synchronized String logTail() {
    scan();
    String partial = partialLine.isEmpty() ? "" : "\n" + partialLine;
    return String.join("\n", tail) + partial;
  }

  /**
   * The whole log so far, e.g. to find the lines a detailed debug exporter prints per record.
   *
   * @return the log's text (UTF-8), or "" when it cannot be read
   */
  public String logText() {
    try {
      return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * The file the Collector writes its output to (kept after {@link #close()} for inspection).
   *
   * @return the log file
   */
  public Path logFile() {
    return log;
  }

  /**
   * Whether the Collector process is still running.
   *
   * @return true until it exits or is closed
   */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Stops the Collector: SIGTERM, up to 10 s to exit, then SIGKILL and up to 10 s more. The log
   * file stays; the configuration file is deleted. Idempotent.
   *
   * @throws IllegalStateException when the process has not exited 10 s after SIGKILL
   */
  @Override
  public void close() {
    stop(process);
    try {
      Files.deleteIfExists(dir.resolve("config.yaml"));
    } catch (IOException e) {
      // only a temp file left behind
    }
  }

  /** SIGTERM, up to 10 s, then SIGKILL and up to 10 s more; keeps the interrupt status. */
  static void stop(Process p) {
    p.destroy();
    boolean interrupted = false;
    try {
      if (!p.waitFor(EXIT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        if (!p.waitFor(EXIT_SECONDS, TimeUnit.SECONDS)) {
          throw new IllegalStateException(
              "process " + p + " did not exit " + EXIT_SECONDS + " s after SIGKILL");
        }
      }
    } catch (InterruptedException e) {
      interrupted = true;
      p.destroyForcibly();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private interface Condition {
    boolean holds();
  }

  /**
   * Evaluates {@code condition} until it holds or the deadline passes, parking 25 ms in between.
   */
  private static boolean poll(long timeoutMillis, Condition condition) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (true) {
      if (condition.holds()) {
        return true;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0 || Thread.currentThread().isInterrupted()) {
        return false;
      }
      LockSupport.parkNanos(Math.min(left, POLL_NANOS));
    }
  }

  private synchronized boolean reportedReady() {
    scan();
    return ready;
  }

  /**
   * Accounts the complete lines the log gained since the last call. A line still being written is
   * read again next time; meanwhile it is only shown by {@link #logTail()}.
   */
  private void scan() {
    try (RandomAccessFile in = new RandomAccessFile(log.toFile(), "r")) {
      while (true) {
        long length = in.length();
        if (length <= readOffset) {
          return;
        }
        byte[] fresh = new byte[(int) Math.min(length - readOffset, MAX_LINE_BYTES)];
        in.seek(readOffset);
        in.readFully(fresh);
        // '\n' never occurs inside a UTF-8 encoded character: cut after the last one.
        int end = fresh.length;
        while (end > 0 && fresh[end - 1] != '\n') {
          end--;
        }
        if (end == 0 && fresh.length == MAX_LINE_BYTES) {
          end = fresh.length; // a line longer than that: accounted in pieces
        }
        partialLine = new String(fresh, end, fresh.length - end, StandardCharsets.UTF_8);
        if (end == 0) {
          return; // no complete line yet
        }
        readOffset += end;
        for (String line : new String(fresh, 0, end, StandardCharsets.UTF_8).split("\n")) {
          if (!line.isEmpty()) {
            account(line);
          }
        }
      }
    } catch (IOException e) {
      // not created yet
    }
  }

  private void account(String line) {
    Matcher m = LOG_RECORDS.matcher(line);
    while (m.find()) {
      records += Long.parseLong(m.group(1));
    }
    if (!ready && line.contains(READY)) {
      ready = true;
    }
    if (ERROR_LINE.matcher(line).find()) {
      errorLines.add(line);
    }
    tail.addLast(line);
    if (tail.size() > TAIL_LINES) {
      tail.removeFirst();
    }
  }

  @Override
  public String toString() {
    return "OtelCollector[" + log + "]";
  }
}
