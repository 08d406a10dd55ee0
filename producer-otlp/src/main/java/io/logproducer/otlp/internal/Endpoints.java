package io.logproducer.otlp.internal;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Endpoint URL rules of the OTLP exporter specification ({@code opentelemetry-specification},
 * {@code specification/protocol/exporter.md}): a signal-specific endpoint is used as given; the
 * generic {@code OTEL_EXPORTER_OTLP_ENDPOINT} gets {@code v1/logs} appended to its path. Stateless,
 * thread-safe.
 */
public final class Endpoints {

  /** Path of the logs signal: {@value}. */
  public static final String LOGS_PATH = "/v1/logs";

  private Endpoints() {}

  /**
   * The URL {@code setEndpoint} means: {@code /v1/logs} appended when the path is empty or "/",
   * else as given.
   *
   * @param name the setting's name, for messages
   * @throws IllegalArgumentException if {@code url} is not an absolute http(s) URL with a host
   */
  public static String forEndpoint(String name, String url) {
    URI uri = parse(name, url);
    String path = uri.getRawPath();
    if (path == null || path.isEmpty() || path.equals("/")) {
      return withPath(uri, LOGS_PATH);
    }
    return uri.toString();
  }

  /**
   * The logs URL for a generic OTLP base URL: its path with {@code /v1/logs} appended.
   *
   * @throws IllegalArgumentException if {@code url} is not an absolute http(s) URL with a host
   */
  public static String forBaseEndpoint(String name, String url) {
    URI uri = parse(name, url);
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return withPath(uri, path + LOGS_PATH);
  }

  /**
   * A logs-specific URL, used as given. @throws IllegalArgumentException if it is not an http(s)
   * URL
   */
  public static String forSignalEndpoint(String name, String url) {
    return parse(name, url).toString();
  }

  private static String withPath(URI uri, String rawPath) {
    StringBuilder sb =
        new StringBuilder(uri.getScheme())
            .append("://")
            .append(uri.getRawAuthority())
            .append(rawPath);
    if (uri.getRawQuery() != null) {
      sb.append('?').append(uri.getRawQuery());
    }
    return sb.toString();
  }

  private static URI parse(String name, String url) {
    if (url == null || url.trim().isEmpty()) {
      throw new IllegalArgumentException(name + " must be an http or https URL, was '" + url + "'");
    }
    URI uri;
    try {
      uri = new URI(url.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          name + " must be an http or https URL, was '" + url + "': " + e.getMessage(), e);
    }
    String scheme = uri.getScheme();
    if (scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(
          name + " must be an http or https URL with a host, was '" + url + "'");
    }
    if (uri.getRawFragment() != null) {
      throw new IllegalArgumentException(name + " must not have a fragment, was '" + url + "'");
    }
    return uri;
  }
}
