package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.configure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Invalid settings: an error naming the setting in logback's status channel, the appender not
 * started, no throw.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SettingsTest {

  private static List<String> errorsOf(String policy, String total, String batch) throws Exception {
    LoggerContext ctx =
        configure(
            "bad-settings.xml",
            Map.of("bad.policy", policy, "bad.total", total, "bad.batch", batch));
    try {
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      assertFalse(lp.isStarted(), "started despite invalid settings");
      ctx.getLogger("app").info("does not throw"); // logged to a stopped appender
      assertEquals(0, LogbackTestSupport.liveThreads("lp-bad-").size());
      return LogbackTestSupport.statuses(ctx, Status.ERROR).stream()
          .filter(m -> m.startsWith("logproducer appender 'LP' not started"))
          .collect(Collectors.toList());
    } finally {
      ctx.stop();
    }
  }

  @Test
  void invalidEnumNamesTheSetting() throws Exception {
    List<String> errors = errorsOf("SOMETIMES", "8388608", "1048576");
    assertEquals(1, errors.size(), errors::toString);
    assertTrue(
        errors.get(0).contains("[bufferFullPolicy]") && errors.get(0).contains("SOMETIMES"),
        errors.get(0));
  }

  @Test
  void outOfRangeValueNamesTheSetting() throws Exception {
    List<String> errors = errorsOf("DROP", "-5", "1048576");
    assertEquals(1, errors.size(), errors::toString);
    assertTrue(errors.get(0).contains("totalSizeInBytes"), errors.get(0));
  }

  @Test
  void notANumberNamesTheSetting() throws Exception {
    List<String> errors = errorsOf("DROP", "lots", "1048576");
    assertEquals(1, errors.size(), errors::toString);
    assertTrue(errors.get(0).contains("[totalSizeInBytes]"), errors.get(0));
  }

  @Test
  void impossibleCombinationNamesBothSettings() throws Exception {
    List<String> errors = errorsOf("DROP", "1048576", "4194304");
    assertEquals(1, errors.size(), errors::toString);
    assertTrue(
        errors.get(0).contains("batchSizeInBytes") && errors.get(0).contains("totalSizeInBytes"),
        errors.get(0));
  }

  @Test
  void misspelledSettingIsAnErrorNotSilentlyIgnored() throws Exception {
    LoggerContext ctx = configure("typo-settings.xml", Map.of());
    try {
      assertFalse(LogbackTestSupport.appender(ctx, "LP").isStarted());
      List<String> errors =
          LogbackTestSupport.statuses(ctx, Status.ERROR).stream()
              .filter(m -> m.startsWith("logproducer appender 'LP' not started"))
              .collect(Collectors.toList());
      assertEquals(
          1, errors.size(), () -> LogbackTestSupport.statuses(ctx, Status.INFO).toString());
      assertTrue(errors.get(0).contains("endpont"), errors.get(0));
    } finally {
      ctx.stop();
    }
  }

  @Test
  void validSettingsStart() throws Exception {
    LoggerContext ctx =
        configure(
            "bad-settings.xml",
            Map.of("bad.policy", "block", "bad.total", "8388608", "bad.batch", "1048576"));
    try {
      assertTrue(
          LogbackTestSupport.appender(ctx, "LP").isStarted(),
          () -> LogbackTestSupport.statuses(ctx, Status.WARN).toString());
    } finally {
      ctx.stop();
    }
  }
}
