package io.logproducer.testing.otlp;

import java.util.List;

/**
 * Reading OTLP {@code ExportLogsServiceRequest}s outside a receiver (e.g. the values of a Kafka
 * topic the Kafka exporter wrote), with the same readers {@link OtlpReceiver} uses. Every method
 * throws {@link IllegalArgumentException} on malformed input, so what it counts is also checked.
 * Stateless, thread-safe.
 */
public final class OtlpRequests {

  private OtlpRequests() {}

  /**
   * The log records in a protobuf request {@code buf[offset, offset + length)}, counted without
   * building objects.
   *
   * @param buf holds the serialized {@code ExportLogsServiceRequest}
   * @param offset where it starts in {@code buf}
   * @param length its length, in bytes
   * @return the number of log records
   * @throws IllegalArgumentException if the bytes are not a well-formed protobuf message or the
   *     slice is outside {@code buf}
   */
  public static long countProtobuf(byte[] buf, int offset, int length) {
    return ProtobufRequests.count(buf, offset, length, null, null);
  }

  /**
   * The log records in an OTLP/JSON request.
   *
   * @param json the request
   * @return the number of log records
   * @throws IllegalArgumentException if the text is not an OTLP/JSON request
   */
  public static long countJson(String json) {
    return JsonRequests.decode(json).size();
  }

  /**
   * The log records of a protobuf request, decoded, in order.
   *
   * @param body the serialized {@code ExportLogsServiceRequest}
   * @return the records, unmodifiable
   * @throws IllegalArgumentException if the bytes are not a well-formed protobuf message
   */
  public static List<ReceivedLogRecord> decodeProtobuf(byte[] body) {
    return ProtobufRequests.decode(body, body.length);
  }

  /**
   * The log records of an OTLP/JSON request, decoded, in order.
   *
   * @param json the request
   * @return the records, unmodifiable
   * @throws IllegalArgumentException if the text is not an OTLP/JSON request
   */
  public static List<ReceivedLogRecord> decodeJson(String json) {
    return JsonRequests.decode(json);
  }
}
