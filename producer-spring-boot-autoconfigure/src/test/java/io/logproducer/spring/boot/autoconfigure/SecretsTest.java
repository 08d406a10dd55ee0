package io.logproducer.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.SanitizableData;

/** What {@link Secrets} and {@link LogproducerSanitizingFunction} mask, in every key form. */
class SecretsTest {

  @Test
  void theEndpointsUserInfoIsMasked() {
    assertEquals(
        "https://user:******@host:4318/v1", Secrets.redactUrl("https://user:pw@host:4318/v1"));
    assertEquals("https://******@host", Secrets.redactUrl("https://token@host"));
    assertEquals("http://host:4318/a@b", Secrets.redactUrl("http://host:4318/a@b"));
    assertEquals("http://host", Secrets.redactUrl("http://host"));
    assertEquals("null", Secrets.redactUrl(null));
  }

  @Test
  void everyHeaderValueAndSecretLookingKafkaPropertiesAreMaskedInEveryKeyForm() {
    for (String key :
        new String[] {
          "logproducer.otlp.headers.Authorization",
          "logproducer.otlp.headers[Authorization]",
          "LOGPRODUCER_OTLP_HEADERS_AUTHORIZATION",
          "logproducer.otlp.headers.X-BK-TOKEN",
          "logproducer.kafka.properties.sasl.jaas.config",
          "logproducer.kafka.properties[sasl.jaas.config]",
          "LOGPRODUCER_KAFKA_PROPERTIES_SSL_KEY_PASSWORD",
          "logproducer.kafka.properties.ssl.keystore.password",
          "logproducer.kafka.properties.sasl.oauthbearer.token.endpoint.url",
        }) {
      assertEquals(Secrets.MASK, Secrets.masked(key, "x"), key);
    }
    assertNull(Secrets.masked("logproducer.kafka.properties.security.protocol", "SASL_SSL"));
    assertNull(Secrets.masked("logproducer.otlp.tls.client-key", "/etc/tls/key.pem"));
    assertNull(Secrets.masked("logproducer.otlp.endpoint", "http://host:4318"));
    assertEquals(
        "http://u:******@host", Secrets.masked("logproducer.otlp.endpoint", "http://u:p@host"));
    assertNull(Secrets.masked("spring.application.name", "x"));
  }

  @Test
  void theSanitizingFunctionUsesOnlyTheApiOfSpringBoot27() {
    LogproducerSanitizingFunction f = new LogproducerSanitizingFunction();
    SanitizableData header =
        new SanitizableData(null, "logproducer.otlp.headers.Authorization", "Bearer s");
    assertEquals(Secrets.MASK, f.apply(header).getValue());
    SanitizableData plain = new SanitizableData(null, "logproducer.otlp.encoding", "json");
    assertSame(plain, f.apply(plain));
  }
}
