package io.logproducer.spring.boot.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * {@link LogproducerSanitizingFunction} when Spring Boot's actuator is on the class path: the
 * actuator's {@code configprops} and {@code env} endpoints mask the starter's secrets. On even when
 * {@code logproducer.enabled=false} (the properties are still shown).
 */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.SanitizingFunction")
public class LogproducerSanitizingAutoConfiguration {

  /** Created by Spring. */
  public LogproducerSanitizingAutoConfiguration() {}

  /** {@return the function the actuator's endpoints apply} */
  @Bean
  LogproducerSanitizingFunction logproducerSanitizingFunction() {
    return new LogproducerSanitizingFunction();
  }
}
