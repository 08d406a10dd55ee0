package io.logproducer.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A main class run in a child JVM, for tests that need a real process: a JVM exit (shutdown hooks),
 * a {@code kill -9}, a class path without some library, a heap limit, or name resolution the test
 * controls. The child runs this JVM's {@code java} with this JVM's class path (or another one); its
 * standard output and standard error are read together, line by line, on a daemon thread.
 *
 * <p>Talking to the child: it prints lines ({@link #awaitLine} waits for one by prefix) and reads
 * lines from its standard input ({@link #tell}). With {@link Builder#hostsFile(Path)} its host
 * names resolve through a file the test edits ({@code -Djdk.net.hosts.file}, JDK 9+), with the
 * JDK's DNS caches off ({@code networkaddress.cache.ttl} and {@code
 * networkaddress.cache.negative.ttl} 0, set through a {@code -Djava.security.properties} override:
 * security properties win over the {@code sun.net.inetaddr.*} system properties, and the JDK's own
 * {@code java.security} caches a failed lookup for 10 s); {@link #resolve(String)} makes a name
 * resolve to 127.0.0.1. The machine's resolver is never touched.
 *
 * <p>Thread-safety: one test thread drives a child; the output list may be read from any thread.
 * {@link #close()} waits up to 20 s for the child to exit, then kills it.
 */
public final class ChildJvm implements AutoCloseable {

  /** The exit code, the combined output and the run time of a child that has exited. */
  public static final class Result {
    private final int exitCode;
    private final String output;
    private final long millis;

    Result(int exitCode, String output, long millis) {
      this.exitCode = exitCode;
      this.output = output;
      this.millis = millis;
    }

    /** {@return the child's exit code} */
    public int exitCode() {
      return exitCode;
    }

    /** {@return everything the child wrote to standard output and error, each line ended by \n} */
    public String output() {
      return output;
    }

    /** {@return milliseconds from start to exit} */
    public long millis() {
      return millis;
    }
  }

  /** Builds a child JVM; {@link #start()} or {@link #run(long)} launches it. Not thread-safe. */
  public static final class Builder {
    private final Class<?> mainClass;
    private final List<String> jvmOptions = new ArrayList<String>();
    private final List<String> args = new ArrayList<String>();
    private String classPath = System.getProperty("java.class.path");
    private Path hostsDirectory;

    private Builder(Class<?> mainClass) {
      this.mainClass = mainClass;
    }

    /**
     * Options before the main class, e.g. {@code -Xmx256m} or {@code -Dkey=value}.
     *
     * @param options the options, in order
     * @return this builder
     */
    public Builder jvmOptions(String... options) {
      jvmOptions.addAll(Arrays.asList(options));
      return this;
    }

    /**
     * Like {@link #jvmOptions(String...)}.
     *
     * @param options the options, in order
     * @return this builder
     */
    public Builder jvmOptions(List<String> options) {
      jvmOptions.addAll(options);
      return this;
    }

    /**
     * The main class's arguments.
     *
     * @param arguments the arguments, in order
     * @return this builder
     */
    public Builder args(String... arguments) {
      args.addAll(Arrays.asList(arguments));
      return this;
    }

    /**
     * The child's class path; default this JVM's {@code java.class.path}.
     *
     * @param path the class path, entries separated by {@link File#pathSeparator}
     * @return this builder
     */
    public Builder classPath(String path) {
      this.classPath = path;
      return this;
    }

    /**
     * Host names resolve through a hosts file in {@code directory} (created if missing), which at
     * first lists {@code localhost} and this host's name; see {@link ChildJvm#resolve(String)}.
     *
     * @param directory where the hosts file and the security override are written
     * @return this builder
     */
    public Builder hostsFile(Path directory) {
      this.hostsDirectory = directory;
      return this;
    }

    /**
     * Launches the child.
     *
     * @return the running child
     * @throws IOException if the files cannot be written or the process cannot start
     */
    public ChildJvm start() throws IOException {
      return new ChildJvm(this);
    }

    /**
     * Launches the child with its standard input closed and waits for it to exit.
     *
     * @param timeoutSeconds the most to wait; the child is killed after it
     * @return the exit code and output
     * @throws IOException if the process cannot start
     * @throws InterruptedException if interrupted while waiting
     * @throws AssertionError if the child does not exit within {@code timeoutSeconds}
     */
    public Result run(long timeoutSeconds) throws IOException, InterruptedException {
      try (ChildJvm child = start()) {
        child.endInput();
        int code = child.waitFor(TimeUnit.SECONDS.toMillis(timeoutSeconds));
        return new Result(code, child.output(), child.millis());
      }
    }
  }

  private final String name;
  private final Path hosts;
  private final Process process;
  private final long startNanos = System.nanoTime();
  private final Thread reader;
  private final BlockingQueue<String> unread = new LinkedBlockingQueue<String>();
  private final List<String> lines = Collections.synchronizedList(new ArrayList<String>());
  private volatile long exitNanos;

  private ChildJvm(Builder b) throws IOException {
    this.name = b.mainClass.getSimpleName() + " " + String.join(" ", b.args);
    List<String> command = new ArrayList<String>();
    command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    if (b.hostsDirectory != null) {
      Files.createDirectories(b.hostsDirectory);
      this.hosts = b.hostsDirectory.resolve("hosts");
      replace(hosts, baseHosts());
      Path security = b.hostsDirectory.resolve("dns.security");
      replace(security, "networkaddress.cache.ttl=0\nnetworkaddress.cache.negative.ttl=0\n");
      command.add("-Djdk.net.hosts.file=" + hosts.toAbsolutePath());
      command.add("-Djava.security.properties=" + security.toAbsolutePath());
    } else {
      this.hosts = null;
    }
    command.addAll(b.jvmOptions);
    command.add("-cp");
    command.add(b.classPath);
    command.add(b.mainClass.getName());
    command.addAll(b.args);
    this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
    this.reader = new Thread(this::read, "child-jvm-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * A builder for a child running {@code mainClass}.
   *
   * @param mainClass a class with a {@code main(String[])} method, on the child's class path
   * @return a builder
   */
  public static Builder builder(Class<?> mainClass) {
    return new Builder(mainClass);
  }

  private void read() {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        synchronized (lines) {
          lines.add(line);
          lines.notifyAll(); // dumpThreads() waits for the dump's last line
        }
        unread.add(line);
      }
    } catch (IOException e) {
      lines.add("(reading the child's output failed: " + e + ")");
    }
  }

  /**
   * Waits for the next output line that starts with {@code prefix}; lines before it are skipped
   * (and kept in {@link #output()}).
   *
   * @param prefix the line's start
   * @param timeoutMillis the most to wait
   * @return the line
   * @throws InterruptedException if interrupted while waiting
   * @throws AssertionError if no such line comes within {@code timeoutMillis}; the message holds
   *     the output so far
   */
  public String awaitLine(String prefix, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (true) {
      long remaining = deadline - System.nanoTime();
      String line = remaining > 0 ? unread.poll(remaining, TimeUnit.NANOSECONDS) : null;
      if (line == null) {
        dumpThreads();
        throw new AssertionError(
            "no line '"
                + prefix
                + "...' from the child "
                + name
                + " within "
                + timeoutMillis
                + " ms; its output (ending with its threads' stacks, if it still ran):\n"
                + tail(40_000));
      }
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }

  /**
   * Asks a running child for its threads' stacks, for a test's failure message: {@code SIGQUIT}
   * makes the JVM print every thread's stack to its standard output, which this captures (see
   * {@link #output()}). Waits up to 2 s for the dump's last line to be read. Does nothing when the
   * child has exited, on Java 8 (no pid) or where there is no {@code kill} command.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void dumpThreads() throws InterruptedException {
    long pid = pid();
    if (pid < 0 || !process.isAlive()) {
      return;
    }
    int before = outputLines().size();
    try {
      new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).inheritIO().start().waitFor();
    } catch (IOException e) {
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    synchronized (lines) {
      // HotSpot's dump ends with the JNI global references line
      while (lines.size() <= before || !lines.get(lines.size() - 1).contains("JNI global ref")) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        TimeUnit.NANOSECONDS.timedWait(lines, left);
      }
    }
  }

  /**
   * Writes one line to the child's standard input.
   *
   * @param line the line, without its line separator
   * @throws IOException if the child's input is closed
   */
  public void tell(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /**
   * Closes the child's standard input: a child reading it sees its end.
   *
   * @throws IOException if closing fails
   */
  public void endInput() throws IOException {
    process.getOutputStream().close();
  }

  /**
   * Makes {@code hostName} resolve to 127.0.0.1 in the child from now on (the hosts file is
   * replaced atomically).
   *
   * @param hostName the name
   * @throws IOException if the file cannot be written
   * @throws IllegalStateException if the child was built without {@link Builder#hostsFile(Path)}
   */
  public void resolve(String hostName) throws IOException {
    if (hosts == null) {
      throw new IllegalStateException("the child was built without hostsFile(directory)");
    }
    replace(hosts, baseHosts() + "127.0.0.1 " + hostName + "\n");
  }

  /**
   * Kills the child at once ({@link Process#destroyForcibly()}: {@code SIGKILL} on Unix, a {@code
   * kill -9}: no shutdown hook runs) and waits up to 10 s for it to be gone.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    exited();
  }

  /**
   * Waits for the child to exit, and for its last output to be read.
   *
   * @param timeoutMillis the most to wait
   * @return the exit code
   * @throws InterruptedException if interrupted while waiting
   * @throws AssertionError if it does not exit in time (it is then killed); the message holds the
   *     output
   */
  public int waitFor(long timeoutMillis) throws InterruptedException {
    if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
      kill();
      throw new AssertionError(
          "child JVM "
              + name
              + " did not exit within "
              + timeoutMillis
              + " ms; its output:\n"
              + tail(8_000));
    }
    exited();
    return process.exitValue();
  }

  private void exited() throws InterruptedException {
    if (exitNanos == 0) {
      exitNanos = System.nanoTime();
    }
    reader.join(10_000);
  }

  /**
   * The child's process id.
   *
   * @return the pid, or -1 on Java 8 (whose {@link Process} does not tell it)
   */
  public long pid() {
    try {
      return (Long) Process.class.getMethod("pid").invoke(process);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return -1;
    }
  }

  /** {@return whether the child still runs} */
  public boolean isAlive() {
    return process.isAlive();
  }

  /** {@return everything the child has written so far, each line ended by \n} */
  public String output() {
    StringBuilder sb = new StringBuilder();
    synchronized (lines) {
      for (String line : lines) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  /** {@return the lines the child has written so far, a copy} */
  public List<String> outputLines() {
    synchronized (lines) {
      return new ArrayList<String>(lines);
    }
  }

  private String tail(int chars) {
    String all = output();
    return all.length() > chars ? all.substring(all.length() - chars) : all;
  }

  private long millis() {
    long end = exitNanos == 0 ? System.nanoTime() : exitNanos;
    return TimeUnit.NANOSECONDS.toMillis(end - startNanos);
  }

  /**
   * Waits up to 20 s for the child to exit, then kills it. Never throws for a child that ran over.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  @Override
  public void close() throws InterruptedException {
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    exited();
  }

  private static String baseHosts() {
    String base = "127.0.0.1 localhost\n";
    try {
      base += "127.0.0.1 " + InetAddress.getLocalHost().getHostName() + "\n";
    } catch (IOException e) {
      // the child then cannot resolve this host's name; a test on 127.0.0.1 does not need it
    }
    return base;
  }

  private static void replace(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
