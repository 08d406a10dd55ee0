/**
 * What the logback and log4j2 appenders share: the settings their XML fills ({@link
 * io.logproducer.appender.ProducerSettings}, {@link io.logproducer.appender.OtlpSettings}, {@link
 * io.logproducer.appender.GseSettings}, {@link io.logproducer.appender.MappingSettings}), the
 * appender's producer with its recursion guard, never-blocking send, drop reporting and bounded
 * stop ({@link io.logproducer.appender.AppenderProducer}), and the helpers of OpenTelemetry's log
 * semantic conventions.
 */
package io.logproducer.appender;
