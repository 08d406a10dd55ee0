package io.logproducer.benchmark.soak;

import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's OTLP/HTTP receiver, in its own JVM on 127.0.0.1 (so that its heap and threads do not
 * mix with the producer's): {@code java -cp benchmarks.jar
 * io.logproducer.benchmark.soak.SoakReceiver --threads T [--port P]}.
 *
 * <p>A counting {@link OtlpReceiver} of the test kit that passes every accepted record's id (its
 * integer attribute {@code seq} = thread × 10^9 + sequence) to a bitset per producer thread: a
 * record seen before is a duplicate (a legitimate retry after a lost response). This class adds
 * only the outage control and the process's protocol.
 *
 * <p>Driven over stdin, one command a line, each acknowledged with {@code ok <command>} on stdout:
 * {@code up} (listen and answer normally, re-binding the same port if it was closed), {@code
 * refuse} (close the listening socket and every open connection: connection refused), {@code
 * unavailable} (keep listening, answer every request 503 with {@code Retry-After: 1}), {@code dump
 * <file>} (write the id bitsets), {@code quit}. Exits when stdin closes. Prints {@code listening
 * <endpoint>} once, then a {@code stats …} line every second.
 */
public final class SoakReceiver {

  private final SoakIdSet[] seen;
  private final AtomicLong unique = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong records = new AtomicLong();
  private final AtomicLong noId = new AtomicLong();
  private final AtomicLong unknownThread = new AtomicLong();
  private final OtlpReceiver receiver;

  private SoakReceiver(int threads, int port) throws IOException {
    seen = new SoakIdSet[threads];
    for (int i = 0; i < threads; i++) {
      seen[i] = new SoakIdSet(0);
    }
    receiver =
        OtlpReceiver.builder()
            .counting()
            .port(port)
            .recordIds(SoakRecords.SEQ_KEY, this::seen)
            .start();
  }

  /**
   * Runs the receiver until {@code quit} or the end of stdin.
   *
   * @param args {@code --threads T} (producer threads, default 10) and {@code --port P} (default: a
   *     free one)
   * @throws IOException if the receiver cannot listen
   */
  public static void main(String[] args) throws IOException {
    int threads = 10;
    int port = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--threads" -> threads = Integer.parseInt(args[i + 1]);
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    SoakReceiver r = new SoakReceiver(threads, port);
    say("listening " + r.receiver.endpoint());
    Executors.newSingleThreadScheduledExecutor()
        .scheduleAtFixedRate(() -> say(r.statsLine()), 1, 1, TimeUnit.SECONDS);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      line = line.trim();
      if (line.equals("quit")) {
        break;
      }
      try {
        r.command(line);
        say("ok " + line);
      } catch (Exception e) {
        say("error " + line + ": " + e);
      }
    }
    r.receiver.close();
    say(r.statsLine());
    System.exit(0);
  }

  private static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private void seen(long id) {
    records.incrementAndGet();
    if (id < 0) {
      noId.incrementAndGet();
      return;
    }
    long t = id / SoakRecords.ID_STRIDE;
    if (t >= seen.length) {
      unknownThread.incrementAndGet();
    } else if (seen[(int) t].add(id % SoakRecords.ID_STRIDE)) {
      unique.incrementAndGet();
    } else {
      duplicates.incrementAndGet();
    }
  }

  private String statsLine() {
    String lastBad = receiver.lastInvalidRequest();
    return String.format(
        Locale.ROOT,
        "stats unique=%d dup=%d records=%d noid=%d unknown=%d requests=%d unavailable=%d bad=%d%s",
        unique.get(),
        duplicates.get(),
        records.get(),
        noId.get(),
        unknownThread.get(),
        receiver.acceptedRequests(),
        receiver.rejectedRequests(),
        receiver.invalidRequestCount(),
        lastBad == null ? "" : " last_bad=" + lastBad.replace(' ', '_'));
  }

  private void command(String line) throws IOException {
    String[] p = line.split("\\s+", 2);
    switch (p[0]) {
      case "up" -> {
        receiver.resume();
        receiver.respond(null);
      }
      case "refuse" -> receiver.refuse();
      case "unavailable" -> {
        receiver.resume();
        receiver.respond(request -> Reply.status(503).withHeader("Retry-After", "1"));
      }
      case "dump" -> SoakIdSet.writeAll(Path.of(p[1]), seen);
      default -> throw new IllegalArgumentException("unknown command");
    }
  }
}
