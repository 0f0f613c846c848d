package io.krabka.kernel.broker;

import java.util.function.BooleanSupplier;

/** Waiting for a condition another thread brings about; the wait's length is never asserted. */
final class Waits {

    private Waits() {}

    static void until(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("never happened: " + what);
            }
            Thread.sleep(5);
        }
    }
}
