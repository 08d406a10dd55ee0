package io.logproducer.examples;

import static io.logproducer.examples.CommonOptions.within;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The disk spool's options ({@link SpoolConfig}), a picocli {@code @Mixin} for the sub-commands
 * whose exporter can use a spool: {@code --spool-dir} turns it on, the others tune it (ignored
 * without it). Not thread-safe: filled by one parse, then read.
 */
final class SpoolOptions {

  @Option(
      names = "--spool-dir",
      paramLabel = "DIR",
      description =
          "write each batch ahead to a disk spool in DIR; what is not delivered within"
              + " --delivery-timeout-ms (or by the end) is SPOOLED and delivered by the next run on"
              + " DIR; with --records 0, only drain DIR")
  Path dir;

  @Option(
      names = "--spool-max-bytes",
      paramLabel = "BYTES",
      description =
          "every byte the spool may take on disk; at least 2 x --spool-segment-bytes + 1 MiB"
              + " (default ${DEFAULT-VALUE})")
  long maxBytes = 1L << 30;

  @Option(
      names = "--spool-segment-bytes",
      paramLabel = "BYTES",
      description = "the size of one spool segment file (default ${DEFAULT-VALUE})")
  long segmentBytes = 64L << 20;

  @Option(
      names = "--spool-durability",
      paramLabel = "D",
      description =
          "none (survives a process kill) | group-commit (an fsync every --spool-group-commit-ms:"
              + " survives a power loss after that) | every-batch (an fsync per batch)"
              + " (default ${DEFAULT-VALUE})")
  String durability = "group-commit";

  @Option(
      names = "--spool-group-commit-ms",
      paramLabel = "MS",
      description = "the group-commit interval (default ${DEFAULT-VALUE})")
  long groupCommitMs = 200;

  @Option(
      names = "--spool-full-policy",
      paramLabel = "P",
      description =
          "when the spool is full: drop-newest (the batch stays in memory only) | drop-oldest"
              + " (delete the oldest segment, counted) | block (wait up to --spool-max-block-ms)"
              + " (default ${DEFAULT-VALUE})")
  String fullPolicy = "drop-newest";

  @Option(
      names = "--spool-max-block-ms",
      paramLabel = "MS",
      description = "how long block waits for room in the spool (default ${DEFAULT-VALUE})")
  long maxBlockMs = 0;

  @Option(
      names = "--spool-max-age-ms",
      paramLabel = "MS",
      description =
          "stored batches older than this are expired (counted), not sent (default"
              + " ${DEFAULT-VALUE})")
  long maxAgeMs = 7L * 24 * 3600 * 1000;

  @Option(
      names = "--drain-timeout-ms",
      paramLabel = "MS",
      description =
          "with --records 0: how long to wait for the spool to drain before giving up (exit 1)"
              + " (default ${DEFAULT-VALUE})")
  long drainTimeoutMs = 60_000;

  /** {@return whether {@code --spool-dir} was given} */
  boolean on() {
    return dir != null;
  }

  /**
   * The spool the options describe.
   *
   * @return the configuration, or null without {@code --spool-dir}
   * @throws IllegalArgumentException naming the option, if a value is out of bounds or the spool
   *     refuses it
   */
  SpoolConfig config() {
    if (dir == null) {
      return null;
    }
    SpoolConfig.Builder b = SpoolConfig.builder(dir);
    String option = "--spool-max-bytes";
    try {
      b.setMaxBytes(within(option, maxBytes, 1, Long.MAX_VALUE));
      option = "--spool-segment-bytes";
      b.setSegmentBytes(within(option, segmentBytes, 1, Long.MAX_VALUE));
      option = "--spool-durability";
      b.setDurability(constant(option, SpoolDurability.class, durability));
      option = "--spool-group-commit-ms";
      b.setGroupCommitMillis(within(option, groupCommitMs, 1, Long.MAX_VALUE));
      option = "--spool-full-policy";
      SpoolFullPolicy policy = constant(option, SpoolFullPolicy.class, fullPolicy);
      option = "--spool-max-block-ms";
      b.setFullPolicy(policy, within(option, maxBlockMs, 0, Long.MAX_VALUE));
      option = "--spool-max-age-ms";
      b.setMaxAgeMillis(within(option, maxAgeMs, 1, Long.MAX_VALUE));
      option = "--spool-max-bytes";
      return b.build();
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("--")) {
        throw e;
      }
      throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
    }
  }

  /**
   * How long {@code --records 0} waits for the spool to drain.
   *
   * @return ms, in [1, 86400000]
   * @throws IllegalArgumentException naming the option, if out of bounds
   */
  long drainTimeoutMillis() {
    return within("--drain-timeout-ms", drainTimeoutMs, 1, 86_400_000);
  }

  /** {@code value} as a constant of {@code type}: any case, {@code -} for {@code _}. */
  private static <E extends Enum<E>> E constant(String option, Class<E> type, String value) {
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value.replace('-', '_'))) {
        return e;
      }
      names.add(e.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
    throw new IllegalArgumentException(
        option + " must be " + String.join("|", names) + ", was '" + value + "'");
  }
}
