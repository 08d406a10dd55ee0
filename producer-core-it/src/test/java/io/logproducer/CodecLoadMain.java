package io.logproducer;

import io.logproducer.testing.InMemoryExporter;

/**
 * A child JVM for {@link CodecLoadTest}: builds a producer with zstd where zstd-jni cannot unpack
 * its native library (the JVM's temporary directory does not exist) and prints what the constructor
 * threw.
 */
public final class CodecLoadMain {

  private CodecLoadMain() {}

  public static void main(String[] args) {
    try {
      Producer p =
          new Producer(
              ProducerConfig.builder()
                  .setCompression(Compression.ZSTD)
                  .setJmxEnabled(false)
                  .setShutdownHookEnabled(false)
                  .build(),
              InMemoryExporter.builder().setBodiesOnly(true).build());
      p.close(0);
      System.out.println("CONSTRUCTED");
    } catch (Throwable t) {
      System.out.println("THREW " + t.getClass().getName() + ": " + t.getMessage());
    }
  }
}
