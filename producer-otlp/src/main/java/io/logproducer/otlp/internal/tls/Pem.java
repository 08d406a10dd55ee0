package io.logproducer.otlp.internal.tls;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Reads PEM text (RFC 7468): X.509 certificates ({@code CERTIFICATE} blocks, several per file, text
 * between blocks ignored) and private keys — PKCS#8 {@code PRIVATE KEY} (RSA, EC, and whatever else
 * the JDK's {@link KeyFactory}s read), and the two legacy forms tools still write, PKCS#1 {@code
 * RSA PRIVATE KEY} (RFC 8017, e.g. cert-manager's default) and SEC1 {@code EC PRIVATE KEY} (RFC
 * 5915, {@code openssl ecparam -genkey}), which are rewrapped as PKCS#8. Encrypted keys are refused
 * with the command that decrypts them. Every error is an {@link IllegalArgumentException} naming
 * the source and what to do; no message ever holds key material. Stateless, thread-safe.
 */
public final class Pem {

  private static final byte[] OID_RSA = {
    0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01
  };
  private static final byte[] OID_EC_PUBLIC_KEY = {
    0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01
  };
  private static final byte[] DER_NULL = {0x05, 0x00};
  private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};

  private Pem() {}

  /** One {@code -----BEGIN <type>----- … -----END <type>-----} block. */
  static final class Block {
    final String type;
    final byte[] der;

    Block(String type, byte[] der) {
      this.type = type;
      this.der = der;
    }
  }

  /**
   * The certificates of every {@code CERTIFICATE} block, in order.
   *
   * @param pem the PEM text
   * @param source what the text is, for messages (e.g. {@code "trustedCertificates /etc/ca.pem"})
   * @return at least one certificate
   * @throws IllegalArgumentException if there is no CERTIFICATE block or one does not parse
   */
  public static List<X509Certificate> certificates(byte[] pem, String source) {
    List<Block> blocks = blocks(pem, source);
    List<X509Certificate> out = new ArrayList<>();
    CertificateFactory factory;
    try {
      factory = CertificateFactory.getInstance("X.509");
    } catch (CertificateException e) {
      throw new IllegalStateException("the JDK has no X.509 certificate factory", e);
    }
    for (Block b : blocks) {
      if (!b.type.equals("CERTIFICATE")) {
        continue;
      }
      try {
        out.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der)));
      } catch (CertificateException e) {
        throw new IllegalArgumentException(
            source
                + ": certificate #"
                + (out.size() + 1)
                + " is not a valid X.509 certificate ("
                + e.getMessage()
                + ")",
            e);
      }
    }
    if (out.isEmpty()) {
      boolean key = false;
      for (Block b : blocks) {
        key |= b.type.endsWith("PRIVATE KEY");
      }
      throw new IllegalArgumentException(
          source
              + (key
                  ? " holds a private key, not a certificate: give the PEM file of the certificate(s)"
                  : " holds no PEM certificate: expected '-----BEGIN CERTIFICATE-----' blocks"));
    }
    return out;
  }

  /**
   * The private key of the first {@code PRIVATE KEY}, {@code RSA PRIVATE KEY} or {@code EC PRIVATE
   * KEY} block.
   *
   * @param pem the PEM text
   * @param source what the text is, for messages
   * @return the key
   * @throws IllegalArgumentException if there is no such block, the key is encrypted, or it does
   *     not parse
   */
  public static PrivateKey privateKey(byte[] pem, String source) {
    for (Block b : blocks(pem, source)) {
      switch (b.type) {
        case "PRIVATE KEY":
          return pkcs8(b.der, source);
        case "RSA PRIVATE KEY":
          return pkcs8(rsaToPkcs8(b.der), source);
        case "EC PRIVATE KEY":
          return pkcs8(ecToPkcs8(b.der, source), source);
        case "ENCRYPTED PRIVATE KEY":
          throw new IllegalArgumentException(
              source
                  + " holds an encrypted private key, which is not supported: decrypt it to PKCS#8"
                  + " (openssl pkcs8 -topk8 -nocrypt -in <encrypted.pem> -out <key.pem>) and keep"
                  + " the file readable by this process only");
        case "CERTIFICATE":
          break;
        default:
          break;
      }
    }
    throw new IllegalArgumentException(
        source + " holds no PEM private key: expected '-----BEGIN PRIVATE KEY-----' (PKCS#8)");
  }

  private static PrivateKey pkcs8(byte[] der, String source) {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : new String[] {"RSA", "EC", "EdDSA", "RSASSA-PSS"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException | RuntimeException e) {
        // try the next algorithm (EdDSA and RSASSA-PSS are absent from Java 8)
      }
    }
    throw new IllegalArgumentException(
        source + ": the PKCS#8 private key is not an RSA, EC or EdDSA key this JVM can read");
  }

  /** PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo (RFC 5208) with rsaEncryption. */
  private static byte[] rsaToPkcs8(byte[] pkcs1) {
    return sequence(VERSION_0, sequence(OID_RSA, DER_NULL), tlv(0x04, pkcs1));
  }

  /**
   * SEC1 ECPrivateKey (RFC 5915: {@code SEQUENCE {version, privateKey OCTET STRING, [0] parameters,
   * [1] publicKey}}) in a PKCS#8 PrivateKeyInfo with id-ecPublicKey and the curve from its
   * parameters.
   */
  private static byte[] ecToPkcs8(byte[] sec1, String source) {
    byte[] curve = null;
    int[] seq = header(sec1, 0, source);
    int p = seq[0];
    int end = seq[0] + seq[1];
    while (p < end) {
      int tag = sec1[p] & 0xff;
      int[] h = header(sec1, p, source);
      if (tag == 0xa0) { // [0] parameters: the named curve's OID
        int[] oid = header(sec1, h[0], source);
        curve = new byte[oid[0] + oid[1] - h[0]];
        System.arraycopy(sec1, h[0], curve, 0, curve.length);
      }
      p = h[0] + h[1];
    }
    if (curve == null) {
      throw new IllegalArgumentException(
          source
              + ": the EC PRIVATE KEY names no curve; convert it to PKCS#8"
              + " (openssl pkcs8 -topk8 -nocrypt -in <key.pem> -out <key-pkcs8.pem>)");
    }
    return sequence(VERSION_0, sequence(OID_EC_PUBLIC_KEY, curve), tlv(0x04, sec1));
  }

  /** {@return {start of content, content length}} of the DER element at {@code at} */
  private static int[] header(byte[] der, int at, String source) {
    if (at + 2 > der.length) {
      throw new IllegalArgumentException(source + ": the private key is truncated");
    }
    int len = der[at + 1] & 0xff;
    int p = at + 2;
    if (len >= 0x80) {
      int n = len & 0x7f;
      if (n == 0 || n > 3 || p + n > der.length) {
        throw new IllegalArgumentException(source + ": the private key is not valid DER");
      }
      len = 0;
      for (int i = 0; i < n; i++) {
        len = len << 8 | der[p++] & 0xff;
      }
    }
    if (p + len > der.length) {
      throw new IllegalArgumentException(source + ": the private key is truncated");
    }
    return new int[] {p, len};
  }

  private static byte[] sequence(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.write(part, 0, part.length);
    }
    return tlv(0x30, out.toByteArray());
  }

  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else if (n < 0x100) {
      out.write(0x81);
      out.write(n);
    } else if (n < 0x10000) {
      out.write(0x82);
      out.write(n >> 8);
      out.write(n);
    } else {
      out.write(0x83);
      out.write(n >> 16);
      out.write(n >> 8);
      out.write(n);
    }
    out.write(content, 0, n);
    return out.toByteArray();
  }

  /** Every PEM block of the text, in order. */
  static List<Block> blocks(byte[] pem, String source) {
    String text = new String(pem, StandardCharsets.US_ASCII);
    List<Block> out = new ArrayList<>();
    int from = 0;
    while (true) {
      int begin = text.indexOf("-----BEGIN ", from);
      if (begin < 0) {
        break;
      }
      int typeEnd = text.indexOf("-----", begin + 11);
      if (typeEnd < 0) {
        break;
      }
      String type = text.substring(begin + 11, typeEnd).trim();
      String endMarker = "-----END " + type + "-----";
      int end = text.indexOf(endMarker, typeEnd + 5);
      if (end < 0) {
        throw new IllegalArgumentException(
            source + ": the PEM block '" + type + "' has no '" + endMarker + "' line (truncated?)");
      }
      String body = text.substring(typeEnd + 5, end);
      if (body.indexOf(':') >= 0) { // RFC 1421 headers: Proc-Type: 4,ENCRYPTED (legacy encryption)
        if (type.endsWith("PRIVATE KEY")) {
          throw new IllegalArgumentException(
              source
                  + " holds an encrypted private key (Proc-Type: 4,ENCRYPTED), which is not"
                  + " supported: decrypt it to PKCS#8"
                  + " (openssl pkcs8 -topk8 -nocrypt -in <encrypted.pem> -out <key.pem>)");
        }
        body = body.substring(body.lastIndexOf(':') + 1);
        body = body.substring(Math.max(0, body.indexOf('\n')));
      }
      try {
        out.add(new Block(type, Base64.getMimeDecoder().decode(body)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            source + ": the PEM block '" + type + "' is not valid base64", e);
      }
      from = end + endMarker.length();
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          source
              + " is not PEM: no '-----BEGIN …-----' line"
              + (pem.length > 0 && pem[0] == 0x30
                  ? " (it looks like binary DER; convert it to PEM)"
                  : ""));
    }
    return out;
  }
}
