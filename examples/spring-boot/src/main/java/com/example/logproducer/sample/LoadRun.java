package com.example.logproducer.sample;

import io.logproducer.Producer;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.SimpleCommandLinePropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The sample's command-line run: starts the application (with an embedded OTLP/HTTP receiver on
 * 127.0.0.1 as its destination unless {@code logproducer.otlp.endpoint} or {@code
 * logproducer.exporter} is given), logs N lines through its own {@code /log} endpoint ({@value
 * #LINES_PER_REQUEST} a request, from {@value #CLIENT_THREADS} client threads), flushes the {@code
 * Producer} bean, reads {@code /actuator/health} and {@code /actuator/metrics}, prints one summary
 * line to stdout and closes the application.
 *
 * <p>Summary: {@code records=N delivered=D failed=F dropped=X rejected=R health=S
 * records_per_sec=…}, where D, F, X and R are the {@code logproducer.records} meter by outcome (D
 * counts every record delivered: the N sample lines and Spring's own lines), and with the embedded
 * receiver also {@code received=…} (records the receiver accepted), {@code received_app=…}
 * (distinct sample lines among them) and {@code duplicates=…}. The exit status is 0 when every
 * sample line was delivered: counted once each by the embedded receiver, or, with a real endpoint,
 * delivered according to the producer's meters; in both cases with nothing failed, dropped or
 * rejected. Else 1, with the reason on stderr.
 */
final class LoadRun {

  /** Lines logged when {@code --records} is not given. */
  static final long DEFAULT_RECORDS = 10_000;

  /** Lines each request logs (the last request logs the remainder). */
  static final int LINES_PER_REQUEST = 5;

  /** Concurrent HTTP clients. */
  static final int CLIENT_THREADS = 8;

  private LoadRun() {}

  /**
   * {@return the value of {@code --records=N}, or {@value #DEFAULT_RECORDS}}
   *
   * @param args the command line
   * @throws IllegalArgumentException if N is not an integer in [0, 2^31-1]
   */
  static long records(String[] args) {
    long records = DEFAULT_RECORDS;
    for (String a : args) {
      if (a.startsWith("--records=")) {
        String v = a.substring("--records=".length());
        try {
          records = Long.parseLong(v.replace("_", ""));
        } catch (NumberFormatException e) {
          records = -1;
        }
        if (records < 0 || records > Integer.MAX_VALUE) {
          throw new IllegalArgumentException(
              "--records must be an integer in [0, " + Integer.MAX_VALUE + "], was '" + v + "'");
        }
      }
    }
    return records;
  }

  /**
   * {@return whether the command line, a system property or an environment variable names the
   * destination: {@code logproducer.otlp.endpoint} or {@code logproducer.exporter} (e.g. {@code
   * LOGPRODUCER_OTLP_ENDPOINT})}
   */
  static boolean destinationGiven(String[] args) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new SimpleCommandLinePropertySource(args));
    return environment.containsProperty("logproducer.otlp.endpoint")
        || environment.containsProperty("logproducer.exporter");
  }

  /**
   * Starts the application and leaves it running (port 8080 or {@code --server.port}), with an
   * embedded receiver, left running too, unless a destination is given.
   *
   * @param args the command line, passed to Spring Boot
   * @param err receives where the embedded receiver listens
   * @return the running application
   * @throws Exception if the application or the embedded receiver cannot start
   */
  static ConfigurableApplicationContext serve(String[] args, PrintStream err) throws Exception {
    List<String> appArgs = new ArrayList<>(Arrays.asList(args));
    if (!destinationGiven(args)) {
      OtlpReceiver receiver = OtlpReceiver.startCounting(); // daemon threads: ends with the JVM
      appArgs.add("--logproducer.otlp.endpoint=" + receiver.endpoint());
      err.println("embedded OTLP/HTTP receiver at " + receiver.endpoint());
    }
    return SpringApplication.run(SampleApplication.class, appArgs.toArray(new String[0]));
  }

  /**
   * Runs the application, logs {@code records} lines through it and prints the summary.
   *
   * @param records lines to log, at least 1
   * @param args the command line, passed to Spring Boot ({@code --records} included: unused there)
   * @param out receives the summary line
   * @param err receives progress and errors
   * @return the exit status: 0 when every line was delivered, else 1
   * @throws Exception if the application or the embedded receiver cannot start
   */
  static int run(long records, String[] args, PrintStream out, PrintStream err) throws Exception {
    List<String> appArgs = new ArrayList<>(Arrays.asList(args));
    ReceivedLines lines = null;
    OtlpReceiver receiver = null;
    if (!destinationGiven(args)) {
      lines = new ReceivedLines(records);
      receiver = OtlpReceiver.builder().counting().recordIds(LogController.SEQ_KEY, lines).start();
      appArgs.add("--logproducer.otlp.endpoint=" + receiver.endpoint());
      err.println("embedded OTLP/HTTP receiver at " + receiver.endpoint());
    }
    try {
      SpringApplication application = new SpringApplication(SampleApplication.class);
      // Lowest precedence: the command line overrides them.
      application.setDefaultProperties(
          Map.of(
              "server.port", "0",
              "server.address", "127.0.0.1",
              "logging.threshold.console", "WARN"));
      ConfigurableApplicationContext context = application.run(appArgs.toArray(new String[0]));
      try {
        return measure(context, records, receiver, lines, out, err);
      } finally {
        long started = System.nanoTime();
        context.close();
        err.printf(
            Locale.ROOT,
            "application closed in %d ms%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      }
    } finally {
      if (receiver != null) {
        receiver.close();
      }
    }
  }

  private static int measure(
      ConfigurableApplicationContext context,
      long records,
      OtlpReceiver receiver,
      ReceivedLines lines,
      PrintStream out,
      PrintStream err)
      throws Exception {
    int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    Producer producer = context.getBean(Producer.class);
    Actuator actuator = new Actuator(port);
    err.printf(
        Locale.ROOT,
        "logging %,d lines through http://127.0.0.1:%d/log (%d a request, %d clients)%n",
        records,
        port,
        LINES_PER_REQUEST,
        CLIENT_THREADS);
    long started = System.nanoTime();
    long failedRequests = send(actuator, records, err);
    producer.flush();
    double seconds = (System.nanoTime() - started) / 1e9;

    String health = actuator.logproducerHealth();
    long delivered = actuator.meter("logproducer.records", "outcome:delivered");
    long failed = actuator.meter("logproducer.records", "outcome:failed");
    long dropped = actuator.meter("logproducer.records", "outcome:dropped");
    long rejected = actuator.meter("logproducer.records", "outcome:rejected");
    StringBuilder summary =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "records=%d delivered=%d failed=%d dropped=%d rejected=%d health=%s "
                    + "records_per_sec=%.0f",
                records,
                delivered,
                failed,
                dropped,
                rejected,
                health,
                records / seconds));
    String problem = null;
    if (failedRequests > 0) {
      problem = failedRequests + " requests to /log did not answer 200";
    } else if (failed + dropped + rejected > 0) {
      problem = "the producer reports failed, dropped or rejected records";
    }
    if (lines != null) {
      summary.append(
          String.format(
              Locale.ROOT,
              " received=%d received_app=%d duplicates=%d",
              receiver.acceptedRecords(),
              lines.distinct(),
              lines.duplicates()));
      if (problem == null && (lines.distinct() != records || lines.duplicates() != 0)) {
        problem = "the embedded receiver did not count every line exactly once";
      }
    } else if (problem == null && delivered < records) {
      problem = "the producer delivered fewer records than the run logged";
    }
    out.println(summary);
    if (problem != null) {
      err.println("error: " + problem + " (" + producer.getMetrics() + ")");
      return 1;
    }
    return 0;
  }

  /** Sends the requests; returns how many did not answer 200. */
  private static long send(Actuator actuator, long records, PrintStream err) throws Exception {
    long requests = (records + LINES_PER_REQUEST - 1) / LINES_PER_REQUEST;
    AtomicLong next = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    ExecutorService clients = Executors.newFixedThreadPool(CLIENT_THREADS);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < CLIENT_THREADS; t++) {
        workers.add(
            clients.submit(
                () -> {
                  for (long r = next.getAndIncrement(); r < requests; r = next.getAndIncrement()) {
                    long first = r * LINES_PER_REQUEST;
                    long n = Math.min(LINES_PER_REQUEST, records - first);
                    HttpResponse<String> reply =
                        actuator.get("/log?first=" + first + "&lines=" + n);
                    if (reply.statusCode() != 200) {
                      failed.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> w : workers) {
        w.get();
      }
    } finally {
      clients.shutdownNow();
    }
    if (failed.get() > 0) {
      err.printf(Locale.ROOT, "%d of %d requests failed%n", failed.get(), requests);
    }
    return failed.get();
  }
}
