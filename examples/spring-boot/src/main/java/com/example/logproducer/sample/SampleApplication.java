package com.example.logproducer.sample;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample: an ordinary Spring Boot web application whose only logproducer code is the starter
 * dependency and the {@code logproducer.*} properties. Its logs (its own and Spring's) are shipped
 * by the appender the starter installs; {@code /actuator} shows the producer's health and meters.
 *
 * <p>{@code java -jar logproducer-spring-boot-sample.jar [--records=N] [--logproducer.…=…]}: with N
 * &gt; 0 (default {@value LoadRun#DEFAULT_RECORDS}) it logs N lines through its own endpoint,
 * prints a summary and exits ({@link LoadRun}); with {@code --records=0} it stays up as a web
 * application (port 8080 or {@code --server.port}) until stopped. Without {@code
 * logproducer.otlp.endpoint} (or {@code logproducer.exporter}) both ship to an embedded OTLP/HTTP
 * receiver on 127.0.0.1 that counts what it receives.
 *
 * <p>The package is not under {@code io.logproducer}: the appender never ships events of the
 * producer's own loggers.
 */
@SpringBootApplication
public class SampleApplication {

  /**
   * Runs the sample.
   *
   * @param args {@code --records=N} and any Spring Boot property as {@code --name=value}; an
   *     invalid {@code --records} exits with status 2
   * @throws Exception if the application cannot start
   */
  public static void main(String[] args) throws Exception {
    long records;
    try {
      records = LoadRun.records(args);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (records == 0) {
      LoadRun.serve(args, System.err);
      return;
    }
    System.exit(LoadRun.run(records, args, System.out, System.err));
  }
}
