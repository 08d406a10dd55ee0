package io.logproducer.otlp.internal.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Locale;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Presents the one configured client certificate to every server that asks for one whose key type
 * it has, whatever CA names the server lists (OpenSSL and Go clients do the same; the JDK's default
 * key manager would send nothing when the server's list misses our issuer, and the server's refusal
 * would then say "no certificate"). The certificate and key are re-read when their files change
 * ({@link Reloading}). Thread-safe.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {

  static final String ALIAS = "logproducer-client";

  private final Reloading<ClientIdentity> identity;

  /**
   * @throws IllegalArgumentException if the key and certificate do not load or do not match
   */
  ReloadingKeyManager(final PemSource key, final PemSource certificate) {
    this.identity =
        new Reloading<ClientIdentity>("client certificate", Arrays.asList(key, certificate)) {
          @Override
          ClientIdentity load() {
            return ClientIdentity.load(key, certificate);
          }

          @Override
          String summary(ClientIdentity value) {
            return value.summary();
          }
        };
  }

  /** {@return the identity loaded last (no file check)} */
  ClientIdentity current() {
    return identity.current();
  }

  /** {@return whether changed files were loaded (see {@link Reloading#refresh()})} */
  boolean refresh() {
    return identity.refresh();
  }

  long reloads() {
    return identity.reloads();
  }

  private String alias(String[] keyTypes) {
    String algorithm = identity.get().key.getAlgorithm().toUpperCase(Locale.ROOT);
    if (keyTypes == null) {
      return ALIAS;
    }
    for (String t : keyTypes) {
      String type = t.toUpperCase(Locale.ROOT);
      // "RSA", "EC", "RSASSA-PSS" (TLS 1.3 names the signature's key type); TLS 1.2 ECDH suites
      // name "EC_EC" / "EC_RSA"
      if (type.equals(algorithm) || type.startsWith(algorithm)) {
        return ALIAS;
      }
    }
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyTypes, Principal[] issuers, Socket socket) {
    return alias(keyTypes);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyTypes, Principal[] issuers, SSLEngine engine) {
    return alias(keyTypes);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return alias(new String[] {keyType}) == null ? null : new String[] {ALIAS};
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return ALIAS.equals(alias) ? identity.get().chain.clone() : null;
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return ALIAS.equals(alias) ? identity.get().key : null;
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return null;
  }
}
