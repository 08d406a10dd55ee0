package io.logproducer.spool;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running {@link SpoolChildMain} on this JVM's classpath, its output lines collected by
 * a reader thread. (The branch this was written on predates {@code
 * io.logproducer.testing.ChildJvm}; this is the small subset the spool tests need: start, await a
 * line, kill -9.)
 */
final class SpoolChild implements AutoCloseable {
  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private final Thread reader;

  private SpoolChild(Process process) {
    this.process = process;
    this.reader = new Thread(this::readLines, "spool-child-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@link SpoolChildMain} with {@code args}. */
  static SpoolChild start(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    cmd.add("-Xmx128m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(SpoolChildMain.class.getName());
    cmd.addAll(List.of(args));
    return new SpoolChild(new ProcessBuilder(cmd).redirectErrorStream(true).start());
  }

  private void readLines() {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        synchronized (lines) {
          lines.add(line);
          lines.notifyAll();
        }
      }
    } catch (IOException ignored) {
      // The child died.
    } finally {
      synchronized (lines) {
        lines.add(null);
        lines.notifyAll();
      }
    }
  }

  /**
   * Waits for the {@code count}-th line starting with {@code prefix}. {@return it}
   *
   * @throws AssertionError on timeout or when the child ends first (with its output)
   */
  String awaitLine(String prefix, int count, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    synchronized (lines) {
      int seen = 0;
      int i = 0;
      while (true) {
        for (; i < lines.size(); i++) {
          String l = lines.get(i);
          if (l == null) {
            throw new AssertionError("child ended before line '" + prefix + "': " + lines);
          }
          if (l.startsWith(prefix) && ++seen == count) {
            return l;
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("no line '" + prefix + "' #" + count + " in time: " + tail());
        }
        TimeUnit.NANOSECONDS.timedWait(lines, left);
      }
    }
  }

  /** {@return a copy of the lines so far, after the child ended (waits for the reader)} */
  List<String> linesAfterExit() throws InterruptedException {
    reader.join(TimeUnit.SECONDS.toMillis(30));
    synchronized (lines) {
      List<String> out = new ArrayList<>(lines);
      out.remove(null);
      return out;
    }
  }

  /** {@return the child's pid} */
  long pid() {
    return process.pid();
  }

  /** Kills the child with SIGKILL and waits for it to end. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("child " + pid() + " survived SIGKILL for 30 s");
    }
  }

  private String tail() {
    int from = Math.max(0, lines.size() - 20);
    return lines.subList(from, lines.size()).toString();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill();
    }
  }
}
