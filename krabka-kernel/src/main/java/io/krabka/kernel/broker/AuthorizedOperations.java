package io.krabka.kernel.broker;

import java.util.Set;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.utils.Utils;

/**
 * The authorized operations Kafka reports without an authorizer: every operation the resource type supports
 * (Kafka's {@code AuthHelper.authorizedOperations} with {@code AclEntry.supportedOperations}), as a 32-bit field.
 */
final class AuthorizedOperations {

    /** A topic's: read, write, create, describe, delete, alter, describe and alter configs. */
    static final int TOPIC = field(Set.of(
            AclOperation.READ,
            AclOperation.WRITE,
            AclOperation.CREATE,
            AclOperation.DESCRIBE,
            AclOperation.DELETE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS));
    /** The cluster's. */
    static final int CLUSTER = field(Set.of(
            AclOperation.CREATE,
            AclOperation.CLUSTER_ACTION,
            AclOperation.DESCRIBE_CONFIGS,
            AclOperation.ALTER_CONFIGS,
            AclOperation.IDEMPOTENT_WRITE,
            AclOperation.ALTER,
            AclOperation.DESCRIBE,
            AclOperation.CREATE_TOKENS,
            AclOperation.DESCRIBE_TOKENS));

    private AuthorizedOperations() {}

    private static int field(Set<AclOperation> operations) {
        return Utils.to32BitField(
                operations.stream().map(AclOperation::code).collect(java.util.stream.Collectors.toSet()));
    }
}
