/** A logback appender for logproducer: {@link io.logproducer.logback.LogproducerAppender}. */
package io.logproducer.logback;
