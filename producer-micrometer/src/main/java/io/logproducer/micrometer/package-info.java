/**
 * The producer's metrics as a Micrometer {@code MeterBinder}: {@link
 * io.logproducer.micrometer.ProducerMetricsBinder}, for any Micrometer registry (1.9 and newer),
 * with or without Spring. Micrometer itself is not brought by this module: the application provides
 * it.
 */
package io.logproducer.micrometer;
