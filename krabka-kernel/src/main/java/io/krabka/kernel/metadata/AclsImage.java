package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.Map;
import java.util.Optional;

/**
 * The ACLs of the cluster by id (Kafka's {@code AclsImage}), as the AccessControlEntryRecords and their removals
 * left them.
 *
 * @param acls the ACLs by id
 */
public record AclsImage(Map<Uuid, StandardAcl> acls) {

    /** No ACLs. */
    public static final AclsImage EMPTY = new AclsImage(Map.of());

    /** Copies the map. */
    public AclsImage {
        acls = Map.copyOf(acls);
    }

    /** The id of an ACL equal to {@code acl}, if the cluster has one. */
    public Optional<Uuid> idOf(StandardAcl acl) {
        return acls.entrySet().stream()
                .filter(entry -> entry.getValue().equals(acl))
                .map(Map.Entry::getKey)
                .findFirst();
    }
}
