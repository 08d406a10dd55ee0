package io.logproducer.testing.gse;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;

/**
 * Listening Unix-domain stream sockets on any Java from 8: the JDK's own ({@code
 * ServerSocketChannel.open(UNIX)} and {@code UnixDomainSocketAddress}, Java 16+), or junixsocket's
 * {@code AFUNIXServerSocketChannel} (Java 8-15, when junixsocket is on the class path). Both are
 * reached by reflection, so this module compiles for Java 8 and has no compile-time tie to
 * junixsocket. The channels they return are plain blocking {@link ServerSocketChannel}s. Stateless;
 * thread-safe.
 */
final class UnixServerChannels {

  private static final String JUNIXSOCKET = "org.newsclub.net.unix.";

  private UnixServerChannels() {}

  /** Which implementation. */
  enum Impl {
    /** The JDK's AF_UNIX channels (Java 16+). */
    JDK,
    /** junixsocket's (any Java, when it is on the class path). */
    JUNIXSOCKET
  }

  /** {@return the JDK's when it has them, else junixsocket} */
  static Impl preferred() {
    try {
      Class.forName("java.net.UnixDomainSocketAddress");
      return Impl.JDK;
    } catch (ClassNotFoundException e) {
      return Impl.JUNIXSOCKET;
    }
  }

  /**
   * Opens a server channel bound to {@code path} (which must not exist).
   *
   * @throws IOException if binding fails, or neither implementation is available here (naming
   *     junixsocket's coordinates)
   */
  static ServerSocketChannel bind(Path path, Impl impl) throws IOException {
    try {
      ServerSocketChannel s;
      SocketAddress address;
      if (impl == Impl.JDK) {
        ProtocolFamily unix = StandardProtocolFamily.valueOf("UNIX");
        s =
            (ServerSocketChannel)
                ServerSocketChannel.class
                    .getMethod("open", ProtocolFamily.class)
                    .invoke(null, unix);
        address =
            (SocketAddress)
                Class.forName("java.net.UnixDomainSocketAddress")
                    .getMethod("of", Path.class)
                    .invoke(null, path);
      } else {
        ClassLoader cl = UnixServerChannels.class.getClassLoader();
        s =
            (ServerSocketChannel)
                Class.forName(JUNIXSOCKET + "AFUNIXServerSocketChannel", true, cl)
                    .getMethod("open")
                    .invoke(null);
        address =
            (SocketAddress)
                Class.forName(JUNIXSOCKET + "AFUNIXSocketAddress", true, cl)
                    .getMethod("of", File.class)
                    .invoke(null, path.toFile());
      }
      try {
        s.bind(address);
      } catch (IOException | RuntimeException e) {
        s.close();
        throw e;
      }
      return s;
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      throw new IOException(
          "cannot listen on the Unix-domain socket " + path + ": " + cause, cause);
    } catch (ReflectiveOperationException | IllegalArgumentException | LinkageError e) {
      throw new IOException(
          "no Unix-domain sockets here ("
              + impl
              + "): on Java 8-15 add "
              + "com.kohlschutter.junixsocket:junixsocket-core (type pom) to the test class path; "
              + e,
          e);
    }
  }
}
