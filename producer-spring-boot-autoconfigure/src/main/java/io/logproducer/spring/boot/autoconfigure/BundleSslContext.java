package io.logproducer.spring.boot.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * The OTLP exporter's {@link SSLContext} for {@code logproducer.otlp.ssl.bundle}: the producer
 * starts when the environment is ready (so that the application's first log lines are shipped),
 * long before the application context creates Spring Boot's {@code SslBundles}; this context stands
 * in for the bundle's until {@link LogproducerSslBundleAutoConfiguration} {@linkplain
 * #use(SSLContext) sets it} during the context's refresh, and again when the bundle is reloaded.
 * Until then a new connection waits (records logged meanwhile stay buffered); after {@link
 * #fail(String)} (the start failed, the bundle is missing) it fails with that reason.
 *
 * <p>Thread-safe.
 */
final class BundleSslContext extends SSLContext {

  /** How long a connection waits for the bundle before it fails (and is retried). */
  private static final long WAIT_MILLIS = TimeUnit.MINUTES.toMillis(2);

  private final Spi spi;

  private BundleSslContext(Spi spi) {
    super(spi, jdkContext().getProvider(), "TLS");
    this.spi = spi;
  }

  /**
   * @param bundle the bundle's name (for messages)
   * @return a context that waits for the bundle's
   */
  static BundleSslContext waitingFor(String bundle) {
    return new BundleSslContext(new Spi(bundle));
  }

  /** {@return the bundle's name} */
  String bundle() {
    return spi.bundle;
  }

  /** {@return whether the bundle's context was set} */
  boolean isReady() {
    return spi.target != null;
  }

  /**
   * Uses the bundle's context from now on (new connections).
   *
   * @param context the bundle's {@code createSslContext()}
   */
  void use(SSLContext context) {
    spi.target = context;
    spi.ready.countDown();
  }

  /**
   * Fails the connections waiting and to come, unless the bundle's context was set.
   *
   * @param reason why
   */
  void fail(String reason) {
    if (spi.target == null) {
      spi.failure = reason;
      spi.ready.countDown();
    }
  }

  private static SSLContext jdkContext() {
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no default TLS context: " + e, e);
    }
  }

  private static final class Spi extends SSLContextSpi {
    final String bundle;
    final CountDownLatch ready = new CountDownLatch(1);
    volatile SSLContext target;
    volatile String failure;

    Spi(String bundle) {
      this.bundle = bundle;
    }

    SSLContext await() throws SSLException {
      try {
        if (!ready.await(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
          throw new SSLException(
              "the SSL bundle '"
                  + bundle
                  + "' (logproducer.otlp.ssl.bundle) is not available yet: the application"
                  + " context has not created it");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SSLException("interrupted while waiting for the SSL bundle '" + bundle + "'");
      }
      SSLContext t = target;
      if (t == null) {
        throw new SSLException(
            "the SSL bundle '"
                + bundle
                + "' (logproducer.otlp.ssl.bundle) is not used: "
                + failure);
      }
      return t;
    }

    SSLContext awaitUnchecked() {
      try {
        return await();
      } catch (SSLException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    }

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random)
        throws KeyManagementException {
      throw new KeyManagementException("the SSL bundle's context is initialised by Spring Boot");
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      return new WaitingSocketFactory(this);
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      return awaitUnchecked().getServerSocketFactory();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      return awaitUnchecked().createSSLEngine();
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      return awaitUnchecked().createSSLEngine(host, port);
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      return awaitUnchecked().getServerSessionContext();
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      return awaitUnchecked().getClientSessionContext();
    }

    /** The JDK's until the bundle's is set: read when the exporter is built (the protocols). */
    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
      SSLContext t = target;
      return (t != null ? t : jdkContext()).getDefaultSSLParameters();
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
      SSLContext t = target;
      return (t != null ? t : jdkContext()).getSupportedSSLParameters();
    }
  }

  /** Opens each socket with the bundle's context, waiting for it. */
  private static final class WaitingSocketFactory extends SSLSocketFactory {
    private final Spi spi;

    WaitingSocketFactory(Spi spi) {
      this.spi = spi;
    }

    private SSLSocketFactory target() throws IOException {
      return spi.await().getSocketFactory();
    }

    @Override
    public String[] getDefaultCipherSuites() {
      SSLContext t = spi.target;
      return (t != null ? t : jdkContext()).getSocketFactory().getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
      SSLContext t = spi.target;
      return (t != null ? t : jdkContext()).getSocketFactory().getSupportedCipherSuites();
    }

    @Override
    public Socket createSocket() throws IOException {
      return target().createSocket();
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose)
        throws IOException {
      return target().createSocket(s, host, port, autoClose);
    }

    @Override
    public Socket createSocket(Socket s, InputStream consumed, boolean autoClose)
        throws IOException {
      return target().createSocket(s, consumed, autoClose);
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
      return target().createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort)
        throws IOException {
      return target().createSocket(host, port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
      return target().createSocket(host, port);
    }

    @Override
    public Socket createSocket(
        InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
      return target().createSocket(address, port, localAddress, localPort);
    }
  }
}
