package io.krabka.bench;

import io.krabka.kernel.metadata.AclsImage;
import io.krabka.kernel.metadata.ClientQuotasImage;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.ScramImage;
import io.krabka.kernel.metadata.StandardAcl;
import io.krabka.kernel.security.AuthorizerConfig;
import io.krabka.kernel.security.StandardAuthorizer;
import io.krabka.spi.common.Uuid;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One authorization decision, Krabka's {@code StandardAuthorizer} against Kafka 4.4's, on the same 10,000 ACLs
 * (topics and groups of 100 users: half literal names, half prefixes, some DENYs, a wildcard) and the same 4,096
 * questions (a user, a host, an operation, a topic or group name that an ACL names, extends or misses), in turn.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class AuthorizerBenchmark {

    private static final int ACLS = 10_000;
    private static final int QUESTIONS = 4_096;
    private static final AclOperation[] OPERATIONS = {
        AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.ALTER, AclOperation.DELETE
    };

    private StandardAuthorizer krabka;
    private org.apache.kafka.metadata.authorizer.StandardAuthorizer kafka;
    private Metrics metrics;
    private Question[] questions;

    /** The same ACLs on both sides and the questions. */
    @Setup(Level.Trial)
    public void setUp() throws UnknownHostException {
        SplittableRandom random = new SplittableRandom(16);
        Map<Uuid, StandardAcl> acls = new HashMap<>();
        Map<org.apache.kafka.common.Uuid, org.apache.kafka.metadata.authorizer.StandardAcl> kafkaAcls = new HashMap<>();
        while (acls.size() < ACLS) {
            boolean prefixed = random.nextBoolean();
            StandardAcl acl = new StandardAcl(
                    random.nextInt(4) == 0 ? ResourceType.GROUP : ResourceType.TOPIC,
                    acls.isEmpty() ? "*" : (prefixed ? "team-" + random.nextInt(500) + "-" : name(random)),
                    acls.isEmpty() || !prefixed ? PatternType.LITERAL : PatternType.PREFIXED,
                    "User:u" + random.nextInt(100),
                    random.nextInt(10) == 0 ? "10.0.0." + random.nextInt(4) : "*",
                    OPERATIONS[random.nextInt(OPERATIONS.length)],
                    random.nextInt(10) == 0 ? AclPermissionType.DENY : AclPermissionType.ALLOW);
            if (acls.containsValue(acl)) {
                continue;
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
                "User:admin");
        krabka = new StandardAuthorizer(AuthorizerConfig.of(configs).orElseThrow());
        krabka.onMetadataUpdate(
                MetadataImage.EMPTY,
                new MetadataImage(
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
                        ClientQuotasImage.EMPTY));
        metrics = new Metrics();
        kafka = new org.apache.kafka.metadata.authorizer.StandardAuthorizer();
        kafka.configure(configs);
        kafka.withPluginMetrics(new PluginMetricsImpl(metrics, Map.of()));
        kafka.loadSnapshot(kafkaAcls);
        kafka.completeInitialLoad();

        questions = new Question[QUESTIONS];
        for (int i = 0; i < QUESTIONS; i++) {
            String resource = switch (random.nextInt(3)) {
                case 0 -> name(random);
                case 1 -> "team-" + random.nextInt(500) + "-" + name(random);
                default -> "other-" + random.nextInt(1000);
            };
            questions[i] = new Question(
                    new Context(
                            new KafkaPrincipal("User", "u" + random.nextInt(100)),
                            InetAddress.getByName("10.0.0." + random.nextInt(4))),
                    List.of(new Action(
                            OPERATIONS[random.nextInt(OPERATIONS.length)],
                            new ResourcePattern(
                                    random.nextInt(4) == 0 ? ResourceType.GROUP : ResourceType.TOPIC,
                                    resource,
                                    PatternType.LITERAL),
                            1,
                            true,
                            false)));
        }
        checkSameAnswers();
    }

    // The two sides must answer alike, or the ratio compares different work.
    private void checkSameAnswers() {
        for (Question question : questions) {
            AuthorizationResult mine =
                    krabka.authorize(question.context(), question.actions()).getFirst();
            AuthorizationResult theirs =
                    kafka.authorize(question.context(), question.actions()).getFirst();
            if (mine != theirs) {
                throw new IllegalStateException("Krabka answers " + mine + ", Kafka " + theirs + " to " + question);
            }
        }
    }

    /** Closes Kafka's authorizer and its metrics. */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        kafka.close();
        metrics.close();
    }

    /** The next question, per thread. */
    @State(Scope.Thread)
    public static class Cursor {
        private int next;

        Question next(Question[] questions) {
            Question question = questions[next];
            next = (next + 1) & (QUESTIONS - 1);
            return question;
        }
    }

    /** Krabka's decision. */
    @Benchmark
    public AuthorizationResult authorizeKrabka(Cursor cursor) {
        Question question = cursor.next(questions);
        return krabka.authorize(question.context(), question.actions()).getFirst();
    }

    /** Kafka 4.4's decision. */
    @Benchmark
    public AuthorizationResult authorizeKafka(Cursor cursor) {
        Question question = cursor.next(questions);
        return kafka.authorize(question.context(), question.actions()).getFirst();
    }

    private static String name(SplittableRandom random) {
        return "topic-" + random.nextInt(3_000);
    }

    /** One question. */
    record Question(AuthorizableRequestContext context, List<Action> actions) {}

    /** A request's context as both authorizers read it. */
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
            return ApiKeys.FETCH.id;
        }

        @Override
        public int requestVersion() {
            return 17;
        }

        @Override
        public String clientId() {
            return "bench";
        }

        @Override
        public int correlationId() {
            return 1;
        }
    }
}
