package io.krabka.kernel.security;

import io.krabka.kernel.metadata.StandardAcl;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;

/**
 * The ACLs of one principal, host and operation on one resource type, gathered to answer Kafka's
 * {@code authorizeByResourceType}: is some resource of the type allowed and not denied?
 */
final class ResourceTypeGrants {

    private final Set<String> deniedLiterals = new HashSet<>();
    private final Set<String> deniedPrefixes = new HashSet<>();
    private final Set<String> allowedLiterals = new HashSet<>();
    private final Set<String> allowedPrefixes = new HashSet<>();
    private boolean wildcardAllowed;

    /** Takes a matching ACL; false for a DENY of every resource (the wildcard), which decides at once. */
    boolean add(StandardAcl acl) {
        boolean literal = acl.patternType() == PatternType.LITERAL;
        boolean prefixed = acl.patternType() == PatternType.PREFIXED;
        if (acl.permissionType() == AclPermissionType.DENY) {
            if (literal && acl.resourceName().equals(StandardAcl.WILDCARD)) {
                return false;
            }
            if (literal) {
                deniedLiterals.add(acl.resourceName());
            } else if (prefixed) {
                deniedPrefixes.add(acl.resourceName());
            }
        } else if (acl.permissionType() == AclPermissionType.ALLOW) {
            if (literal && acl.resourceName().equals(StandardAcl.WILDCARD)) {
                wildcardAllowed = true;
            } else if (literal) {
                allowedLiterals.add(acl.resourceName());
            } else if (prefixed) {
                allowedPrefixes.add(acl.resourceName());
            }
        }
        return true;
    }

    /**
     * Whether an allowed resource is left: the wildcard, a literal neither denied literally nor under a denied
     * prefix, or a prefix not under a denied prefix.
     */
    boolean anyAllowed() {
        if (wildcardAllowed) {
            return true;
        }
        for (String name : allowedLiterals) {
            if (!deniedLiterals.contains(name) && !underDeniedPrefix(name)) {
                return true;
            }
        }
        for (String name : allowedPrefixes) {
            if (!underDeniedPrefix(name)) {
                return true;
            }
        }
        return false;
    }

    // Kafka tests the non-empty leading substrings only.
    private boolean underDeniedPrefix(String name) {
        for (int length = 1; length <= name.length(); length++) {
            if (deniedPrefixes.contains(name.substring(0, length))) {
                return true;
            }
        }
        return false;
    }
}
