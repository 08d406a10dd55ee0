package io.logproducer.benchmark.appenders;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The class path of each variant's child JVM, picked from the module's build output: {@code
 * target/classes} (this harness), {@code target/appender-lib/} (every runtime dependency as its own
 * jar) and, for the Aliyun variant, {@code target/aliyun-lib/}. A variant gets its framework and
 * its appender and nothing of the others: no log4j2 under logback and no logback or SLF4J under
 * log4j2, OpenTelemetry's appenders only for the OTel variants, our appenders only for ours, and
 * logback-classic as the only SLF4J provider (slf4j-simple left out).
 */
final class AppenderClasspath {

  private final Path target;

  /**
   * @param target the module's {@code target} directory after {@code package}
   */
  AppenderClasspath(Path target) {
    this.target = target;
  }

  /**
   * {@return the class path of {@code v}}
   *
   * @throws IOException naming the directory when the build output is missing
   */
  String of(AppenderVariant v) throws IOException {
    List<String> cp = new ArrayList<>();
    cp.add(dir("classes").toString());
    if (v == AppenderVariant.LOGBACK_ALIYUN) {
      jars(dir("aliyun-lib")).forEach(j -> cp.add(j.toString()));
    }
    for (Path jar : jars(dir("appender-lib"))) {
      if (keep(v, jar.getFileName().toString())) {
        cp.add(jar.toString());
      }
    }
    return String.join(File.pathSeparator, cp);
  }

  /** Whether the jar called {@code name} belongs on {@code v}'s class path. */
  static boolean keep(AppenderVariant v, String name) {
    boolean logback = v.framework() == AppenderVariant.Framework.LOGBACK;
    boolean otel = v == AppenderVariant.LOGBACK_OTEL || v == AppenderVariant.LOG4J2_OTEL;
    if (name.startsWith("jmh-") || name.startsWith("jopt-") || name.startsWith("commons-math3")) {
      return false;
    }
    if (name.startsWith("slf4j-simple")) {
      return false;
    }
    if (name.startsWith("logback-")) {
      return logback;
    }
    if (name.startsWith("log4j-")) {
      return !logback;
    }
    if (name.startsWith("opentelemetry-logback-")) {
      return v == AppenderVariant.LOGBACK_OTEL;
    }
    if (name.startsWith("opentelemetry-log4j-")) {
      return v == AppenderVariant.LOG4J2_OTEL;
    }
    if (name.startsWith("opentelemetry-instrumentation-")) {
      return otel;
    }
    if (name.startsWith("producer-logback")) {
      return logback && v.ours();
    }
    if (name.startsWith("producer-log4j2")) {
      return !logback && v.ours();
    }
    if (name.startsWith("producer-") && !name.startsWith("producer-testing")) {
      return v.ours();
    }
    // the OpenTelemetry SDK and exporter (the OTel variants; the harness's classes refer to them),
    // producer-testing, compression codecs, httpclient5: inert unless a variant uses them
    return true;
  }

  private Path dir(String name) throws IOException {
    Path d = target.resolve(name);
    if (!Files.isDirectory(d)) {
      throw new IOException(
          d
              + " is missing: build the module first (./mvnw -B -q -pl producer-benchmark -am"
              + " -DskipTests package)");
    }
    return d;
  }

  private static List<Path> jars(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
    }
  }
}
