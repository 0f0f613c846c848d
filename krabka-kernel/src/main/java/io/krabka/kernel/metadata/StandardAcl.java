package io.krabka.kernel.metadata;

import java.util.Objects;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * One ACL as the metadata holds it (Kafka's {@code StandardAcl}): who ({@code principal}, as {@code User:alice} or
 * {@code User:*}) may or may not ({@code permissionType}) do {@code operation} from {@code host} ({@code *} for any)
 * on the resources {@code resourceName} names under {@code patternType} (literal, prefixed; {@code *} literal is
 * every resource of the type).
 *
 * @param resourceType   the resource type
 * @param resourceName   the resource name, prefix or {@code *}
 * @param patternType    LITERAL or PREFIXED
 * @param principal      the principal, {@code Type:name}
 * @param host           the client's address, or {@code *}
 * @param operation      the operation
 * @param permissionType ALLOW or DENY
 */
public record StandardAcl(
        ResourceType resourceType,
        String resourceName,
        PatternType patternType,
        String principal,
        String host,
        AclOperation operation,
        AclPermissionType permissionType) {

    /** The resource name and the host that match any. */
    public static final String WILDCARD = "*";
    /** The principal that matches any user. */
    public static final String WILDCARD_PRINCIPAL = "User:*";

    /** Checks every field is present. */
    public StandardAcl {
        Objects.requireNonNull(resourceType, "resourceType");
        Objects.requireNonNull(resourceName, "resourceName");
        Objects.requireNonNull(patternType, "patternType");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(permissionType, "permissionType");
    }

    /** The ACL of {@code binding}, which must be specific (no ANY or UNKNOWN). */
    public static StandardAcl fromBinding(AclBinding binding) {
        return new StandardAcl(
                binding.pattern().resourceType(),
                binding.pattern().name(),
                binding.pattern().patternType(),
                binding.entry().principal(),
                binding.entry().host(),
                binding.entry().operation(),
                binding.entry().permissionType());
    }

    /** The ACL as kafka-clients' binding, as the ACL APIs answer it. */
    public AclBinding toBinding() {
        return new AclBinding(
                new ResourcePattern(resourceType, resourceName, patternType),
                new AccessControlEntry(principal, host, operation, permissionType));
    }
}
