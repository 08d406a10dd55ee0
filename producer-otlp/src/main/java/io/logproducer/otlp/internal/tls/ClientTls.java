package io.logproducer.otlp.internal.tls;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS side of one OTLP exporter: the {@link SSLContext} (configured CA certificates or the
 * JDK's trust store; a client certificate for mutual TLS; or the user's own context), TLS 1.2 and
 * 1.3 only, hostname verification always on (the JDK's endpoint identification and HttpClient's
 * {@code DefaultHostnameVerifier}, both), a count of handshakes, and the explanation of a TLS
 * failure in words that say what to fix. Key material never reaches a message or {@link
 * #toString()}. Thread-safe.
 */
public final class ClientTls implements TlsSocketStrategy {

  private static final Logger log = LoggerFactory.getLogger(ClientTls.class);
  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  private final TlsSocketStrategy delegate;
  private final ReloadingKeyManager keyManager; // null without a client certificate
  private final ReloadingTrustManager trustManager; // null with the user's SSLContext
  private final boolean userContext;
  private final String description;
  private final AtomicLong handshakes = new AtomicLong();
  private final SSLContext context;

  /**
   * Set by {@link #upgrade} on the thread that opened a connection, for {@link #explain}: a TLS 1.3
   * server refuses a client certificate after the client's handshake has completed, so the refusal
   * often reaches the client as a broken pipe on its first write, not as an alert.
   */
  private final ThreadLocal<Boolean> newConnection = new ThreadLocal<>();

  private ClientTls(
      SSLContext context,
      ReloadingKeyManager keyManager,
      ReloadingTrustManager trustManager,
      boolean userContext,
      String description) {
    this.keyManager = keyManager;
    this.trustManager = trustManager;
    this.userContext = userContext;
    this.description = description;
    this.context = context;
    this.delegate =
        ClientTlsStrategyBuilder.create()
            .setSslContext(context)
            .setTlsVersions(protocols(context))
            .setHostVerificationPolicy(HostnameVerificationPolicy.BOTH)
            .buildClassic();
  }

  /**
   * The TLS of an exporter. Loads and checks every PEM source now; logs a WARN for a client or CA
   * certificate that has expired or is not valid yet.
   *
   * @param trusted CA certificates, or null for the JDK's default trust store
   * @param clientKey the client's private key, or null (then {@code clientCertificate} is null)
   * @param clientCertificate the client's certificate chain, or null
   * @param userContext the user's own context (then the other three are null), or null
   * @return the TLS settings
   * @throws IllegalArgumentException naming the file or setting if a source does not load, or the
   *     key does not match the certificate
   */
  public static ClientTls create(
      PemSource trusted, PemSource clientKey, PemSource clientCertificate, SSLContext userContext) {
    if (userContext != null) {
      return new ClientTls(userContext, null, null, true, "the application's SSLContext");
    }
    ReloadingTrustManager tm = new ReloadingTrustManager(trusted);
    ReloadingKeyManager km =
        clientKey == null ? null : new ReloadingKeyManager(clientKey, clientCertificate);
    StringBuilder d = new StringBuilder();
    d.append(trusted == null ? "JDK trust store" : "trusted " + trusted);
    if (km != null) {
      ClientIdentity id = km.current();
      d.append(", client certificate ")
          .append(id.chain[0].getSubjectX500Principal().getName())
          .append(" from ")
          .append(clientCertificate);
      warnValidity("client certificate", clientCertificate, id.chain[0]);
    }
    if (trusted != null) {
      for (X509Certificate ca : tm.getAcceptedIssuers()) {
        warnValidity("trusted CA certificate", trusted, ca);
      }
    }
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(km == null ? null : new KeyManager[] {km}, new TrustManager[] {tm}, null);
      return new ClientTls(context, km, tm, false, d.toString());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's TLS context cannot be created: " + e, e);
    }
  }

  private static void warnValidity(String what, PemSource source, X509Certificate cert) {
    long now = System.currentTimeMillis();
    if (cert.getNotAfter().getTime() < now) {
      log.warn(
          "the {} {} in {} EXPIRED on {}: servers will refuse the TLS handshake; renew it",
          what,
          cert.getSubjectX500Principal().getName(),
          source,
          ClientIdentity.utc(cert.getNotAfter()));
    } else if (cert.getNotBefore().getTime() > now) {
      log.warn(
          "the {} {} in {} is not valid before {} (check this host's clock)",
          what,
          cert.getSubjectX500Principal().getName(),
          source,
          ClientIdentity.utc(cert.getNotBefore()));
    }
  }

  private static String[] protocols(SSLContext context) {
    List<String> supported = Arrays.asList(context.getSupportedSSLParameters().getProtocols());
    List<String> out = new ArrayList<>();
    for (String p : PROTOCOLS) {
      if (supported.contains(p)) {
        out.add(p);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          "the SSLContext supports neither TLS 1.3 nor TLS 1.2 (it supports " + supported + ")");
    }
    return out.toArray(new String[0]);
  }

  /** Wraps the connection in TLS, verifies the host name, and counts the handshake. */
  @Override
  public SSLSocket upgrade(
      Socket socket, String target, int port, Object attachment, HttpContext context)
      throws IOException {
    beforeHandshake();
    newConnection.set(Boolean.TRUE);
    SSLSocket s = delegate.upgrade(socket, target, port, attachment, context);
    handshakeCompleted(target, port, s.getSession());
    return s;
  }

  /** Loads rotated certificate files before a new connection's handshake. */
  void beforeHandshake() {
    boolean reloaded = keyManager != null && keyManager.refresh();
    reloaded |= trustManager != null && trustManager.refresh();
    if (reloaded) {
      forgetSessions(); // a resumed session would skip the new certificates
    }
  }

  /** Counts a completed handshake. */
  void handshakeCompleted(String target, int port, SSLSession session) {
    long n = handshakes.incrementAndGet();
    if (log.isDebugEnabled() && session != null) {
      log.debug(
          "TLS handshake #{} with {}:{}: {} {}",
          n,
          target,
          port,
          session.getProtocol(),
          session.getCipherSuite());
    }
  }

  /**
   * This TLS for httpcore5's non-blocking I/O (the OTLP/gRPC exporter's HTTP/2 client): the same
   * context, protocols (TLS 1.2 and 1.3), hostname verification, certificate reloading and
   * handshake count; ALPN offers {@code h2}, as the HTTP/2 client asks.
   *
   * @return a strategy that shares this object's state; thread-safe
   */
  public org.apache.hc.core5.http.nio.ssl.TlsStrategy asyncStrategy() {
    return new AsyncTlsStrategy(
        this,
        ClientTlsStrategyBuilder.create()
            .setSslContext(context)
            .setTlsVersions(protocols(context))
            .setHostVerificationPolicy(HostnameVerificationPolicy.BOTH)
            .buildAsync());
  }

  private void forgetSessions() {
    javax.net.ssl.SSLSessionContext sessions = this.context.getClientSessionContext();
    if (sessions == null) {
      return;
    }
    java.util.Enumeration<byte[]> ids = sessions.getIds();
    while (ids.hasMoreElements()) {
      SSLSession session = sessions.getSession(ids.nextElement());
      if (session != null) {
        session.invalidate();
      }
    }
  }

  /** Marks the start of a request on this thread (see {@link #explain}). */
  public void beginRequest() {
    newConnection.remove();
  }

  /** {@return the TLS handshakes completed so far (one per new connection)} */
  public long handshakes() {
    return handshakes.get();
  }

  /** {@return how many times a rotated certificate file was loaded (client and CA)} */
  public long reloads() {
    return (keyManager == null ? 0 : keyManager.reloads())
        + (trustManager == null ? 0 : trustManager.reloads());
  }

  /**
   * Explains a failed exchange if TLS caused it.
   *
   * @param e what the request threw
   * @return a sentence naming the cause and what to fix, or null if {@code e} is not about TLS
   */
  public String explain(Throwable e) {
    boolean fresh = newConnection.get() != null;
    newConnection.remove();
    return explain(e, fresh);
  }

  /**
   * As {@link #explain(Throwable)}, for a transport that knows itself whether the failed exchange
   * opened its connection (the non-blocking HTTP/2 client handshakes on its I/O thread, not on the
   * caller's).
   *
   * @param e what the exchange failed with
   * @param fresh whether the exchange opened a new connection (then a connection closed right after
   *     the handshake is read as a TLS 1.3 refusal of the client)
   * @return a sentence naming the cause and what to fix, or null if {@code e} is not about TLS
   */
  public String explain(Throwable e, boolean fresh) {
    StringBuilder chain = new StringBuilder();
    boolean tls = false;
    String trust = null;
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      tls |= t instanceof SSLException;
      String m = t.getMessage();
      if (m != null) {
        chain.append(m).append(" | ");
        if (trust == null && m.startsWith("the server's certificate (")) {
          trust = m;
        }
      }
    }
    if (!tls) {
      boolean closed =
          e instanceof java.net.SocketException
              || e instanceof org.apache.hc.core5.http.ConnectionClosedException; // HTTP/2 client
      if (fresh && closed && !userContext) {
        String how =
            "the server closed the connection right after the TLS handshake ("
                + firstMessage(e)
                + "), as a TLS 1.3 server does to refuse a client";
        return keyManager == null
            ? "TLS: "
                + how
                + ": it requires a client certificate (mutual TLS) and none is configured; set"
                + " clientKey and clientCertificate (OTEL_EXPORTER_OTLP_CLIENT_KEY and"
                + " OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE)"
            : "TLS: the server refused our client certificate ("
                + keyManager.current().summary()
                + "): "
                + how
                + "; it must be issued by a CA the server trusts and be valid now";
      }
      return null;
    }
    String all = chain.toString();
    String lower = all.toLowerCase(Locale.ROOT);
    if (trust != null) {
      return "TLS: "
          + trust
          + (userContext ? "" : " (retried: the CA file is re-read when it changes)");
    }
    if (e instanceof SSLPeerUnverifiedException
        || lower.contains("doesn't match any of the subject alternative names")
        || lower.contains("no subject alternative")
        || lower.contains("no name matching")) {
      return "TLS: the server's certificate is not for this host name (hostname verification): "
          + firstMessage(e)
          + "; use an endpoint host the certificate names, or a certificate that names it";
    }
    boolean alertAboutUs =
        lower.contains("certificate_required")
            || lower.contains("bad_certificate")
            || lower.contains("unknown_ca")
            || lower.contains("certificate_expired")
            || lower.contains("certificate_unknown")
            || lower.contains("certificate_revoked")
            || lower.contains("access_denied");
    if (alertAboutUs || lower.contains("handshake_failure")) {
      if (keyManager == null && !userContext) {
        return "TLS: the server refused the connection ("
            + firstMessage(e)
            + "): it requires a client certificate (mutual TLS) and none is configured; set"
            + " clientKey and clientCertificate (OTEL_EXPORTER_OTLP_CLIENT_KEY and"
            + " OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE)";
      }
      if (keyManager != null && alertAboutUs) {
        return "TLS: the server refused our client certificate ("
            + keyManager.current().summary()
            + "): "
            + firstMessage(e)
            + "; it must be issued by a CA the server trusts and be valid now";
      }
    }
    if (lower.contains("protocol_version") || lower.contains("no appropriate protocol")) {
      return "TLS: no common protocol version (this exporter speaks TLS 1.2 and 1.3 only): "
          + firstMessage(e);
    }
    return "TLS: " + firstMessage(e);
  }

  private static String firstMessage(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null) {
        return t.getMessage();
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return e.toString();
  }

  /** {@code TLS 1.2+ (trusted …, client certificate CN=… from …)}: never key material. */
  @Override
  public String toString() {
    return "TLS 1.2+ (" + description + ")";
  }
}
