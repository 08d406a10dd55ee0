package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.Producer;
import java.time.Duration;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.context.event.SpringApplicationEvent;
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
 * s). A start that fails (the context's refresh, or a runner, throws) closes it at once, before
 * Spring Boot reports the failure: what is still buffered fails at close, and the appender reports
 * it. Every {@code logproducer.*} property is checked before the producer starts ({@link
 * StarterSettings#validate()}).
 */
public class LogproducerApplicationListener
    implements ApplicationListener<ApplicationEvent>, Ordered {

  /** The name of the shared {@link Producer} bean. */
  public static final String PRODUCER_BEAN = "logproducerProducer";

  /** The name of the runtime's bean (the context closes it last). */
  static final String RUNTIME_BEAN = "logproducerRuntime";

  /** Spring Boot's {@code LoggingApplicationListener.DEFAULT_ORDER} (highest precedence + 20). */
  private static final int LOGGING_LISTENER_ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

  private LogproducerRuntime runtime;
  private volatile boolean started; // the context refreshed (ApplicationStartedEvent)
  private volatile SpringApplication application; // the run this listener serves
  private long shutdownTimeoutMillis = StarterSettings.DEFAULT_SHUTDOWN_TIMEOUT.toMillis();

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
      application = e.getSpringApplication();
      start(e.getEnvironment(), e.getSpringApplication().getClassLoader());
    } else if (event instanceof ApplicationPreparedEvent) {
      register(((ApplicationPreparedEvent) event).getApplicationContext().getBeanFactory());
    } else if (event instanceof ApplicationStartedEvent && ours((SpringApplicationEvent) event)) {
      started = true;
      checkSslBundle();
    } else if (event instanceof ApplicationFailedEvent && ours((SpringApplicationEvent) event)) {
      // Before Spring Boot reports the failure: the backlog is abandoned (failed at close, counted
      // and reported by the appender), not shipped within the shutdown timeout.
      LogproducerRuntime r = runtime;
      if (r != null) {
        r.close(0);
      }
    }
  }

  /**
   * Whether {@code event} is about this listener's application, not a child context's (whose
   * events, published through its context, reach its parent's listeners too).
   */
  private boolean ours(SpringApplicationEvent event) {
    return event.getSpringApplication() == application;
  }

  /**
   * After the refresh, {@code logproducer.otlp.ssl.bundle}'s context must have been set ({@link
   * LogproducerSslBundleAutoConfiguration}); if it was not (that auto-configuration excluded, no
   * {@code SslBundles} bean), the start fails rather than leaving the exporter waiting.
   */
  private void checkSslBundle() {
    LogproducerRuntime r = runtime;
    BundleSslContext bundle = r == null ? null : r.bundleSslContext();
    if (bundle != null && !bundle.isReady()) {
      String reason =
          "the application context has no SslBundles bean (Spring Boot's SslAutoConfiguration) or"
              + " LogproducerSslBundleAutoConfiguration is excluded";
      bundle.fail(reason);
      throw new InvalidPropertyException("logproducer.otlp.ssl.bundle", bundle.bundle(), reason);
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
    StarterSettings settings =
        new StarterSettings(
            properties,
            environment.getProperty("spring.application.name"),
            binder
                .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
                .orElse(null));
    settings.validate(); // every logproducer.* property, before the producer starts
    shutdownTimeoutMillis = settings.shutdownTimeoutMillis();
    runtime = LogproducerRuntime.start(settings, classLoader);
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
      // A refresh that fails destroys the beans before Spring Boot reports the failure: a start
      // that fails (no ApplicationStartedEvent yet) closes the producer at once.
      ((DefaultSingletonBeanRegistry) beanFactory)
          .registerDisposableBean(RUNTIME_BEAN, () -> r.close(started ? timeout : 0));
    }
  }
}
