package io.krabka.kernel.metadata;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.ScramMechanism;

/**
 * The SCRAM credentials of the cluster (Kafka's {@code ScramImage}): per mechanism, each user's credential, as the
 * UserScramCredentialRecords and their removals left them.
 *
 * @param credentials per mechanism, the credentials by user name
 */
public record ScramImage(Map<ScramMechanism, Map<String, ScramCredentialData>> credentials) {

    /** No credentials. */
    public static final ScramImage EMPTY = new ScramImage(Map.of());

    /** Copies the maps, leaving out mechanisms without users. */
    public ScramImage {
        Map<ScramMechanism, Map<String, ScramCredentialData>> copy = new EnumMap<>(ScramMechanism.class);
        credentials.forEach((mechanism, users) -> {
            if (!users.isEmpty()) {
                copy.put(mechanism, Map.copyOf(users));
            }
        });
        credentials = Map.copyOf(copy);
    }

    /** The credential of {@code user} for {@code mechanism}, if it has one. */
    public Optional<ScramCredentialData> credential(String user, ScramMechanism mechanism) {
        return Optional.ofNullable(credentials.getOrDefault(mechanism, Map.of()).get(user));
    }
}
