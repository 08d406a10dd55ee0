package io.logproducer.spool;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SpoolDurability;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.ExportedBatch;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;

/**
 * The child JVM of {@link SpoolLiveKillTest}: a producer (2 send threads, a GROUP_COMMIT spool in
 * {@code args[1]}) whose exporter ships every batch to the test's {@link BatchReceiver} on
 * 127.0.0.1:{@code args[2]} and takes its answer ({@code OK} delivered, {@code DOWN} retryable).
 * Modes ({@code args[0]}): {@code send <dir> <port> <n> <first>} sends {@code n} records with ids
 * from {@code first} ({@code [deliveryMillis]} optional, default 120 s; "r-<id>", shard "shard-(id
 * mod 4)"), printing {@code OUTCOME <status> <id>} per outcome and {@code SENT}, then waits to be
 * killed (or, when its standard input ends, closes and prints {@code CLOSED}); {@code drain <dir>
 * <port>} replays the spool until nothing is pending, prints {@code DRAINED}, closes and exits.
 */
public final class SpoolLiveKillMain {

  /** Send threads of the child (the duplicate bound counts them). */
  static final int SEND_THREADS = 2;

  private SpoolLiveKillMain() {}

  /** {@return the child's producer config on {@code dir}} */
  static ProducerConfig config(String dir, long deliveryMillis) {
    return SpoolTestSettings.producer("spool-live-kill", deliveryMillis)
        .setSendThreads(SEND_THREADS)
        .setSpool(
            SpoolTestSettings.spool(Paths.get(dir))
                .setDurability(SpoolDurability.GROUP_COMMIT)
                .setMaxBytes(64L << 20)
                .build())
        .build();
  }

  public static void main(String[] args) throws Exception {
    io.logproducer.testsupport.ChildOutput.lineAtomic();
    int port = Integer.parseInt(args[2]);
    ThreadLocal<Socket> sockets = new ThreadLocal<>();
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.respondWith(b -> ship(sockets, port, b));
    long deliveryMillis = args.length > 5 ? Long.parseLong(args[5]) : 120_000;
    Producer p = new Producer(config(args[1], deliveryMillis), exporter);
    if (args[0].equals("drain")) {
      if (Outcomes.until(() -> p.getMetrics().getSpoolPendingBatches() == 0, 600_000)) {
        System.out.println("DRAINED");
      }
      p.close(10_000);
      return;
    }
    int n = Integer.parseInt(args[3]);
    int first = Integer.parseInt(args[4]);
    for (int i = first; i < first + n; i++) {
      int id = i;
      p.send(
          LogRecord.builder().setBody("r-" + i).setDestination("shard-" + (i % 4)).build(),
          (SendResult r) ->
              System.out.println(
                  "OUTCOME "
                      + r.getStatus()
                      + " "
                      + id
                      + (r.getStatus() == SendResult.Status.FAILED ? " " + r.getMessage() : "")));
    }
    System.out.println("SENT");
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    while (in.readLine() != null) {
      // wait for the kill, or for the end of the input
    }
    p.close(30_000);
    System.out.println("CLOSED");
  }

  /** Sends one batch's ids on this thread's connection; {@return the receiver's answer} */
  private static ExportResult ship(ThreadLocal<Socket> sockets, int port, ExportedBatch b) {
    try {
      Socket s = sockets.get();
      if (s == null) {
        s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(60_000);
        sockets.set(s);
      }
      StringBuilder line = new StringBuilder("B");
      for (String body : b.bodies()) {
        line.append(' ').append(body.substring(2));
      }
      OutputStream out = s.getOutputStream();
      out.write(line.append('\n').toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String answer = readLine(s);
      if ("OK".equals(answer)) {
        return ExportResult.success();
      }
      return ExportResult.retryable("receiver answered " + answer, null, -1);
    } catch (IOException e) {
      Socket s = sockets.get();
      sockets.remove();
      if (s != null) {
        try {
          s.close();
        } catch (IOException ignored) {
          // closing a broken connection
        }
      }
      return ExportResult.retryable("receiver unreachable: " + e, e, -1);
    }
  }

  private static String readLine(Socket s) throws IOException {
    StringBuilder sb = new StringBuilder();
    while (true) {
      int c = s.getInputStream().read();
      if (c < 0) {
        throw new IOException("connection closed");
      }
      if (c == '\n') {
        return sb.toString();
      }
      sb.append((char) c);
    }
  }
}
