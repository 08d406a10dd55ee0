package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.micrometer.ProducerMetricsBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The producer's meters ({@code logproducer.*}, see docs/micrometer.md) as a Micrometer {@code
 * MeterBinder} bean, which Spring Boot binds to every {@code MeterRegistry} ({@code
 * /actuator/metrics}, the Prometheus scrape). Active when Micrometer and producer-micrometer are on
 * the class path and the starter runs; the binder's meters are removed when the context closes.
 */
@AutoConfiguration(after = LogproducerAutoConfiguration.class)
@ConditionalOnClass(
    name = {
      "io.micrometer.core.instrument.binder.MeterBinder",
      "io.logproducer.micrometer.ProducerMetricsBinder"
    })
@ConditionalOnBean(name = LogproducerApplicationListener.RUNTIME_BEAN)
public class LogproducerMetricsAutoConfiguration {

  /** Created by Spring. */
  public LogproducerMetricsAutoConfiguration() {}

  /**
   * {@return the binder of the shared producer's meters}
   *
   * @param logproducerRuntime the starter's runtime
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  ProducerMetricsBinder logproducerMetricsBinder(LogproducerRuntime logproducerRuntime) {
    return new ProducerMetricsBinder(logproducerRuntime.producer());
  }
}
