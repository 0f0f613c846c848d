package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.AccessControlEntryRecord;
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
import org.apache.kafka.server.authorizer.internals.CidrUtils;

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
                validateNewAcl(binding, cidrSupported);
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

    /**
     * Kafka's {@code AclControlManager.validateNewAcl}, with its messages; {@code cidrSupported} from
     * metadata.version 4.4-IV1.
     *
     * @throws InvalidRequestException      for a type, pattern, operation or permission an ACL cannot have, no name,
     *                                      a principal without a colon, no host or a bad CIDR block
     * @throws UnsupportedVersionException for a CIDR block before 4.4-IV1
     */
    public static void validateNewAcl(AclBinding binding, boolean cidrSupported) {
        switch (binding.pattern().resourceType()) {
            case UNKNOWN, ANY ->
                throw new InvalidRequestException(
                        "Invalid resourceType " + binding.pattern().resourceType());
            default -> {}
        }
        switch (binding.pattern().patternType()) {
            case LITERAL, PREFIXED -> {}
            default ->
                throw new InvalidRequestException(
                        "Invalid patternType " + binding.pattern().patternType());
        }
        switch (binding.entry().operation()) {
            case UNKNOWN, ANY ->
                throw new InvalidRequestException(
                        "Invalid operation " + binding.entry().operation());
            default -> {}
        }
        switch (binding.entry().permissionType()) {
            case DENY, ALLOW -> {}
            default ->
                throw new InvalidRequestException(
                        "Invalid permissionType " + binding.entry().permissionType());
        }
        if (binding.pattern().name() == null || binding.pattern().name().isEmpty()) {
            throw new InvalidRequestException("Resource name should not be empty");
        }
        String principal = binding.entry().principal();
        if (principal.indexOf(':') == -1) {
            throw new InvalidRequestException("Could not parse principal from `" + principal
                    + "` (no colon is present separating the principal type from the principal name)");
        }
        validateHost(binding.entry().host(), cidrSupported);
    }

    private static void validateHost(String host, boolean cidrSupported) {
        if (host == null || host.isEmpty()) {
            throw new InvalidRequestException("Host pattern cannot be null or empty");
        }
        if (host.equals(StandardAcl.WILDCARD) || !host.contains("/")) {
            return;
        }
        if (!cidrSupported) {
            throw new UnsupportedVersionException("CIDR-based ACL host patterns require metadata version "
                    + MetadataVersion.IBP_4_4_IV1 + " or higher.");
        }
        try {
            CidrUtils.validate(host);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("Invalid CIDR notation '" + host + "': " + e.getMessage());
        }
    }

    static MetadataVersion metadataVersion(MetadataImage image) {
        Short level = image.features().get(MetadataVersion.FEATURE_NAME);
        return level == null ? MetadataVersion.MINIMUM_VERSION : MetadataVersion.fromFeatureLevel(level);
    }
}
