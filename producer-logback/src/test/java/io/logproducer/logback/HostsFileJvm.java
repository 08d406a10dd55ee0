package io.logproducer.logback;

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
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM whose name resolution is a hosts file the test controls ({@code
 * -Djdk.net.hosts.file}), with the JDK's DNS caches off ({@code networkaddress.cache.ttl} and
 * {@code networkaddress.cache.negative.ttl} 0, through a {@code -Djava.security.properties}
 * override: the security properties win over the {@code sun.net.inetaddr.*} system properties, and
 * the JDK's own {@code java.security} caches a failed lookup for 10 s). At first the file lists
 * {@code localhost} and this host's name only; {@link #resolve(String)} adds a name. The child's
 * standard output is read line by line; its standard error goes to a file. (producer-kafka's tests
 * have the same class; test classes are not shared between modules.)
 */
final class HostsFileJvm implements AutoCloseable {

  private final Path hosts;
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();
  private final Path stderr;

  HostsFileJvm(Path dir, Class<?> mainClass, String... args) throws IOException {
    Files.createDirectories(dir);
    this.hosts = dir.resolve("hosts");
    this.stderr = dir.resolve("stderr.log");
    write(hosts, baseHosts());
    Path security = dir.resolve("dns.security");
    write(security, "networkaddress.cache.ttl=0\nnetworkaddress.cache.negative.ttl=0\n");
    List<String> command = new ArrayList<>();
    command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    command.add("-Xmx256m");
    command.add("-Djdk.net.hosts.file=" + hosts.toAbsolutePath());
    command.add("-Djava.security.properties=" + security.toAbsolutePath());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(Arrays.asList(args));
    this.process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("EOF " + e);
              }
            },
            "hosts-file-jvm-reader");
    reader.setDaemon(true);
    reader.start();
  }

  private static String baseHosts() {
    String base = "127.0.0.1 localhost\n";
    try {
      base += "127.0.0.1 " + InetAddress.getLocalHost().getHostName() + "\n";
    } catch (IOException e) {
      // the child then cannot resolve this host's name; the producer does not need it
    }
    return base;
  }

  private static void write(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Makes {@code name} resolve to 127.0.0.1 in the child (the file is replaced atomically). */
  void resolve(String name) throws IOException {
    write(hosts, baseHosts() + "127.0.0.1 " + name + "\n");
  }

  /** Writes one line to the child's standard input. */
  void tell(String line) throws IOException {
    OutputStream in = process.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  /**
   * The next output line that starts with {@code prefix} (earlier lines are kept for messages).
   *
   * @throws AssertionError if none comes within {@code timeoutMillis}
   */
  String awaitLine(String prefix, long timeoutMillis) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (true) {
      long remaining = deadline - System.nanoTime();
      String line = remaining > 0 ? lines.poll(remaining, TimeUnit.NANOSECONDS) : null;
      if (line == null) {
        throw new AssertionError(
            "no line '"
                + prefix
                + "...' from the child within "
                + timeoutMillis
                + " ms; output: "
                + seen
                + "; stderr tail: "
                + tail());
      }
      seen.add(line);
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }

  private String tail() throws IOException {
    String all = new String(Files.readAllBytes(stderr), StandardCharsets.UTF_8);
    return all.length() > 4_000 ? all.substring(all.length() - 4_000) : all;
  }

  @Override
  public void close() throws InterruptedException {
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
