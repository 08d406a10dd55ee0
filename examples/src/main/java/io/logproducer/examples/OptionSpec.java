package io.logproducer.examples;

import io.logproducer.ProducerConfigDef;

/**
 * One command-line option: {@code --name}, the placeholder of its value ({@code null} for a flag,
 * which takes none), what it means, its default as shown in the usage ({@code null} when there is
 * none to show), and the producer setting it sets ({@code null} for the others), whose declaration
 * parses and validates the value.
 */
public record OptionSpec(
    String name,
    String valueName,
    String description,
    String defaultValue,
    ProducerConfigDef.Setting setting) {

  /** An option that takes a value: {@code --name VALUE} or {@code --name=VALUE}. */
  public static OptionSpec value(
      String name, String valueName, String description, Object defaultValue) {
    return new OptionSpec(
        name, valueName, description, defaultValue == null ? null : defaultValue.toString(), null);
  }

  /**
   * An option that sets a producer setting: its default is the declared one (the first word of
   * {@link ProducerConfigDef.Setting#defaultText()}, or {@code shownDefault} when not null), and
   * {@link Options#producerConfig()} applies it through the declaration.
   */
  public static OptionSpec producer(
      String name,
      String valueName,
      ProducerConfigDef.Setting setting,
      String description,
      String shownDefault) {
    String declared = setting.defaultText().split(" ", 2)[0];
    return new OptionSpec(
        name, valueName, description, shownDefault != null ? shownDefault : declared, setting);
  }

  /** An option that takes no value: {@code --name}. */
  public static OptionSpec flag(String name, String description) {
    return new OptionSpec(name, null, description, null, null);
  }

  public boolean isFlag() {
    return valueName == null;
  }

  /** Its lines in the usage text, the description wrapped at {@value #WIDTH} characters. */
  String usageLine() {
    String left = "  --" + name + (isFlag() ? "" : " " + valueName);
    StringBuilder out =
        new StringBuilder(left).append(" ".repeat(Math.max(1, INDENT - left.length())));
    int column = out.length();
    boolean first = true;
    for (String word :
        (description + (defaultValue == null ? "" : " (default " + defaultValue + ")"))
            .split(" ")) {
      if (!first && column + 1 + word.length() > WIDTH) {
        out.append('\n').append(" ".repeat(INDENT));
        column = INDENT;
      } else if (!first) {
        out.append(' ');
        column++;
      }
      out.append(word);
      column += word.length();
      first = false;
    }
    return out.toString();
  }

  /** Where descriptions start. */
  private static final int INDENT = 29;

  /** Usage lines are at most this long (unless a word is longer). */
  private static final int WIDTH = 110;
}
