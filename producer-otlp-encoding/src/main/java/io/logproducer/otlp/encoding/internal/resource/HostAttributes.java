package io.logproducer.otlp.encoding.internal.resource;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The host and OS attributes: {@code host.name}, {@code host.arch}, {@code os.type}, {@code
 * os.description}, with the values of the semantic conventions ({@code
 * open-telemetry/semantic-conventions}, {@code model/host}, {@code model/os}). Stateless and
 * thread-safe.
 */
final class HostAttributes {

  /** How long {@link #hostName} waits for the JDK's local host lookup: {@value} ms. */
  static final long HOST_NAME_TIMEOUT_MILLIS = 2000;

  private HostAttributes() {}

  /**
   * The host name as OpenTelemetry Java's {@code HostResource} computes it: {@code
   * InetAddress.getLocalHost().getHostName()}. That call resolves the name (DNS, {@code
   * /etc/hosts}), which can hang on a misconfigured resolver, and OpenTelemetry Java does not bound
   * it; here it runs on a daemon thread, waited for at most {@link #HOST_NAME_TIMEOUT_MILLIS}. If
   * it fails or times out, the kernel's host name from {@code <procRoot>/sys/kernel/hostname}
   * (Linux), else null.
   *
   * @param procRoot the {@code /proc} directory
   * @return the host name, or null if unknown
   * @throws Exception if the fallback file cannot be read
   */
  static String hostName(Path procRoot) throws Exception {
    FutureTask<String> lookup = new FutureTask<>(() -> InetAddress.getLocalHost().getHostName());
    Thread thread = new Thread(lookup, "logproducer-resource-host-name");
    thread.setDaemon(true);
    thread.start();
    try {
      String name = lookup.get(HOST_NAME_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
      if (name != null && !name.isEmpty()) {
        return name;
      }
    } catch (ExecutionException | TimeoutException e) {
      // falls back to the kernel's name
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return kernelHostName(procRoot);
  }

  /**
   * {@code <procRoot>/sys/kernel/hostname}, trimmed.
   *
   * @param procRoot the {@code /proc} directory
   * @return its content, or null if absent or blank
   * @throws Exception if it exists but cannot be read
   */
  static String kernelHostName(Path procRoot) throws Exception {
    Path file = procRoot.resolve("sys").resolve("kernel").resolve("hostname");
    if (!Files.isReadable(file)) {
      return null;
    }
    String name = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
    return name.isEmpty() ? null : name;
  }

  /**
   * {@code host.arch} from the JVM's {@code os.arch}, mapped to the semantic conventions' values:
   * {@code amd64} ({@code amd64}, {@code x86_64}), {@code x86} ({@code x86}, {@code i386}, {@code
   * i486}, {@code i586}, {@code i686}), {@code arm64} ({@code aarch64}, {@code arm64}), {@code
   * arm32} ({@code arm}, {@code arm32}), {@code ppc64} ({@code ppc64}, {@code ppc64le}), {@code
   * ppc32} ({@code ppc}, {@code powerpc}), {@code s390x}, {@code ia64}; any other value as is.
   * (OpenTelemetry Java's {@code HostResource} puts {@code os.arch} unmapped, e.g. {@code
   * aarch64}.)
   *
   * @param osArch the {@code os.arch} property, may be null
   * @return the value, or null if {@code osArch} is null or empty
   */
  static String arch(String osArch) {
    if (osArch == null || osArch.isEmpty()) {
      return null;
    }
    String a = osArch.toLowerCase(Locale.ROOT);
    switch (a) {
      case "amd64":
      case "x86_64":
        return "amd64";
      case "x86":
      case "i386":
      case "i486":
      case "i586":
      case "i686":
        return "x86";
      case "aarch64":
      case "arm64":
        return "arm64";
      case "arm":
      case "arm32":
        return "arm32";
      case "ppc64":
      case "ppc64le":
        return "ppc64";
      case "ppc":
      case "powerpc":
        return "ppc32";
      case "s390x":
        return "s390x";
      case "ia64":
        return "ia64";
      default:
        return osArch;
    }
  }

  /**
   * {@code os.type} from the JVM's {@code os.name}, by its lower-case prefix, as OpenTelemetry
   * Java's {@code OsResource}: {@code windows}, {@code linux}, {@code darwin} ({@code mac}), {@code
   * freebsd}, {@code netbsd}, {@code openbsd}, {@code dragonflybsd}, {@code hpux} ({@code hp-ux}),
   * {@code aix}, {@code solaris} (also {@code SunOS}, Solaris' own {@code os.name}, which
   * OpenTelemetry Java leaves unmapped), {@code z_os} ({@code z/os}, the current conventions'
   * value).
   *
   * @param osName the {@code os.name} property, may be null
   * @return the value, or null if unknown
   */
  static String osType(String osName) {
    if (osName == null) {
      return null;
    }
    String os = osName.toLowerCase(Locale.ROOT);
    String[][] prefixes = {
      {"windows", "windows"},
      {"linux", "linux"},
      {"mac", "darwin"},
      {"freebsd", "freebsd"},
      {"netbsd", "netbsd"},
      {"openbsd", "openbsd"},
      {"dragonflybsd", "dragonflybsd"},
      {"hp-ux", "hpux"},
      {"aix", "aix"},
      {"solaris", "solaris"},
      {"sunos", "solaris"},
      {"z/os", "z_os"}
    };
    for (String[] p : prefixes) {
      if (os.startsWith(p[0])) {
        return p[1];
      }
    }
    return null;
  }

  /**
   * {@code os.description}: {@code os.name} and {@code os.version}, separated by a space (as
   * OpenTelemetry Java's {@code OsResource}).
   *
   * @param osName may be null
   * @param osVersion may be null
   * @return the description, or null if {@code osName} is null
   */
  static String osDescription(String osName, String osVersion) {
    if (osName == null) {
      return null;
    }
    return osVersion == null ? osName : osName + ' ' + osVersion;
  }
}
