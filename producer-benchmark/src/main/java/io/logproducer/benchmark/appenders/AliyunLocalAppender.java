package io.logproducer.benchmark.appenders;

import com.aliyun.openservices.aliyun.log.producer.Producer;
import com.aliyun.openservices.aliyun.log.producer.ProjectConfig;
import com.aliyun.openservices.log.logback.LoghubAppender;

/**
 * The Aliyun Log logback appender ({@link LoghubAppender}, unchanged on the logging path) pointed
 * at the suite's local SLS sink. Its SDK refuses an IP address or a port in the endpoint and sends
 * to {@code http://<project>.<endpoint>}; its direct mode ({@link ProjectConfig#setProxyIp}) sends
 * to an {@code ip:port} instead, but the appender does not expose it. This subclass sets it, from
 * the system property {@value #PROPERTY}, on the project configuration the appender built, and
 * registers that configuration again with the appender's producer when the appender starts.
 *
 * @param <E> the event type, as the appender's
 */
public class AliyunLocalAppender<E> extends LoghubAppender<E> {

  /** The system property holding the sink's {@code ip:port}. */
  public static final String PROPERTY = "sls.sink";

  /** Creates the appender (logback sets its properties from the XML). */
  public AliyunLocalAppender() {
    super();
  }

  @Override
  public Producer createProducer() throws Exception {
    Producer producer = super.createProducer();
    projectConfig.setProxyIp(System.getProperty(PROPERTY));
    producer.putProjectConfig(projectConfig);
    return producer;
  }
}
