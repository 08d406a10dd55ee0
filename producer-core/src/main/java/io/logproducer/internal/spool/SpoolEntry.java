package io.logproducer.internal.spool;

import java.nio.ByteBuffer;

/**
 * One entry read back by a {@link SpoolCursor}: its sequence, creation time, record count, meta and
 * payload. The payload is a read-only view into the cursor's reusable buffer and is valid only
 * until the cursor's next call; {@code meta} is a copy. Immutable apart from that buffer; confined
 * to the reading thread.
 */
public final class SpoolEntry {
  private final long sequence;
  private final long createdAtMillis;
  private final int recordCount;
  private final byte[] meta;
  private final ByteBuffer payload;

  /** An entry as read; {@code payload} is a view valid until the cursor moves. */
  SpoolEntry(
      long sequence, long createdAtMillis, int recordCount, byte[] meta, ByteBuffer payload) {
    this.sequence = sequence;
    this.createdAtMillis = createdAtMillis;
    this.recordCount = recordCount;
    this.meta = meta;
    this.payload = payload;
  }

  /** {@return the entry's sequence, unique and increasing across the spool's life} */
  public long sequence() {
    return sequence;
  }

  /** {@return the creation time the appender gave, epoch millis} */
  public long createdAtMillis() {
    return createdAtMillis;
  }

  /** {@return the number of records in the batch, as the appender gave it} */
  public int recordCount() {
    return recordCount;
  }

  /** {@return the opaque meta bytes (a copy owned by the caller)} */
  public byte[] meta() {
    return meta;
  }

  /** {@return the payload: a read-only view, valid until the cursor's next call} */
  public ByteBuffer payload() {
    return payload;
  }
}
