package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.AccessControlEntryRecord;
import io.krabka.kernel.metadata.AclValidation;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.MetadataVersion;
import io.krabka.kernel.metadata.RemoveAccessControlEntryRecord;
import io.krabka.kernel.metadata.StandardAcl;
import io.krabka.spi.common.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;
import org.apache.kafka.server.authorizer.AclDeleteResult.AclBindingDeleteResult;

/**
 * Creates and deletes ACLs as Kafka's {@code AclControlManager} does: each new ACL checked on its own (no ANY,
 * MATCH or UNKNOWN type, pattern, operation or permission; a name; a principal {@code Type:name}; a host, a CIDR
 * block only from metadata.version 4.4-IV1), an ACL equal to one the cluster has created again with success and no
 * record; a deletion filter removes every ACL it matches and answers with them.
 */
public final class AclControl {

    private AclControl() {}

    static ControllerResult<List<AclCreateResult>> createAcls(MetadataImage image, List<AclBinding> bindings) {
        boolean cidrSupported = metadataVersion(image).compareTo(MetadataVersion.IBP_4_4_IV1) >= 0;
        Set<StandardAcl> existing = new HashSet<>(image.acls().acls().values());
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        List<AclCreateResult> results = new ArrayList<>(bindings.size());
        for (AclBinding binding : bindings) {
            try {
                AclValidation.validateNewAcl(binding, cidrSupported);
            } catch (InvalidRequestException | UnsupportedVersionException e) {
                results.add(new AclCreateResult(e));
                continue;
            }
            StandardAcl acl = StandardAcl.fromBinding(binding);
            if (existing.add(acl)) {
                records.add(new MetadataRecordAndVersion(newAcl(image, acl), (short) 0));
            }
            results.add(AclCreateResult.SUCCESS);
        }
        return new ControllerResult<>(records, results);
    }

    static ControllerResult<List<AclDeleteResult>> deleteAcls(MetadataImage image, List<AclBindingFilter> filters) {
        Map<Uuid, MetadataRecordAndVersion> records = new LinkedHashMap<>();
        List<AclDeleteResult> results = new ArrayList<>(filters.size());
        for (AclBindingFilter filter : filters) {
            if (filter.patternFilter().isUnknown()) {
                results.add(new AclDeleteResult(new InvalidRequestException("Unknown patternFilter.")));
                continue;
            }
            if (filter.entryFilter().isUnknown()) {
                results.add(new AclDeleteResult(new InvalidRequestException("Unknown entryFilter.")));
                continue;
            }
            List<AclBindingDeleteResult> deleted = new ArrayList<>();
            image.acls().acls().forEach((id, acl) -> {
                AclBinding binding = acl.toBinding();
                if (filter.matches(binding)) {
                    deleted.add(new AclBindingDeleteResult(binding));
                    records.putIfAbsent(
                            id, new MetadataRecordAndVersion(new RemoveAccessControlEntryRecord(id), (short) 0));
                }
            });
            results.add(new AclDeleteResult(deleted));
        }
        if (records.size() > QuorumController.MAX_RECORDS_PER_USER_OP) {
            InvalidRequestException tooMany = new InvalidRequestException("Cannot remove more than "
                    + QuorumController.MAX_RECORDS_PER_USER_OP + " acls in a single delete operation.");
            return new ControllerResult<>(
                    List.of(),
                    filters.stream().map(f -> new AclDeleteResult(tooMany)).toList());
        }
        return new ControllerResult<>(List.copyOf(records.values()), results);
    }

    private static AccessControlEntryRecord newAcl(MetadataImage image, StandardAcl acl) {
        Uuid id;
        do {
            id = Uuid.randomUuid();
        } while (image.acls().acls().containsKey(id));
        return new AccessControlEntryRecord(id, acl);
    }

    static MetadataVersion metadataVersion(MetadataImage image) {
        Short level = image.features().get(MetadataVersion.FEATURE_NAME);
        return level == null ? MetadataVersion.MINIMUM_VERSION : MetadataVersion.fromFeatureLevel(level);
    }
}
