package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** queued.max.requests and queued.max.request.bytes. */
class RequestBudgetTest {

    @Test
    void requestsAreBoundedAndAReleaseWakesTheWaitersOnce() {
        RequestBudget budget = new RequestBudget(2, -1);
        AtomicInteger woken = new AtomicInteger();
        assertTrue(budget.tryReserve(100, woken::incrementAndGet));
        assertTrue(budget.tryReserve(Integer.MAX_VALUE, woken::incrementAndGet));
        assertFalse(budget.tryReserve(1, woken::incrementAndGet));
        assertFalse(budget.tryReserve(1, woken::incrementAndGet));
        assertEquals(0, woken.get());
        budget.release(100);
        assertEquals(2, woken.get());
        budget.release(Integer.MAX_VALUE);
        assertEquals(2, woken.get(), "a waiter runs once");
        assertEquals(0, budget.requests());
        assertEquals(0, budget.bytes());
    }

    @Test
    void bytesAdmitAFrameWhileAnyByteIsFreeAsKafkasMemoryPool() {
        RequestBudget budget = new RequestBudget(500, 1000);
        assertTrue(budget.tryReserve(999, () -> {}));
        assertTrue(budget.tryReserve(5000, () -> {}), "one byte free admits a frame larger than the rest");
        assertFalse(budget.tryReserve(1, () -> {}));
        budget.release(5000);
        assertEquals(999, budget.bytes());
        assertTrue(budget.tryReserve(1, () -> {}));
    }

    @Test
    void boundsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new RequestBudget(0, -1));
        assertThrows(IllegalArgumentException.class, () -> new RequestBudget(1, 0));
        assertThrows(IllegalArgumentException.class, () -> new RequestBudget(1, -2));
    }
}
