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
    return withPath(uri, path);
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
    URI uri = parse(name, url);
    return withPath(uri, uri.getRawPath() == null ? "" : uri.getRawPath());
  }

  /** The host and port, without user-info. */
  private static String authority(URI uri) {
    String host = uri.getHost();
    return uri.getPort() >= 0 ? host + ":" + uri.getPort() : host;
  }

  /**
   * The {@code Authorization} header value ({@code Basic base64(user:password)}, RFC 7617) for the
   * user-info of a URL ({@code https://user:password@host/}), percent-decoded; null without one.
   * The URLs this class returns never hold user-info: it travels only in this header and is never
   * printed.
   *
   * @param url a URL accepted by this class
   * @return the header value, or null
   */
  public static String basicAuthorization(String url) {
    String info;
    try {
      info = new URI(url.trim()).getRawUserInfo();
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
    if (info == null || info.isEmpty()) {
      return null;
    }
    String decoded = OtlpEnvironment.percentDecode(info);
    return "Basic "
        + java.util.Base64.getEncoder()
            .encodeToString(decoded.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /**
   * {@code url} with the password of its user-info, if any, replaced by {@code ****}, for messages:
   * {@code https://user:****@host/}.
   *
   * @param url any text; null gives "null"
   * @return the text safe to print
   */
  public static String redact(String url) {
    if (url == null) {
      return "null";
    }
    int scheme = url.indexOf("://");
    if (scheme < 0) {
      return url;
    }
    int start = scheme + 3;
    int end = start;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    int at = url.lastIndexOf('@', end - 1);
    if (at < start) {
      return url;
    }
    int colon = url.indexOf(':', start);
    String user = colon >= 0 && colon < at ? url.substring(start, colon) : url.substring(start, at);
    return url.substring(0, start) + user + ":****" + url.substring(at);
  }

  private static String withPath(URI uri, String rawPath) {
    StringBuilder sb =
        new StringBuilder(uri.getScheme()).append("://").append(authority(uri)).append(rawPath);
    if (uri.getRawQuery() != null) {
      sb.append('?').append(uri.getRawQuery());
    }
    return sb.toString();
  }

  private static URI parse(String name, String url) {
    if (url == null || url.trim().isEmpty()) {
      throw new IllegalArgumentException(
          name + " must be an http or https URL, was '" + redact(url) + "'");
    }
    URI uri;
    try {
      uri = new URI(url.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          name
              + " must be an http or https URL, was '"
              + redact(url)
              + "': "
              + e.getReason()
              + " at index "
              + e.getIndex()); // not e: its message holds the URL, password and all
    }
    String scheme = uri.getScheme();
    if (scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(
          name + " must be an http or https URL with a host, was '" + redact(url) + "'");
    }
    if (uri.getRawFragment() != null) {
      throw new IllegalArgumentException(
          name + " must not have a fragment, was '" + redact(url) + "'");
    }
    return uri;
  }
}
