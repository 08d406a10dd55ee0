package io.logproducer.otlp.internal.tls;

import java.net.SocketAddress;
import javax.net.ssl.SSLSession;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.nio.ssl.TlsStrategy;
import org.apache.hc.core5.net.NamedEndpoint;
import org.apache.hc.core5.reactor.ssl.TlsDetails;
import org.apache.hc.core5.reactor.ssl.TransportSecurityLayer;
import org.apache.hc.core5.util.Timeout;

/**
 * {@link ClientTls} adapted to httpcore5's non-blocking {@link TlsStrategy}: before each new
 * connection's handshake it reloads rotated certificate files, and it counts completed handshakes
 * in the same {@link ClientTls}. The handshake itself (protocols, hostname verification, ALPN) is
 * httpclient5's {@code ClientTlsStrategy}, built by {@link ClientTls#asyncStrategy()}. Thread-safe.
 */
final class AsyncTlsStrategy implements TlsStrategy {

  private final ClientTls tls;
  private final TlsStrategy delegate;

  AsyncTlsStrategy(ClientTls tls, TlsStrategy delegate) {
    this.tls = tls;
    this.delegate = delegate;
  }

  @Override
  public void upgrade(
      TransportSecurityLayer session,
      NamedEndpoint endpoint,
      Object attachment,
      Timeout handshakeTimeout,
      FutureCallback<TransportSecurityLayer> callback) {
    tls.beforeHandshake();
    delegate.upgrade(
        session,
        endpoint,
        attachment,
        handshakeTimeout,
        new FutureCallback<TransportSecurityLayer>() {
          @Override
          public void completed(TransportSecurityLayer result) {
            TlsDetails details = result.getTlsDetails();
            SSLSession ssl = details == null ? null : details.getSSLSession();
            tls.handshakeCompleted(endpoint.getHostName(), endpoint.getPort(), ssl);
            if (callback != null) {
              callback.completed(result);
            }
          }

          @Override
          public void failed(Exception ex) {
            if (callback != null) {
              callback.failed(ex);
            }
          }

          @Override
          public void cancelled() {
            if (callback != null) {
              callback.cancelled();
            }
          }
        });
  }

  /** The pre-5.2 form; httpclient5's connection operator calls the callback form above. */
  @Override
  @Deprecated
  public boolean upgrade(
      TransportSecurityLayer session,
      HttpHost host,
      SocketAddress localAddress,
      SocketAddress remoteAddress,
      Object attachment,
      Timeout handshakeTimeout) {
    upgrade(session, host, attachment, handshakeTimeout, null);
    return true;
  }
}
