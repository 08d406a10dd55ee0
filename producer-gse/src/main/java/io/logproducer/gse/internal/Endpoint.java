package io.logproducer.gse.internal;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/**
 * Where the agent listens and how to open a (non-blocking capable) {@link SocketChannel} to it: a
 * Unix-domain stream socket, through the JDK (Java 16+) or junixsocket (Java 8–15), or TCP.
 * Immutable; thread-safe.
 */
public abstract class Endpoint {

  /** The Unix-domain socket implementation. */
  public enum UnixImpl {
    /**
     * {@code java.net.UnixDomainSocketAddress} + {@code
     * SocketChannel.open(StandardProtocolFamily.UNIX)}, Java 16+.
     */
    JDK,
    /** junixsocket's {@code AFUNIXSocketChannel} (Java 8+), when it is on the class path. */
    JUNIXSOCKET
  }

  /** Opens an unconnected channel. */
  abstract SocketChannel openChannel() throws IOException;

  /** The address to connect to. */
  abstract SocketAddress address() throws IOException;

  /** Socket options after opening: send buffer (0 = system default), TCP_NODELAY for TCP. */
  void configure(SocketChannel ch, int sendBufferBytes) throws IOException {
    if (sendBufferBytes > 0) {
      ch.setOption(StandardSocketOptions.SO_SNDBUF, sendBufferBytes);
    }
  }

  /** "unix:/var/run/ipc.state.report" or "tcp:127.0.0.1:47000". */
  public abstract String describe();

  @Override
  public String toString() {
    return describe();
  }

  /** TCP to {@code host:port}. */
  public static Endpoint tcp(String host, int port) {
    return new Tcp(host, port);
  }

  /**
   * A Unix-domain stream socket at {@code path}.
   *
   * @param impl the implementation, or null to choose: the JDK's when available, else junixsocket
   * @throws IllegalStateException if the chosen (or any) implementation is not available
   */
  public static Endpoint unix(String path, UnixImpl impl) {
    UnixImpl chosen =
        impl != null ? impl : jdkUnixAvailable() ? UnixImpl.JDK : UnixImpl.JUNIXSOCKET;
    if (chosen == UnixImpl.JDK) {
      if (!jdkUnixAvailable()) {
        throw new IllegalStateException(
            "Unix-domain sockets of the JDK need Java 16 or later; this is Java "
                + System.getProperty("java.version"));
      }
      return new JdkUnix(path);
    }
    String missing = junixsocketProblem();
    if (missing != null) {
      throw new IllegalStateException(
          "the GSE agent's Unix-domain socket "
              + path
              + " needs Java 16+ or, on Java "
              + System.getProperty("java.version")
              + ", junixsocket on the class path: add the dependency "
              + "com.kohlschutter.junixsocket:junixsocket-core:2.10.1 (<type>pom</type>); or use "
              + "GseExporterBuilder.setTcpEndpoint(host, port). ("
              + missing
              + ")");
    }
    return new JunixUnix(path);
  }

  /** Whether the running JDK has Unix-domain socket channels. */
  public static boolean jdkUnixAvailable() {
    return JdkUnix.OF != null;
  }

  /** Null when junixsocket is usable here, else why not. */
  static String junixsocketProblem() {
    try {
      return Junixsocket.problem();
    } catch (LinkageError e) {
      return "junixsocket could not load: " + e;
    }
  }

  private static final class Tcp extends Endpoint {
    private final String host;
    private final int port;

    Tcp(String host, int port) {
      this.host = host;
      this.port = port;
    }

    @Override
    SocketChannel openChannel() throws IOException {
      return SocketChannel.open();
    }

    @Override
    SocketAddress address() {
      return new InetSocketAddress(host, port);
    }

    @Override
    void configure(SocketChannel ch, int sendBufferBytes) throws IOException {
      super.configure(ch, sendBufferBytes);
      ch.setOption(StandardSocketOptions.TCP_NODELAY, Boolean.TRUE);
    }

    @Override
    public String describe() {
      return "tcp:" + host + ":" + port;
    }
  }

  /** The JDK's AF_UNIX channels, reached by reflection (the library is compiled for Java 8). */
  private static final class JdkUnix extends Endpoint {
    static final Method OF;
    static final Method OPEN;
    static final ProtocolFamily UNIX;

    static {
      Method of = null;
      Method open = null;
      ProtocolFamily unix = null;
      try {
        Class<?> addressClass = Class.forName("java.net.UnixDomainSocketAddress");
        of = addressClass.getMethod("of", String.class);
        open = SocketChannel.class.getMethod("open", ProtocolFamily.class);
        unix = StandardProtocolFamily.valueOf("UNIX");
      } catch (ReflectiveOperationException | IllegalArgumentException | LinkageError e) {
        of = null;
      }
      OF = of;
      OPEN = open;
      UNIX = unix;
    }

    private final String path;

    JdkUnix(String path) {
      this.path = path;
    }

    @Override
    SocketChannel openChannel() throws IOException {
      return (SocketChannel) invoke(OPEN, UNIX);
    }

    @Override
    SocketAddress address() throws IOException {
      return (SocketAddress) invoke(OF, path);
    }

    private static Object invoke(Method m, Object arg) throws IOException {
      try {
        return m.invoke(null, arg);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof IOException) {
          throw (IOException) cause;
        }
        if (cause instanceof RuntimeException) {
          throw (RuntimeException) cause;
        }
        throw new IOException(cause);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public String describe() {
      return "unix:" + path;
    }
  }

  private static final class JunixUnix extends Endpoint {
    private final String path;

    JunixUnix(String path) {
      this.path = path;
    }

    @Override
    SocketChannel openChannel() throws IOException {
      return Junixsocket.open();
    }

    @Override
    SocketAddress address() throws IOException {
      return Junixsocket.address(path);
    }

    @Override
    public String describe() {
      return "unix:" + path;
    }
  }
}
