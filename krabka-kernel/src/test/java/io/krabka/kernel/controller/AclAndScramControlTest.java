package io.krabka.kernel.controller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.metadata.ScramCredentialData;
import io.krabka.kernel.metadata.StandardAcl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller's ACL and SCRAM operations on a formatted directory: Kafka's per-entry validation and error codes,
 * the records they commit, and what a restart replays. Kafka's {@code ScramFormatter} judges the keys derived from a
 * salted password.
 */
class AclAndScramControlTest {

    @TempDir
    Path dir;

    private Controllers controllers;

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void createAclsChecksEachAclAndKeepsOneOfEqualOnes() throws Exception {
        AclBinding readOrders = binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", "*");
        List<AclCreateResult> results = controllers
                .controller()
                .createAcls(List.of(
                        readOrders,
                        binding(ResourceType.UNKNOWN, "orders", PatternType.LITERAL, "User:alice", "*"),
                        binding(ResourceType.TOPIC, "orders", PatternType.UNKNOWN, "User:alice", "*"),
                        binding(ResourceType.TOPIC, "", PatternType.LITERAL, "User:alice", "*"),
                        binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "alice", "*"),
                        binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", ""),
                        binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", "10.0.0.0/99"),
                        binding(ResourceType.GROUP, "app-", PatternType.PREFIXED, "User:*", "10.0.0.0/24"),
                        readOrders))
                .get();
        assertEquals(
                List.of(
                        "NONE",
                        "Invalid resourceType UNKNOWN",
                        "Invalid patternType UNKNOWN",
                        "Resource name should not be empty",
                        "Could not parse principal from `alice` (no colon is present separating the principal type "
                                + "from the principal name)",
                        "Host pattern cannot be null or empty",
                        "INVALID",
                        "NONE",
                        "NONE"),
                results.stream().map(AclAndScramControlTest::outcome).toList());
        assertTrue(results.get(6).exception().orElseThrow() instanceof InvalidRequestException);
        assertTrue(results.get(6).exception().orElseThrow().getMessage().startsWith("Invalid CIDR notation"));
        Set<StandardAcl> expected = Set.of(
                StandardAcl.fromBinding(readOrders),
                StandardAcl.fromBinding(
                        binding(ResourceType.GROUP, "app-", PatternType.PREFIXED, "User:*", "10.0.0.0/24")));
        assertEquals(expected, acls());

