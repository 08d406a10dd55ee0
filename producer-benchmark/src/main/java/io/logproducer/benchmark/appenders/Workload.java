package io.logproducer.benchmark.appenders;

/**
 * The logging call every variant measures: {@code logger.info("Order {} paid by {}: payment
 * captured, receipt sent", id, user)} with two MDC / ThreadContext entries on the logging thread
 * (set once per thread, as a request's context), through a logger named {@link #LOGGER} at INFO.
 * Each thread cycles through {@link #SIZE} precomputed ids and users so that the loop allocates
 * nothing of its own.
 */
final class Workload {

  static final String LOGGER = "com.example.checkout.OrderService";
  static final String FORMAT = "Order {} paid by {}: payment captured, receipt sent";
  static final String[] MDC_KEYS = {"request.id", "tenant"};
  static final int SIZE = 1024;

  final String[] ids = new String[SIZE];
  final String[] users = new String[SIZE];
  final String[] mdcValues;

  /** The data of logging thread {@code thread}. */
  Workload(int thread) {
    for (int i = 0; i < SIZE; i++) {
      ids[i] = "ORD-" + (thread * 1_000_000 + i);
      users[i] = "user" + (i * 7919 % 100_000) + "@example.com";
    }
    mdcValues = new String[] {"req-" + thread + "-7f3a9c", "tenant-" + (thread % 3)};
  }
}
