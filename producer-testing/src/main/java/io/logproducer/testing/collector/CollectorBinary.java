package io.logproducer.testing.collector;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where a real OpenTelemetry Collector binary comes from, for tests that run one ({@link
 * OtelCollector}). It is looked for, in order: the system property {@code binProperty}, the
 * environment variable {@code binEnv} (set by the project's {@code .ci/run}), the cache of the
 * project's {@code tools/<tool>/build.sh} (the directory {@code $cacheEnv}, else {@code
 * ${XDG_CACHE_HOME:-~/.cache}/<cacheDirName>}, the same rule build.sh uses), and last that script
 * is run, when Go is installed, with a time bound (a first build takes minutes, from the Go module
 * proxy). Without Go or a binary, {@link #skipReason()} says why, so that the test can skip visibly
 * ({@link #printToConsole(String)}).
 *
 * <p>The search (and a build) happens once per instance, on the first call of {@link #skipReason()}
 * or {@link #binary()}: keep one instance per tool in a {@code static final} field, so a JVM builds
 * at most once. Thread-safe: the first caller locates, the others wait for its answer.
 */
public final class CollectorBinary {

  private static final long GO_VERSION_SECONDS = 30;

  private final String tool;
  private final String binaryName;
  private final String cacheDirName;
  private final String binProperty;
  private final String binEnv;
  private final String cacheEnv;
  private final long buildTimeoutMillis;

  // Set by locate(), guarded by this: once located, exactly one of binary / skipReason is non-null.
  private boolean located;
  private Path binary;
  private String skipReason;

  /**
   * Describes a Collector built by the project's {@code tools/<tool>/build.sh}; nothing is looked
   * up yet.
   *
   * @param tool the directory under {@code tools/} holding build.sh and config.yaml, e.g. {@code
   *     otelcol}
   * @param binaryName the binary's file name in the cache directory, e.g. {@code otelcol-logs}
   * @param cacheDirName build.sh's cache directory name under {@code ~/.cache}, e.g. {@code
   *     otelcol-logs-0.162.0}
   * @param binProperty the system property naming a binary to use instead, e.g. {@code otelcol.bin}
   * @param binEnv the environment variable naming a binary to use instead, e.g. {@code OTELCOL_BIN}
   * @param cacheEnv the environment variable build.sh reads for its cache directory, e.g. {@code
   *     OTELCOL_CACHE}
   * @param buildTimeoutMillis the longest a build may take, in milliseconds, above 0; past it the
   *     build is killed and the tests skip
   * @throws IllegalArgumentException when a name is null or empty, or {@code buildTimeoutMillis <=
   *     0}
   */
  public CollectorBinary(
      String tool,
      String binaryName,
      String cacheDirName,
      String binProperty,
      String binEnv,
      String cacheEnv,
      long buildTimeoutMillis) {
    this.tool = requireName(tool, "tool");
    this.binaryName = requireName(binaryName, "binaryName");
    this.cacheDirName = requireName(cacheDirName, "cacheDirName");
    this.binProperty = requireName(binProperty, "binProperty");
    this.binEnv = requireName(binEnv, "binEnv");
    this.cacheEnv = requireName(cacheEnv, "cacheEnv");
    if (buildTimeoutMillis <= 0) {
      throw new IllegalArgumentException(
          "buildTimeoutMillis must be > 0 ms: " + buildTimeoutMillis);
    }
    this.buildTimeoutMillis = buildTimeoutMillis;
  }

  private static String requireName(String value, String name) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(name + " must be a non-empty name: " + value);
    }
    return value;
  }

  /**
   * Why the Collector cannot run here (no binary, and why), or null when it can. The first call
   * locates the binary and may build it (up to the build timeout); later calls answer at once.
   *
   * @return the reason, or null when {@link #binary()} has a binary
   * @throws IllegalStateException when the property or the environment variable names something
   *     that is not an executable file: a misconfiguration fails rather than skips
   */
  public synchronized String skipReason() {
    locate();
    return skipReason;
  }

  /**
   * The Collector binary, located (or built) as described in the class comment.
   *
   * @return the executable
   * @throws IllegalStateException when there is none (the message holds {@link #skipReason()}), or
   *     as {@link #skipReason()}
   */
  public synchronized Path binary() {
    locate();
    if (binary == null) {
      throw new IllegalStateException(
          "no OpenTelemetry Collector binary (" + tool + "): " + skipReason);
    }
    return binary;
  }

  /**
   * The project's {@code tools/<tool>} directory, found by walking up from the working directory (a
   * module directory under surefire) to the repository root.
   *
   * @return the directory holding build.sh and config.yaml
   * @throws IllegalStateException when no parent directory has {@code tools/<tool>/config.yaml}
   */
  public Path toolsDir() {
    String relative = "tools/" + tool;
    Path start = Paths.get("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve(relative);
      if (Files.isRegularFile(candidate.resolve("config.yaml"))) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        relative + "/config.yaml not found in " + start + " or any parent directory");
  }

  /**
   * Prints one line to the build's console: the process's real stderr (surefire sends {@code
   * System.err} to a file), e.g. the line saying that a test class is skipped and how to run it.
   *
   * @param line the text, without a line end
   */
  public static void printToConsole(String line) {
    try {
      @SuppressWarnings("resource") // the process's stderr stays open
      PrintStream console =
          new PrintStream(new FileOutputStream(FileDescriptor.err), true, "UTF-8");
      console.println(line);
    } catch (UnsupportedEncodingException e) {
      throw new IllegalStateException("UTF-8 is always supported", e);
    }
  }

  private void locate() {
    if (located) {
      return;
    }
    String configured = System.getProperty(binProperty);
    if (configured == null || configured.isEmpty()) {
      configured = System.getenv(binEnv);
    }
    if (configured != null && !configured.isEmpty()) {
      Path p = Paths.get(configured);
      if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
        throw new IllegalStateException(
            binProperty + " / " + binEnv + " is set but not an executable file: " + p);
      }
      binary = p;
    } else {
      Path cached = cacheDir().resolve(binaryName);
      if (Files.isExecutable(cached)) {
        binary = cached;
      } else {
        build();
      }
    }
    located = true;
  }

  /** build.sh's cache directory, by the same rule build.sh uses. */
  private Path cacheDir() {
    String cache = System.getenv(cacheEnv);
    if (cache != null && !cache.isEmpty()) {
      return Paths.get(cache);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    String home =
        System.getenv("HOME") != null ? System.getenv("HOME") : System.getProperty("user.home");
    Path base = xdg != null && !xdg.isEmpty() ? Paths.get(xdg) : Paths.get(home, ".cache");
    return base.resolve(cacheDirName);
  }

  /**
   * Runs build.sh (its last stdout line is the binary); sets {@link #binary} or {@link
   * #skipReason}.
   */
  private void build() {
    if (!goInstalled()) {
      skipReason = "Go is not installed (no 'go' on the PATH), so the Collector cannot be built";
      return;
    }
    Path script = toolsDir().resolve("build.sh");
    Path buildLog = null;
    try {
      buildLog = Files.createTempFile(tool + "-build-", ".log");
      Path out = Files.createTempFile(tool + "-build-", ".out");
      Process build =
          new ProcessBuilder("bash", script.toString())
              .redirectOutput(out.toFile())
              .redirectError(buildLog.toFile())
              .start();
      if (!build.waitFor(buildTimeoutMillis, TimeUnit.MILLISECONDS)) {
        OtelCollector.stop(build);
        skipReason =
            "building the Collector took over "
                + TimeUnit.MILLISECONDS.toMinutes(buildTimeoutMillis)
                + " minutes (log: "
                + buildLog
                + ")";
        return;
      }
      List<String> printed = Files.readAllLines(out, StandardCharsets.UTF_8);
      Files.deleteIfExists(out);
      Path built = printed.isEmpty() ? null : Paths.get(printed.get(printed.size() - 1).trim());
      if (build.exitValue() != 0 || built == null || !Files.isExecutable(built)) {
        skipReason =
            "building the Collector failed (exit "
                + build.exitValue()
                + "; log: "
                + buildLog
                + "; last line: "
                + lastLine(buildLog)
                + ")";
        return;
      }
      binary = built;
    } catch (IOException e) {
      skipReason =
          "building the Collector failed: "
              + e
              + (buildLog != null ? " (log: " + buildLog + ")" : "");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      skipReason = "interrupted while building the Collector";
    }
  }

  private static boolean goInstalled() {
    try {
      File discard =
          new File(System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
      Process p =
          new ProcessBuilder("go", "version")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.to(discard))
              .start();
      if (!p.waitFor(GO_VERSION_SECONDS, TimeUnit.SECONDS)) {
        OtelCollector.stop(p);
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static String lastLine(Path file) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return lines.isEmpty() ? "(empty)" : lines.get(lines.size() - 1);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  @Override
  public String toString() {
    return "CollectorBinary[tools/" + tool + ", -D" + binProperty + ", $" + binEnv + "]";
  }
}
