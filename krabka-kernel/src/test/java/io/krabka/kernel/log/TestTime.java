package io.krabka.kernel.log;

import java.time.Instant;
import java.time.InstantSource;

/** A clock the test moves. */
public final class TestTime implements InstantSource {

    private volatile long millis = 1_700_000_000_000L;

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public long millis() {
        return millis;
    }

    public void sleep(long ms) {
        millis += ms;
    }
}
