package io.logproducer.otlp.encoding.testing;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.util.Base64;
import java.util.HexFormat;
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
      String b64 = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(m.group(2)));
      m.appendReplacement(sb, Matcher.quoteReplacement("\"" + m.group(1) + "\":\"" + b64 + "\""));
    }
    m.appendTail(sb);
    return sb.toString();
  }
}
