package io.logproducer.benchmark.appenders;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Each variant's class path holds its framework and appender and none of the others'. */
class AppenderClasspathTest {

  private static final List<String> JARS =
      List.of(
          "logback-classic-1.5.38.jar",
          "log4j-core-2.25.5.jar",
          "slf4j-api-2.0.17.jar",
          "slf4j-simple-2.0.17.jar",
          "opentelemetry-logback-appender-1.0-2.29.0-alpha.jar",
          "opentelemetry-log4j-appender-2.17-2.27.0-alpha.jar",
          "opentelemetry-sdk-logs-1.63.0.jar",
          "producer-logback-0.1.0-SNAPSHOT.jar",
          "producer-log4j2-0.1.0-SNAPSHOT.jar",
          "producer-core-0.1.0-SNAPSHOT.jar",
          "jmh-core-1.37.jar");

  private static List<String> kept(AppenderVariant v) {
    return JARS.stream().filter(j -> AppenderClasspath.keep(v, j)).collect(Collectors.toList());
  }

  @Test
  void eachVariantGetsItsOwnJars() {
    Map<AppenderVariant, List<String>> expected =
        Map.of(
            AppenderVariant.LOGBACK_LOGPRODUCER,
            List.of(
                "logback-classic-1.5.38.jar",
                "slf4j-api-2.0.17.jar",
                "opentelemetry-sdk-logs-1.63.0.jar",
                "producer-logback-0.1.0-SNAPSHOT.jar",
                "producer-core-0.1.0-SNAPSHOT.jar"),
            AppenderVariant.LOGBACK_OTEL,
            List.of(
                "logback-classic-1.5.38.jar",
                "slf4j-api-2.0.17.jar",
                "opentelemetry-logback-appender-1.0-2.29.0-alpha.jar",
                "opentelemetry-sdk-logs-1.63.0.jar"),
            AppenderVariant.LOG4J2_RAF,
            List.of(
                "log4j-core-2.25.5.jar",
                "slf4j-api-2.0.17.jar",
                "opentelemetry-sdk-logs-1.63.0.jar"),
            AppenderVariant.LOG4J2_LOGPRODUCER,
            List.of(
                "log4j-core-2.25.5.jar",
                "slf4j-api-2.0.17.jar",
                "opentelemetry-sdk-logs-1.63.0.jar",
                "producer-log4j2-0.1.0-SNAPSHOT.jar",
                "producer-core-0.1.0-SNAPSHOT.jar"));
    expected.forEach((v, jars) -> assertEquals(jars, kept(v), v.id()));
  }
}
