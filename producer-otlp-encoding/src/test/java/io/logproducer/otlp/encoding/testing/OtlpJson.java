package io.logproducer.otlp.encoding.testing;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses OTLP/JSON with protobuf-java-util's {@link JsonFormat} (an independent JSON
 * implementation). OTLP/JSON differs from the proto3 JSON mapping only in trace and span ids, which
 * are hex instead of base64: they are converted first.
 */
public final class OtlpJson {

  private static final Pattern IDS = Pattern.compile("\"(traceId|spanId)\":\"([0-9a-fA-F]*)\"");

  private OtlpJson() {}

  public static ExportLogsServiceRequest parseRequest(String json)
      throws InvalidProtocolBufferException {
    ExportLogsServiceRequest.Builder b = ExportLogsServiceRequest.newBuilder();
    JsonFormat.parser().merge(hexIdsToBase64(json), b);
    return b.build();
  }

  public static String hexIdsToBase64(String json) {
    Matcher m = IDS.matcher(json);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String b64 = Base64.getEncoder().encodeToString(parseHex(m.group(2)));
      m.appendReplacement(sb, Matcher.quoteReplacement("\"" + m.group(1) + "\":\"" + b64 + "\""));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  /** {@code HexFormat.of().parseHex} of Java 17, for the Java 11 test runs. */
  public static byte[] parseHex(String hex) {
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }

  /** {@code HexFormat.of().formatHex} of Java 17, for the Java 11 test runs. */
  public static String formatHex(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return sb.toString();
  }
}
