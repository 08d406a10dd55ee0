package io.logproducer.examples;

import java.util.List;

/** A sub-command of the examples jar ({@code otlp}, {@code gse}, …). */
public interface Command {

  /** The word that selects it on the command line. */
  String name();

  /** One line: what it does. */
  String summary();

  /** Its own options (the common ones, {@link Options#COMMON}, are listed by {@link Main}). */
  List<OptionSpec> options();

  /** Lines shown after its options in the usage; none by default. */
  default List<String> notes() {
    return List.of();
  }

  /**
   * Runs it.
   *
   * @return the process exit code: 0 when every record was delivered
   * @throws IllegalArgumentException for an option value it cannot use, or a configuration the
   *     producer refuses
   */
  int run(Options options) throws Exception;
}
