package io.logproducer.testing.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away public key infrastructure for TLS tests: a CA and the certificates it issues, made
 * at run time (BouncyCastle), written as PEM files (certificates as {@code CERTIFICATE} blocks,
 * private keys as unencrypted PKCS#8 {@code PRIVATE KEY} blocks), so that no private key is ever
 * committed. Needs {@code org.bouncycastle:bcpkix-jdk18on} on the test class path (this kit
 * declares it optional).
 *
 * <pre>{@code
 * TestPki pki = TestPki.create(tempDir);                 // CA "logproducer test CA"
 * TestPki.Issued server = pki.server();                  // localhost, 127.0.0.1
 * TestPki.Issued client = pki.client("app");             // CN=app, clientAuth
 * SSLContext serverTls = pki.serverContext(server, true); // requires a client certificate
 * }</pre>
 *
 * <p>Keys are EC P-256 unless asked for RSA (2048 bits). Certificates are valid from an hour ago
 * for a day unless given other dates. Thread-safe.
 */
public final class TestPki {

  private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The key algorithm of an issued certificate. */
  public enum KeyType {
    /** EC on the P-256 curve, signed SHA256withECDSA. */
    EC,
    /** RSA 2048 bits, signed SHA256withRSA. */
    RSA
  }

  private final Path dir;
  private final String name;
  private final KeyPair caKeys;
  private final X509Certificate caCertificate;
  private final Path caFile;

  private TestPki(Path dir, String name) throws GeneralSecurityException, IOException {
    this.dir = dir;
    this.name = name;
    this.caKeys = keyPair(KeyType.EC);
    long now = System.currentTimeMillis();
    X500Name subject = new X500Name("CN=" + name);
    X509v3CertificateBuilder b =
        new JcaX509v3CertificateBuilder(
            subject,
            serial(),
            new Date(now - TimeUnit.HOURS.toMillis(1)),
            new Date(now + TimeUnit.DAYS.toMillis(1)),
            subject,
            caKeys.getPublic());
    b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
    b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    this.caCertificate = sign(b, caKeys.getPrivate());
    this.caFile = dir.resolve(fileName(name) + "-ca.pem");
    Files.write(caFile, pem(caCertificate).getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * A new CA named "logproducer test CA", its certificate written to {@code dir}.
   *
   * @param dir an existing directory for the PEM files
   * @return the PKI
   * @throws UncheckedIOException if a file cannot be written
   */
  public static TestPki create(Path dir) {
    return create(dir, "logproducer test CA");
  }

  /**
   * A new CA with the common name {@code name}, its certificate written to {@code dir}.
   *
   * @param dir an existing directory for the PEM files
   * @param name the CA's common name; also the prefix of its files
   * @return the PKI
   * @throws UncheckedIOException if a file cannot be written
   */
  public static TestPki create(Path dir, String name) {
    try {
      return new TestPki(dir, name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@return the CA certificate} */
  public X509Certificate caCertificate() {
    return caCertificate;
  }

  /** {@return the PEM file of the CA certificate} */
  public Path caFile() {
    return caFile;
  }

  /** {@return the CA certificate as PEM bytes} */
  public byte[] caPem() {
    return pem(caCertificate).getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * A server certificate for {@code localhost} and {@code 127.0.0.1} (EC).
   *
   * @return the certificate, its key and their files
   */
  public Issued server() {
    return issue("server", KeyType.EC, true, new String[] {"localhost", "127.0.0.1"}, 0, 0);
  }

  /**
   * A client certificate (extended key usage clientAuth) with the common name {@code cn} (EC).
   *
   * @param cn the common name
   * @return the certificate, its key and their files
   */
  public Issued client(String cn) {
    return issue(cn, KeyType.EC, false, new String[0], 0, 0);
  }

  /**
   * Issues a certificate signed by this CA and writes {@code <cn>.pem} and {@code <cn>-key.pem}
   * (replacing files of an earlier certificate with that name).
   *
   * @param cn the subject's common name
   * @param type the key algorithm
   * @param server true for a server certificate (serverAuth), false for a client one (clientAuth)
   * @param subjectAltNames DNS names or IP addresses (literal IPv4/IPv6) for the certificate
   * @param notBeforeMillis start of validity, epoch ms; 0 for an hour ago
   * @param notAfterMillis end of validity, epoch ms; 0 for a day from now
   * @return the certificate, its key and their files
   */
  public Issued issue(
      String cn,
      KeyType type,
      boolean server,
      String[] subjectAltNames,
      long notBeforeMillis,
      long notAfterMillis) {
    try {
      long now = System.currentTimeMillis();
      KeyPair keys = keyPair(type);
      X509v3CertificateBuilder b =
          new JcaX509v3CertificateBuilder(
              caCertificate,
              serial(),
              new Date(notBeforeMillis != 0 ? notBeforeMillis : now - TimeUnit.HOURS.toMillis(1)),
              new Date(notAfterMillis != 0 ? notAfterMillis : now + TimeUnit.DAYS.toMillis(1)),
              new X500Name("CN=" + cn),
              keys.getPublic());
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      b.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(
              type == KeyType.RSA
                  ? KeyUsage.digitalSignature | KeyUsage.keyEncipherment
                  : KeyUsage.digitalSignature));
      b.addExtension(
          Extension.extendedKeyUsage,
          false,
          new ExtendedKeyUsage(
              server ? KeyPurposeId.id_kp_serverAuth : KeyPurposeId.id_kp_clientAuth));
      if (subjectAltNames.length > 0) {
        List<GeneralName> names = new ArrayList<>();
        for (String n : subjectAltNames) {
          boolean ip = n.indexOf(':') >= 0 || n.matches("[0-9.]+");
          names.add(
              ip
                  ? new GeneralName(
                      GeneralName.iPAddress, InetAddress.getByName(n).getHostAddress())
                  : new GeneralName(GeneralName.dNSName, n));
        }
        b.addExtension(
            Extension.subjectAlternativeName,
            false,
            new GeneralNames(names.toArray(new GeneralName[0])));
      }
      X509Certificate cert = sign(b, caKeys.getPrivate());
      Path certFile = dir.resolve(fileName(cn) + ".pem");
      Path keyFile = dir.resolve(fileName(cn) + "-key.pem");
      Files.write(certFile, pem(cert).getBytes(StandardCharsets.US_ASCII));
      Files.write(keyFile, pem(keys.getPrivate()).getBytes(StandardCharsets.US_ASCII));
      return new Issued(cert, keys.getPrivate(), certFile, keyFile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A server-side TLS context presenting {@code server}'s certificate (with this CA's) and, when
   * {@code requireClientCertificate}, requiring clients to present one this CA issued (the caller
   * sets {@code setNeedClientAuth(true)} on its sockets or engines; this context trusts only this
   * CA).
   *
   * @param server the server's certificate and key
   * @return an initialised {@code SSLContext} ("TLS")
   */
  public SSLContext serverContext(Issued server) {
    try {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "server",
          server.privateKey,
          new char[0],
          new Certificate[] {server.certificate, caCertificate});
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, new char[0]);
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("ca", caCertificate);
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), RANDOM);
      return ctx;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@return {@code cert} as one PEM {@code CERTIFICATE} block}
   *
   * @param cert the certificate
   */
  public static String pem(X509Certificate cert) {
    try {
      return block("CERTIFICATE", cert.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@return {@code key} as an unencrypted PKCS#8 PEM {@code PRIVATE KEY} block}
   *
   * @param key the private key
   */
  public static String pem(PrivateKey key) {
    return block("PRIVATE KEY", key.getEncoded());
  }

  private static String block(String type, byte[] der) {
    String b64 = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + b64 + "\n-----END " + type + "-----\n";
  }

  private static KeyPair keyPair(KeyType type) throws GeneralSecurityException {
    if (type == KeyType.RSA) {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048, RANDOM);
      return g.generateKeyPair();
    }
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return g.generateKeyPair();
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey issuerKey)
      throws GeneralSecurityException {
    String alg = issuerKey.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
    try {
      ContentSigner signer = new JcaContentSignerBuilder(alg).build(issuerKey);
      return new JcaX509CertificateConverter().getCertificate(b.build(signer));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static BigInteger serial() {
    return BigInteger.valueOf(SERIALS.incrementAndGet());
  }

  private static String fileName(String cn) {
    return cn.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** An issued certificate, its private key and the PEM files holding them. Immutable. */
  public static final class Issued {
    private final X509Certificate certificate;
    private final PrivateKey privateKey;
    private final Path certificateFile;
    private final Path keyFile;

    Issued(X509Certificate certificate, PrivateKey privateKey, Path certificateFile, Path keyFile) {
      this.certificate = certificate;
      this.privateKey = privateKey;
      this.certificateFile = certificateFile;
      this.keyFile = keyFile;
    }

    /** {@return the certificate} */
    public X509Certificate certificate() {
      return certificate;
    }

    /** {@return the private key} */
    public PrivateKey privateKey() {
      return privateKey;
    }

    /** {@return the PEM file of the certificate} */
    public Path certificateFile() {
      return certificateFile;
    }

    /** {@return the PEM file of the private key (PKCS#8, unencrypted)} */
    public Path keyFile() {
      return keyFile;
    }

    /** {@return the certificate as PEM bytes} */
    public byte[] certificatePem() {
      return pem(certificate).getBytes(StandardCharsets.US_ASCII);
    }

    /** {@return the private key as PKCS#8 PEM bytes} */
    public byte[] keyPem() {
      return pem(privateKey).getBytes(StandardCharsets.US_ASCII);
    }
  }
}
