package io.krabka.kernel.metadata;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.common.quota.ClientQuotaEntity;

/**
 * The client quotas of the cluster (Kafka's {@code ClientQuotasImage}): each entity's quotas by key, as the
 * ClientQuotaRecords left them. Krabka does not enforce them; it keeps and describes what a Kafka cluster set.
 *
 * @param entities the quotas of each entity that has some
 */
public record ClientQuotasImage(Map<ClientQuotaEntity, Map<String, Double>> entities) {

    /** No quotas. */
    public static final ClientQuotasImage EMPTY = new ClientQuotasImage(Map.of());

    /** Copies the maps, leaving out entities without quotas. */
    public ClientQuotasImage {
        Map<ClientQuotaEntity, Map<String, Double>> copy = new HashMap<>();
        entities.forEach((entity, quotas) -> {
            if (!quotas.isEmpty()) {
                copy.put(
                        new ClientQuotaEntity(Collections.unmodifiableMap(new HashMap<>(entity.entries()))),
                        Map.copyOf(quotas));
            }
        });
        entities = Map.copyOf(copy);
    }

    /**
     * The entities a filter matches, as Kafka's {@code ClientQuotasImage.describe} matches them: each type of
     * {@code exact} with that name (a null name: the type's default), each type of {@code specified} with any name
     * (the default too), and with {@code strict} no other type.
     *
     * @param exact     the types with the name each must have
     * @param specified the types each must have, by any name
     * @param strict    whether an entity may have no type but these
     */
    public Map<ClientQuotaEntity, Map<String, Double>> matching(
            Map<String, String> exact, Set<String> specified, boolean strict) {
        Map<ClientQuotaEntity, Map<String, Double>> matched = new HashMap<>();
        entities.forEach((entity, quotas) -> {
            Map<String, String> entries = entity.entries();
            boolean matches = (!strict || entries.size() == exact.size() + specified.size())
                    && exact.entrySet().stream()
                            .allMatch(part -> entries.containsKey(part.getKey())
                                    && Objects.equals(entries.get(part.getKey()), part.getValue()))
                    && entries.keySet().containsAll(specified);
            if (matches) {
                matched.put(entity, quotas);
            }
        });
        return matched;
    }
}
