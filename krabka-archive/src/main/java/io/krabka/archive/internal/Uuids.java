package io.krabka.archive.internal;

import io.krabka.spi.common.Uuid;
import java.util.UUID;

/** UUIDs in the {@code uuid} crate's serde form, as the format's JSON and messages write them. */
public final class Uuids {

    private Uuids() {}

    /** The lowercase hyphenated form: {@code a1a2a3a4-b1b2-c1c2-d1d2-e1e2e3e4e5e6}. */
    public static String hyphenated(Uuid uuid) {
        return new UUID(uuid.mostSignificantBits(), uuid.leastSignificantBits()).toString();
    }
}