        controllers.restart();
        assertEquals(expected, acls());
    }

    @Test
    void deleteAclsRemovesWhatEachFilterMatchesAndNamesIt() throws Exception {
        AclBinding aliceOrders = binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:alice", "*");
        AclBinding aliceGroup = binding(ResourceType.GROUP, "app", PatternType.PREFIXED, "User:alice", "*");
        AclBinding bobOrders = binding(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:bob", "*");
        controllers
                .controller()
                .createAcls(List.of(aliceOrders, aliceGroup, bobOrders))
                .get();

        AclBindingFilter alice = new AclBindingFilter(
                ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:alice", null, AclOperation.ANY, AclPermissionType.ANY));
        AclBindingFilter ordersTopic = new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.TOPIC, "orders", PatternType.MATCH),
                AccessControlEntryFilter.ANY);
        AclBindingFilter unknown = new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.UNKNOWN, null, PatternType.ANY), AccessControlEntryFilter.ANY);
        List<AclDeleteResult> results = controllers
                .controller()
                .deleteAcls(List.of(alice, ordersTopic, unknown))
                .get();

        assertEquals(Set.of(aliceOrders, aliceGroup), deleted(results.get(0)));
        // A filter sees the ACLs as they were before the request: alice's are named by both.
        assertEquals(Set.of(aliceOrders, bobOrders), deleted(results.get(1)));
        assertEquals(
                "Unknown patternFilter.",
                results.get(2).exception().orElseThrow().getMessage());
        assertEquals(Set.of(), acls());
        controllers.restart();
        assertEquals(Set.of(), acls());
    }

    @Test
    void scramCredentialsAreDerivedFromTheSaltedPasswordAsKafkaDerivesThem() throws Exception {
        byte[] salt = "salt-of-alice".getBytes(StandardCharsets.UTF_8);
        ScramFormatter sha256 =
                new ScramFormatter(org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_256);
        byte[] salted = sha256.saltedPassword("alice-secret", salt, 8192);
        AlterUserScramCredentialsRequestData request = new AlterUserScramCredentialsRequestData()
                .setUpsertions(List.of(upsertion("alice", ScramMechanism.SCRAM_SHA_256, salt, salted, 8192)));
        assertEquals(Map.of("alice", "NONE"), outcomes(request));

        ScramCredential kafka = sha256.generateCredential(salt, salted, 8192);
        ScramCredentialData ours = controllers
                .controller()
                .image()
                .scram()
                .credential("alice", ScramMechanism.SCRAM_SHA_256)
                .orElseThrow();
        assertArrayEquals(kafka.storedKey(), ours.storedKey());
        assertArrayEquals(kafka.serverKey(), ours.serverKey());
        assertArrayEquals(salt, ours.salt());
        assertEquals(8192, ours.iterations());

        controllers.restart();
        assertEquals(
                ours,
                controllers
                        .controller()
                        .image()
                        .scram()
                        .credential("alice", ScramMechanism.SCRAM_SHA_256)
                        .orElseThrow());
    }

    @Test
    void scramRequestsGetKafkasPerUserErrors() throws Exception {
        byte[] salt = {1, 2, 3};
        byte[] salted = new byte[32];
        AlterUserScramCredentialsRequestData request = new AlterUserScramCredentialsRequestData()
                .setDeletions(List.of(deletion("nobody", ScramMechanism.SCRAM_SHA_256)))
                .setUpsertions(List.of(
                        upsertion("few", ScramMechanism.SCRAM_SHA_256, salt, salted, 4095),
                        upsertion("many", ScramMechanism.SCRAM_SHA_512, salt, salted, 16385),
                        upsertion("", ScramMechanism.SCRAM_SHA_256, salt, salted, 4096),
                        upsertion("twice", ScramMechanism.SCRAM_SHA_256, salt, salted, 4096),
                        upsertion("twice", ScramMechanism.SCRAM_SHA_512, salt, salted, 4096),
                        upsertion("odd", ScramMechanism.UNKNOWN, salt, salted, 4096),
                        upsertion("edge", ScramMechanism.SCRAM_SHA_512, salt, salted, 16384)));
        assertEquals(
                Map.of(
                        "nobody", "RESOURCE_NOT_FOUND",
                        "twice", "DUPLICATE_RESOURCE",
                        "few", "UNACCEPTABLE_CREDENTIAL",
                        "many", "UNACCEPTABLE_CREDENTIAL",
                        "", "UNACCEPTABLE_CREDENTIAL",
                        "odd", "UNSUPPORTED_SASL_MECHANISM",
                        "edge", "NONE"),
                outcomes(request));
        assertEquals(
                Optional.empty(),
                controllers.controller().image().scram().credential("twice", ScramMechanism.SCRAM_SHA_256));

        // The one credential set is deleted; a second deletion finds nothing.
        AlterUserScramCredentialsRequestData delete = new AlterUserScramCredentialsRequestData()
                .setDeletions(List.of(deletion("edge", ScramMechanism.SCRAM_SHA_512)));
        assertEquals(Map.of("edge", "NONE"), outcomes(delete));
        assertEquals(Map.of("edge", "RESOURCE_NOT_FOUND"), outcomes(delete));
    }

    private Map<String, String> outcomes(AlterUserScramCredentialsRequestData request) throws Exception {
        List<AlterUserScramCredentialsResult> results = controllers
                .controller()
                .alterUserScramCredentials(request)
                .get()
                .results();
        return results.stream()
                .collect(Collectors.toMap(
                        AlterUserScramCredentialsResult::user,
                        result -> Errors.forCode(result.errorCode()).name()));
    }

    private Set<StandardAcl> acls() {
        return new HashSet<>(controllers.controller().image().acls().acls().values());
    }

    private static Set<AclBinding> deleted(AclDeleteResult result) {
        return result.aclBindingDeleteResults().stream()
                .map(AclDeleteResult.AclBindingDeleteResult::aclBinding)
                .collect(Collectors.toSet());
    }

    private static String outcome(AclCreateResult result) {
        return result.exception()
                .map(e -> e.getMessage().startsWith("Invalid CIDR") ? "INVALID" : e.getMessage())
                .orElse("NONE");
    }

    private static AclBinding binding(
            ResourceType type, String name, PatternType pattern, String principal, String host) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry(principal, host, AclOperation.READ, AclPermissionType.ALLOW));
    }

    private static ScramCredentialUpsertion upsertion(
            String user, ScramMechanism mechanism, byte[] salt, byte[] salted, int iterations) {
        return new ScramCredentialUpsertion()
                .setName(user)
                .setMechanism(mechanism.type())
                .setSalt(salt)
                .setSaltedPassword(salted)
                .setIterations(iterations);
    }

    private static ScramCredentialDeletion deletion(String user, ScramMechanism mechanism) {
        return new ScramCredentialDeletion().setName(user).setMechanism(mechanism.type());
    }
}
