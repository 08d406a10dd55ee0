package io.logproducer.otlp.internal.tls;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Verifies the server's certificate chain with the JDK's PKIX trust manager over either the
 * configured CA certificates (re-read when their file changes, {@link Reloading}) or, when none are
 * configured, the JDK's default trust store. A refusal is rethrown as a {@link
 * CertificateException} that names the server's certificate, its issuer and what it was checked
 * against, so the handshake failure the exporter reports says what to fix. Thread-safe.
 */
final class ReloadingTrustManager extends X509ExtendedTrustManager {

  private static final class Trust {
    final X509ExtendedTrustManager manager;
    final int certificates;

    Trust(X509ExtendedTrustManager manager, int certificates) {
      this.manager = manager;
      this.certificates = certificates;
    }
  }

  private final Reloading<Trust> trust;
  private final String against;

  /**
   * @param trusted the CA certificates, or null for the JDK's default trust store
   * @throws IllegalArgumentException if the certificates do not load
   */
  ReloadingTrustManager(final PemSource trusted) {
    this.against =
        trusted == null
            ? "the JDK's default trust store (set trustedCertificates, or"
                + " OTEL_EXPORTER_OTLP_CERTIFICATE, for a private CA)"
            : "the CA certificates of " + trusted;
    this.trust =
        new Reloading<Trust>(
            "trusted certificates",
            trusted == null
                ? Collections.<PemSource>emptyList()
                : Collections.singletonList(trusted)) {
          @Override
          Trust load() {
            if (trusted == null) {
              return new Trust(manager(null), -1);
            }
            List<X509Certificate> certs = Pem.certificates(trusted.read(), trusted.toString());
            try {
              KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
              store.load(null, null);
              for (int i = 0; i < certs.size(); i++) {
                store.setCertificateEntry("ca-" + i, certs.get(i));
              }
              return new Trust(manager(store), certs.size());
            } catch (GeneralSecurityException | java.io.IOException e) {
              throw new IllegalArgumentException(
                  trusted + ": the certificates cannot be used as trust anchors: " + e, e);
            }
          }

          @Override
          String summary(Trust value) {
            return value.certificates < 0
                ? "the JDK's default trust store"
                : value.certificates + " CA certificate(s)";
          }
        };
  }

  private static X509ExtendedTrustManager manager(KeyStore store) {
    try {
      TrustManagerFactory f =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      f.init(store);
      for (TrustManager m : f.getTrustManagers()) {
        if (m instanceof X509ExtendedTrustManager) {
          return (X509ExtendedTrustManager) m;
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's trust manager cannot be created: " + e, e);
    }
    throw new IllegalStateException("the JDK has no X509ExtendedTrustManager");
  }

  /** {@return whether changed files were loaded (see {@link Reloading#refresh()})} */
  boolean refresh() {
    return trust.refresh();
  }

  long reloads() {
    return trust.reloads();
  }

  private CertificateException explain(X509Certificate[] chain, CertificateException e) {
    String subject =
        chain == null || chain.length == 0
            ? "(none)"
            : chain[0].getSubjectX500Principal().getName()
                + ", issued by "
                + chain[0].getIssuerX500Principal().getName()
                + ", valid until "
                + ClientIdentity.utc(chain[0].getNotAfter());
    return new CertificateException(
        "the server's certificate ("
            + subject
            + ") is not trusted by "
            + against
            + ": "
            + e.getMessage(),
        e);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    try {
      trust.get().manager.checkServerTrusted(chain, authType, socket);
    } catch (CertificateException e) {
      throw isHostname(e) ? e : explain(chain, e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    try {
      trust.get().manager.checkServerTrusted(chain, authType, engine);
    } catch (CertificateException e) {
      throw isHostname(e) ? e : explain(chain, e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    try {
      trust.get().manager.checkServerTrusted(chain, authType);
    } catch (CertificateException e) {
      throw explain(chain, e);
    }
  }

  /** The JDK's own endpoint identification ("No subject alternative names matching …"). */
  private static boolean isHostname(CertificateException e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("No subject alternative") || m.contains("No name matching");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("a client does not verify client certificates");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("a client does not verify client certificates");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a client does not verify client certificates");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return trust.get().manager.getAcceptedIssuers();
  }
}
