package io.logproducer.log4j2;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * ShutdownTest's child JVM: logs {@code args[0]} events through the log4j2 configuration named by
 * {@code -Dlog4j2.configurationFile} and returns from main, leaving the JVM's exit to stop logging.
 */
public final class ExitMain {

  private ExitMain() {}

  public static void main(String[] args) {
    int count = Integer.parseInt(args[0]);
    Logger log = LogManager.getLogger("app.exit");
    for (int i = 0; i < count; i++) {
      log.info("exit {}", i);
    }
  }
}
