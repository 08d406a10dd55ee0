package io.logproducer.spring.boot.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code logproducer} health indicator ({@link ProducerHealth}'s rule), when Spring Boot's
 * actuator is on the class path: {@code org.springframework.boot.health} on Boot 4, {@code
 * org.springframework.boot.actuate.health} on Boot 2.x and 3.x. Off with {@code
 * logproducer.health.enabled=false} or {@code management.health.logproducer.enabled=false}.
 */
@AutoConfiguration(after = LogproducerAutoConfiguration.class)
@ConditionalOnBean(name = LogproducerApplicationListener.RUNTIME_BEAN)
@ConditionalOnProperty(prefix = "logproducer.health", name = "enabled", matchIfMissing = true)
public class LogproducerHealthAutoConfiguration {

  /** Created by Spring. */
  public LogproducerHealthAutoConfiguration() {}

  static ProducerHealth rule(LogproducerRuntime runtime) {
    return new ProducerHealth(
        runtime.producer(), runtime.receiver(), runtime.health(), System::nanoTime);
  }

  /** Spring Boot 4's health API. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  @ConditionalOnProperty(
      prefix = "management.health.logproducer",
      name = "enabled",
      matchIfMissing = true)
  static class Boot4 {
    @Bean(name = "logproducerHealthIndicator")
    Boot4HealthIndicator logproducerHealthIndicator(LogproducerRuntime logproducerRuntime) {
      return new Boot4HealthIndicator(rule(logproducerRuntime));
    }
  }

  /** Spring Boot 2.x and 3.x's health API. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  @ConditionalOnMissingClass("org.springframework.boot.health.contributor.HealthIndicator")
  @ConditionalOnProperty(
      prefix = "management.health.logproducer",
      name = "enabled",
      matchIfMissing = true)
  static class Actuator {
    @Bean(name = "logproducerHealthIndicator")
    ActuatorHealthIndicator logproducerHealthIndicator(LogproducerRuntime logproducerRuntime) {
      return new ActuatorHealthIndicator(rule(logproducerRuntime));
    }
  }
}
