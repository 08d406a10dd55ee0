package io.logproducer.otlp.encoding.internal.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link ResourceDetector} on this machine and on given sources. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ResourceDetectorTest {

  @TempDir Path proc;

  private static Properties props() {
    Properties p = new Properties();
    p.setProperty("os.name", "Linux");
    p.setProperty("os.version", "6.8.0-45-generic");
    p.setProperty("os.arch", "aarch64");
    p.setProperty("java.home", "/opt/jdk-17");
    p.setProperty("java.runtime.name", "OpenJDK Runtime Environment");
    p.setProperty("java.runtime.version", "17.0.12+7");
    p.setProperty("java.vm.vendor", "Eclipse Adoptium");
    p.setProperty("java.vm.name", "OpenJDK 64-Bit Server VM");
    p.setProperty("java.vm.version", "17.0.12+7");
    return p;
  }

  private void procFile(String name, List<String> lines) throws Exception {
    Path file = proc.resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  private static String string(Map<String, AnyValue> attributes, String key) {
    AnyValue v = attributes.get(key);
    return v == null ? null : v.asString();
  }

  @Test
  void givenSourcesGiveTheseAttributesInThisOrder() throws Exception {
    procFile("self/cgroup", ContainerIdsTest.fixture("cgroup-v1-docker.txt"));
    Map<String, String> env = new HashMap<>();
    env.put(ResourceDetector.ENV_POD_NAME, "shop-7d9f8-abcde");
    env.put(ResourceDetector.ENV_POD_UID, "5b1c7e2a-2c5d-4f0e-9a3b-6d7e8f9a0b1c");
    env.put(ResourceDetector.ENV_POD_NAMESPACE, "prod");
    env.put(ResourceDetector.ENV_NODE_NAME, "node-3");
    env.put("HOSTNAME", "not-read");

    Map<String, AnyValue> r = ResourceDetector.detect(env, props(), proc);

    List<String> keys = new ArrayList<>(r.keySet());
    keys.remove("telemetry.sdk.version"); // this jar's manifest: absent from target/classes
    assertEquals(
        Arrays.asList(
            "telemetry.sdk.name",
            "telemetry.sdk.language",
            "host.name",
            "host.arch",
            "os.type",
            "os.description",
            "os.version",
            "process.pid",
            "process.executable.path",
            "process.runtime.name",
            "process.runtime.version",
            "process.runtime.description",
            "service.instance.id",
            "container.id",
            "k8s.pod.name",
            "k8s.pod.uid",
            "k8s.namespace.name",
            "k8s.node.name"),
        keys);
    assertEquals("logproducer", string(r, "telemetry.sdk.name"));
    assertEquals("java", string(r, "telemetry.sdk.language"));
    assertEquals(
        ResourceDetector.class.getPackage().getImplementationVersion(),
        string(r, "telemetry.sdk.version"));
    assertEquals("arm64", string(r, "host.arch"));
    assertEquals("linux", string(r, "os.type"));
    assertEquals("Linux 6.8.0-45-generic", string(r, "os.description"));
    assertEquals("6.8.0-45-generic", string(r, "os.version"));
    assertEquals(
        "/opt/jdk-17" + File.separatorChar + "bin" + File.separatorChar + "java",
        string(r, "process.executable.path"));
    assertEquals("OpenJDK Runtime Environment", string(r, "process.runtime.name"));
    assertEquals("17.0.12+7", string(r, "process.runtime.version"));
    assertEquals(
        "Eclipse Adoptium OpenJDK 64-Bit Server VM 17.0.12+7",
        string(r, "process.runtime.description"));
    assertEquals(ContainerIdsTest.DOCKER, string(r, "container.id"));
    assertEquals("shop-7d9f8-abcde", string(r, "k8s.pod.name"));
    assertEquals("5b1c7e2a-2c5d-4f0e-9a3b-6d7e8f9a0b1c", string(r, "k8s.pod.uid"));
    assertEquals("prod", string(r, "k8s.namespace.name"));
    assertEquals("node-3", string(r, "k8s.node.name"));
    assertThrows(UnsupportedOperationException.class, () -> r.put("x", AnyValue.of("y")));
  }

  @Test
  void cgroupV2TakesTheIdFromMountinfo() throws Exception {
    procFile("self/cgroup", ContainerIdsTest.fixture("cgroup-v2.txt"));
    procFile("self/mountinfo", ContainerIdsTest.fixture("mountinfo-v2-docker.txt"));
    Map<String, AnyValue> r = ResourceDetector.detect(Collections.emptyMap(), props(), proc);
    assertEquals(ContainerIdsTest.DOCKER, string(r, "container.id"));
  }

  @Test
  void withoutContainerOrKubernetesThoseKeysAreAbsent() throws Exception {
    procFile("self/cgroup", ContainerIdsTest.fixture("cgroup-host.txt"));
    procFile("self/mountinfo", ContainerIdsTest.fixture("mountinfo-host.txt"));
    Map<String, String> env = new HashMap<>();
    env.put(ResourceDetector.ENV_POD_NAME, "");
    env.put("HOSTNAME", "shop-7d9f8-abcde");
    Map<String, AnyValue> r = ResourceDetector.detect(env, props(), proc);
    for (String key : r.keySet()) {
      assertFalse(key.startsWith("k8s.") || key.startsWith("container."), key);
    }
    Map<String, AnyValue> none = ResourceDetector.detect(env, props(), proc.resolve("missing"));
    assertNull(none.get("container.id"));
  }

  @Test
  void valuesOnThisMachine() throws Exception {
    Map<String, AnyValue> r = ResourceDetector.detect();
    assertSame(r, ResourceDetector.detect(), "computed once per JVM");
    // The JDK's name, or (if that lookup failed or took over 2 s, e.g. on a saturated machine)
    // the kernel's.
    List<String> expectedHosts = new ArrayList<>();
    try {
      expectedHosts.add(InetAddress.getLocalHost().getHostName());
    } catch (UnknownHostException e) {
      // only the fallback
    }
    expectedHosts.add(HostAttributes.kernelHostName(Paths.get("/proc")));
    String host = string(r, "host.name");
    assertTrue(host != null && expectedHosts.contains(host), host + " not in " + expectedHosts);
    assertEquals(ProcessHandle.current().pid(), r.get("process.pid").asLong());
    assertEquals(
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        string(r, "process.executable.path"));
    assertEquals(HostAttributes.arch(System.getProperty("os.arch")), string(r, "host.arch"));
    assertEquals("linux", string(r, "os.type"));
    assertEquals(System.getProperty("java.runtime.version"), string(r, "process.runtime.version"));
    String id = string(r, "service.instance.id");
    assertEquals(id, UUID.fromString(id).toString());
    assertEquals(
        id,
        string(
            ResourceDetector.detect(Collections.emptyMap(), props(), proc), "service.instance.id"),
        "one instance id per JVM");
  }

  @Test
  void kernelHostNameIsTheFallback() throws Exception {
    assertNull(HostAttributes.kernelHostName(proc));
    procFile("sys/kernel/hostname", Arrays.asList("build-box-17"));
    assertEquals("build-box-17", HostAttributes.kernelHostName(proc));
  }

  @Test
  void aFailingDetectorIsSkippedWithOneDebugLine() {
    ResourceDetector.Named failing =
        new ResourceDetector.Named(
            "broken",
            (env, props, procRoot, out) -> {
              out.put("partial.key", AnyValue.of("dropped"));
              throw new IllegalStateException("no such thing");
            });
    ResourceDetector.Named working =
        new ResourceDetector.Named(
            "fine", (env, props, procRoot, out) -> out.put("ok.key", AnyValue.of("kept")));
    PrintStream originalErr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    Map<String, AnyValue> r;
    System.setErr(new PrintStream(captured, true));
    try {
      r =
          ResourceDetector.detect(
              Arrays.asList(failing, working), Collections.emptyMap(), props(), proc);
    } finally {
      System.setErr(originalErr);
    }
    assertEquals(Collections.singletonMap("ok.key", AnyValue.of("kept")), r);
    String log = new String(captured.toByteArray(), StandardCharsets.UTF_8);
    String[] lines = log.trim().split("\n");
    assertEquals(1, lines.length, log);
    assertTrue(
        lines[0].contains(
            "DEBUG io.logproducer.otlp.encoding.internal.resource.ResourceDetector - Resource"
                + " detector 'broken' skipped: java.lang.IllegalStateException: no such thing"),
        log);
  }

  @Test
  void configuredAttributesWinKeyByKey() {
    Map<String, AnyValue> detected = new LinkedHashMap<>();
    detected.put("host.name", AnyValue.of("detected-host"));
    detected.put("os.type", AnyValue.of("linux"));
    detected.put("k8s.pod.name", AnyValue.of("detected-pod"));
    // As the builders fill their map: defaults, then OTEL_RESOURCE_ATTRIBUTES, then setters.
    Map<String, AnyValue> configured = new LinkedHashMap<>();
    configured.put("service.name", AnyValue.of("unknown_service:java"));
    configured.put("host.name", AnyValue.of("from-env"));
    configured.put("k8s.pod.name", AnyValue.of("from-env-pod"));
    configured.put("service.name", AnyValue.of("shop"));
    configured.put("host.name", AnyValue.of("explicit-host"));

    Map<String, AnyValue> merged = ResourceDetector.merge(detected, configured);

    Map<String, AnyValue> expected = new LinkedHashMap<>();
    expected.put("service.name", AnyValue.of("shop"));
    expected.put("host.name", AnyValue.of("explicit-host"));
    expected.put("k8s.pod.name", AnyValue.of("from-env-pod"));
    expected.put("os.type", AnyValue.of("linux"));
    assertEquals(expected, merged);
    assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(merged.keySet()));
  }

  @Test
  void detectionOffKeepsOnlyTheConfiguredAttributes() {
    Map<String, AnyValue> configured =
        Collections.singletonMap("service.name", AnyValue.of("shop"));
    assertEquals(configured, ResourceDetector.resource(false, configured));
    Map<String, AnyValue> on = ResourceDetector.resource(true, configured);
    assertEquals(AnyValue.of("shop"), on.get("service.name"));
    assertEquals(ResourceDetector.detect().size() + 1, on.size());
  }

  @Test
  void archAndOsTypeMapping() {
    String[][] arch = {
      {"amd64", "amd64"}, {"x86_64", "amd64"}, {"aarch64", "arm64"}, {"x86", "x86"},
      {"i386", "x86"}, {"i686", "x86"}, {"ppc64le", "ppc64"}, {"ppc64", "ppc64"},
      {"s390x", "s390x"}, {"arm", "arm32"}, {"ppc", "ppc32"}, {"ia64", "ia64"},
      {"riscv64", "riscv64"}
    };
    for (String[] a : arch) {
      assertEquals(a[1], HostAttributes.arch(a[0]), a[0]);
    }
    assertNull(HostAttributes.arch(null));
    String[][] os = {
      {"Linux", "linux"},
      {"Windows Server 2022", "windows"},
      {"Mac OS X", "darwin"},
      {"FreeBSD", "freebsd"},
      {"AIX", "aix"},
      {"HP-UX", "hpux"},
      {"SunOS", "solaris"},
      {"OS/400", null},
      {"Solaris", "solaris"},
      {"z/OS", "z_os"}
    };
    for (String[] o : os) {
      assertEquals(o[1], HostAttributes.osType(o[0]), o[0]);
    }
    Properties windows = new Properties();
    windows.setProperty("java.home", "C:\\jdk");
    windows.setProperty("os.name", "Windows 11");
    assertEquals("C:\\jdk\\bin\\java.exe", ProcessAttributes.executablePath(windows, '\\'));
  }
}
