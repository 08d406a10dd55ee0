package io.logproducer.gse.internal;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;

/**
 * junixsocket (an optional dependency, for Java 8–15), reached by reflection so that the library
 * has no compile-time tie to it: {@code AFUNIXSocketChannel.open()}, {@code
 * AFUNIXSocketAddress.of(File)}, {@code AFUNIXSocket.isSupported()}. {@code AFUNIXSocketChannel} is
 * a {@link SocketChannel} with its own selector provider, so the rest of the transport is the same
 * as with the JDK's channels. Loaded only on that path.
 */
final class Junixsocket {

  private static final String PACKAGE = "org.newsclub.net.unix.";
  private static final Method IS_SUPPORTED;
  private static final Method OPEN;
  private static final Method ADDRESS_OF;
  private static final Throwable PROBLEM;

  static {
    Method supported = null;
    Method open = null;
    Method of = null;
    Throwable problem = null;
    try {
      ClassLoader cl = Junixsocket.class.getClassLoader();
      supported = Class.forName(PACKAGE + "AFUNIXSocket", true, cl).getMethod("isSupported");
      open = Class.forName(PACKAGE + "AFUNIXSocketChannel", true, cl).getMethod("open");
      of = Class.forName(PACKAGE + "AFUNIXSocketAddress", true, cl).getMethod("of", File.class);
    } catch (ReflectiveOperationException | LinkageError e) {
      problem = e;
    }
    IS_SUPPORTED = supported;
    OPEN = open;
    ADDRESS_OF = of;
    PROBLEM = problem;
  }

  private Junixsocket() {}

  /** Null when junixsocket is usable here, else why not. */
  static String problem() {
    if (PROBLEM != null) {
      return "junixsocket not found: " + PROBLEM;
    }
    try {
      return Boolean.TRUE.equals(IS_SUPPORTED.invoke(null))
          ? null
          : "junixsocket's native library does not support this platform";
    } catch (ReflectiveOperationException | LinkageError e) {
      return "junixsocket could not load: " + e;
    }
  }

  static SocketChannel open() throws IOException {
    return (SocketChannel) invoke(OPEN, null);
  }

  static SocketAddress address(String path) throws IOException {
    return (SocketAddress) invoke(ADDRESS_OF, new File(path));
  }

  private static Object invoke(Method m, Object arg) throws IOException {
    try {
      return arg == null ? m.invoke(null) : m.invoke(null, arg);
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
}
