package io.logproducer.spring.boot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidPropertyException} into Spring Boot's "APPLICATION FAILED TO START"
 * report: the property, its value, the reason, and what to change. Registered in {@code
 * META-INF/spring.factories}.
 */
public class LogproducerFailureAnalyzer extends AbstractFailureAnalyzer<InvalidPropertyException> {

  /** Created by Spring Boot. */
  public LogproducerFailureAnalyzer() {}

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, InvalidPropertyException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Update the property '"
            + cause.getProperty()
            + "' (every logproducer.* property is in docs/spring-boot.md),"
            + " or set logproducer.enabled=false.",
        cause);
  }
}
