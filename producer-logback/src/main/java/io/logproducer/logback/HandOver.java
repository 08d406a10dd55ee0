package io.logproducer.logback;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.Context;
import io.logproducer.appender.AppenderProducer;
import io.logproducer.appender.QueueBudget;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * What a reconfiguration's stopped appender does with the events that still reach it: logback's
 * {@code reset()} stops every appender of a logger before it detaches them, and the application
 * keeps logging through them meanwhile. Those events are kept here (on the logging thread: prepared
 * for another thread, as logback's {@code AsyncAppender} prepares them) and handed, in their order,
 * to the appender of the same name that the new configuration starts in the same {@link
 * LoggerContext} (its <em>successor</em>, which finds this hand-over in the context's object map
 * under {@link #key}); events that reach the stopped appender after that go to the successor
 * directly. Handed-over events pass the successor's filters and its {@code queueSize} hand-off with
 * the id of the thread that logged them, so one thread's events keep their order.
 *
 * <p>Bounded: it holds at most the stopped appender's queue size in events (its {@code queueSize},
 * or {@value QueueBudget#DEFAULT_QUEUE_SIZE} for 0), large events within the stopped appender's
 * {@link QueueBudget} (its queue has drained by then). A logging thread that finds it full waits
 * for the successor until {@code stopTimeoutMillis} after it was first found full, then counts its
 * event as dropped (and so every later event that finds it full, at once). If no successor starts
 * within {@code stopTimeoutMillis} of the stop's end (the reconfiguration removed the appender, or
 * its successor did not start), or the context stops (its {@code stop()}, logback's shutdown hook),
 * the events held are counted as dropped on the stopped appender, reported once with their number
 * on the status channel, and so is every event that reaches it later: the drops of a stopped
 * appender without a hand-over. The wait for the successor runs on a daemon thread named {@code
 * <clientId>-handover}, which ends with the hand-over.
 *
 * <p>Thread-safe; one lock, held while events are handed to the successor (events that reach a
 * stopped appender then wait for it); the successor's own hand-over, if it stops in its turn, has
 * its own lock, taken after this one, never before.
 */
final class HandOver {

  /**
   * The hand-over's lock: a {@link ReentrantLock}, not a monitor, since logging threads wait here
   * (a virtual thread that waits in a monitor pins its carrier on Java 21).
   */
  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled when the state changes. */
  private final Condition changed = lock.newCondition();

  /** The cause of drops counted by a hand-over without a successor. */
  static final String NO_SUCCESSOR_CAUSE =
      "the appender was stopped (a reconfiguration, and no appender of the same name started within"
          + " stopTimeoutMillis)";

  /** The cause of drops counted when the hand-over stayed full. */
  static final String FULL_CAUSE =
      "the appender was stopped (a reconfiguration) and its hand-over stayed full for"
          + " stopTimeoutMillis";

  /** The cause of drops counted by a hand-over cut short by the context's stop. */
  static final String CONTEXT_STOPPED_CAUSE = "the appender was stopped (the context stopped)";

  private enum State {
    /** Keeping events for a successor. */
    HOLDING,
    /** Passing events on to the successor. */
    FORWARDING,
    /** No successor: counting events as dropped. */
    DROPPING
  }

  /** One event held, with its thread and its reservation. */
  private static final class Held {
    final ILoggingEvent event;
    final long threadId;
    final long largeBytes;

    Held(ILoggingEvent event, long threadId, long largeBytes) {
      this.event = event;
      this.threadId = threadId;
      this.largeBytes = largeBytes;
    }
  }

  private final String name;
  private final AppenderProducer from;
  private final QueueBudget budget;
  private final int capacity;
  private final boolean captureCode;
  private final long waitMillis;
  private final Consumer<String> status;
  private final LoggerContext context;
  private final String threadName;
  private final ArrayDeque<Held> held = new ArrayDeque<Held>();
  private ContextStop contextStop; // set by register(), on the resetting thread
  private State state = State.HOLDING; // guarded by lock
  private LogproducerAppender successor; // guarded by lock
  private String dropCause = NO_SUCCESSOR_CAUSE; // guarded by lock
  private long deadlineNanos; // guarded by lock; 0 until the stop ended
  private long fullUntilNanos; // guarded by lock; 0 until first found full: then waits end there
  private Thread timer; // guarded by lock

  /**
   * A hand-over in the state "holding", not yet registered.
   *
   * @param name the appender's name
   * @param from the stopped appender's producer: drops are counted there
   * @param budget the stopped appender's queue budget (large events)
   * @param capacity the most events held
   * @param captureCode whether to compute caller data on the logging thread
   * @param waitMillis {@code stopTimeoutMillis}
   * @param status the stopped appender's status channel
   * @param context the logger context
   */
  HandOver(
      String name,
      AppenderProducer from,
      QueueBudget budget,
      int capacity,
      boolean captureCode,
      long waitMillis,
      Consumer<String> status,
      LoggerContext context) {
    this.name = name;
    this.from = from;
    this.budget = budget;
    this.capacity = capacity;
    this.captureCode = captureCode;
    this.waitMillis = waitMillis;
    this.status = status;
    this.context = context;
    this.threadName = threadName(from, name); // while its producer is open: its clientId
  }

  /**
   * The key of an appender's hand-over in its context's object map. logback's {@code reset()}
   * clears that map before it stops the appenders: a hand-over lives there from the stop to the
   * next reset.
   *
   * @param appenderName the appender's name
   * @return the key
   */
  static String key(String appenderName) {
    return "io.logproducer.logback.HandOver." + appenderName;
  }

  /**
   * Whether {@code reset()} of a {@link LoggerContext} is on this thread's stack: logback stops the
   * appender for a reset (a reconfiguration: {@code scan}, a {@code JoranConfigurator} run after a
   * reset, Spring Boot's reinitialization) or for the context's stop, which resets it first (the
   * hand-over then ends at the context's {@code onStop}). Not so for an appender stopped by hand.
   *
   * @return true if stopped by a reset
   */
  static boolean inReset() {
    for (StackTraceElement e : new Throwable().getStackTrace()) {
      if ("reset".equals(e.getMethodName())
          && LoggerContext.class.getName().equals(e.getClassName())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Registers this hand-over for the successor (the context's object map) and for the context's
   * stop (a reset-resistant listener). Called before the stopped appender shuts its gate.
   */
  void register() {
    ContextStop cs = null;
    for (LoggerContextListener l : context.getCopyOfListenerList()) {
      if (l instanceof ContextStop) {
        cs = (ContextStop) l;
      }
    }
    if (cs == null) {
      cs = new ContextStop();
      context.addListener(cs); // on the resetting thread, as logback's own listeners are changed
    }
    cs.active.add(this);
    contextStop = cs;
    context.putObject(key(name), this);
  }

  /**
   * The stopped appender's stop has ended: from now on the successor has {@code stopTimeoutMillis}
   * to start; a daemon thread ends the hand-over then.
   */
  void stopEnded() {
    Thread t = new Thread(this::awaitSuccessor, threadName);
    t.setDaemon(true);
    t.setContextClassLoader(HandOver.class.getClassLoader());
    lock.lock();
    try {
      deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
      if (state != State.HOLDING) {
        return;
      }
      timer = t;
    } finally {
      lock.unlock();
    }
    try {
      t.start();
    } catch (Throwable e) { // no thread: no wait
      end(State.DROPPING, NO_SUCCESSOR_CAUSE);
    }
  }

  private static String threadName(AppenderProducer from, String name) {
    Object clientId = null;
    try {
      clientId = from.producer() == null ? null : from.producer().getConfig().getClientId();
    } catch (RuntimeException e) {
      // the name only
    }
    return (clientId == null ? "logproducer-" + name : clientId) + "-handover";
  }

  private void awaitSuccessor() {
    boolean expired = false;
    lock.lock();
    try {
      while (state == State.HOLDING) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          expired = true;
          break;
        }
        try {
          changed.awaitNanos(left);
        } catch (InterruptedException e) {
          expired = true;
          break;
        }
      }
    } finally {
      lock.unlock();
    }
    if (expired) {
      end(State.DROPPING, NO_SUCCESSOR_CAUSE);
    }
  }

  /**
   * Takes an event that reached the stopped appender (after its gate shut), on the thread that
   * logged it or passed it on: holds it, passes it to the successor, or counts it as dropped. A
   * logging thread that finds the hand-over full waits for the successor at most {@code
   * stopTimeoutMillis}. Never throws.
   *
   * @param event the event
   * @param threadId the id of the thread that logged it, or -1 if unknown
   * @param prepared whether the event was already prepared for another thread
   */
  void accept(ILoggingEvent event, long threadId, boolean prepared) {
    if (!prepared) {
      prepare(event); // on the logging thread, outside the lock (a toString() may log)
    }
    long large = largeBytes(event);
    LogproducerAppender next;
    lock.lock();
    try {
      if (state == State.HOLDING && hold(event, threadId, large)) {
        return;
      }
      if (state == State.HOLDING) {
        from.countDropped(FULL_CAUSE);
        return;
      }
      if (state == State.DROPPING) {
        from.countDropped(dropCause);
        return;
      }
      next = successor;
    } finally {
      lock.unlock();
    }
    next.takeHandedOver(event, threadId); // FORWARDING: outside the lock
  }

  /**
   * Holds the event if there is room, waiting for room or for the successor until {@code
   * stopTimeoutMillis} after the hand-over was first found full (so that no logging thread waits
   * longer than that in all, however many of its events find it full); called holding the lock, in
   * the state "holding".
   *
   * @return true if held; false if the state changed or the wait timed out
   */
  private boolean hold(ILoggingEvent event, long threadId, long large) {
    boolean interrupted = false;
    try {
      while (state == State.HOLDING) {
        if (held.size() < capacity && (large == 0 || budget.tryReserve(large))) {
          held.addLast(new Held(event, threadId, large));
          return true;
        }
        if (fullUntilNanos == 0) {
          fullUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
          fullUntilNanos |= 1; // never 0
        }
        long left = fullUntilNanos - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          changed.awaitNanos(left);
        } catch (InterruptedException e) {
          interrupted = true; // the logging call keeps its interrupt
        }
      }
      return false;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void prepare(ILoggingEvent event) {
    try {
      event.prepareForDeferredProcessing(); // the message, the thread name, the MDC
    } catch (RuntimeException e) { // a LoggerContext made by hand without an MDC adapter
      // the adapter reports the missing MDC
    }
    if (captureCode) {
      event.getCallerData(); // on the logging thread: another thread's stack is not the caller's
    }
  }

  private static long largeBytes(ILoggingEvent event) {
    try {
      return EventPipeline.largeBytes(event);
    } catch (RuntimeException e) {
      return 0;
    }
  }

  /**
   * The successor started: passes it the events held, in their order, and from now on every event
   * that reaches the stopped appender. Called by the successor's {@code start()}, before logback
   * attaches it.
   *
   * @param next the started appender of the same name
   * @return false if this hand-over had already ended (passed on, or dropped)
   */
  boolean handTo(LogproducerAppender next) {
    int count;
    lock.lock();
    try {
      if (state != State.HOLDING) {
        return false;
      }
      count = held.size();
      for (Held h; (h = held.pollFirst()) != null; ) {
        if (h.largeBytes > 0) {
          budget.release(h.largeBytes);
        }
        next.takeHandedOver(h.event, h.threadId);
      }
      successor = next;
      state = State.FORWARDING;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    finish();
    if (count > 0) {
      status.accept(
          "logproducer appender '"
              + name
              + "': "
              + count
              + " events that reached it after it stopped (a reconfiguration) were handed to its"
              + " successor");
    }
    return true;
  }

  /** Ends the hand-over without a successor: what it holds is counted as dropped. */
  private void end(State to, String cause) {
    int count;
    lock.lock();
    try {
      if (state != State.HOLDING) {
        return;
      }
      state = to;
      dropCause = cause;
      count = held.size();
      for (Held h; (h = held.pollFirst()) != null; ) {
        if (h.largeBytes > 0) {
          budget.release(h.largeBytes);
        }
        from.countDropped(cause);
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    finish();
    if (count > 0) {
      status.accept("logproducer appender '" + name + "': " + count + " events dropped: " + cause);
    }
  }

  /**
   * Leaves the context's stop listener (the object map's entry stays until the next reset) and
   * waits briefly for the timer thread to end.
   */
  private void finish() {
    Thread t;
    lock.lock();
    try {
      t = timer;
      if (contextStop != null) {
        contextStop.active.remove(this);
      }
    } finally {
      lock.unlock();
    }
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * One per context, added by the first hand-over and kept (a listener removed on another thread
   * than logback's could break its iteration over them): at the context's stop (which resets it
   * first), no successor will come for the hand-overs not yet ended.
   */
  private static final class ContextStop implements LoggerContextListener {
    final Set<HandOver> active = Collections.newSetFromMap(new ConcurrentHashMap<>());

    @Override
    public boolean isResetResistant() {
      return true;
    }

    @Override
    public void onStart(LoggerContext ctx) {}

    @Override
    public void onReset(LoggerContext ctx) {}

    @Override
    public void onStop(LoggerContext ctx) {
      for (HandOver h : active) {
        h.end(State.DROPPING, CONTEXT_STOPPED_CAUSE);
      }
    }

    @Override
    public void onLevelChange(Logger logger, Level level) {}
  }

  /** {@return the context's hand-over for {@code appenderName}, or null} */
  static HandOver of(Context context, String appenderName) {
    Object o = context == null ? null : context.getObject(key(appenderName));
    return o instanceof HandOver ? (HandOver) o : null;
  }
}
