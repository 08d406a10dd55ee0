package io.logproducer.internal;

import io.logproducer.SpoolConfig;
import io.logproducer.internal.spool.SpoolDurability;
import io.logproducer.internal.spool.SpoolFullPolicy;
import io.logproducer.internal.spool.SpoolListener;

/**
 * The one adapter from the public spool settings ({@link SpoolConfig}, {@link
 * io.logproducer.SpoolDurability}, {@link io.logproducer.SpoolFullPolicy}) to the storage layer's
 * own ({@link io.logproducer.internal.spool.SpoolConfig}). Stateless.
 */
final class SpoolSettings {

  private SpoolSettings() {}

  /**
   * {@return the storage settings for {@code config}, owned by {@code kind} and reporting to {@code
   * listener}}
   *
   * @throws IllegalArgumentException naming the setting the storage layer refuses
   */
  static io.logproducer.internal.spool.SpoolConfig toStorage(
      SpoolConfig config, String kind, SpoolListener listener) {
    return io.logproducer.internal.spool.SpoolConfig.builder(config.getDirectory(), kind)
        .maxBytes(config.getMaxBytes())
        .segmentBytes(config.getSegmentBytes())
        .durability(durability(config.getDurability()), config.getGroupCommitMillis())
        .fullPolicy(fullPolicy(config.getFullPolicy()), config.getMaxBlockMillis())
        .maxAgeMillis(config.getMaxAgeMillis())
        .minFreeDiskShare(config.getMinFreeDiskShare())
        .listener(listener)
        .build();
  }

  static SpoolDurability durability(io.logproducer.SpoolDurability d) {
    switch (d) {
      case NONE:
        return SpoolDurability.NONE;
      case EVERY_BATCH:
        return SpoolDurability.EVERY_ENTRY;
      case GROUP_COMMIT:
      default:
        return SpoolDurability.GROUP_COMMIT;
    }
  }

  static SpoolFullPolicy fullPolicy(io.logproducer.SpoolFullPolicy p) {
    switch (p) {
      case BLOCK:
        return SpoolFullPolicy.BLOCK;
      case DROP_OLDEST:
        return SpoolFullPolicy.DROP_OLDEST;
      case DROP_NEWEST:
      default:
        return SpoolFullPolicy.DROP_NEWEST;
    }
  }
}
