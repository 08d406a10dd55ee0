package io.logproducer.otlp.encoding.internal.resource;

import io.logproducer.AnyValue;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Detects the OpenTelemetry resource attributes of this process, once per JVM, for the OTLP
 * exporters (OTLP/HTTP, and Kafka's {@code otlp_*} encodings). Attribute names and values follow
 * the semantic conventions ({@code open-telemetry/semantic-conventions}, checked against {@code
 * io.opentelemetry.semconv:opentelemetry-semconv} 1.42.0 for the stable ones); the sources follow
 * OpenTelemetry Java's resource providers ({@code opentelemetry-java-instrumentation}, {@code
 * instrumentation/resources/library}). Detected, when known:
 *
 * <ul>
 *   <li>{@code telemetry.sdk.name} = {@value #SDK_NAME} (this library is not the OpenTelemetry SDK,
 *       whose value is {@code opentelemetry}), {@code telemetry.sdk.language} = {@code java},
 *       {@code telemetry.sdk.version} = this jar's {@code Implementation-Version} (omitted if
 *       unknown);
 *   <li>{@code host.name} ({@code InetAddress.getLocalHost().getHostName()}, bounded to {@value
 *       HostAttributes#HOST_NAME_TIMEOUT_MILLIS} ms, else {@code /proc/sys/kernel/hostname}),
 *       {@code host.arch} ({@code os.arch} mapped: {@code amd64}, {@code arm64}, {@code x86},
 *       {@code ppc64}, {@code s390x}, …);
 *   <li>{@code os.type} ({@code linux}, {@code windows}, {@code darwin}, …), {@code
 *       os.description}, {@code os.version};
 *   <li>{@code process.pid}, {@code process.executable.path} ({@code java.home}/bin/java[.exe]),
 *       {@code process.runtime.name}, {@code process.runtime.version}, {@code
 *       process.runtime.description}; never the command line or arguments (they can hold secrets);
 *   <li>{@code service.instance.id}: a random UUID, the same for the JVM's life;
 *   <li>{@code container.id} from {@code /proc/self/cgroup}, else {@code /proc/self/mountinfo} (see
 *       {@code ContainerIds});
 *   <li>{@code k8s.pod.name}, {@code k8s.pod.uid}, {@code k8s.namespace.name}, {@code
 *       k8s.node.name} from the environment variables {@value #ENV_POD_NAME}, {@value
 *       #ENV_POD_UID}, {@value #ENV_POD_NAMESPACE}, {@value #ENV_NODE_NAME} (the Downward-API
 *       variables the OpenTelemetry Operator injects; it puts the namespace in {@code
 *       OTEL_RESOURCE_ATTRIBUTES} itself). {@code HOSTNAME} is not read, as in OpenTelemetry Java.
 * </ul>
 *
 * <p>A detector that throws is skipped, with one DEBUG line on this class's logger; the others
 * still run. Empty values are left out. The exporters' configured attributes win key by key (see
 * {@link #merge}). Thread-safe.
 */
public final class ResourceDetector {

  /** {@code telemetry.sdk.name}'s value: {@value}. */
  public static final String SDK_NAME = "logproducer";

  /** The pod name variable (Downward API {@code metadata.name}): {@value}. */
  public static final String ENV_POD_NAME = "OTEL_RESOURCE_ATTRIBUTES_POD_NAME";

  /** The pod UID variable (Downward API {@code metadata.uid}): {@value}. */
  public static final String ENV_POD_UID = "OTEL_RESOURCE_ATTRIBUTES_POD_UID";

  /** The namespace variable (Downward API {@code metadata.namespace}): {@value}. */
  public static final String ENV_POD_NAMESPACE = "OTEL_RESOURCE_ATTRIBUTES_POD_NAMESPACE";

  /** The node name variable (Downward API {@code spec.nodeName}): {@value}. */
  public static final String ENV_NODE_NAME = "OTEL_RESOURCE_ATTRIBUTES_NODE_NAME";

  private static final Logger LOG = LoggerFactory.getLogger(ResourceDetector.class);

  private static final String INSTANCE_ID = UUID.randomUUID().toString();

  private static volatile Map<String, AnyValue> cached;

  private ResourceDetector() {}

  /** One detector: adds its attributes to {@code out}, or throws to be skipped. */
  interface Detector {
    void detect(Map<String, String> env, Properties props, Path procRoot, Map<String, AnyValue> out)
        throws Exception;
  }

  /** A detector and its name for the DEBUG line. */
  static final class Named {
    final String name;
    final Detector detector;

    Named(String name, Detector detector) {
      this.name = name;
      this.detector = detector;
    }
  }

  /**
   * The attributes of this JVM, from {@code System.getenv()}, {@code System.getProperties()} and
   * {@code /proc}; computed at the first call (which may wait up to {@value
   * HostAttributes#HOST_NAME_TIMEOUT_MILLIS} ms for the host name), then the same map.
   *
   * @return an unmodifiable map, in the order listed in the class comment
   */
  public static Map<String, AnyValue> detect() {
    Map<String, AnyValue> result = cached;
    if (result == null) {
      synchronized (ResourceDetector.class) {
        result = cached;
        if (result == null) {
          result = detect(System.getenv(), System.getProperties(), Paths.get("/proc"));
          cached = result;
        }
      }
    }
    return result;
  }

  /**
   * The attributes from the given sources (the host name lookup and the pid are this JVM's).
   *
   * @param env environment variables
   * @param props system properties
   * @param procRoot the directory read as {@code /proc} ({@code self/cgroup}, {@code
   *     self/mountinfo}, {@code sys/kernel/hostname}); missing files mean no value
   * @return an unmodifiable map
   */
  public static Map<String, AnyValue> detect(
      Map<String, String> env, Properties props, Path procRoot) {
    return detect(DETECTORS, env, props, procRoot);
  }

  static Map<String, AnyValue> detect(
      List<Named> detectors, Map<String, String> env, Properties props, Path procRoot) {
    Map<String, AnyValue> result = new LinkedHashMap<>();
    for (Named d : detectors) {
      Map<String, AnyValue> out = new LinkedHashMap<>();
      try {
        d.detector.detect(env, props, procRoot, out);
        result.putAll(out);
      } catch (Exception | LinkageError e) {
        LOG.debug("Resource detector '{}' skipped: {}", d.name, e.toString());
      }
    }
    return Collections.unmodifiableMap(result);
  }

  /**
   * The resource to send: {@code configured} over {@code detected}, key by key (a configured key
   * keeps its value; detected keys it lacks are added after its own).
   *
   * @param detected e.g. {@link #detect()}
   * @param configured the exporter's attributes: its defaults, {@code OTEL_RESOURCE_ATTRIBUTES},
   *     its explicit settings
   * @return a new map
   */
  public static Map<String, AnyValue> merge(
      Map<String, AnyValue> detected, Map<String, AnyValue> configured) {
    Map<String, AnyValue> merged = new LinkedHashMap<>(configured);
    for (Map.Entry<String, AnyValue> e : detected.entrySet()) {
      if (!merged.containsKey(e.getKey())) {
        merged.put(e.getKey(), e.getValue());
      }
    }
    return merged;
  }

  /**
   * The one call for exporter builders: {@code merge(detect(), configured)} when {@code detection}
   * is on, else a copy of {@code configured}.
   *
   * @param detection whether to add the detected attributes
   * @param configured the exporter's attributes
   * @return a new map
   */
  public static Map<String, AnyValue> resource(
      boolean detection, Map<String, AnyValue> configured) {
    return detection ? merge(detect(), configured) : new LinkedHashMap<>(configured);
  }

  private static void put(Map<String, AnyValue> out, String key, String value) {
    if (value != null && !value.isEmpty()) {
      out.put(key, AnyValue.of(value));
    }
  }

  private static List<String> lines(Path file) throws Exception {
    if (!Files.isReadable(file)) {
      return Collections.emptyList();
    }
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }

  static final List<Named> DETECTORS =
      Collections.unmodifiableList(
          new ArrayList<>(
              Arrays.asList(
                  new Named("telemetry", ResourceDetector::telemetry),
                  new Named("host", ResourceDetector::host),
                  new Named("os", ResourceDetector::os),
                  new Named("process", ResourceDetector::process),
                  new Named("service", ResourceDetector::service),
                  new Named("container", ResourceDetector::container),
                  new Named("kubernetes", ResourceDetector::kubernetes))));

  static void telemetry(
      Map<String, String> env, Properties props, Path procRoot, Map<String, AnyValue> out) {
    put(out, "telemetry.sdk.name", SDK_NAME);
    put(out, "telemetry.sdk.language", "java");
    Package p = ResourceDetector.class.getPackage();
    put(out, "telemetry.sdk.version", p == null ? null : p.getImplementationVersion());
  }

  static void host(
      Map<String, String> env, Properties props, Path procRoot, Map<String, AnyValue> out)
      throws Exception {
    put(out, "host.name", HostAttributes.hostName(procRoot));
    put(out, "host.arch", HostAttributes.arch(props.getProperty("os.arch")));
  }

  static void os(
      Map<String, String> env, Properties props, Path procRoot, Map<String, AnyValue> out) {
    String name = props.getProperty("os.name");
    String version = props.getProperty("os.version");
    put(out, "os.type", HostAttributes.osType(name));
    put(out, "os.description", HostAttributes.osDescription(name, version));
    put(out, "os.version", version);
  }

  static void process(
      Map<String, String> env, Properties props, Path procRoot, Map<String, AnyValue> out) {
    long pid = ProcessAttributes.pid();
    if (pid >= 0) {
      out.put("process.pid", AnyValue.of(pid));
    }
    put(
        out,
        "process.executable.path",
        ProcessAttributes.executablePath(props, File.separatorChar));
    put(out, "process.runtime.name", props.getProperty("java.runtime.name"));
    put(out, "process.runtime.version", props.getProperty("java.runtime.version"));
    put(out, "process.runtime.description", ProcessAttributes.runtimeDescription(props));
  }

  static void service(
      Map<String, String> env, Properties props, Path procRoot, Map<String, AnyValue> out) {
    put(out, "service.instance.id", INSTANCE_ID);
  }

  static void container(
      Map<String, String> env, Properties props, Path procRoot, Map<String, AnyValue> out)
      throws Exception {
    Path self = procRoot.resolve("self");
    String id = ContainerIds.fromCgroup(lines(self.resolve("cgroup")));
    if (id == null) {
      id = ContainerIds.fromMountinfo(lines(self.resolve("mountinfo")));
    }
    put(out, "container.id", id);
  }

  static void kubernetes(
      Map<String, String> env, Properties props, Path procRoot, Map<String, AnyValue> out) {
    put(out, "k8s.pod.name", trimmed(env.get(ENV_POD_NAME)));
    put(out, "k8s.pod.uid", trimmed(env.get(ENV_POD_UID)));
    put(out, "k8s.namespace.name", trimmed(env.get(ENV_POD_NAMESPACE)));
    put(out, "k8s.node.name", trimmed(env.get(ENV_NODE_NAME)));
  }

  private static String trimmed(String value) {
    return value == null ? null : value.trim();
  }
}
