package io.logproducer.benchmark.jmh;

import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings of the producer and appender benchmarks (JMH reads its annotations from the
 * superclass): one instance per trial, 3 warm-up and 5 measurement iterations of 2 s, one fork with
 * a fixed 2 GiB heap and native access enabled (zstd-jni, lz4-java: no JDK 24+ warning).
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsPrepend = "--enable-native-access=ALL-UNNAMED",
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public abstract class BenchmarkDefaults {}
