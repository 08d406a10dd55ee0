package io.logproducer.otlp.secrets;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.OtlpGrpcExporter;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.GrpcReply;
import io.logproducer.testing.otlp.OtlpGrpcReceiver;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import io.logproducer.testing.tls.TestPki;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Child JVM of {@link OtlpSecretsTest}, logging at DEBUG: configures every secret-bearing OTLP
 * setting with {@link #MARKER}, delivers over mutual TLS through a refusal and a retry, prints
 * every {@code toString()}, {@code describe()}, outcome message, JMX attribute and the exception of
 * each failed build, so that the test can scan all of it for the marker and the key material.
 */
public final class SecretsMain {

  static final String MARKER = "S3cr3t-MARKER-otlp";

  private SecretsMain() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("secrets");
    TestPki pki = TestPki.create(dir);
    TestPki.Issued client = pki.client("app");
    System.out.println("KEY-LINE " + new String(client.keyPem(), "US-ASCII").split("\n")[2]);
    AtomicInteger calls = new AtomicInteger();
    try (OtlpReceiver receiver =
        OtlpReceiver.builder().tls(pki.serverContext(pki.server()), true).start()) {
      receiver.respond(
          r -> calls.getAndIncrement() == 0 ? Reply.rpcStatus(r, 503, "busy") : Reply.ok(r));
      OtlpHttpExporter exporter =
          OtlpHttpExporter.builder()
              .setEndpoint("https://alice:" + MARKER + "@127.0.0.1:" + receiver.port())
              .addHeader("Authorization", "Bearer " + MARKER)
              .addHeader("X-BK-TOKEN", MARKER)
              .setTrustedCertificates(pki.caPem())
              .setClientTls(client.keyPem(), client.certificatePem())
              .build();
      System.out.println("toString " + exporter);
      System.out.println("describe " + exporter.describe());
      Outcomes outcomes = new Outcomes();
      try (Producer p =
          new Producer(
              ProducerConfig.builder()
                  .setClientId("secrets")
                  .setJmxEnabled(true)
                  .setInitialRetryBackoffMillis(10)
                  .build(),
              exporter)) {
        for (int i = 0; i < 20; i++) {
          p.send(TestRecords.simple("r-" + i), outcomes.callback(i));
        }
        p.flush();
        outcomes.await(20, 60_000);
        System.out.println("producer " + p);
        System.out.println("metrics " + p.getMetrics());
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (ObjectName name : server.queryNames(new ObjectName("io.logproducer:*"), null)) {
          for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
            System.out.println(
                "jmx " + name + " " + a.getName() + "=" + server.getAttribute(name, a.getName()));
          }
        }
      }
      System.out.println("outcomes " + outcomes.statusCounts() + " " + outcomes.all());
      System.out.println("delivered " + receiver.deliveredRecords().size());
      // failed starts: every exception printed with its causes
      failedBuild(
          () ->
              OtlpHttpExporter.builder()
                  .setEndpoint("https://bob:" + MARKER + "@ho st:4318/")
                  .build());
      failedBuild(
          () -> OtlpHttpExporter.builder().setEndpoint("ftp://bob:" + MARKER + "@host/").build());
      failedBuild(
          () ->
              OtlpHttpExporter.builder()
                  .addHeader("Authorization", "Bearer " + MARKER + "\n")
                  .build());
      failedBuild(
          () ->
              OtlpHttpExporter.builder()
                  .setClientTls(client.keyPem(), pki.server().certificatePem())
                  .build());
      failedBuild(
          () ->
              OtlpHttpExporter.builder()
                  .setClientTls(client.certificatePem(), client.keyPem())
                  .build());
    }
    grpc(pki, client);
    System.out.println("DONE");
  }

  /** The same over OTLP/gRPC: metadata, user-info, mutual TLS, a retried UNAVAILABLE. */
  private static void grpc(TestPki pki, TestPki.Issued client) throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (OtlpGrpcReceiver receiver =
        OtlpGrpcReceiver.builder().tls(pki.serverContext(pki.server()), true).start()) {
      receiver.respond(
          r ->
              calls.getAndIncrement() == 0
                  ? GrpcReply.status(GrpcReply.UNAVAILABLE, "busy")
                  : GrpcReply.ok(r));
      OtlpGrpcExporter exporter =
          OtlpGrpcExporter.builder()
              .setEndpoint("https://alice:" + MARKER + "@127.0.0.1:" + receiver.port())
              .addHeader("Authorization", "Bearer " + MARKER)
              .addHeader("X-BK-TOKEN", MARKER)
              .setTrustedCertificates(pki.caPem())
              .setClientTls(client.keyPem(), client.certificatePem())
              .build();
      System.out.println("grpc toString " + exporter);
      System.out.println("grpc describe " + exporter.describe());
      Outcomes outcomes = new Outcomes();
      try (Producer p =
          new Producer(
              ProducerConfig.builder()
                  .setClientId("secrets-grpc")
                  .setJmxEnabled(true)
                  .setInitialRetryBackoffMillis(10)
                  .build(),
              exporter)) {
        for (int i = 0; i < 20; i++) {
          p.send(TestRecords.simple("g-" + i), outcomes.callback(i));
        }
        p.flush();
        outcomes.await(20, 60_000);
        System.out.println("grpc producer " + p);
      }
      System.out.println("grpc outcomes " + outcomes.statusCounts() + " " + outcomes.all());
      System.out.println("grpc delivered " + receiver.deliveredRecords().size());
      System.out.println("grpc metadata " + receiver.requestHeaders().get(0).keySet());
      failedBuild(
          () ->
              OtlpGrpcExporter.builder()
                  .setEndpoint("https://bob:" + MARKER + "@ho st:4317/")
                  .build());
      failedBuild(
          () ->
              OtlpGrpcExporter.builder()
                  .addHeader("authorization", "Bearer " + MARKER + "\n")
                  .build());
      failedBuild(
          () ->
              OtlpGrpcExporter.builder()
                  .setClientTls(client.keyPem(), pki.server().certificatePem())
                  .build());
    }
  }

  private static void failedBuild(Runnable r) {
    try {
      r.run();
      System.out.println("build did not fail");
    } catch (RuntimeException e) {
      e.printStackTrace(System.out);
    }
  }
}
