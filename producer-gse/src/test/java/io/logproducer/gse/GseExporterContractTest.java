package io.logproducer.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.gse.internal.Endpoint;
import io.logproducer.spi.Exporter;
import io.logproducer.testing.ExporterContract;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exporter contract for GSE, against the strict test agent on a real Unix-domain socket. */
class GseExporterContractTest extends ExporterContract {

  /**
   * Which Unix-domain socket the contract ran on: junixsocket's before Java 16 (the JDK matrix runs
   * this class on JDK 11 for that path), the JDK's own from 16.
   */
  @Test
  void theUnixSocketIsJunixsocketsBeforeJava16AndTheJdksFrom16() {
    boolean jdk = Runtime.version().feature() >= 16;
    assertEquals(jdk, Endpoint.jdkUnixAvailable());
    assertEquals(
        jdk ? "JdkUnix" : "JunixUnix",
        Endpoint.unix("/tmp/gse.sock", null).getClass().getSimpleName());
  }

  @Override
  protected Receiver startReceiver() throws Exception {
    Path dir = Files.createTempDirectory("gse-contract");
    GseAgent agent = GseAgent.unix(dir.resolve("gse.sock"));
    return new Receiver() {
      private boolean down;

      @Override
      public Exporter newExporter() {
        return GseExporter.builder()
            .setUnixSocketPath(agent.socketPath().toString())
            .setDataId(1500001)
            .build();
      }

      @Override
      public List<String> deliveredBodies() {
        List<String> bodies = new ArrayList<>();
        for (GseFrame f : agent.frames()) {
          for (String data : f.data()) {
            bodies.add(Support.inner(data).get("body").getAsString());
          }
        }
        return bodies;
      }

      @Override
      public void stall() {
        agent.pauseReading();
      }

      @Override
      public void resume() {
        agent.resumeReading();
      }

      @Override
      public void refuse() {
        down = true;
        agent.kill();
      }

      @Override
      public void accept() {
        if (down) {
          down = false;
          try {
            agent.start();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }

      @Override
      public void close() {
        agent.close();
      }
    };
  }
}
