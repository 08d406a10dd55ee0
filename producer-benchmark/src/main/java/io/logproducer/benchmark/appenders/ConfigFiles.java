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
          case LOGBACK_LOGPRODUCER -> logback(ourLogback(""), "LOGPRODUCER");
          case LOGBACK_INLINE ->
              logback(ourLogback("    <queueSize>0</queueSize>\n"), "LOGPRODUCER");
          case LOGBACK_FILE ->
              logback(
                  """
                    <appender name="FILE" class="ch.qos.logback.core.FileAppender">
                      <file>%s</file>
                      <append>false</append>
                      <immediateFlush>false</immediateFlush>
                      <encoder><pattern>%s</pattern></encoder>
                    </appender>
                  """
                      .formatted(log, PATTERN),
                  "FILE");
          case LOGBACK_OTEL ->
              logback(
                  """
                    <appender name="OTEL" class="io.opentelemetry.instrumentation.logback.appender.v1_0.OpenTelemetryAppender">
                      <captureMdcAttributes>*</captureMdcAttributes>
                    </appender>
                  """,
                  "OTEL");
          case LOGBACK_ALIYUN ->
              logback(
                  """
                    <appender name="ALIYUN" class="io.logproducer.benchmark.appenders.AliyunLocalAppender">
                      <endpoint>%s</endpoint>
                      <accessKeyId>benchmark-access-key-id</accessKeyId>
                      <accessKeySecret>benchmark-access-key-secret</accessKeySecret>
                      <project>%s</project>
                      <logStore>reference</logStore>
                      <topic>benchmark</topic>
                      <mdcFields>%s</mdcFields>
                    </appender>
                  """
                      .formatted(SLS_HOST, SLS_PROJECT, String.join(",", Workload.MDC_KEYS)),
                  "ALIYUN");
          case LOG4J2_LOGPRODUCER -> log4j2(ourLog4j2(""), "LOGPRODUCER");
          case LOG4J2_INLINE ->
              log4j2(ourLog4j2(queueSizeAttribute ? " queueSize=\"0\"" : ""), "LOGPRODUCER");
          case LOG4J2_RAF ->
              log4j2(
                  """
                      <RandomAccessFile name="RAF" fileName="%s" append="false" immediateFlush="false">
                        <PatternLayout pattern="%s"/>
                      </RandomAccessFile>
                  """
                      .formatted(log, PATTERN),
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
    return """
          <appender name="LOGPRODUCER" class="io.logproducer.logback.LogproducerAppender">
            <otlp>
              <endpoint>${otlp.endpoint:-http://127.0.0.1:4318}</endpoint>
              <header>X-BK-TOKEN=abc</header>
              <serviceName>checkout</serviceName>
            </otlp>
            <producer>
              <totalSizeInBytes>67108864</totalSizeInBytes>
              <compression>zstd</compression>
            </producer>
            <mapping>
              <mdcExclude>password</mdcExclude>
            </mapping>
            <stopTimeoutMillis>10000</stopTimeoutMillis>
        %s  </appender>
        """
        .formatted(extra);
  }

  private static String logback(String appender, String ref) {
    return """
        <configuration>
        %s  <root level="INFO">
            <appender-ref ref="%s"/>
          </root>
        </configuration>
        """
        .formatted(appender, ref);
  }

  /** docs/appenders.md's log4j2 appender, plus {@code attributes} on its element. */
  private static String ourLog4j2(String attributes) {
    return """
            <Logproducer name="LOGPRODUCER" stopTimeoutMillis="10000"%s>
              <Otlp endpoint="${sys:otlp.endpoint:-http://127.0.0.1:4318}" serviceName="checkout" headers="X-BK-TOKEN=abc"/>
              <ProducerSettings totalSizeInBytes="67108864" compression="zstd"/>
              <Mapping mdcExclude="password"/>
            </Logproducer>
        """
        .formatted(attributes);
  }

  private static String log4j2(String appender, String ref) {
    return """
        <Configuration status="WARN">
          <Appenders>
        %s  </Appenders>
          <Loggers>
            <Root level="INFO">
              <AppenderRef ref="%s"/>
            </Root>
          </Loggers>
        </Configuration>
        """
        .formatted(appender, ref);
  }
}
