package io.logproducer.otlp.encoding.internal.resource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link ContainerIds} on {@code /proc/self/cgroup} and {@code /proc/self/mountinfo} fixtures. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ContainerIdsTest {

  static final String DOCKER = "3f1e2d1c5b4a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
  static final String KUBERNETES =
      "a9b8c7d6e5f40312a9b8c7d6e5f40312a9b8c7d6e5f40312a9b8c7d6e5f40312";
  static final String CONTAINERD =
      "0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f";
  static final String CRIO = "5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";
  static final String PODMAN = "7a6b5c4d3e2f10fedcba98765432107a6b5c4d3e2f10fedcba9876543210abcd";

  static List<String> fixture(String name) throws IOException {
    try (InputStream in = ContainerIdsTest.class.getResourceAsStream("/resource/" + name)) {
      if (in == null) {
        throw new IOException("no fixture " + name);
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Arrays.asList(text.split("\n"));
    }
  }

  @ParameterizedTest
  @CsvSource({
    "cgroup-v1-docker.txt, " + DOCKER,
    "cgroup-v1-kubernetes-docker.txt, " + KUBERNETES,
    "cgroup-v1-systemd-docker.txt, " + DOCKER,
    "cgroup-v1-containerd.txt, " + CONTAINERD,
    "cgroup-v1-crio.txt, " + CRIO,
    "cgroup-v1-systemd-colon.txt, " + CONTAINERD,
    "cgroup-v2.txt, ",
    "cgroup-host.txt, ",
  })
  void cgroup(String file, String expected) throws IOException {
    assertEquals(expected, ContainerIds.fromCgroup(fixture(file)), file);
  }

  @ParameterizedTest
  @CsvSource({
    "mountinfo-v2-docker.txt, " + DOCKER,
    "mountinfo-v2-containerd.txt, " + CONTAINERD,
    "mountinfo-v2-containerd-sandbox.txt, ",
    "mountinfo-v2-crio.txt, " + CRIO,
    "mountinfo-v2-podman.txt, " + PODMAN,
    "mountinfo-host.txt, ",
  })
  void mountinfo(String file, String expected) throws IOException {
    assertEquals(expected, ContainerIds.fromMountinfo(fixture(file)), file);
  }

  @Test
  void idsMustBeExactly64LowerCaseHexDigits() {
    String upper = DOCKER.toUpperCase(java.util.Locale.ROOT);
    assertNull(ContainerIds.fromCgroup(Arrays.asList("1:cpu:/docker/" + upper)));
    assertNull(ContainerIds.fromCgroup(Arrays.asList("1:cpu:/docker/" + DOCKER + "0")));
    assertNull(ContainerIds.fromCgroup(Arrays.asList("1:cpu:/docker/" + DOCKER.substring(1))));
    assertNull(ContainerIds.fromCgroup(Arrays.asList("", "no slash here")));
    assertEquals(
        DOCKER,
        ContainerIds.fromCgroup(
            Arrays.asList("2:cpu:/user.slice", "1:cpu:/docker/" + DOCKER, "0::/docker/" + CRIO)));
  }

  @Test
  void theLastDistinctContainersMountWins() {
    String line = "1 2 3:4 /var/lib/docker/containers/%s/hostname /etc/hostname rw - ext4 x rw";
    assertEquals(
        CRIO,
        ContainerIds.fromMountinfo(
            Arrays.asList(
                String.format(line, DOCKER),
                String.format(line, CRIO),
                String.format(line, DOCKER))));
  }
}
