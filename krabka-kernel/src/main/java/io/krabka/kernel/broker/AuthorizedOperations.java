package io.krabka.kernel.broker;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Utils;

/**
 * The operations each resource type supports (Kafka's {@code AclEntry.supportedOperations}) and the 32-bit field
 * the {@code authorizedOperations} of Metadata, DescribeCluster and DescribeGroups carry them in. Without an
 * authorizer Kafka reports every supported operation.
 */
final class AuthorizedOperations {

    private static final List<AclOperation> TOPIC_OPERATIONS = List.of(
            AclOperation.READ,
            AclOperation.WRITE,
            AclOperation.CREATE,
            AclOperation.DESCRIBE,
            AclOperation.DELETE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS);
    private static final List<AclOperation> GROUP_OPERATIONS = List.of(
            AclOperation.READ,
            AclOperation.DESCRIBE,
            AclOperation.DELETE,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS);
    private static final List<AclOperation> CLUSTER_OPERATIONS = List.of(
            AclOperation.CREATE,
            AclOperation.CLUSTER_ACTION,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS,
            AclOperation.IDEMPOTENT_WRITE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE);
    private static final List<AclOperation> TRANSACTIONAL_ID_OPERATIONS =
            List.of(AclOperation.DESCRIBE, AclOperation.WRITE, AclOperation.TWO_PHASE_COMMIT);
    private static final List<AclOperation> DELEGATION_TOKEN_OPERATIONS = List.of(AclOperation.DESCRIBE);
    private static final List<AclOperation> USER_OPERATIONS =
            List.of(AclOperation.CREATE_TOKENS, AclOperation.DESCRIBE_TOKENS);

    // Every supported operation of each concrete type, as the field Kafka answers without an authorizer.
    private static final Map<ResourceType, Integer> ALL = allFields();

    private AuthorizedOperations() {}

    /** Every operation {@code type} supports, as the field. */
    static int all(ResourceType type) {
        Integer field = ALL.get(type);
        if (field == null) {
            throw new IllegalArgumentException("Not a concrete resource type: " + type);
        }
        return field;
    }

    /** What {@code type} supports; a type that names no concrete resource (ANY, UNKNOWN) is refused, as Kafka's. */
    static List<AclOperation> supported(ResourceType type) {
        return switch (type) {
            case TOPIC -> TOPIC_OPERATIONS;
            case GROUP -> GROUP_OPERATIONS;
            case CLUSTER -> CLUSTER_OPERATIONS;
            case TRANSACTIONAL_ID -> TRANSACTIONAL_ID_OPERATIONS;
            case DELEGATION_TOKEN -> DELEGATION_TOKEN_OPERATIONS;
            case USER -> USER_OPERATIONS;
            case ANY, UNKNOWN -> throw new IllegalArgumentException("Not a concrete resource type: " + type);
        };
    }

    private static Map<ResourceType, Integer> allFields() {
        Map<ResourceType, Integer> fields = new EnumMap<>(ResourceType.class);
        for (ResourceType type : ResourceType.values()) {
            if (type != ResourceType.ANY && type != ResourceType.UNKNOWN) {
                fields.put(type, field(supported(type)));
            }
        }
        return fields;
    }

    /** {@code operations} as the 32-bit field, a bit per operation code. */
    static int field(Collection<AclOperation> operations) {
        return Utils.to32BitField(operations.stream().map(AclOperation::code).collect(Collectors.toSet()));
    }
}
