package io.krabka.kernel.format;

import io.krabka.kernel.metadata.AccessControlEntryRecord;
import io.krabka.kernel.metadata.AclValidation;
import io.krabka.kernel.metadata.StandardAcl;
import io.krabka.spi.common.Uuid;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * One {@code --add-acl} value (Krabka's; Kafka's format tool has none): comma-separated {@code key=value} pairs,
 * {@code principal} ({@code User:admin}), {@code operation} ({@code ALL}, {@code READ}, ...), {@code permission}
 * ({@code ALLOW}, {@code DENY}), {@code resource-type} ({@code TOPIC}, {@code GROUP}, {@code CLUSTER}, {@code
 * TRANSACTIONAL_ID}, {@code DELEGATION_TOKEN}, {@code USER}), {@code resource-name}, and optionally {@code host}
 * ({@code *} when absent) and {@code pattern-type} ({@code LITERAL} when absent, or {@code PREFIXED}); names are
 * Kafka's enum names, in any case. The ACL is checked as CreateAcls checks one.
 */
public final class AclArgument {

    private AclArgument() {}

    /**
     * The ACL record {@code argument} describes, with a new id.
     *
     * @param cidrSupported whether the bootstrap metadata.version takes CIDR hosts (4.4-IV1 or later)
     * @throws IllegalArgumentException naming what is wrong
     */
    public static AccessControlEntryRecord parse(String argument, boolean cidrSupported) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String pair : argument.split(",")) {
            int equals = pair.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("No equals sign found in add-acl component: " + pair);
            }
            String key = pair.substring(0, equals).trim();
            if (pairs.put(key, pair.substring(equals + 1).trim()) != null) {
                throw new IllegalArgumentException("add-acl names '" + key + "' twice");
            }
        }
        StandardAcl acl = new StandardAcl(
                value(pairs, "resource-type", ResourceType::fromString, ResourceType.values()),
                required(pairs, "resource-name"),
                pairs.containsKey("pattern-type")
                        ? value(pairs, "pattern-type", PatternType::fromString, PatternType.values())
                        : PatternType.LITERAL,
                required(pairs, "principal"),
                pairs.containsKey("host") ? required(pairs, "host") : StandardAcl.WILDCARD,
                value(pairs, "operation", AclOperation::fromString, AclOperation.values()),
                value(pairs, "permission", AclPermissionType::fromString, AclPermissionType.values()));
        pairs.keySet()
                .removeAll(java.util.List.of(
                        "resource-type",
                        "resource-name",
                        "pattern-type",
                        "principal",
                        "host",
                        "operation",
                        "permission"));
        if (!pairs.isEmpty()) {
            throw new IllegalArgumentException("Unknown add-acl keys: " + String.join(", ", pairs.keySet()));
        }
        if (acl.resourceType() == ResourceType.CLUSTER && !acl.resourceName().equals("kafka-cluster")) {
            throw new IllegalArgumentException("The only valid name for the CLUSTER resource is kafka-cluster");
        }
        try {
            AclValidation.validateNewAcl(acl.toBinding(), cidrSupported);
        } catch (ApiException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return new AccessControlEntryRecord(Uuid.randomUuid(), acl);
    }

    private static String required(Map<String, String> pairs, String key) {
        String value = pairs.get(key);
        if (value == null) {
            throw new IllegalArgumentException("You must supply '" + key + "' to add-acl");
        }
        return value;
    }

    private static <E extends Enum<E>> E value(
            Map<String, String> pairs, String key, Function<String, E> parse, E[] values) {
        String text = required(pairs, key);
        E value = parse.apply(text.toUpperCase(Locale.ROOT));
        if (value.name().equals("UNKNOWN")
                || value.name().equals("ANY")
                || value.name().equals("MATCH")) {
            throw new IllegalArgumentException("add-acl " + key + " '" + text + "' is not one of "
                    + Arrays.stream(values)
                            .map(Enum::name)
                            .filter(name -> !name.equals("UNKNOWN") && !name.equals("ANY") && !name.equals("MATCH"))
                            .toList());
        }
        return value;
    }
}
