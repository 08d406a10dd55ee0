package io.logproducer.otlp.encoding.testing;

import io.logproducer.LogRecord;
import io.logproducer.spi.Batch;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A {@link Batch} of records encoded by a given encoder, as the producer would hold them. */
public final class TestBatch implements Batch {

  private final List<byte[]> records = new ArrayList<>();
  private int size;

  public static TestBatch of(RecordEncoder encoder, List<LogRecord> records) {
    TestBatch b = new TestBatch();
    EncodeBuffer buf = new EncodeBuffer(64);
    for (LogRecord r : records) {
      buf.reset();
      encoder.encode(r, buf);
      b.add(Arrays.copyOf(buf.array(), buf.size()));
    }
    return b;
  }

  public void add(byte[] encoded) {
    records.add(encoded);
    size += encoded.length;
  }

  @Override
  public Object shardKey() {
    return 0;
  }

  @Override
  public int recordCount() {
    return records.size();
  }

  @Override
  public int sizeInBytes() {
    return size;
  }

  @Override
  public int recordSize(int index) {
    return records.get(index).length;
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    for (byte[] r : records) {
      out.write(r);
    }
  }

  @Override
  public void writeRecord(int index, OutputStream out) throws IOException {
    out.write(records.get(index));
  }

  @Override
  public int attempt() {
    return 1;
  }
}
