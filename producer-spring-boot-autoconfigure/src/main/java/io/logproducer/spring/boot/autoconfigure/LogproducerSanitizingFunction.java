package io.logproducer.spring.boot.autoconfigure;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * Masks the starter's secrets in the actuator's {@code /actuator/configprops} and {@code
 * /actuator/env} (Spring Boot 2.7, 3.x, 4.x; also with {@code show-values=always}): every {@code
 * logproducer.otlp.headers.*} value, the {@code logproducer.kafka.properties.*} whose names contain
 * password, jaas, secret, key, token, credential or auth, and the user-info of {@code
 * logproducer.otlp.endpoint} ({@code https://user:******@host}). Uses only the API Spring Boot 2.7
 * has ({@link SanitizableData#withValue}).
 */
public final class LogproducerSanitizingFunction implements SanitizingFunction {

  /** Created by {@link LogproducerSanitizingAutoConfiguration}. */
  public LogproducerSanitizingFunction() {}

  @Override
  public SanitizableData apply(SanitizableData data) {
    Object masked = Secrets.masked(data.getKey(), data.getValue());
    return masked == null ? data : data.withValue(masked);
  }
}
