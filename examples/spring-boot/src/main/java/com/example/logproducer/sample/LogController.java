package com.example.logproducer.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /log?first=S&lines=K}: logs K INFO lines numbered S … S+K-1, each with the key-value
 * pair {@value #SEQ_KEY}=its number (an int attribute of the shipped record) and, in the MDC, a
 * trace context under Micrometer Tracing's keys ({@code traceId}: 32 hex digits, {@code spanId}:
 * 16) and {@code request.id}=S. Answers {@code ok}. Thread-safe.
 */
@RestController
public class LogController {

  /** The key-value pair that numbers each line (what the embedded receiver counts). */
  public static final String SEQ_KEY = "sample.seq";

  private static final Logger LOG = LoggerFactory.getLogger(LogController.class);

  /** Created by Spring. */
  public LogController() {}

  /**
   * Logs the lines.
   *
   * @param first the number of the first line, at least 0
   * @param lines how many lines, at least 0
   * @return {@code ok}
   */
  @GetMapping("/log")
  public String log(
      @RequestParam(name = "first", defaultValue = "0") long first,
      @RequestParam(name = "lines", defaultValue = "5") int lines) {
    MDC.put("request.id", Long.toString(first));
    MDC.put("traceId", traceId(first));
    MDC.put("spanId", spanId(first));
    try {
      for (int i = 0; i < lines; i++) {
        long seq = first + i;
        LOG.atInfo().addKeyValue(SEQ_KEY, seq).log("sample line {} of request {}", seq, first);
      }
    } finally {
      MDC.remove("request.id");
      MDC.remove("traceId");
      MDC.remove("spanId");
    }
    return "ok";
  }

  /** {@return the trace id logged for the request starting at {@code first}} */
  static String traceId(long first) {
    return String.format("%032x", first + 1);
  }

  /** {@return the span id logged for the request starting at {@code first}} */
  static String spanId(long first) {
    return String.format("%016x", first + 1);
  }
}
