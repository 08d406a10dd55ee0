package io.logproducer.gse;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.internal.bind.TypeAdapters;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.logproducer.Callback;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.Severity;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Helpers shared by the GSE exporter tests. */
final class Support {

  private Support() {}

  /** A producer configuration for tests: no JMX, short linger and backoffs. */
  static ProducerConfig.Builder config() {
    return ProducerConfig.builder()
        .setJmxEnabled(false)
        .setLingerMillis(20)
        .setInitialRetryBackoffMillis(20)
        .setMaxRetryBackoffMillis(200)
        .setDeliveryTimeoutMillis(30_000);
  }

  /** A record carrying its sequence number in an attribute and in its body. */
  static LogRecord record(long seq) {
    return LogRecord.builder()
        .setTimeUnixNano(1_700_000_000_000_000_000L + seq * 1000)
        .setSeverity(Severity.INFO)
        .setBody("message " + seq + " with \"quotes\", <html> & 中文")
        .setAttribute("seq", seq)
        .setAttribute("thread", "pool-1-thread-2_" + seq)
        .build();
  }

  static LogRecord record(long seq, String dataId) {
    return LogRecord.builder()
        .setTimeUnixNano(1_700_000_000_000_000_000L + seq * 1000)
        .setSeverity(Severity.INFO)
        .setBody("message " + seq)
        .setAttribute("seq", seq)
        .setDestination(dataId)
        .build();
  }

  /** The inner record JSON of an item's data string. */
  static JsonObject inner(String data) {
    try {
      return parseStrict(data);
    } catch (IOException | RuntimeException e) {
      throw new AssertionError("item data is not a JSON object: " + data, e);
    }
  }

  /** A frame's body as gson's strict reading of it (independent of the agent's own parser). */
  static JsonObject json(GseFrame frame) {
    try {
      return parseStrict(frame.bodyText());
    } catch (IOException | RuntimeException e) {
      throw new AssertionError("frame body is not a JSON object: " + frame, e);
    }
  }

  /** Parses exactly one strict JSON object, nothing after it. */
  static JsonObject parseStrict(String text) throws IOException {
    JsonReader r = new JsonReader(new StringReader(text));
    r.setLenient(false);
    JsonElement e = TypeAdapters.JSON_ELEMENT.read(r);
    if (r.peek() != JsonToken.END_DOCUMENT) {
      throw new IOException("text after the JSON document");
    }
    if (!e.isJsonObject()) {
      throw new IOException("not an object");
    }
    return e.getAsJsonObject();
  }

  /** The sequence number of a RECORD_JSON item's data. */
  static long seqOf(String data) {
    return inner(data).getAsJsonObject("attributes").get("seq").getAsLong();
  }

  /** All sequence numbers the agent received, in arrival order. */
  static List<Long> receivedSeqs(GseAgent agent) {
    List<Long> out = new ArrayList<>();
    for (GseFrame f : agent.frames()) {
      for (String d : f.data()) {
        out.add(seqOf(d));
      }
    }
    return out;
  }

  /** Collects outcomes: per status counts, and the SendResult each sequence number got. */
  static final class Outcomes {
    private final Map<SendResult.Status, AtomicLong> counts =
        new EnumMap<>(SendResult.Status.class);
    final Map<Long, SendResult> bySeq = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();

    Outcomes() {
      for (SendResult.Status s : SendResult.Status.values()) {
        counts.put(s, new AtomicLong());
      }
    }

    Callback forSeq(long seq) {
      return r -> {
        SendResult prev = bySeq.put(seq, r);
        if (prev != null) {
          throw new AssertionError("record " + seq + " completed twice: " + prev + " then " + r);
        }
        counts.get(r.getStatus()).incrementAndGet();
        synchronized (this) {
          total.incrementAndGet();
          notifyAll();
        }
      };
    }

    long count(SendResult.Status s) {
      return counts.get(s).get();
    }

    long total() {
      return total.get();
    }

    synchronized void await(long n, long timeoutMillis) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (total.get() < n) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          throw new AssertionError(
              "timed out waiting for " + n + " outcomes, have " + total.get() + ": " + counts);
        }
        TimeUnit.NANOSECONDS.timedWait(this, remaining);
      }
    }

    @Override
    public String toString() {
      return counts.toString();
    }
  }
}
