package io.logproducer.spool;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The live receiver of {@link SpoolLiveKillTest} on 127.0.0.1: takes one batch per line ({@code B
 * id id …}) on any number of connections, records each with the epoch (the child then running) and
 * its arrival time, and answers {@code OK} (or {@code DOWN} while down). A batch whose ids were all
 * received before is a duplicate. Thread-safe; one thread per connection.
 */
final class BatchReceiver implements AutoCloseable {

  /** One batch as received. */
  static final class Received {
    final int epoch;
    final long nanos;
    final int[] ids;
    final boolean duplicate;

    Received(int epoch, long nanos, int[] ids, boolean duplicate) {
      this.epoch = epoch;
      this.nanos = nanos;
      this.ids = ids;
      this.duplicate = duplicate;
    }
  }

  private final ServerSocket server;
  private final List<Received> batches = new ArrayList<>();
  private final Set<Integer> seen = new HashSet<>();
  private volatile boolean down;
  private volatile int epoch;

  BatchReceiver() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::accept, "batch-receiver");
    t.setDaemon(true);
    t.start();
  }

  int port() {
    return server.getLocalPort();
  }

  /** While down, every batch is answered DOWN (and not recorded). */
  void setDown(boolean down) {
    this.down = down;
  }

  /** Batches received from now on belong to epoch {@code e}. */
  void setEpoch(int e) {
    this.epoch = e;
  }

  synchronized List<Received> batches() {
    return new ArrayList<>(batches);
  }

  synchronized Set<Integer> seen() {
    return new HashSet<>(seen);
  }

  /** {@return the batches of epoch {@code e}} */
  synchronized long count(int e, boolean duplicates) {
    return batches.stream().filter(b -> b.epoch == e && b.duplicate == duplicates).count();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        Thread t = new Thread(() -> serve(s), "batch-receiver-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (Socket socket = s;
        BufferedReader in =
            new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))) {
      OutputStream out = socket.getOutputStream();
      String line;
      while ((line = in.readLine()) != null) {
        if (down) {
          out.write("DOWN\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          continue;
        }
        String[] f = line.trim().split(" ");
        int[] ids = new int[f.length - 1];
        for (int i = 1; i < f.length; i++) {
          ids[i - 1] = Integer.parseInt(f[i]);
        }
        record(ids);
        out.write("OK\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
    } catch (IOException e) {
      // the child was killed: its connections die with it
    }
  }

  private synchronized void record(int[] ids) {
    boolean all = ids.length > 0;
    for (int id : ids) {
      all &= seen.contains(id);
    }
    for (int id : ids) {
      seen.add(id);
    }
    batches.add(new Received(epoch, System.nanoTime(), ids, all));
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
