package io.krabka.kernel.network;

import java.util.ArrayList;
import java.util.List;

/**
 * The broker-wide bound on requests in flight, from the moment a frame's size is read until its response is
 * written: at most {@code queued.max.requests} requests and {@code queued.max.request.bytes} bytes (-1: no byte
 * bound). A connection that finds the budget spent stops reading until a release wakes it. As Kafka's memory pool,
 * the byte bound admits a frame while any byte is free, so a frame larger than the bound still gets through.
 */
final class RequestBudget {

    private final int maxRequests;
    private final long maxBytes;
    private final List<Runnable> waiters = new ArrayList<>();
    private int requests;
    private long bytes;

    RequestBudget(int maxRequests, long maxBytes) {
        if (maxRequests < 1 || maxBytes == 0 || maxBytes < -1) {
            throw new IllegalArgumentException("queued.max.requests " + maxRequests + " must be at least 1 and"
                    + " queued.max.request.bytes " + maxBytes + " positive or -1");
        }
        this.maxRequests = maxRequests;
        this.maxBytes = maxBytes;
    }

    /**
     * Reserves a request of {@code size} bytes, or, if the budget is spent, registers {@code wake} to run (once, on
     * the releasing thread) at the next release.
     *
     * @return whether the request was reserved
     */
    synchronized boolean tryReserve(int size, Runnable wake) {
        if (requests >= maxRequests || (maxBytes != -1 && bytes >= maxBytes)) {
            waiters.add(wake);
            return false;
        }
        requests++;
        bytes += size;
        return true;
    }

    /** Gives back a reservation and wakes the connections waiting for one. */
    void release(int size) {
        List<Runnable> woken;
        synchronized (this) {
            requests--;
            bytes -= size;
            woken = List.copyOf(waiters);
            waiters.clear();
        }
        woken.forEach(Runnable::run);
    }

    /** The requests reserved. */
    synchronized int requests() {
        return requests;
    }

    /** The bytes reserved. */
    synchronized long bytes() {
        return bytes;
    }
}
