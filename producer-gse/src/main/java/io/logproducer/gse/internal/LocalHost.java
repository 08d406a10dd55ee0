package io.logproducer.gse.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The local host name, as libgse attaches it ({@code os.Hostname()}: the kernel's host name, not a
 * DNS lookup). Stateless; thread-safe.
 */
public final class LocalHost {

  private LocalHost() {}

  /**
   * The kernel host name from /proc or the environment, without any network lookup; null if
   * unknown.
   */
  public static String fastName() {
    Path proc = Paths.get("/proc/sys/kernel/hostname");
    try {
      if (Files.isReadable(proc)) {
        String s = new String(Files.readAllBytes(proc), StandardCharsets.UTF_8).trim();
        if (!s.isEmpty()) {
          return s;
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // fall through
    }
    for (String var : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
      String v = System.getenv(var);
      if (v != null && !v.trim().isEmpty()) {
        return v.trim();
      }
    }
    return null;
  }

  /**
   * {@link #fastName()}, else the JDK's local host name (which may take a resolver round trip); ""
   * if unknown.
   */
  public static String name() {
    String s = fastName();
    if (s != null) {
      return s;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }
}
