package io.krabka.kernel.security;

import io.krabka.kernel.metadata.StandardAcl;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACLs arranged for decisions: per resource type, the literal ACLs by name (the wildcard {@code *} among them)
 * and the prefixed ACLs by prefix, with the lengths the prefixes have. A decision on one resource looks up its name,
 * {@code *}, and its leading substrings of those lengths only, never scanning ACLs that cannot match (Kafka's
 * StandardAuthorizer walks a sorted set for the same reason). Immutable; rebuilt when the ACLs change.
 */
final class AclIndex {

    static final AclIndex EMPTY = new AclIndex(List.of());

    private final Map<ResourceType, Section> sections = new EnumMap<>(ResourceType.class);

    AclIndex(Collection<StandardAcl> acls) {
        Map<ResourceType, Map<String, List<StandardAcl>>> literal = new EnumMap<>(ResourceType.class);
        Map<ResourceType, Map<String, List<StandardAcl>>> prefixed = new EnumMap<>(ResourceType.class);
        Map<ResourceType, List<StandardAcl>> all = new EnumMap<>(ResourceType.class);
        for (StandardAcl acl : acls) {
            Map<ResourceType, Map<String, List<StandardAcl>>> byPattern =
                    acl.patternType() == PatternType.PREFIXED ? prefixed : literal;
            if (acl.patternType() == PatternType.PREFIXED || acl.patternType() == PatternType.LITERAL) {
                byPattern
                        .computeIfAbsent(acl.resourceType(), type -> new HashMap<>())
                        .computeIfAbsent(acl.resourceName(), name -> new ArrayList<>())
                        .add(acl);
            }
            all.computeIfAbsent(acl.resourceType(), type -> new ArrayList<>()).add(acl);
        }
        all.forEach((type, typeAcls) -> sections.put(
                type,
                new Section(
                        freeze(literal.getOrDefault(type, Map.of())),
                        freeze(prefixed.getOrDefault(type, Map.of())),
                        List.copyOf(typeAcls))));
    }

    /**
     * Hands {@code visitor} each ACL whose pattern matches the literal resource {@code type}:{@code name} (its
     * literal name, the wildcard, a prefix of it), until it returns false.
     */
    void forEachMatching(ResourceType type, String name, AclVisitor visitor) {
        Section section = sections.get(type);
        if (section == null) {
            return;
        }
        if (!visitAll(section.literal.get(name), visitor)) {
            return;
        }
        // Kafka's StandardAuthorizer skips the wildcard ACLs for a resource whose name starts with "*" (it takes
        // them for a literal prefix of the name there); the same answers mean the same here.
        if (!name.startsWith(StandardAcl.WILDCARD) && !visitAll(section.literal.get(StandardAcl.WILDCARD), visitor)) {
            return;
        }
        for (int length : section.prefixLengths) {
            if (length > name.length()) {
                return;
            }
            if (!visitAll(section.prefixed.get(name.substring(0, length)), visitor)) {
                return;
            }
        }
    }

    /** The ACLs of {@code type}, every pattern. */
    List<StandardAcl> ofType(ResourceType type) {
        Section section = sections.get(type);
        return section == null ? List.of() : section.all;
    }

    private static boolean visitAll(List<StandardAcl> acls, AclVisitor visitor) {
        if (acls != null) {
            for (StandardAcl acl : acls) {
                if (!visitor.visit(acl)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Map<String, List<StandardAcl>> freeze(Map<String, List<StandardAcl>> byName) {
        Map<String, List<StandardAcl>> frozen = new HashMap<>();
        byName.forEach((name, acls) -> frozen.put(name, List.copyOf(acls)));
        return Map.copyOf(frozen);
    }

    /** Takes one matching ACL; returns false to stop. */
    @FunctionalInterface
    interface AclVisitor {
        boolean visit(StandardAcl acl);
    }

    private record Section(
            Map<String, List<StandardAcl>> literal,
            Map<String, List<StandardAcl>> prefixed,
            List<StandardAcl> all,
            int[] prefixLengths) {

        Section(
                Map<String, List<StandardAcl>> literal,
                Map<String, List<StandardAcl>> prefixed,
                List<StandardAcl> all) {
            this(literal, prefixed, all, lengths(prefixed));
        }

        private static int[] lengths(Map<String, List<StandardAcl>> prefixed) {
            return new TreeSet<>(prefixed.keySet().stream().map(String::length).toList())
                    .stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
