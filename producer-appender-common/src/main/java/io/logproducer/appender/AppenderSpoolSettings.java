package io.logproducer.appender;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * The producer's disk spool as a logging framework's XML sets it (logback {@code <spool>}, log4j2
 * {@code <Spool>}): the settings of {@link SpoolConfig}, same names, same defaults. {@code
 * directory} is required. Each setter validates its value at once and throws {@link
 * IllegalArgumentException} naming the setting; {@link #toSpoolConfig()} checks them together. Not
 * thread-safe: filled once, before the appender starts.
 */
public final class AppenderSpoolSettings {

  /** Any directory: the builder's setters check values without one. */
  private static final Path PROBE = Paths.get(".");

  private String directory;
  private Long maxBytes;
  private Long segmentBytes;
  private SpoolDurability durability;
  private Long groupCommitMillis;
  private SpoolFullPolicy fullPolicy;
  private Long maxBlockMillis;
  private Long maxAgeMillis;
  private Double minFreeDiskShare;
  private Double replayShare;

  /** Creates settings with {@link SpoolConfig}'s defaults and no directory. */
  public AppenderSpoolSettings() {}

  /**
   * The spool's directory (created when absent); one producer at a time owns it. Required.
   *
   * @param directory a path; relative paths are resolved against the working directory
   * @throws IllegalArgumentException ("directory …") if empty or not a valid path
   */
  public void setDirectory(String directory) {
    if (directory == null || directory.trim().isEmpty()) {
      throw new IllegalArgumentException("directory must not be empty");
    }
    try {
      Paths.get(directory.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "directory '" + directory + "' is not a valid path: " + e.getMessage(), e);
    }
    this.directory = directory.trim();
  }

  /**
   * See {@link SpoolConfig.Builder#setMaxBytes(long)}; default 1 GiB.
   *
   * @param bytes every byte the spool may take on disk
   */
  public void setMaxBytes(long bytes) {
    SpoolConfig.builder(PROBE).setMaxBytes(bytes);
    this.maxBytes = bytes;
  }

  /**
   * See {@link SpoolConfig.Builder#setSegmentBytes(long)}; default 64 MiB.
   *
   * @param bytes the size of one segment file, 4 KiB to 1 GiB
   */
  public void setSegmentBytes(long bytes) {
    SpoolConfig.builder(PROBE).setSegmentBytes(bytes);
    this.segmentBytes = bytes;
  }

  /**
   * {@code none}, {@code group_commit} (the default) or {@code every_batch} (any case, {@code -}
   * for {@code _}); see {@link SpoolDurability} for what each survives.
   *
   * @param durability the policy's name
   * @throws IllegalArgumentException ("durability …") if unknown
   */
  public void setDurability(String durability) {
    this.durability = enumValue(SpoolDurability.class, "durability", durability);
  }

  /**
   * See {@link SpoolConfig.Builder#setGroupCommitMillis(long)}; default 200.
   *
   * @param millis the group-commit interval, 1 to 60 000
   */
  public void setGroupCommitMillis(long millis) {
    SpoolConfig.builder(PROBE).setGroupCommitMillis(millis);
    this.groupCommitMillis = millis;
  }

  /**
   * {@code drop_newest} (the default), {@code drop_oldest} or {@code block} (any case, {@code -}
   * for {@code _}); see {@link SpoolFullPolicy}.
   *
   * @param policy the policy's name
   * @throws IllegalArgumentException ("fullPolicy …") if unknown
   */
  public void setFullPolicy(String policy) {
    this.fullPolicy = enumValue(SpoolFullPolicy.class, "fullPolicy", policy);
  }

  /**
   * How long {@code fullPolicy=block} waits for room; default 0.
   *
   * @param millis 0 to 60 000
   */
  public void setMaxBlockMillis(long millis) {
    SpoolConfig.builder(PROBE).setFullPolicy(SpoolFullPolicy.BLOCK, millis);
    this.maxBlockMillis = millis;
  }

  /**
   * See {@link SpoolConfig.Builder#setMaxAgeMillis(long)}; default 7 days.
   *
   * @param millis positive
   */
  public void setMaxAgeMillis(long millis) {
    SpoolConfig.builder(PROBE).setMaxAgeMillis(millis);
    this.maxAgeMillis = millis;
  }

  /**
   * See {@link SpoolConfig.Builder#setMinFreeDiskShare(double)}; default 0.05.
   *
   * @param share 0 (no guard) up to, not including, 1
   */
  public void setMinFreeDiskShare(double share) {
    SpoolConfig.builder(PROBE).setMinFreeDiskShare(share);
    this.minFreeDiskShare = share;
  }

  /**
   * See {@link SpoolConfig.Builder#setReplayShare(double)}; default 0.5.
   *
   * @param share more than 0, at most 1: replay keeps at most {@code max(1, floor(share ×
   *     sendThreads))} exports in flight
   */
  public void setReplayShare(double share) {
    SpoolConfig.builder(PROBE).setReplayShare(share);
    this.replayShare = share;
  }

  /**
   * Builds the spool's settings.
   *
   * @return the settings
   * @throws IllegalArgumentException ("spool: directory …", "spool: maxBytes …") if no directory
   *     was set or the settings do not fit together
   */
  public SpoolConfig toSpoolConfig() {
    if (directory == null) {
      throw new IllegalArgumentException("spool: directory is required");
    }
    SpoolConfig.Builder b = SpoolConfig.builder(Paths.get(directory));
    if (maxBytes != null) {
      b.setMaxBytes(maxBytes);
    }
    if (segmentBytes != null) {
      b.setSegmentBytes(segmentBytes);
    }
    if (durability != null) {
      b.setDurability(durability);
    }
    if (groupCommitMillis != null) {
      b.setGroupCommitMillis(groupCommitMillis);
    }
    if (fullPolicy != null || maxBlockMillis != null) {
      b.setFullPolicy(
          fullPolicy != null ? fullPolicy : SpoolFullPolicy.DROP_NEWEST,
          maxBlockMillis != null ? maxBlockMillis : 0);
    }
    if (maxAgeMillis != null) {
      b.setMaxAgeMillis(maxAgeMillis);
    }
    if (minFreeDiskShare != null) {
      b.setMinFreeDiskShare(minFreeDiskShare);
    }
    if (replayShare != null) {
      b.setReplayShare(replayShare);
    }
    return b.build();
  }

  /** {@code value} as a constant of {@code type}: any case, {@code -} for {@code _}. */
  private static <E extends Enum<E>> E enumValue(Class<E> type, String setting, String value) {
    StringBuilder names = new StringBuilder();
    for (E e : type.getEnumConstants()) {
      if (value != null && e.name().equalsIgnoreCase(value.trim().replace('-', '_'))) {
        return e;
      }
      names.append(names.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
    }
    throw new IllegalArgumentException(
        setting + " must be one of " + names + ", was '" + value + "'");
  }
}
