package com.example.boot;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The application the tests start (in a package of its own: the appender never takes events of the
 * {@code io.logproducer} loggers): a web endpoint that logs, and a bean that logs while the context
 * shuts down. It has no logproducer code and no logging configuration: only the starter's
 * properties.
 */
@SpringBootApplication
public class SampleApplication {

  /** The line the shutdown bean logs. */
  static final String SHUTDOWN_LINE = "sample application: the last bean is destroyed";

  public static void main(String[] args) {
    SpringApplication.run(SampleApplication.class, args);
  }

  @Bean
  ShutdownLogger shutdownLogger() {
    return new ShutdownLogger();
  }

  /** With {@code sample.fail-in-runner=true}: a runner that throws, so the start fails after it. */
  @Bean
  @ConditionalOnProperty(name = "sample.fail-in-runner", havingValue = "true")
  ApplicationRunner failingRunner() {
    return args -> {
      throw new IllegalStateException("sample application: the runner failed");
    };
  }

  /** Logs during the context's close, as applications' beans do. */
  static final class ShutdownLogger implements DisposableBean {
    @Override
    public void destroy() {
      LoggerFactory.getLogger(SampleApplication.class).info(SHUTDOWN_LINE);
    }
  }

  /**
   * {@code GET /log?id=N&lines=K}: logs K lines with the request's id and a trace context in the
   * MDC under Micrometer Tracing's keys ({@code traceId}, {@code spanId}).
   */
  @RestController
  static class LogController {

    static final Logger LOG = LoggerFactory.getLogger(LogController.class);

    @GetMapping("/log")
    String log(
        @RequestParam("id") int id, @RequestParam(name = "lines", defaultValue = "5") int lines) {
      MDC.put("request.id", Integer.toString(id));
      MDC.put("traceId", traceId(id));
      MDC.put("spanId", spanId(id));
      try {
        for (int i = 0; i < lines; i++) {
          LOG.info("request {} line {}", id, i);
        }
      } finally {
        MDC.remove("request.id");
        MDC.remove("traceId");
        MDC.remove("spanId");
      }
      return "ok";
    }
  }

  static String traceId(int id) {
    return String.format("%032x", id + 1L);
  }

  static String spanId(int id) {
    return String.format("%016x", id + 1L);
  }
}
