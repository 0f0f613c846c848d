package io.krabka.kernel.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.metadata.AclsImage;
import io.krabka.kernel.metadata.ClientQuotasImage;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.ScramImage;
import io.krabka.kernel.metadata.StandardAcl;
import io.krabka.spi.common.Uuid;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's own {@code StandardAuthorizer} judges Krabka's: the same random ACLs (literal, prefixed and wildcard
 * names, wildcard principals and hosts, CIDR blocks, ALLOW and DENY, every operation) and the same random questions (principals,
 * hosts, operations, resources sharing prefixes with the ACLs' names), under random {@code super.users} and {@code
 * allow.everyone.if.no.acl.found}, get the same answers from both, by {@code authorize} and by {@code
 * authorizeByResourceType}. A fixed seed makes a failure repeatable.
 */
class StandardAuthorizerDifferentialTest {

    private static final long SEED = 20261206L;
    private static final int WORLDS = 60;
    private static final int QUESTIONS_PER_WORLD = 400;

    private static final ResourceType[] TYPES = {
        ResourceType.TOPIC,
        ResourceType.GROUP,
        ResourceType.CLUSTER,
        ResourceType.TRANSACTIONAL_ID,
        ResourceType.DELEGATION_TOKEN,
        ResourceType.USER
    };
    private static final String[] NAMES = {
        "a", "ab", "abc", "abd", "b", "ba", "foo", "foo-", "foo-bar", "kafka-cluster", "*", "*x", "\u00e9t\u00e9"
    };
    private static final String[] ACL_PRINCIPALS = {"User:alice", "User:bob", "User:*", "Group:ops", "User:a:b"};
    private static final KafkaPrincipal[] PRINCIPALS = {
        new KafkaPrincipal("User", "alice"),
        new KafkaPrincipal("User", "bob"),
        new KafkaPrincipal("User", "carol"),
        new KafkaPrincipal("User", "admin"),
        new KafkaPrincipal("Group", "ops"),
        new KafkaPrincipal("User", "a:b")
    };
    private static final String[] ACL_HOSTS = {"*", "10.0.0.1", "10.0.0.2", "10.0.0.0/24", "10.0.0.2/32", "10.0.1.0/24"
    };
    private static final String[] HOSTS = {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.1.9"};
    private static final String[] SUPER_USERS = {"", "User:admin", "User:admin; User:bob", " ;User:carol;"};
    private static final AclOperation[] ACL_OPERATIONS = {
        AclOperation.ALL,
        AclOperation.READ,
        AclOperation.WRITE,
        AclOperation.CREATE,
        AclOperation.DELETE,
        AclOperation.ALTER,
        AclOperation.DESCRIBE,
        AclOperation.CLUSTER_ACTION,
        AclOperation.DESCRIBE_CONFIGS,
        AclOperation.ALTER_CONFIGS,
        AclOperation.IDEMPOTENT_WRITE,
        AclOperation.CREATE_TOKENS,
        AclOperation.DESCRIBE_TOKENS
    };

    @Test
    void sameAnswersAsKafkasStandardAuthorizer() throws Exception {
        Random random = new Random(SEED);
        int allowed = 0;
        int questions = 0;
        for (int world = 0; world < WORLDS; world++) {
            Map<Uuid, StandardAcl> acls = new HashMap<>();
            Map<org.apache.kafka.common.Uuid, org.apache.kafka.metadata.authorizer.StandardAcl> kafkaAcls =
                    new HashMap<>();
            int count = random.nextInt(world % 5 == 0 ? 3 : 120);
            for (int i = 0; i < count; i++) {
                StandardAcl acl = randomAcl(random);
                if (acls.containsValue(acl)) {
                    continue; // as the controller keeps one of equal ACLs (Kafka's cache refuses a second)
                }
                Uuid id = new Uuid(random.nextLong(), random.nextLong());
                acls.put(id, acl);
                kafkaAcls.put(
                        new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits()),
                        new org.apache.kafka.metadata.authorizer.StandardAcl(
                                acl.resourceType(),
                                acl.resourceName(),
                                acl.patternType(),
                                acl.principal(),
                                acl.host(),
                                acl.operation(),
                                acl.permissionType()));
            }
            Map<String, String> configs = Map.of(
                    AuthorizerConfig.AUTHORIZER_CLASS_NAME,
                    AuthorizerConfig.STANDARD_AUTHORIZER,
                    AuthorizerConfig.SUPER_USERS,
                    SUPER_USERS[random.nextInt(SUPER_USERS.length)],
                    AuthorizerConfig.ALLOW_EVERYONE_IF_NO_ACL_FOUND,
                    String.valueOf(random.nextBoolean()));

            try (Metrics metrics = new Metrics();
                    org.apache.kafka.metadata.authorizer.StandardAuthorizer kafka =
                            new org.apache.kafka.metadata.authorizer.StandardAuthorizer()) {
                kafka.configure(configs);
                kafka.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
                kafka.loadSnapshot(kafkaAcls);
                kafka.completeInitialLoad();
                StandardAuthorizer ours =
                        new StandardAuthorizer(AuthorizerConfig.of(configs).orElseThrow());
                ours.onMetadataUpdate(MetadataImage.EMPTY, image(acls));

                for (int q = 0; q < QUESTIONS_PER_WORLD; q++) {
                    AuthorizableRequestContext context = new Context(
                            PRINCIPALS[random.nextInt(PRINCIPALS.length)],
                            InetAddress.getByName(HOSTS[random.nextInt(HOSTS.length)]));
                    ResourceType type = TYPES[random.nextInt(TYPES.length)];
                    AclOperation operation = ACL_OPERATIONS[random.nextInt(ACL_OPERATIONS.length)];
                    List<Action> actions = List.of(new Action(
                            operation,
                            new ResourcePattern(type, randomResourceName(random), PatternType.LITERAL),
                            1,
                            // Mostly quiet: a denied action asked for is an INFO line on both sides.
                            random.nextInt(50) == 0,
                            random.nextInt(50) == 0));
                    AuthorizationResult expected =
                            kafka.authorize(context, actions).getFirst();
                    String what = "world " + world + " question " + q + ": " + context.principal() + " from "
                            + context.clientAddress() + " " + actions.getFirst() + " with " + configs + " and "
                            + acls.values();
                    assertEquals(expected, ours.authorize(context, actions).getFirst(), what);
                    assertEquals(
                            kafka.authorizeByResourceType(context, operation, type),
                            ours.authorizeByResourceType(context, operation, type),
                            "by resource type, " + what);
                    questions++;
                    allowed += expected == AuthorizationResult.ALLOWED ? 1 : 0;
                }
            }
        }
        // The questions are worth asking: both answers come up often.
        assertTrue(allowed > questions / 10 && allowed < questions * 9 / 10, allowed + " of " + questions);
    }

