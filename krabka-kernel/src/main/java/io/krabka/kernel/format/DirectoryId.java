package io.krabka.kernel.format;

import io.krabka.spi.common.Uuid;
import java.util.Set;

/** Kafka's rules for a log directory's id ({@code directory.id} in {@code meta.properties}). */
public final class DirectoryId {

    /**
     * Kafka reserves the ids whose high 64 bits are zero and low 64 bits are below 100 (unassigned, lost,
     * migrating, ...): no directory may have one.
     */
    public static boolean isReserved(Uuid id) {
        return id.mostSignificantBits() == 0 && id.leastSignificantBits() >= 0 && id.leastSignificantBits() < 100;
    }

    /** A random id that is not reserved, does not begin with {@code -} (it would read as an option) and is not taken. */
    static Uuid random(Set<Uuid> taken) {
        while (true) {
            Uuid id = Uuid.randomUuid();
            if (!isReserved(id) && !id.toString().startsWith("-") && !taken.contains(id)) {
                return id;
            }
        }
    }

    private DirectoryId() {}
}
