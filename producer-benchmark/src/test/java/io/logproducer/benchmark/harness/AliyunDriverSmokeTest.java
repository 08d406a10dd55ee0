package io.logproducer.benchmark.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.testing.ReferenceWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Aliyun Log Java producer, driven as the suite drives it, delivers the reference workload to
 * the SLS sink in its own JVM (started as the suite starts it, on 127.0.0.1), and the sink counts
 * every record exactly.
 */
class AliyunDriverSmokeTest {

  private static final int THREADS = 4;
  private static final int PER_THREAD = 2_500;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void everyRecordReachesTheSlsSinkAndIsCountedOnce() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    try (SinkProcess sink =
        new SinkProcess(
            java,
            System.getProperty("java.class.path"),
            List.of("-Xmx256m"),
            4,
            SinkProcess.SLS_MAIN)) {
      SinkStats before = sink.latest();
      RunSpec spec = PerformanceSuite.aliyunBase(RunSpec.reference()).withSendThreads(2);
      assertEquals(Client.ALIYUN, spec.client());
      assertEquals(Compression.LZ4, spec.compression());
      Driver.Counters c;
      try (AliyunDriver driver = new AliyunDriver(spec, sink.endpoint())) {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          Thread th =
              new Thread(
                  () -> {
                    ReferenceWorkload w = new ReferenceWorkload();
                    for (long seq = 0; seq < PER_THREAD; seq++) {
                      driver.send(w.next(seq));
                    }
                  },
                  "app-" + t);
          th.start();
          threads.add(th);
        }
        for (Thread th : threads) {
          th.join();
        }
        driver.flush();
        c = driver.counters();
      }
      long n = (long) THREADS * PER_THREAD;
      assertEquals(n, c.accepted());
      assertEquals(n, c.delivered());
      assertEquals(0, c.failed());
      // a condition: the cap only ends a hang
      SinkStats after = sink.awaitRecords(before.records() + n, 60_000);
      assertEquals(n, after.records() - before.records(), "records the sink counted");
      assertEquals(0, after.bad() - before.bad(), "requests the sink refused");
      assertTrue(after.requests() - before.requests() >= 1);
      // lz4 block-compressed LogGroups: the wire is much smaller than the decompressed bodies
      assertTrue(
          after.wireBytes() - before.wireBytes() < (after.bodyBytes() - before.bodyBytes()) / 2,
          () -> "wire " + after.wireBytes() + ", body " + after.bodyBytes());
    }
  }

  @Test
  void threadGroupsNameTheProducersThreads() {
    assertEquals("io", AliyunDriver.group("aliyun-log-producer-1-io-thread-3"));
    assertEquals("mover", AliyunDriver.group("aliyun-log-producer-1-mover"));
    assertEquals("callback", AliyunDriver.group("aliyun-log-producer-1-success-batch-handler"));
    assertEquals("callback", AliyunDriver.group("aliyun-log-producer-1-failure-batch-handler"));
    assertEquals("timeout", AliyunDriver.group("aliyun-log-producer-1-timeout-thread-0"));
    assertEquals(null, AliyunDriver.group("app-0"));
  }
}
