/**
 * The test kit's appender suite: {@link io.logproducer.testing.appender.AppenderContract}, the
 * mapping contract the logback and log4j2 appenders keep, run against the kit's {@link
 * io.logproducer.testing.otlp.OtlpReceiver}, and {@link
 * io.logproducer.testing.appender.RepeatedAttributeKeys}, which finds attribute keys a decoded
 * record cannot show twice.
 */
package io.logproducer.testing.appender;