    private static StandardAcl randomAcl(Random random) {
        return new StandardAcl(
                TYPES[random.nextInt(TYPES.length)],
                NAMES[random.nextInt(NAMES.length)],
                random.nextInt(3) == 0 ? PatternType.PREFIXED : PatternType.LITERAL,
                ACL_PRINCIPALS[random.nextInt(ACL_PRINCIPALS.length)],
                ACL_HOSTS[random.nextInt(ACL_HOSTS.length)],
                ACL_OPERATIONS[random.nextInt(ACL_OPERATIONS.length)],
                random.nextInt(4) == 0 ? AclPermissionType.DENY : AclPermissionType.ALLOW);
    }

    // An ACL's name, the same with a tail, or a name no ACL has.
    private static String randomResourceName(Random random) {
        String name = NAMES[random.nextInt(NAMES.length)];
        return switch (random.nextInt(4)) {
            case 0 -> name + (char) ('a' + random.nextInt(4));
            case 1 -> name + "-" + random.nextInt(3);
            case 2 -> "z" + random.nextInt(5);
            default -> name;
        };
    }

    private static MetadataImage image(Map<Uuid, StandardAcl> acls) {
        return new MetadataImage(
                0,
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                Map.of(),
                0,
                new AclsImage(acls),
                ScramImage.EMPTY,
                ClientQuotasImage.EMPTY);
    }

    /** A request's context as the authorizers read it. */
    record Context(KafkaPrincipal principal, InetAddress clientAddress) implements AuthorizableRequestContext {
        @Override
        public String listenerName() {
            return "PLAINTEXT";
        }

        @Override
        public SecurityProtocol securityProtocol() {
            return SecurityProtocol.PLAINTEXT;
        }

        @Override
        public int requestType() {
            return ApiKeys.METADATA.id;
        }

        @Override
        public int requestVersion() {
            return 12;
        }

        @Override
        public String clientId() {
            return "differential";
        }

        @Override
        public int correlationId() {
            return 1;
        }
    }
}
