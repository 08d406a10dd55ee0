package io.logproducer.spring.boot.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The starter's auto-configuration: the {@code logproducer.*} properties as a bean (shown by {@code
 * /actuator/configprops}). The producer itself, shared by the appender and the application, is the
 * bean {@value LogproducerApplicationListener#PRODUCER_BEAN} of type {@link
 * io.logproducer.Producer}, registered by {@link LogproducerApplicationListener} before the context
 * refreshes (it must exist before the first log line, long before any auto-configuration runs);
 * metrics and health are in {@link LogproducerMetricsAutoConfiguration} and {@link
 * LogproducerHealthAutoConfiguration}.
 */
@AutoConfiguration
@ConditionalOnProperty(prefix = "logproducer", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(LogproducerProperties.class)
public class LogproducerAutoConfiguration {

  /** Created by Spring. */
  public LogproducerAutoConfiguration() {}
}
