package io.logproducer.benchmark.soak;

import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import java.util.List;

/**
 * The soak's counts and verdict: everything the report needs besides the samples. {@code criteria}
 * is filled once the counts are judged.
 */
record SoakResult(
    long accepted,
    long refused,
    long[] byStatus,
    long outcomes,
    long missing,
    long repeatedOutcomes,
    long noOutcomeIds,
    long received,
    long duplicates,
    long lostDelivered,
    long phantom,
    long receivedButFailed,
    long receiverRecordsWithoutId,
    long receiverBadRequests,
    long receiverUnavailableAnswers,
    long receiverRequests,
    ProducerMetrics metrics,
    double sendEnd,
    double closeSeconds,
    List<String> leftoverThreads,
    long trackingBytes,
    long trackingGrownBytes,
    List<Criterion> criteria) {

  boolean pass() {
    return criteria.stream().allMatch(Criterion::pass);
  }

  long delivered() {
    return byStatus[SendResult.Status.DELIVERED.ordinal()];
  }

  /** One pass criterion. */
  record Criterion(String name, String rule, String measured, boolean pass) {}
}
