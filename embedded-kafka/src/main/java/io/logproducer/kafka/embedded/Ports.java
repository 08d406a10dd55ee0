package io.logproducer.kafka.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The broker's ports on 127.0.0.1: the clients' (PLAINTEXT) listener, the KRaft controller's and,
 * when there are SASL users, the {@code SASL_PLAINTEXT} listener's. Immutable; a first start picks
 * new ones, a restart keeps them.
 */
final class Ports {

  /** The only address the broker listens on. */
  static final String HOST = "127.0.0.1";

  private static final int CONNECT_TIMEOUT_MILLIS = 500;

  /** The PLAINTEXT listener's port. */
  final int broker;

  /** The controller listener's port. */
  final int controller;

  /** The SASL_PLAINTEXT listener's port, or 0 when the broker has none. */
  final int sasl;

  private Ports(int broker, int controller, int sasl) {
    this.broker = broker;
    this.controller = controller;
    this.sasl = sasl;
  }

  /**
   * Free ports, held open together while they are picked, so they differ. Another process may still
   * take one before the broker binds it (the caller then picks again).
   *
   * @param sasl whether to pick a third port, for the SASL_PLAINTEXT listener
   * @return the ports
   * @throws UncheckedIOException when no port can be bound on 127.0.0.1
   */
  static Ports pickFree(boolean sasl) {
    InetAddress host;
    try {
      host = InetAddress.getByName(HOST);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot find free ports on " + HOST, e);
    }
    try (ServerSocket a = new ServerSocket(0, 1, host);
        ServerSocket b = new ServerSocket(0, 1, host);
        ServerSocket c = sasl ? new ServerSocket(0, 1, host) : null) {
      return new Ports(a.getLocalPort(), b.getLocalPort(), c == null ? 0 : c.getLocalPort());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot find free ports on " + HOST, e);
    }
  }

  /**
   * Whether something accepts a TCP connection on 127.0.0.1:{@code port} within 500 ms.
   *
   * @param port the port
   * @return true when the connection was made (and closed at once)
   */
  static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(HOST, port), CONNECT_TIMEOUT_MILLIS);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The address for {@code bootstrap.servers}.
   *
   * @return {@code 127.0.0.1:PORT}
   */
  String bootstrapServers() {
    return HOST + ":" + broker;
  }

  /**
   * The address of the SASL listener for {@code bootstrap.servers}.
   *
   * @return {@code 127.0.0.1:PORT}
   * @throws IllegalStateException when the broker has no SASL listener
   */
  String saslBootstrapServers() {
    if (sasl == 0) {
      throw new IllegalStateException(
          "The embedded Kafka broker has no SASL_PLAINTEXT listener: give it a SASL user"
              + " (EmbeddedKafkaBrokerBuilder.saslUser)");
    }
    return HOST + ":" + sasl;
  }

  @Override
  public String toString() {
    return "ports "
        + broker
        + " (broker)"
        + (sasl == 0 ? " and " : ", " + sasl + " (SASL) and ")
        + controller
        + " (controller)";
  }
}
