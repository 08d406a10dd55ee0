package io.logproducer.otlp.encoding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

/** The per-thread size cache pins nothing of the library in application threads. */
class SizeCacheTest {

  @Test
  void threadsHoldOnlyAJdkWeakReferenceThroughAPlainThreadLocal() {
    assertSame(ThreadLocal.class, SizeCache.threadLocal().getClass(), "no ThreadLocal subclass of the library");
    SizeCache c = SizeCache.forThread();
    Object held = SizeCache.threadLocal().get();
    assertSame(WeakReference.class, held.getClass());
    assertSame(c, ((WeakReference<?>) held).get());
    assertSame(c, SizeCache.forThread(), "reused while it lives");
  }

  @Test
  void aClearedCacheIsMadeAnewAndWorks() {
    SizeCache c = SizeCache.forThread();
    c.push(7);
    SizeCache.threadLocal().get().clear(); // as a GC would
    SizeCache fresh = SizeCache.forThread();
    assertNotSame(c, fresh);
    fresh.push(42);
    assertEquals(42, fresh.next());
    assertTrue(fresh.fullyRead());
    assertSame(fresh, SizeCache.threadLocal().get().get());
  }

  @Test
  void aReusedCacheComesBackEmpty() {
    SizeCache c = SizeCache.forThread();
    c.push(1);
    c.push(2);
    SizeCache again = SizeCache.forThread();
    assertSame(c, again);
    assertTrue(again.fullyRead(), "emptied");
  }
}
