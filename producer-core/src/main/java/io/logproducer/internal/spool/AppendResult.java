package io.logproducer.internal.spool;

/** The answer of {@link Spool#append}: stored with a sequence, or not stored and why. Immutable. */
public final class AppendResult {

  /** How an append ended. */
  public enum Status {
    /** Stored under {@link #sequence()}. */
    STORED,
    /** Refused: the spool is at maxBytes (after waiting, under BLOCK). */
    FULL,
    /** Refused: the disk failed; {@link #cause()} says how. */
    DISABLED,
    /** Refused: the entry cannot fit in a segment or meta is larger than 64 KiB. */
    TOO_LARGE,
    /** Refused: the spool is closed. */
    CLOSED,
    /**
     * Refused: the calling thread was interrupted while it waited (BLOCK) or wrote — a {@code
     * FileChannel} is closed by an interrupt during I/O — or another appender's interrupt closed
     * the segment under this write. The spool stays ENABLED: the next append starts a new segment.
     */
    INTERRUPTED
  }

  private final Status status;
  private final long sequence;
  private final Throwable cause;

  AppendResult(Status status, long sequence, Throwable cause) {
    this.status = status;
    this.sequence = sequence;
    this.cause = cause;
  }

  /** {@return a STORED result for {@code sequence}} */
  static AppendResult stored(long sequence) {
    return new AppendResult(Status.STORED, sequence, null);
  }

  /** {@return a refusal with {@code status} and its {@code cause} (may be null)} */
  static AppendResult refused(Status status, Throwable cause) {
    return new AppendResult(status, -1, cause);
  }

  /** {@return whether the entry was stored} */
  public boolean stored() {
    return status == Status.STORED;
  }

  /** {@return how the append ended} */
  public Status status() {
    return status;
  }

  /** {@return the entry's sequence when stored, else -1} */
  public long sequence() {
    return sequence;
  }

  /** {@return why it was refused (the disk's error for DISABLED), or null} */
  public Throwable cause() {
    return cause;
  }

  /** {@return the status, with the sequence or the cause} */
  @Override
  public String toString() {
    return status + (stored() ? " #" + sequence : cause == null ? "" : ": " + cause);
  }
}
