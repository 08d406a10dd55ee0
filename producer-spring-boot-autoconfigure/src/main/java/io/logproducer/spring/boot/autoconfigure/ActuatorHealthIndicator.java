package io.logproducer.spring.boot.autoconfigure;

import java.util.Map;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/**
 * The {@link ProducerHealth} rule as a health indicator of Spring Boot 2.x and 3.x ({@code
 * org.springframework.boot.actuate.health}), shown as {@code logproducer} in {@code
 * /actuator/health}. Thread-safe.
 */
final class ActuatorHealthIndicator implements HealthIndicator {

  private final ProducerHealth rule;

  ActuatorHealthIndicator(ProducerHealth rule) {
    this.rule = rule;
  }

  @Override
  public Health health() {
    ProducerHealth.Result r = rule.check();
    Health.Builder b = Health.status(new Status(r.status));
    for (Map.Entry<String, Object> e : r.details.entrySet()) {
      b.withDetail(e.getKey(), e.getValue());
    }
    return b.build();
  }
}
