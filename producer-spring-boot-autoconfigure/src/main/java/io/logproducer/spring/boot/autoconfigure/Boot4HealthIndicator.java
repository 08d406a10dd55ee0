package io.logproducer.spring.boot.autoconfigure;

import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@link ProducerHealth} rule as a health indicator of Spring Boot 4 ({@code
 * org.springframework.boot.health.contributor}, where Boot 4 moved the health API), shown as {@code
 * logproducer} in {@code /actuator/health}. Loaded only on Boot 4. Thread-safe.
 */
final class Boot4HealthIndicator implements HealthIndicator {

  private final ProducerHealth rule;

  Boot4HealthIndicator(ProducerHealth rule) {
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
