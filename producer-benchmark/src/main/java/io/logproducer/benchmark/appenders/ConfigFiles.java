package io.logproducer.benchmark.appenders;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The framework configuration of each variant, as XML its users would write, with the sink's
 * endpoint in the {@code otlp.endpoint} system property (as docs/appenders.md's examples read it).
 * Our variants use docs/appenders.md's XML exactly as shown ({@code logproducer-inline} adds only
 * the queue size); the peers' use what their documentation shows, with the settings this suite
 * names.
 */
final class ConfigFiles {

  /** The pattern of the file variants (logback's {@code %X}: the MDC as {@code k=v, k=v}). */
  static final String PATTERN = "%d %-5level [%thread] %logger - %X %msg%n";

  /** The SLS project and logstore of the Aliyun variant (the Host its requests carry). */
  static final String SLS_PROJECT = "logproducer-benchmark";

  /**
   * The SLS endpoint name: never resolved, the requests go to {@link AliyunLocalAppender}'s proxy
   * address; it is the Host header, as SLS endpoints are.
   */
  static final String SLS_HOST = "sls-sink.invalid";

  private ConfigFiles() {}

  /** {@return the file variants' log file in {@code workDir}} */
  static Path logFile(Path workDir, AppenderVariant v) {
    return workDir.resolve(v.id().replace('/', '-') + ".log");
  }

  /**
   * Writes the variant's configuration file into {@code workDir}.
   *
   * @param queueSizeAttribute log4j2 inline: whether our log4j2 appender has {@code queueSize}
   * @return the file
   */
  static Path write(AppenderVariant v, Path workDir, boolean queueSizeAttribute)
      throws IOException {
    Files.createDirectories(workDir);
    Path file = workDir.resolve(v.id().replace('/', '-') + ".xml");
    Path log = logFile(workDir, v).toAbsolutePath();
    String xml =
        switch (v) {
          case LOGBACK_LOGPRODUCER -> logback(ourLogback(""));
          case LOGBACK_INLINE -> logback(ourLogback("    <queueSize>0</queueSize>\n"));
          case LOGBACK_FILE ->
              logback(
                  "  <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\">\n"
                      + "    <file>"
                      + log
                      + "</file>\n"
                      + "    <append>false</append>\n"
                      + "    <immediateFlush>false</immediateFlush>\n"
                      + "    <encoder><pattern>"
                      + PATTERN
                      + "</pattern></encoder>\n"
                      + "  </appender>\n",
                  "FILE");
          case LOGBACK_OTEL ->
              logback(
                  "  <appender name=\"OTEL\""
                      + " class=\"io.opentelemetry.instrumentation.logback.appender.v1_0"
                      + ".OpenTelemetryAppender\">\n"
                      + "    <captureMdcAttributes>*</captureMdcAttributes>\n"
                      + "  </appender>\n",
                  "OTEL");
          case LOGBACK_ALIYUN ->
              logback(
                  "  <appender name=\"ALIYUN\""
                      + " class=\"io.logproducer.benchmark.appenders.AliyunLocalAppender\">\n"
                      + "    <endpoint>"
                      + SLS_HOST
                      + "</endpoint>\n"
                      + "    <accessKeyId>benchmark-access-key-id</accessKeyId>\n"
                      + "    <accessKeySecret>benchmark-access-key-secret</accessKeySecret>\n"
                      + "    <project>"
                      + SLS_PROJECT
                      + "</project>\n"
                      + "    <logStore>reference</logStore>\n"
                      + "    <topic>benchmark</topic>\n"
                      + "    <mdcFields>"
                      + Workload.MDC_KEYS[0]
                      + ","
                      + Workload.MDC_KEYS[1]
                      + "</mdcFields>\n"
                      + "  </appender>\n",
                  "ALIYUN");
          case LOG4J2_LOGPRODUCER -> log4j2(ourLog4j2(""), "LOGPRODUCER");
          case LOG4J2_INLINE ->
              log4j2(ourLog4j2(queueSizeAttribute ? " queueSize=\"0\"" : ""), "LOGPRODUCER");
          case LOG4J2_RAF ->
              log4j2(
                  "    <RandomAccessFile name=\"RAF\" fileName=\""
                      + log
                      + "\" append=\"false\" immediateFlush=\"false\">\n"
                      + "      <PatternLayout pattern=\""
                      + PATTERN
                      + "\"/>\n"
                      + "    </RandomAccessFile>\n",
                  "RAF");
          case LOG4J2_OTEL ->
              log4j2(
                  "    <OpenTelemetry name=\"OTEL\" captureContextDataAttributes=\"*\"/>\n",
                  "OTEL");
        };
    Files.writeString(file, xml, StandardCharsets.UTF_8);
    return file;
  }

  /** docs/appenders.md's logback appender, plus {@code extra} elements. */
  private static String ourLogback(String extra) {
    return "  <appender name=\"LOGPRODUCER\" class=\"io.logproducer.logback.LogproducerAppender\">\n"
        + "    <otlp>\n"
        + "      <endpoint>${otlp.endpoint:-http://127.0.0.1:4318}</endpoint>\n"
        + "      <header>X-BK-TOKEN=abc</header>\n"
        + "      <serviceName>checkout</serviceName>\n"
        + "    </otlp>\n"
        + "    <producer>\n"
        + "      <totalSizeInBytes>67108864</totalSizeInBytes>\n"
        + "      <compression>zstd</compression>\n"
        + "    </producer>\n"
        + "    <mapping>\n"
        + "      <mdcExclude>password</mdcExclude>\n"
        + "    </mapping>\n"
        + "    <stopTimeoutMillis>10000</stopTimeoutMillis>\n"
        + extra
        + "  </appender>\n";
  }

  private static String logback(String appender) {
    return logback(appender, "LOGPRODUCER");
  }

  private static String logback(String appender, String ref) {
    return "<configuration>\n"
        + appender
        + "  <root level=\"INFO\">\n"
        + "    <appender-ref ref=\""
        + ref
        + "\"/>\n"
        + "  </root>\n"
        + "</configuration>\n";
  }

  /** docs/appenders.md's log4j2 appender, plus {@code attributes} on its element. */
  private static String ourLog4j2(String attributes) {
    return "    <Logproducer name=\"LOGPRODUCER\" stopTimeoutMillis=\"10000\""
        + attributes
        + ">\n"
        + "      <Otlp endpoint=\"${sys:otlp.endpoint:-http://127.0.0.1:4318}\""
        + " serviceName=\"checkout\" headers=\"X-BK-TOKEN=abc\"/>\n"
        + "      <ProducerSettings totalSizeInBytes=\"67108864\" compression=\"zstd\"/>\n"
        + "      <Mapping mdcExclude=\"password\"/>\n"
        + "    </Logproducer>\n";
  }

  private static String log4j2(String appender, String ref) {
    return "<Configuration status=\"WARN\">\n"
        + "  <Appenders>\n"
        + appender
        + "  </Appenders>\n"
        + "  <Loggers>\n"
        + "    <Root level=\"INFO\">\n"
        + "      <AppenderRef ref=\""
        + ref
        + "\"/>\n"
        + "    </Root>\n"
        + "  </Loggers>\n"
        + "</Configuration>\n";
  }
}
