package io.logproducer.otlp.testing;

import io.logproducer.otlp.encoding.testing.OtlpJson;
import io.logproducer.testing.otlp.ReceivedRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The test kit receiver's requests parsed with protobuf-java's generated OTLP classes (an
 * independent decoder of what the exporter wrote), protobuf or JSON alike.
 */
public final class ProtoRequests {

  private ProtoRequests() {}

  /** The request as an {@code ExportLogsServiceRequest}. */
  public static ExportLogsServiceRequest parse(ReceivedRequest r) {
    try {
      return r.isJson()
          ? OtlpJson.parseRequest(new String(r.body(), StandardCharsets.UTF_8))
          : ExportLogsServiceRequest.parseFrom(r.body());
    } catch (Exception e) {
      throw new AssertionError(
          "the receiver accepted a request protobuf-java cannot parse: " + r, e);
    }
  }

  /** The {@code InstrumentationScope} of each log record of the request, in order. */
  public static List<InstrumentationScope> scopes(ReceivedRequest r) {
    List<InstrumentationScope> out = new ArrayList<>();
    for (ResourceLogs rl : parse(r).getResourceLogsList()) {
      for (ScopeLogs sl : rl.getScopeLogsList()) {
        for (int i = 0; i < sl.getLogRecordsCount(); i++) {
          out.add(sl.getScope());
        }
      }
    }
    return out;
  }
}
