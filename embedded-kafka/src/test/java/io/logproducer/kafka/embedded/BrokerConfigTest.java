package io.logproducer.kafka.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The broker's properties with and without SASL users, and the SASL users' validation. */
class BrokerConfigTest {

  private static final Path DIR = Paths.get("target", "broker-config-test");

  private static BrokerConfig config(Map<String, String> saslUsers) {
    return new BrokerConfig(
        DIR,
        Collections.emptyMap(),
        saslUsers,
        1,
        256,
        Collections.emptyList(),
        Duration.ofSeconds(1),
        Duration.ofSeconds(1),
        Duration.ofSeconds(1));
  }

  @Test
  void withoutSaslUsersThereIsOnlyThePlaintextListener() {
    BrokerConfig c = config(Collections.emptyMap());
    Ports ports = Ports.pickFree(false);
    Map<String, String> p = c.serverProperties(ports);
    assertFalse(c.sasl());
    assertEquals(0, ports.sasl);
    assertEquals("PLAINTEXT://127.0.0.1:" + ports.broker, p.get("advertised.listeners"));
    assertEquals(
        "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT", p.get("listener.security.protocol.map"));
    assertNull(p.get("sasl.enabled.mechanisms"));
    assertEquals(List.of(), c.scramArguments());
    assertThrows(IllegalStateException.class, ports::saslBootstrapServers);
  }

  @Test
  void saslUsersAddAListenerWithPlainAndScram() {
    Map<String, String> users = new LinkedHashMap<>();
    users.put("alice", "alice-pw");
    users.put("bob", "bob-pw");
    BrokerConfig c = config(users);
    Ports ports = Ports.pickFree(true);
    Map<String, String> p = c.serverProperties(ports);
    assertTrue(c.sasl());
    assertTrue(ports.sasl > 0 && ports.sasl != ports.broker && ports.sasl != ports.controller);
    assertEquals("127.0.0.1:" + ports.sasl, ports.saslBootstrapServers());
    assertEquals(
        "PLAINTEXT://127.0.0.1:"
            + ports.broker
            + ",SASL_PLAINTEXT://127.0.0.1:"
            + ports.sasl
            + ",CONTROLLER://127.0.0.1:"
            + ports.controller,
        p.get("listeners"));
    assertEquals(
        "PLAINTEXT://127.0.0.1:" + ports.broker + ",SASL_PLAINTEXT://127.0.0.1:" + ports.sasl,
        p.get("advertised.listeners"));
    assertEquals(
        "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT",
        p.get("listener.security.protocol.map"));
    assertEquals("PLAINTEXT", p.get("inter.broker.listener.name"));
    assertEquals(
        "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
        p.get("listener.name.sasl_plaintext.sasl.enabled.mechanisms"));
    assertEquals(
        "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " user_alice=\"alice-pw\" user_bob=\"bob-pw\";",
        p.get("listener.name.sasl_plaintext.plain.sasl.jaas.config"));
    assertEquals(
        "org.apache.kafka.common.security.scram.ScramLoginModule required;",
        p.get("listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config"));
    assertEquals(
        "org.apache.kafka.common.security.scram.ScramLoginModule required;",
        p.get("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config"));
    assertEquals(
        List.of(
            "SCRAM-SHA-256=[name=alice,password=alice-pw]",
            "SCRAM-SHA-256=[name=bob,password=bob-pw]",
            "SCRAM-SHA-512=[name=alice,password=alice-pw]",
            "SCRAM-SHA-512=[name=bob,password=bob-pw]"),
        c.scramArguments());
  }

  @Test
  void saslUsersAreValidatedWithoutPrintingThePassword() {
    EmbeddedKafkaBrokerBuilder b = EmbeddedKafkaBroker.builder(DIR);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> b.saslUser("alice", "pw\"with,quote"));
    assertFalse(e.getMessage().contains("pw\"with,quote"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.saslUser("", "pw"));
    assertThrows(IllegalArgumentException.class, () -> b.saslUser("a=b", "pw"));
    assertThrows(IllegalArgumentException.class, () -> b.saslUser("alice", ""));
    assertThrows(NullPointerException.class, () -> b.saslUser("alice", null));
    b.saslUser("alice.b_c-d@e+f~g", "Pa55-w0rd.~@+_");
  }
}
