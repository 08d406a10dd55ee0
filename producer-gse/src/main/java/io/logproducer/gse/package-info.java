/**
 * The Tencent BlueKing GSE agent exporter: {@link io.logproducer.gse.GseExporter}, built with
 * {@link io.logproducer.gse.GseExporterBuilder}. Everything in {@code io.logproducer.gse.internal}
 * is an implementation detail.
 */
package io.logproducer.gse;
