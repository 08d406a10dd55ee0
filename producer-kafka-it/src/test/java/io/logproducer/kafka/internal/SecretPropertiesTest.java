package io.logproducer.kafka.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

/** Which Kafka properties are secret, and their values kept out of text. */
class SecretPropertiesTest {

  private static final String JAAS =
      "org.apache.kafka.common.security.scram.ScramLoginModule required"
          + " username=\"alice\" password=\"S3cr3t-MARKER\";";

  @Test
  void secretNames() {
    for (String name :
        Arrays.asList(
            "sasl.jaas.config",
            "SASL.JAAS.CONFIG",
            "ssl.key.password",
            "ssl.keystore.password",
            "ssl.truststore.password",
            "ssl.keystore.key",
            "sasl.oauthbearer.client.credentials.client.secret",
            "sasl.oauthbearer.assertion.private.key.file",
            "sasl.login.token",
            "basic.auth.user.info",
            "schema.registry.basic.auth.user.info",
            "my.api.key",
            "my-apikey",
            "some_passwd",
            "key")) {
      assertTrue(SecretProperties.isSecret(name), name);
    }
  }

  @Test
  void ordinaryNames() {
    for (String name :
        Arrays.asList(
            "bootstrap.servers",
            "key.serializer",
            "value.serializer",
            "security.protocol",
            "sasl.mechanism",
            "ssl.keystore.location",
            "ssl.keystore.type",
            "ssl.keystore.certificate.chain",
            "ssl.truststore.certificates",
            "ssl.truststore.location",
            "ssl.endpoint.identification.algorithm",
            "sasl.oauthbearer.jwks.endpoint.url",
            "partitioner.ignore.keys",
            "logproducer.key.attribute",
            "max.request.size",
            "")) {
      assertFalse(SecretProperties.isSecret(name), name);
    }
    assertFalse(SecretProperties.isSecret(null));
  }

  @Test
  void redactKeepsOrderAndMasksSecretValues() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("security.protocol", "SASL_PLAINTEXT");
    p.put("sasl.jaas.config", JAAS);
    p.put("ssl.truststore.password", "changeit");
    p.put("linger.ms", 5);
    Map<String, Object> r = SecretProperties.redact(p);
    assertEquals(
        Arrays.asList(
            "security.protocol", "sasl.jaas.config", "ssl.truststore.password", "linger.ms"),
        Arrays.asList(r.keySet().toArray()));
    assertEquals("SASL_PLAINTEXT", r.get("security.protocol"));
    assertEquals("****", r.get("sasl.jaas.config"));
    assertEquals("****", r.get("ssl.truststore.password"));
    assertEquals(5, r.get("linger.ms"));
    assertEquals(JAAS, p.get("sasl.jaas.config"), "the original map is unchanged");
    assertEquals("****", SecretProperties.printable("ssl.key.password", "x"));
    assertEquals("42", SecretProperties.printable("max.request.size", 42));
  }

  @Test
  void scrubReplacesWholeValuesAndJaasOptionValues() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("sasl.jaas.config", new Password(JAAS));
    p.put("ssl.key.password", "kp-secret");
    p.put("ssl.truststore.password", "abc"); // too short to search for
    p.put("client.id", "S3cr3t-MARKER-is-not-secret-here");
    List<String> secrets = SecretProperties.secretValues(p);
    assertTrue(secrets.contains(JAAS), secrets.toString());
    assertTrue(secrets.contains("S3cr3t-MARKER"));
    assertTrue(secrets.contains("alice"));
    assertTrue(secrets.contains("kp-secret"));
    assertFalse(secrets.contains("abc"));
    assertEquals(
        "bad: **** and **** and ****",
        SecretProperties.scrub("bad: " + JAAS + " and S3cr3t-MARKER and kp-secret", p));
    assertEquals(
        "unquoted ****",
        SecretProperties.scrub(
            "unquoted xyz-secret",
            Map.of("sasl.jaas.config", "M required username=bob password=xyz-secret;")));
    assertNull(SecretProperties.scrub(null, p));
    assertEquals("nothing here", SecretProperties.scrub("nothing here", p));
  }

  @Test
  void scrubbedCopiesOnlyAChainThatHoldsASecret() {
    List<String> secrets = SecretProperties.secretValues(Map.of("sasl.jaas.config", JAAS));
    IllegalStateException clean = new IllegalStateException("nothing", new RuntimeException("x"));
    assertSame(clean, SecretProperties.scrubbed(clean, secrets));
    assertNull(SecretProperties.scrubbed(null, secrets));
    IllegalStateException leaky =
        new IllegalStateException(
            "outer", new IllegalArgumentException("inner: password S3cr3t-MARKER"));
    Throwable s = SecretProperties.scrubbed(leaky, secrets);
    assertEquals("java.lang.IllegalStateException: outer", s.getMessage());
    assertEquals(
        "java.lang.IllegalArgumentException: inner: password ****", s.getCause().getMessage());
    assertEquals(leaky.getStackTrace().length, s.getStackTrace().length);
    assertNull(s.getCause().getCause());
  }
}
