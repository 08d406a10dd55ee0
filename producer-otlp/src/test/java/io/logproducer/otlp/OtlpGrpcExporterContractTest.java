package io.logproducer.otlp;

import io.logproducer.spi.Exporter;
import io.logproducer.testing.ExporterContract;
import io.logproducer.testing.otlp.GrpcReply;
import io.logproducer.testing.otlp.OtlpGrpcReceiver;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** The exporter contract for OTLP/gRPC, against a real HTTP/2 gRPC server on 127.0.0.1. */
class OtlpGrpcExporterContractTest extends ExporterContract {

  @Override
  protected Receiver startReceiver() throws Exception {
    OtlpGrpcReceiver server = OtlpGrpcReceiver.start();
    return new Receiver() {
      private volatile CountDownLatch hold;

      @Override
      public Exporter newExporter() {
        return OtlpGrpcExporter.builder()
            .setEndpoint(server.endpoint())
            .setTimeoutMillis(30_000)
            .build();
      }

      @Override
      public List<String> deliveredBodies() {
        return server.deliveredBodies();
      }

      @Override
      public void stall() {
        CountDownLatch latch = new CountDownLatch(1);
        hold = latch;
        server.respond(r -> GrpcReply.ok(r).heldBy(latch));
      }

      @Override
      public void resume() {
        CountDownLatch latch = hold;
        server.respond(GrpcReply::ok);
        if (latch != null) {
          latch.countDown();
        }
      }

      @Override
      public void refuse() {
        server.respond(r -> GrpcReply.status(GrpcReply.UNAVAILABLE, "refused by the test"));
      }

      @Override
      public void accept() {
        server.respond(GrpcReply::ok);
      }

      @Override
      public void close() {
        server.close();
      }
    };
  }
}
