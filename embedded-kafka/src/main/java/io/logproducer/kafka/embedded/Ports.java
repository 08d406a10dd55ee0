package io.logproducer.kafka.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The broker's two ports on 127.0.0.1: the clients' (PLAINTEXT) listener and the KRaft
 * controller's. Immutable; a first start picks new ones, a restart keeps them.
 */
final class Ports {

  /** The only address the broker listens on. */
  static final String HOST = "127.0.0.1";

  private static final int CONNECT_TIMEOUT_MILLIS = 500;

  /** The PLAINTEXT listener's port. */
  final int broker;

  /** The controller listener's port. */
  final int controller;

  private Ports(int broker, int controller) {
    this.broker = broker;
    this.controller = controller;
  }

  /**
   * Two free ports, held open together while they are picked, so they differ. Another process may
   * still take one before the broker binds it (the caller then picks again).
   *
   * @return the ports
   * @throws UncheckedIOException when no port can be bound on 127.0.0.1
   */
  static Ports pickFree() {
    try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getByName(HOST));
        ServerSocket b = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      return new Ports(a.getLocalPort(), b.getLocalPort());
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

  @Override
  public String toString() {
    return "ports " + broker + " (broker) and " + controller + " (controller)";
  }
}
