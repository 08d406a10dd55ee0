package com.example.boot;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the sample application with the starter's properties, and talks to it over HTTP. */
final class Apps {

  /** The producer's client id in these tests: {@code logproducer-} + spring.application.name. */
  static final String CLIENT_ID = "logproducer-sample";

  /**
   * The client's own executor, one daemon thread created here: the JDK client's default executor
   * creates threads lazily, inheriting the calling thread's context class loader, and keeps them 60
   * s; in the restart test such a thread would hold an application's class loader (not the
   * starter).
   */
  private static final ExecutorService HTTP_EXECUTOR =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "test-http");
            t.setDaemon(true);
            return t;
          });

  private static final HttpClient HTTP =
      HttpClient.newBuilder().executor(HTTP_EXECUTOR).connectTimeout(Duration.ofSeconds(5)).build();

  private Apps() {}

  /** The properties every test sets (each may add or override). */
  static List<String> baseProperties(String endpoint) {
    return new ArrayList<>(
        Arrays.asList(
            "server.port=0",
            "server.address=127.0.0.1",
            "spring.application.name=sample",
            "logproducer.otlp.endpoint=" + endpoint,
            "logproducer.producer.linger=50ms",
            "management.endpoints.web.exposure.include=health,metrics,prometheus",
            "management.endpoint.health.show-details=always",
            "spring.lifecycle.timeout-per-shutdown-phase=10s"));
  }

  static ConfigurableApplicationContext start(List<String> properties) {
    return new SpringApplicationBuilder(SampleApplication.class)
        .properties(properties.toArray(new String[0]))
        .run();
  }

  static int port(ConfigurableApplicationContext context) {
    return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
  }

  /** {@return the status and body of {@code GET http://127.0.0.1:port/path}} */
  static String[] get(int port, String path) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new String[] {Integer.toString(r.statusCode()), r.body()};
  }

  /** {@return the names of the live threads of the starter's producer} */
  static Set<String> producerThreads() {
    Set<String> names = new TreeSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive()
          && (t.getName().startsWith(CLIENT_ID + "-") || t.getName().endsWith("| " + CLIENT_ID))) {
        names.add(t.getName());
      }
    }
    return names;
  }

  /**
   * {@return the status of one component of an {@code /actuator/health} answer (Boot 2-3 write
   * {@code "status"} before {@code "details"}, Boot 4 after), or null}
   */
  static String componentStatus(String health, String component) {
    int start = health.indexOf("\"" + component + "\":{");
    if (start < 0) {
      return null;
    }
    int depth = 0;
    int i = health.indexOf('{', start);
    int end = i;
    for (; end < health.length(); end++) {
      char c = health.charAt(end);
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      if (depth == 0) {
        break;
      }
    }
    String body = health.substring(i, end + 1);
    String details = "";
    int d = body.indexOf("\"details\":{");
    if (d >= 0) {
      int depth2 = 0;
      int j = body.indexOf('{', d);
      int k = j;
      for (; k < body.length(); k++) {
        char c = body.charAt(k);
        depth2 += c == '{' ? 1 : c == '}' ? -1 : 0;
        if (depth2 == 0) {
          break;
        }
      }
      details = body.substring(d, k + 1);
    }
    Matcher m = Pattern.compile("\"status\":\"([A-Z_]+)\"").matcher(body.replace(details, ""));
    return m.find() ? m.group(1) : null;
  }

  /** {@return the first number after {@code "key":} in a JSON text, or -1} */
  static double jsonNumber(String json, String key) {
    Matcher m =
        Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:\\s*(-?[0-9.Ee+]+)").matcher(json);
    return m.find() ? Double.parseDouble(m.group(1)) : -1;
  }
}
