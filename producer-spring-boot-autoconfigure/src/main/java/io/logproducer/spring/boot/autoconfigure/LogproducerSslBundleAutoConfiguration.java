package io.logproducer.spring.boot.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Gives the OTLP exporter the SSLContext of the Spring Boot SSL bundle {@code
 * logproducer.otlp.ssl.bundle} (Spring Boot 3.1+), when the context creates its beans: the producer
 * started long before (when the environment was ready), with a context that waits for this one
 * ({@link BundleSslContext}). A bundle that Spring Boot reloads ({@code reload-on-update}, Boot
 * 3.2+) is used for new connections. Spring Boot's SSL API is called reflectively: this artifact is
 * compiled against Boot 2.7, which has none (and the class is not loaded there: {@code
 * ConditionalOnClass}).
 */
@AutoConfiguration(after = LogproducerAutoConfiguration.class)
@ConditionalOnClass(name = StarterOtlp.SSL_BUNDLES_CLASS)
@ConditionalOnBean(name = LogproducerApplicationListener.RUNTIME_BEAN)
public class LogproducerSslBundleAutoConfiguration {

  /** Created by Spring. */
  public LogproducerSslBundleAutoConfiguration() {}

  /** What the bean is: the bundle's name, or none. */
  static final class BundleBinding {
    final String bundle;

    BundleBinding(String bundle) {
      this.bundle = bundle;
    }

    @Override
    public String toString() {
      return bundle == null ? "no logproducer.otlp.ssl.bundle" : "SSL bundle " + bundle;
    }
  }

  /**
   * Sets the exporter's SSLContext from the bundle, if {@code logproducer.otlp.ssl.bundle} is set.
   *
   * @param logproducerRuntime the starter's runtime
   * @param beanFactory where {@code SslBundles} is
   * @return what was bound
   * @throws InvalidPropertyException if there is no such bundle or no {@code SslBundles} bean
   */
  @Bean
  BundleBinding logproducerSslBundle(
      LogproducerRuntime logproducerRuntime, BeanFactory beanFactory) {
    BundleSslContext target = logproducerRuntime.bundleSslContext();
    if (target == null) {
      return new BundleBinding(null);
    }
    String name = target.bundle();
    try {
      ClassLoader loader = LogproducerSslBundleAutoConfiguration.class.getClassLoader();
      Class<?> bundlesType = Class.forName(StarterOtlp.SSL_BUNDLES_CLASS, false, loader);
      Class<?> bundleType = Class.forName("org.springframework.boot.ssl.SslBundle", false, loader);
      Object bundles = beanFactory.getBean(bundlesType);
      Method createSslContext = bundleType.getMethod("createSslContext");
      Object bundle = bundlesType.getMethod("getBundle", String.class).invoke(bundles, name);
      target.use((SSLContext) createSslContext.invoke(bundle));
      onUpdate(bundlesType, bundles, name, createSslContext, target);
      return new BundleBinding(name);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      target.fail(String.valueOf(cause.getMessage()));
      throw new InvalidPropertyException(
          "logproducer.otlp.ssl.bundle", name, String.valueOf(cause.getMessage()), cause);
    } catch (NoSuchBeanDefinitionException e) {
      String reason = "the application context has no SslBundles bean: " + e.getMessage();
      target.fail(reason);
      throw new InvalidPropertyException("logproducer.otlp.ssl.bundle", name, reason, e);
    } catch (ReflectiveOperationException | LinkageError e) {
      target.fail(e.toString());
      throw new InvalidPropertyException(
          "logproducer.otlp.ssl.bundle", name, "Spring Boot's SSL bundles cannot be used: " + e, e);
    }
  }

  /** Boot 3.2+: {@code SslBundles.addBundleUpdateHandler(name, Consumer<SslBundle>)}. */
  private static void onUpdate(
      Class<?> bundlesType,
      Object bundles,
      String name,
      Method createSslContext,
      BundleSslContext target)
      throws ReflectiveOperationException {
    Method add;
    try {
      add = bundlesType.getMethod("addBundleUpdateHandler", String.class, Consumer.class);
    } catch (NoSuchMethodException e) {
      return; // Boot 3.1: bundles are not reloaded
    }
    Consumer<Object> handler =
        bundle -> {
          try {
            target.use((SSLContext) createSslContext.invoke(bundle));
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("SSL bundle " + name + ": " + e, e);
          }
        };
    add.invoke(bundles, name, handler);
  }
}
