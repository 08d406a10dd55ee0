/**
 * OpenTelemetry resource detection for the OTLP exporters ({@link
 * io.logproducer.otlp.encoding.internal.resource.ResourceDetector}); not API, may change without
 * notice.
 */
package io.logproducer.otlp.encoding.internal.resource;
