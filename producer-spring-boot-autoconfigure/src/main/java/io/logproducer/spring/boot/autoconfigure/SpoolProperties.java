package io.logproducer.spring.boot.autoconfigure;

import java.time.Duration;
import org.springframework.util.unit.DataSize;

/**
 * The disk spool's properties ({@code logproducer.spool.*}): records not delivered by their
 * delivery timeout, or still buffered at shutdown, are written to disk and delivered later, by this
 * application or the next one on the same directory. Off unless {@code directory} is set.
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
public class SpoolProperties {

  /** The spool directory; one application instance per directory. Unset: no spool. */
  private String directory;

  /** The most disk the spool takes. Default: 1GB. */
  private DataSize maxSize;

  /** The size of one segment file. Default: 64MB. */
  private DataSize segmentSize;

  /** none, group-commit (the default) or every-batch: when the spool fsyncs. */
  private String durability;

  /** The fsync interval under group-commit. Default: 200ms. */
  private Duration groupCommit;

  /** What happens when maxSize is reached: drop-newest (the default), drop-oldest or block. */
  private String fullPolicy;

  /** How long a write may wait under fullPolicy=block. */
  private Duration maxBlock;

  /** Records older than this are dropped from the spool, counted. Default: 7 days. */
  private Duration maxAge;

  /** The share of the disk the spool leaves free. Default: 0.05. */
  private Double minFreeDiskShare;

  /** The share of sendThreads that replays the spool. Default: 0.5. */
  private Double replayShare;

  /** Creates the defaults. */
  public SpoolProperties() {}

  /** {@return {@code logproducer.spool.directory}} */
  public String getDirectory() {
    return directory;
  }

  /**
   * Sets {@code logproducer.spool.directory}.
   *
   * @param directory the spool directory; one application instance per directory. Unset: no spool.
   */
  public void setDirectory(String directory) {
    this.directory = directory;
  }

  /** {@return {@code logproducer.spool.max-size}} */
  public DataSize getMaxSize() {
    return maxSize;
  }

  /**
   * Sets {@code logproducer.spool.max-size}.
   *
   * @param maxSize the most disk the spool takes. Default: 1GB.
   */
  public void setMaxSize(DataSize maxSize) {
    this.maxSize = maxSize;
  }

  /** {@return {@code logproducer.spool.segment-size}} */
  public DataSize getSegmentSize() {
    return segmentSize;
  }

  /**
   * Sets {@code logproducer.spool.segment-size}.
   *
   * @param segmentSize the size of one segment file. Default: 64MB.
   */
  public void setSegmentSize(DataSize segmentSize) {
    this.segmentSize = segmentSize;
  }

  /** {@return {@code logproducer.spool.durability}} */
  public String getDurability() {
    return durability;
  }

  /**
   * Sets {@code logproducer.spool.durability}.
   *
   * @param durability none, group-commit (the default) or every-batch: when the spool fsyncs.
   */
  public void setDurability(String durability) {
    this.durability = durability;
  }

  /** {@return {@code logproducer.spool.group-commit}} */
  public Duration getGroupCommit() {
    return groupCommit;
  }

  /**
   * Sets {@code logproducer.spool.group-commit}.
   *
   * @param groupCommit the fsync interval under group-commit. Default: 200ms.
   */
  public void setGroupCommit(Duration groupCommit) {
    this.groupCommit = groupCommit;
  }

  /** {@return {@code logproducer.spool.full-policy}} */
  public String getFullPolicy() {
    return fullPolicy;
  }

  /**
   * Sets {@code logproducer.spool.full-policy}.
   *
   * @param fullPolicy what happens when maxSize is reached: drop-newest (the default), drop-oldest
   *     or block.
   */
  public void setFullPolicy(String fullPolicy) {
    this.fullPolicy = fullPolicy;
  }

  /** {@return {@code logproducer.spool.max-block}} */
  public Duration getMaxBlock() {
    return maxBlock;
  }

  /**
   * Sets {@code logproducer.spool.max-block}.
   *
   * @param maxBlock how long a write may wait under fullPolicy=block.
   */
  public void setMaxBlock(Duration maxBlock) {
    this.maxBlock = maxBlock;
  }

  /** {@return {@code logproducer.spool.max-age}} */
  public Duration getMaxAge() {
    return maxAge;
  }

  /**
   * Sets {@code logproducer.spool.max-age}.
   *
   * @param maxAge records older than this are dropped from the spool, counted. Default: none.
   */
  public void setMaxAge(Duration maxAge) {
    this.maxAge = maxAge;
  }

  /** {@return {@code logproducer.spool.min-free-disk-share}} */
  public Double getMinFreeDiskShare() {
    return minFreeDiskShare;
  }

  /**
   * Sets {@code logproducer.spool.min-free-disk-share}.
   *
   * @param minFreeDiskShare the share of the disk the spool leaves free.
   */
  public void setMinFreeDiskShare(Double minFreeDiskShare) {
    this.minFreeDiskShare = minFreeDiskShare;
  }

  /** {@return {@code logproducer.spool.replay-share}} */
  public Double getReplayShare() {
    return replayShare;
  }

  /**
   * Sets {@code logproducer.spool.replay-share}.
   *
   * @param replayShare the share of sendThreads that replays the spool. Default: 0.5.
   */
  public void setReplayShare(Double replayShare) {
    this.replayShare = replayShare;
  }
}
