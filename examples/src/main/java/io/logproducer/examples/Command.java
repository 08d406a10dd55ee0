package io.logproducer.examples;

/** A sub-command of the examples jar ({@code otlp}, {@code gse}, …). */
public interface Command {

  /** The word that selects it on the command line. */
  String name();

  /** One paragraph: what it does and its own options (the common ones are listed by {@link Main}). */
  String usage();

  /**
   * Runs it.
   *
   * @return the process exit code: 0 when every record was delivered
   */
  int run(Options options) throws Exception;
}
