package com.example.logproducer.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Reads the running application over HTTP, as a user would: sends the requests that log, and reads
 * {@code /actuator/health} and {@code /actuator/metrics}. Thread-safe.
 */
final class Actuator {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String base;
  private final HttpClient http;
  private final ObjectMapper json = new ObjectMapper();

  /**
   * @param port the application's HTTP port on 127.0.0.1
   */
  Actuator(int port) {
    this.base = "http://127.0.0.1:" + port;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  /**
   * {@code GET path}.
   *
   * @return the status code and the body
   * @throws IOException if the request fails
   * @throws InterruptedException if interrupted
   */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * {@return the status of the {@code logproducer} health component, e.g. {@code UP}; {@code
   * MISSING} if the answer has none}
   *
   * @throws IOException if the request fails or the answer is not JSON
   * @throws InterruptedException if interrupted
   */
  String logproducerHealth() throws IOException, InterruptedException {
    JsonNode root = json.readTree(get("/actuator/health").body());
    return root.path("components").path("logproducer").path("status").asText("MISSING");
  }

  /**
   * {@return the value of the meter {@code name} with the tag {@code tag} ({@code key:value}), as
   * {@code /actuator/metrics} reports it; 0 if no meter has that tag}
   *
   * @throws IOException if the request fails or the answer is not what Spring Boot writes
   * @throws InterruptedException if interrupted
   */
  long meter(String name, String tag) throws IOException, InterruptedException {
    HttpResponse<String> r = get("/actuator/metrics/" + name + "?tag=" + tag);
    if (r.statusCode() == 404) {
      return 0;
    }
    if (r.statusCode() != 200) {
      throw new IOException("/actuator/metrics/" + name + " answered " + r.statusCode());
    }
    JsonNode value = json.readTree(r.body()).path("measurements").path(0).path("value");
    if (!value.isNumber()) {
      throw new IOException("/actuator/metrics/" + name + " has no value: " + r.body());
    }
    return Math.round(value.asDouble());
  }
}
