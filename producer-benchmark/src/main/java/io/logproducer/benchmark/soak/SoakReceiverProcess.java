package io.logproducer.benchmark.soak;

import io.logproducer.benchmark.harness.PerformanceSuite;
import io.logproducer.benchmark.harness.SinkProcess;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Starts {@link SoakReceiver} in its own JVM, sends it commands and reads its reports. */
final class SoakReceiverProcess implements AutoCloseable {

  /** One {@code stats} line of the receiver, read at {@code readAtNanos} ({@code nanoTime}). */
  record Stats(
      long unique,
      long duplicates,
      long records,
      long noId,
      long unknownThread,
      long requests,
      long unavailable,
      long bad,
      long readAtNanos) {

    static final Stats NONE = new Stats(0, 0, 0, 0, 0, 0, 0, 0, 0);

    static Stats parse(String line, long now) {
      Map<String, Long> m = new HashMap<>();
      for (String kv : line.substring("stats ".length()).split(" ")) {
        String[] p = kv.split("=", 2);
        if (p.length == 2 && p[1].matches("\\d+")) {
          m.put(p[0], Long.parseLong(p[1]));
        }
      }
      return new Stats(
          m.get("unique"),
          m.get("dup"),
          m.get("records"),
          m.get("noid"),
          m.get("unknown"),
          m.get("requests"),
          m.get("unavailable"),
          m.get("bad"),
          now);
    }
  }

  private final Process process;
  private final String endpoint;
  private final BufferedWriter stdin;
  private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();
  private volatile Stats latest = Stats.NONE;
  private final Object statsLock = new Object();

  /** Starts the receiver with this JVM's java and class path; waits until it listens. */
  SoakReceiverProcess(List<String> jvmArgs, int threads) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(PerformanceSuite.ENABLE_NATIVE_ACCESS);
    cmd.addAll(jvmArgs);
    cmd.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            SoakReceiver.class.getName(),
            "--threads",
            Integer.toString(threads)));
    process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    stdin =
        new BufferedWriter(
            new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String first = out.readLine();
    if (first == null || !first.startsWith("listening ")) {
      process.destroyForcibly();
      throw new IOException("the soak receiver did not start: " + first);
    }
    endpoint = first.substring("listening ".length()).trim();
    Thread reader =
        new Thread(
            () -> {
              try {
                String line;
                while ((line = out.readLine()) != null) {
                  if (line.startsWith("stats ")) {
                    Stats s = Stats.parse(line, System.nanoTime());
                    synchronized (statsLock) {
                      latest = s;
                      statsLock.notifyAll();
                    }
                  } else if (line.startsWith("ok ") || line.startsWith("error ")) {
                    replies.add(line);
                  } else {
                    System.err.println("receiver: " + line);
                  }
                }
              } catch (IOException ignored) {
                // receiver gone
              }
            },
            "soak-receiver-reader");
    reader.setDaemon(true);
    reader.start();
  }

  String endpoint() {
    return endpoint;
  }

  Stats latest() {
    return latest;
  }

  /**
   * The first report read after {@code nanos} ({@code System.nanoTime()}), or the latest one after
   * the wait.
   */
  Stats statsAfter(long nanos, long waitMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    synchronized (statsLock) {
      while (latest.readAtNanos() - nanos <= 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        statsLock.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
      return latest;
    }
  }

  /** Sends a command and waits for its acknowledgement. */
  void command(String command, long timeoutMillis) throws IOException, InterruptedException {
    synchronized (stdin) {
      replies.clear();
      stdin.write(command);
      stdin.write('\n');
      stdin.flush();
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (true) {
        long left = deadline - System.nanoTime();
        String reply = left > 0 ? replies.poll(left, TimeUnit.NANOSECONDS) : null;
        if (reply == null) {
          throw new IOException(
              "the soak receiver did not acknowledge '%s' within %d ms"
                  .formatted(command, timeoutMillis));
        }
        if (reply.equals("ok " + command)) {
          return;
        }
        if (reply.startsWith("error " + command)) {
          throw new IOException("the soak receiver failed '" + reply + "'");
        }
      }
    }
  }

  /** Stops the receiver (quit, then stdin closed), killing it if it has not exited within 10 s. */
  @Override
  public void close() {
    try {
      synchronized (stdin) {
        stdin.write("quit\n");
        stdin.close();
      }
    } catch (IOException ignored) {
      // already gone
    }
    SinkProcess.awaitExit(process, 10);
  }

  /** Kills the receiver at once (the watchdog's path). */
  void kill() {
    process.destroyForcibly();
  }
}
