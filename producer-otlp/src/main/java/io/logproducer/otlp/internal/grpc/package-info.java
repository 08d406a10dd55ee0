/**
 * OTLP/gRPC over httpclient5's HTTP/2 client: the request framing, the response reading and the
 * status classification. Internal: not part of the public API.
 */
package io.logproducer.otlp.internal.grpc;
