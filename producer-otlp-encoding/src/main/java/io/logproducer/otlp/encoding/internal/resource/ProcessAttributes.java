package io.logproducer.otlp.encoding.internal.resource;

import java.lang.management.ManagementFactory;
import java.util.Properties;

/**
 * The process attributes, as OpenTelemetry Java's {@code ProcessResource} and {@code
 * ProcessRuntimeResource} compute them ({@code opentelemetry-java-instrumentation}, {@code
 * instrumentation/resources/library}), without the command line: {@code process.pid}, {@code
 * process.executable.path}, {@code process.runtime.name}, {@code process.runtime.version}, {@code
 * process.runtime.description}. Stateless and thread-safe.
 */
final class ProcessAttributes {

  private ProcessAttributes() {}

  /**
   * This JVM's process id: {@code ProcessHandle.current().pid()} (Java 9+, looked up reflectively:
   * the library targets Java 8), else the number before {@code @} of the runtime MXBean's name.
   *
   * @return the pid, or -1 if unknown
   */
  static long pid() {
    try {
      Class<?> handle = Class.forName("java.lang.ProcessHandle");
      Object current = handle.getMethod("current").invoke(null);
      return (Long) handle.getMethod("pid").invoke(current);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      String name = ManagementFactory.getRuntimeMXBean().getName();
      int at = name.indexOf('@');
      try {
        return at > 0 ? Long.parseLong(name.substring(0, at)) : -1;
      } catch (NumberFormatException notNumber) {
        return -1;
      }
    }
  }

  /**
   * {@code process.executable.path}: {@code <java.home>/bin/java}, with {@code .exe} when {@code
   * os.name} starts with {@code windows} (any case), separated by {@code separator}.
   *
   * @param props system properties
   * @param separator the file separator
   * @return the path, or null without {@code java.home}
   */
  static String executablePath(Properties props, char separator) {
    String javaHome = props.getProperty("java.home");
    if (javaHome == null) {
      return null;
    }
    String osName = props.getProperty("os.name", "");
    String exe = osName.toLowerCase(java.util.Locale.ROOT).startsWith("windows") ? ".exe" : "";
    return javaHome + separator + "bin" + separator + "java" + exe;
  }

  /**
   * {@code process.runtime.description}: {@code java.vm.vendor}, {@code java.vm.name} and {@code
   * java.vm.version}, separated by spaces.
   *
   * @param props system properties
   * @return the description, or null if all three are missing
   */
  static String runtimeDescription(Properties props) {
    String vendor = props.getProperty("java.vm.vendor");
    String name = props.getProperty("java.vm.name");
    String version = props.getProperty("java.vm.version");
    if (vendor == null && name == null && version == null) {
      return null;
    }
    return vendor + " " + name + " " + version;
  }
}
