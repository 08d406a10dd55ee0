package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.Producer;
import java.time.Duration;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Starts the starter's producer and installs its appender as soon as the environment is ready:
 * right after Spring Boot's {@code LoggingApplicationListener} initialised the logging system (this
 * listener's order is one after it), so the application's first log line ("Starting …") is shipped.
 * Registered in {@code META-INF/spring.factories}; one instance per {@code SpringApplication} run.
 *
 * <p>When the context is prepared it registers the producer as the bean {@value #PRODUCER_BEAN} and
 * the runtime as a disposable bean registered before any other, so that the context destroys it
 * last: the producer ships the lines logged during shutdown and is closed within {@code
 * logproducer.shutdown-timeout} (default {@code spring.lifecycle.timeout-per-shutdown-phase}, 30
 * s). A start that fails closes it at once.
 */
public class LogproducerApplicationListener
    implements ApplicationListener<ApplicationEvent>, Ordered {

  /** The name of the shared {@link Producer} bean. */
  public static final String PRODUCER_BEAN = "logproducerProducer";

  /** The name of the runtime's bean (the context closes it last). */
  static final String RUNTIME_BEAN = "logproducerRuntime";

  /** Spring Boot's {@code LoggingApplicationListener.DEFAULT_ORDER} (highest precedence + 20). */
  private static final int LOGGING_LISTENER_ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

  private static final long DEFAULT_SHUTDOWN_TIMEOUT_MILLIS = 30_000;

  private LogproducerRuntime runtime;
  private long shutdownTimeoutMillis = DEFAULT_SHUTDOWN_TIMEOUT_MILLIS;

  /** Created by Spring Boot from {@code META-INF/spring.factories}. */
  public LogproducerApplicationListener() {}

  @Override
  public int getOrder() {
    return LOGGING_LISTENER_ORDER + 1;
  }

  @Override
  public void onApplicationEvent(ApplicationEvent event) {
    if (event instanceof ApplicationEnvironmentPreparedEvent) {
      ApplicationEnvironmentPreparedEvent e = (ApplicationEnvironmentPreparedEvent) event;
      start(e.getEnvironment(), e.getSpringApplication().getClassLoader());
    } else if (event instanceof ApplicationPreparedEvent) {
      register(((ApplicationPreparedEvent) event).getApplicationContext().getBeanFactory());
    } else if (event instanceof ApplicationFailedEvent) {
      LogproducerRuntime r = runtime;
      if (r != null) {
        r.close(shutdownTimeoutMillis);
      }
    }
  }

  private void start(ConfigurableEnvironment environment, ClassLoader classLoader) {
    if (runtime != null) {
      return;
    }
    Binder binder = Binder.get(environment);
    LogproducerProperties properties =
        binder
            .bind("logproducer", Bindable.of(LogproducerProperties.class))
            .orElseGet(LogproducerProperties::new);
    if (!properties.isEnabled()) {
      return;
    }
    Duration timeout = properties.getShutdownTimeout();
    if (timeout == null) {
      timeout =
          binder
              .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
              .orElse(Duration.ofMillis(DEFAULT_SHUTDOWN_TIMEOUT_MILLIS));
    }
    if (timeout.isNegative()) {
      throw new InvalidPropertyException(
          "logproducer.shutdown-timeout", timeout, "must not be negative");
    }
    shutdownTimeoutMillis = timeout.toMillis();
    runtime =
        LogproducerRuntime.start(
            properties, environment.getProperty("spring.application.name"), classLoader);
  }

  private void register(ConfigurableListableBeanFactory beanFactory) {
    LogproducerRuntime r = runtime;
    if (r == null || beanFactory.containsSingleton(RUNTIME_BEAN)) {
      return;
    }
    beanFactory.registerSingleton(RUNTIME_BEAN, r);
    beanFactory.registerSingleton(PRODUCER_BEAN, r.producer());
    if (beanFactory instanceof DefaultSingletonBeanRegistry) {
      long timeout = shutdownTimeoutMillis;
      ((DefaultSingletonBeanRegistry) beanFactory)
          .registerDisposableBean(RUNTIME_BEAN, () -> r.close(timeout));
    }
  }
}
