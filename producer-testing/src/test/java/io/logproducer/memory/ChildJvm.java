package io.logproducer.memory;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test classpath in a child JVM, bounded in time, and collects its output.
 */
public final class ChildJvm {

  /** Exit code and combined stdout/stderr of a finished child. */
  public record Result(int exitCode, String output, long millis) {}

  private ChildJvm() {}

  /**
   * Runs {@code mainClass} with {@code jvmOptions} and {@code args} on this JVM's classpath.
   *
   * @throws AssertionError if it does not finish within {@code timeoutSeconds} (it is then killed)
   */
  public static Result run(
      List<String> jvmOptions, Class<?> mainClass, long timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    return run(jvmOptions, System.getProperty("java.class.path"), mainClass, timeoutSeconds, args);
  }

  /** Like {@link #run(List, Class, long, String...)} with the given {@code classPath}. */
  public static Result run(
      List<String> jvmOptions,
      String classPath,
      Class<?> mainClass,
      long timeoutSeconds,
      String... args)
      throws IOException, InterruptedException {
    String java =
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass.getName());
    command.addAll(Arrays.asList(args));
    Path out = Files.createTempFile("child-jvm-", ".log");
    try {
      long start = System.nanoTime();
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError(
            "child JVM "
                + mainClass.getSimpleName()
                + " "
                + String.join(" ", args)
                + " did not finish within "
                + timeoutSeconds
                + " s; output:\n"
                + new String(Files.readAllBytes(out), StandardCharsets.UTF_8));
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      return new Result(
          p.exitValue(), new String(Files.readAllBytes(out), StandardCharsets.UTF_8), millis);
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
