package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.RequestDispatcher;
import io.krabka.kernel.network.SocketServer;
import io.krabka.kernel.network.SocketServerConfig;
import io.krabka.kernel.security.Authorizer;
import io.krabka.kernel.security.AuthorizerConfig;
import io.krabka.kernel.security.StandardAuthorizer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's Admin client over TCP manages ACLs and SCRAM users through the broker's handlers: created, described by
 * filter, deleted, surviving a controller restart; SECURITY_DISABLED without an authorizer; CLUSTER_AUTHORIZATION_FAILED
 * for a principal the ACLs do not allow (the connections here are unauthenticated, User:ANONYMOUS).
 */
class AclApisIT {

    private static final AclBinding READ_ORDERS = new AclBinding(
            new ResourcePattern(ResourceType.TOPIC, "orders-", PatternType.PREFIXED),
            new AccessControlEntry("User:alice", "*", AclOperation.READ, AclPermissionType.ALLOW));
    private static final AclBinding DENY_BOB = new AclBinding(
            new ResourcePattern(ResourceType.GROUP, "app", PatternType.LITERAL),
            new AccessControlEntry("User:bob", "10.0.0.0/24", AclOperation.ALL, AclPermissionType.DENY));

    @TempDir
    Path dir;

    @Test
    void aclsAndScramUsersAreManagedByKafkasAdminAndSurviveARestart() throws Exception {
        Map<String, String> props = Map.of(
                AuthorizerConfig.AUTHORIZER_CLASS_NAME,
                AuthorizerConfig.STANDARD_AUTHORIZER,
                AuthorizerConfig.SUPER_USERS,
                "User:ANONYMOUS");
        try (Broker broker = new Broker(dir, props, true);
                Admin admin = broker.admin()) {
            admin.createAcls(List.of(READ_ORDERS, DENY_BOB)).all().get();
            ExecutionException invalid = assertThrows(
                    ExecutionException.class,
                    () -> admin.createAcls(List.of(new AclBinding(
                                    new ResourcePattern(ResourceType.CLUSTER, "other", PatternType.LITERAL),
                                    new AccessControlEntry(
                                            "User:alice", "*", AclOperation.ALTER, AclPermissionType.ALLOW))))
                            .all()
                            .get());
            assertInstanceOf(InvalidRequestException.class, invalid.getCause());
            assertEquals(
                    Set.of(READ_ORDERS, DENY_BOB),
                    new HashSet<>(
                            admin.describeAcls(AclBindingFilter.ANY).values().get()));
            AclBindingFilter bobs = new AclBindingFilter(
                    ResourcePatternFilter.ANY,
                    new AccessControlEntryFilter("User:bob", null, AclOperation.ANY, AclPermissionType.ANY));
            assertEquals(
                    List.of(DENY_BOB),
                    List.copyOf(admin.describeAcls(bobs).values().get()));

            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                            "alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), "alice-secret")))
                    .all()
                    .get();
            assertEquals(
                    List.of(new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192)),
                    admin.describeUserScramCredentials(List.of("alice"))
                            .description("alice")
                            .get()
                            .credentialInfos());
            ExecutionException missing = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeUserScramCredentials(List.of("nobody"))
                            .description("nobody")
                            .get());
            assertInstanceOf(ResourceNotFoundException.class, missing.getCause());
            // The broker keeps keys that prove the password the client salted, as SASL/SCRAM will read them.
            ScramCredential credential = broker.scramCredentials()
                    .credential("alice", ScramMechanism.SCRAM_SHA_256)
                    .orElseThrow();
            ScramFormatter formatter =
                    new ScramFormatter(org.apache.kafka.common.security.scram.internals.ScramMechanism.SCRAM_SHA_256);
            byte[] salted = formatter.saltedPassword("alice-secret", credential.salt(), credential.iterations());
            assertArrayEquals(credential.storedKey(), formatter.storedKey(formatter.clientKey(salted)));
            assertArrayEquals(credential.serverKey(), formatter.serverKey(salted));
        }

        try (Broker broker = new Broker(dir, props, false);
                Admin admin = broker.admin()) {
            assertEquals(
                    Set.of(READ_ORDERS, DENY_BOB),
                    new HashSet<>(
                            admin.describeAcls(AclBindingFilter.ANY).values().get()));
            assertEquals(
                    List.of("alice"),
                    admin.describeUserScramCredentials().users().get());
            assertEquals(
                    List.of(DENY_BOB),
                    List.copyOf(admin.deleteAcls(List.of(new AclBindingFilter(
                                    new ResourcePatternFilter(ResourceType.GROUP, "app", PatternType.ANY),
                                    AccessControlEntryFilter.ANY)))
                            .all()
                            .get()));
            admin.alterUserScramCredentials(
                            List.of(new UserScramCredentialDeletion("alice", ScramMechanism.SCRAM_SHA_256)))
                    .all()
                    .get();
            assertEquals(
                    List.of(READ_ORDERS),
                    List.copyOf(
                            admin.describeAcls(AclBindingFilter.ANY).values().get()));
            assertEquals(List.of(), admin.describeUserScramCredentials().users().get());
        }
    }

    @Test
    void withoutAnAuthorizerTheAclApisAreDisabledAndWithoutAnAllowTheyAreRefused() throws Exception {
        try (Broker broker = new Broker(dir, Map.of(), true);
                Admin admin = broker.admin()) {
            ExecutionException disabled = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeAcls(AclBindingFilter.ANY).values().get());
            assertInstanceOf(SecurityDisabledException.class, disabled.getCause());
            disabled = assertThrows(
                    ExecutionException.class,
                    () -> admin.createAcls(List.of(READ_ORDERS)).all().get());
            assertInstanceOf(SecurityDisabledException.class, disabled.getCause());
        }
        Map<String, String> noSuperUsers =
                Map.of(AuthorizerConfig.AUTHORIZER_CLASS_NAME, AuthorizerConfig.STANDARD_AUTHORIZER);
        try (Broker broker = new Broker(dir, noSuperUsers, false);
                Admin admin = broker.admin()) {
            for (Throwable refused : List.of(
                    assertThrows(
                                    ExecutionException.class,
                                    () -> admin.describeAcls(AclBindingFilter.ANY)
                                            .values()
                                            .get())
                            .getCause(),
                    assertThrows(
                                    ExecutionException.class,
                                    () -> admin.createAcls(List.of(READ_ORDERS))
                                            .all()
                                            .get())
                            .getCause(),
                    assertThrows(
                                    ExecutionException.class,
                                    () -> admin.describeUserScramCredentials()
                                            .all()
                                            .get())
                            .getCause())) {
                assertInstanceOf(ClusterAuthorizationException.class, refused);
            }
        }
    }

    /** A controller and a listener with the ACL and SCRAM handlers, configured by {@code props}. */
    private static final class Broker implements AutoCloseable {
        private final Controllers controllers;
        private SocketServer server;
        private final Optional<Authorizer> authorizer;

        Broker(Path dir, Map<String, String> props, boolean format) throws Exception {
            controllers = format ? Controllers.formatAndStart(dir, props) : Controllers.start(dir, props);
            Optional<StandardAuthorizer> standard = AuthorizerConfig.of(props).map(StandardAuthorizer::new);
            standard.ifPresent(controllers.controller()::register);
            authorizer = standard.map(Authorizer.class::cast);
            AuthHelper auth = new AuthHelper(authorizer);
            List<ApiHandler> handlers = List.of(
                    new MetadataHandler(
                            auth,
                            listener -> new BrokerIdentity(
                                    Controllers.NODE_ID,
                                    ControlPlane.CLUSTER_ID,
                                    "127.0.0.1",
                                    port(),
                                    Optional.empty()),
                            new MetadataHandler.Config(false),
                            controllers.controller()),
                    new CreateAclsHandler(auth, controllers.controller()),
                    new DescribeAclsHandler(auth, controllers.controller()::image),
                    new DeleteAclsHandler(auth, controllers.controller()),
                    new AlterUserScramCredentialsHandler(auth, controllers.controller()),
                    new DescribeUserScramCredentialsHandler(auth, controllers.controller()::image));
            server = SocketServer.start(
                    SocketServerConfig.defaults(new InetSocketAddress("127.0.0.1", 0)),
                    RequestDispatcher.create(
                            handlers,
                            table -> new ApiVersionsHandler(
                                    table, ControlPlane.CLUSTER_ID, Controllers.NODE_ID, () -> ApiFeatures.NONE)));
        }

        io.krabka.kernel.security.ScramCredentials scramCredentials() {
            return new io.krabka.kernel.security.MetadataScramCredentials(controllers.controller()::image);
        }

        int port() {
            return server.localAddress().getPort();
        }

        Admin admin() {
            return Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    "127.0.0.1:" + port(),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                    30_000));
        }

        @Override
        public void close() throws java.io.IOException {
            try {
                server.close();
            } finally {
                controllers.close();
            }
        }
    }
}
