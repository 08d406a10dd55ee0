package io.logproducer.logback;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ShutdownTest's child JVM: logs {@code args[0]} events through the logback configuration named by
 * {@code -Dlogback.configurationFile} and returns from main, leaving the JVM's exit to stop
 * logging.
 */
public final class ExitMain {

  private ExitMain() {}

  public static void main(String[] args) {
    int count = Integer.parseInt(args[0]);
    Logger log = LoggerFactory.getLogger("app.exit");
    for (int i = 0; i < count; i++) {
      log.info("exit {}", i);
    }
  }
}
