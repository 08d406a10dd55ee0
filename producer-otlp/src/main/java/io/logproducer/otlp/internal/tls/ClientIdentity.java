package io.logproducer.otlp.internal.tls;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

/**
 * A client certificate chain and its private key, checked to belong together. Immutable.
 *
 * <p>The check signs 32 random bytes with the key and verifies them with the certificate's public
 * key (SHA256withRSA or SHA256withECDSA); keys of other algorithms are not checked here (the
 * server's handshake still is).
 */
final class ClientIdentity {

  private static final SecureRandom RANDOM = new SecureRandom();

  final PrivateKey key;
  final X509Certificate[] chain;

  private ClientIdentity(PrivateKey key, X509Certificate[] chain) {
    this.key = key;
    this.chain = chain;
  }

  /**
   * Loads and checks a key and a certificate chain (the client's certificate first, then any
   * intermediates).
   *
   * @throws IllegalArgumentException naming the files if either does not parse or they do not
   *     belong together
   */
  static ClientIdentity load(PemSource keySource, PemSource certificateSource) {
    List<X509Certificate> certs =
        Pem.certificates(certificateSource.read(), certificateSource.toString());
    PrivateKey key = Pem.privateKey(keySource.read(), keySource.toString());
    X509Certificate leaf = certs.get(0);
    String publicAlgorithm = leaf.getPublicKey().getAlgorithm();
    if (!publicAlgorithm.equalsIgnoreCase(key.getAlgorithm())) {
      throw mismatch(keySource, certificateSource, leaf, key.getAlgorithm(), publicAlgorithm);
    }
    String signature =
        key.getAlgorithm().equals("RSA")
            ? "SHA256withRSA"
            : key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : null;
    if (signature != null) {
      try {
        byte[] challenge = new byte[32];
        RANDOM.nextBytes(challenge);
        Signature s = Signature.getInstance(signature);
        s.initSign(key);
        s.update(challenge);
        byte[] signed = s.sign();
        Signature v = Signature.getInstance(signature);
        v.initVerify(leaf.getPublicKey());
        v.update(challenge);
        if (!v.verify(signed)) {
          throw mismatch(keySource, certificateSource, leaf, null, null);
        }
      } catch (GeneralSecurityException e) {
        throw mismatch(keySource, certificateSource, leaf, null, null);
      }
    }
    return new ClientIdentity(key, certs.toArray(new X509Certificate[0]));
  }

  private static IllegalArgumentException mismatch(
      PemSource keySource,
      PemSource certificateSource,
      X509Certificate leaf,
      String keyAlgorithm,
      String certificateAlgorithm) {
    return new IllegalArgumentException(
        "the private key "
            + keySource
            + " does not match the client certificate "
            + certificateSource
            + " ("
            + leaf.getSubjectX500Principal().getName()
            + (keyAlgorithm != null
                ? "; the key is " + keyAlgorithm + ", the certificate's is " + certificateAlgorithm
                : "")
            + "): give the key the certificate was issued for");
  }

  /** {@code "CN=app, issued by CN=ca, valid until 2027-01-01T00:00:00Z"}. */
  String summary() {
    X509Certificate leaf = chain[0];
    return leaf.getSubjectX500Principal().getName()
        + ", issued by "
        + leaf.getIssuerX500Principal().getName()
        + ", valid until "
        + utc(leaf.getNotAfter())
        + (leaf.getNotAfter().getTime() < System.currentTimeMillis() ? " (EXPIRED)" : "");
  }

  static String utc(Date date) {
    SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT);
    f.setTimeZone(TimeZone.getTimeZone("UTC"));
    return f.format(date);
  }
}
