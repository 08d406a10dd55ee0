package io.logproducer.otlp.encoding.internal.resource;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the {@code container.id} (64 lower-case hex digits) in the lines of {@code
 * /proc/self/cgroup} (cgroup v1, and cgroup v2 paths that name the container) or, when that names
 * none (cgroup v2 with a private cgroup namespace: {@code 0::/}), of {@code /proc/self/mountinfo}.
 * The rules are those of OpenTelemetry Java's {@code CgroupV1ContainerIdExtractor} and {@code
 * CgroupV2ContainerIdExtractor} ({@code opentelemetry-java-instrumentation}, {@code
 * instrumentation/resources/library}), written anew. Stateless and thread-safe.
 */
final class ContainerIds {

  private static final Pattern HEX_64 = Pattern.compile("[0-9a-f]{64}");

  /** A CRI-O scope in a mount's path: {@code .../crio-<id>.scope}. */
  private static final Pattern MOUNT_CRIO = Pattern.compile("/crio-([0-9a-f]{64})");

  /**
   * A containerd scope in systemd's {@code slice:prefix:name} form: {@code cri-containerd:<id>}.
   */
  private static final Pattern MOUNT_CONTAINERD = Pattern.compile("cri-containerd:([0-9a-f]{64})");

  /**
   * A mount whose root (the 4th field of a mountinfo line) lies under a {@code containers}
   * directory holding the id: Docker's {@code /var/lib/docker/containers/<id>/hostname} (also
   * {@code hosts}, {@code resolv.conf}), Podman's and CRI-O's {@code
   * /var/lib/containers/storage/overlay-containers/<id>/userdata/hostname}.
   */
  private static final Pattern MOUNT_CONTAINERS =
      Pattern.compile("^\\d+ \\d+ \\d+:\\d+ \\S*/containers/\\S*?([0-9a-f]{64})");

  private ContainerIds() {}

  /**
   * The id in {@code /proc/self/cgroup}: of the first line whose last path segment, after its last
   * {@code :} if it has one (systemd's {@code kubepods-…slice:cri-containerd:<id>}), else between
   * its last {@code -} and its last {@code .} ({@code docker-<id>.scope}, {@code
   * cri-containerd-<id>.scope}, {@code crio-<id>.scope}, or the whole segment: {@code
   * /docker/<id>}, {@code /kubepods/besteffort/pod<uid>/<id>}), is 64 lower-case hex digits.
   *
   * @param lines the file's lines
   * @return the id, or null if no line names one (e.g. {@code 0::/}, or a host's {@code
   *     /user.slice/...})
   */
  static String fromCgroup(List<String> lines) {
    for (String line : lines) {
      String id = fromCgroupLine(line);
      if (id != null) {
        return id;
      }
    }
    return null;
  }

  private static String fromCgroupLine(String line) {
    int slash = line.lastIndexOf('/');
    if (slash < 0) {
      return null;
    }
    String last = line.substring(slash + 1);
    String candidate;
    int colon = last.lastIndexOf(':');
    if (colon >= 0) {
      candidate = last.substring(colon + 1);
    } else {
      int start = last.lastIndexOf('-') + 1;
      int end = last.lastIndexOf('.');
      if (end < 0) {
        end = last.length();
      }
      if (start > end) {
        return null;
      }
      candidate = last.substring(start, end);
    }
    return HEX_64.matcher(candidate).matches() ? candidate : null;
  }

  /**
   * The id in {@code /proc/self/mountinfo}, tried in this order: a CRI-O scope ({@code /crio-<id>})
   * in any line; else a containerd scope ({@code cri-containerd:<id>}) in any line; else the last
   * distinct id of the mounts whose root lies under a {@code containers} directory (Docker's and
   * Podman's {@code hostname}, {@code hosts}, {@code resolv.conf} bind mounts). The pod sandbox's
   * files of containerd ({@code .../sandboxes/<id>/hostname}) are not used: that id is the pod's
   * sandbox (pause) container, not this container.
   *
   * @param lines the file's lines
   * @return the id, or null if none
   */
  static String fromMountinfo(List<String> lines) {
    String id = firstGroup(lines, "/crio-", MOUNT_CRIO);
    if (id == null) {
      id = firstGroup(lines, "cri-containerd:", MOUNT_CONTAINERD);
    }
    if (id == null) {
      Set<String> ids = new LinkedHashSet<>();
      for (String line : lines) {
        if (line.contains("/containers/")) {
          Matcher m = MOUNT_CONTAINERS.matcher(line);
          if (m.find()) {
            ids.add(m.group(1));
          }
        }
      }
      for (String each : ids) {
        id = each;
      }
    }
    return id;
  }

  private static String firstGroup(List<String> lines, String marker, Pattern pattern) {
    for (String line : lines) {
      if (line.contains(marker)) {
        Matcher m = pattern.matcher(line);
        if (m.find()) {
          return m.group(1);
        }
      }
    }
    return null;
  }
}
