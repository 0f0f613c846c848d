package io.krabka.kernel.network;

import io.krabka.kernel.broker.AuthHelper;
import io.krabka.kernel.broker.BrokerIdentity;
import io.krabka.kernel.broker.DeleteGroupsHandler;
import io.krabka.kernel.broker.DescribeGroupsHandler;
import io.krabka.kernel.broker.FindCoordinatorHandler;
import io.krabka.kernel.broker.HeartbeatHandler;
import io.krabka.kernel.broker.JoinGroupHandler;
import io.krabka.kernel.broker.LeaveGroupHandler;
import io.krabka.kernel.broker.ListGroupsHandler;
import io.krabka.kernel.broker.MetadataHandler;
import io.krabka.kernel.broker.OffsetCommitHandler;
import io.krabka.kernel.broker.OffsetDeleteHandler;
import io.krabka.kernel.broker.OffsetFetchHandler;
import io.krabka.kernel.broker.SyncGroupHandler;
import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.controller.ProducerIdsBlock;
import io.krabka.kernel.controller.QuorumController;
import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.GroupCoordinatorConfig;
import io.krabka.kernel.group.TestReplicaManager;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.scheduler.KafkaScheduler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * A broker of the group APIs for tests: a real log manager in {@code dir/data}, a real controller on
 * {@code dir/metadata} (so a restart on the same directory finds the same topics), the coordinator registered after
 * the test replica manager, and a socket server with the eleven group handlers (and the Metadata handler, so that
 * kafka-clients' Admin and KafkaConsumer find this node).
 */
final class GroupBroker {

    /** The controller as the coordinator sees it, counting the CreateTopics requests it makes. */
    private record CountingController(QuorumController controller, AtomicInteger createTopicsRequests)
            implements Controller {

        @Override
        public MetadataImage image() {
            return controller.image();
        }

        @Override
        public void register(MetadataPublisher publisher) {
            controller.register(publisher);
        }

        @Override
        public CompletableFuture<CreateTopicsResponseData> createTopics(CreateTopicsRequestData request) {
            createTopicsRequests.incrementAndGet();
            return controller.createTopics(request);
        }

        @Override
        public CompletableFuture<DeleteTopicsResponseData> deleteTopics(DeleteTopicsRequestData request) {
            return controller.deleteTopics(request);
        }

        @Override
        public CompletableFuture<List<CreatePartitionsTopicResult>> createPartitions(
                CreatePartitionsRequestData request) {
            return controller.createPartitions(request);
        }

        @Override
        public CompletableFuture<IncrementalAlterConfigsResponseData> incrementalAlterConfigs(
                IncrementalAlterConfigsRequestData request) {
            return controller.incrementalAlterConfigs(request);
        }

        @Override
        public CompletableFuture<List<org.apache.kafka.server.authorizer.AclCreateResult>> createAcls(
                List<org.apache.kafka.common.acl.AclBinding> acls) {
            return controller.createAcls(acls);
        }

        @Override
        public CompletableFuture<List<org.apache.kafka.server.authorizer.AclDeleteResult>> deleteAcls(
                List<org.apache.kafka.common.acl.AclBindingFilter> filters) {
            return controller.deleteAcls(filters);
        }

        @Override
        public CompletableFuture<org.apache.kafka.common.message.AlterUserScramCredentialsResponseData>
                alterUserScramCredentials(
                        org.apache.kafka.common.message.AlterUserScramCredentialsRequestData request) {
            return controller.alterUserScramCredentials(request);
        }

        @Override
        public CompletableFuture<AlterConfigsResponseData> legacyAlterConfigs(AlterConfigsRequestData request) {
            return controller.legacyAlterConfigs(request);
        }

        @Override
        public CompletableFuture<ProducerIdsBlock> allocateProducerIds(int brokerId) {
            return controller.allocateProducerIds(brokerId);
        }
    }

    final QuorumController controller;
    final LogManager logManager;
    final GroupCoordinator coordinator;
    final SocketServer server;
    private final Controllers controllers;
    private final AtomicInteger coordinatorCreateTopics;
    private final KafkaScheduler scheduler;

    private GroupBroker(
            Controllers controllers,
            AtomicInteger coordinatorCreateTopics,
            LogManager logManager,
            KafkaScheduler scheduler,
            GroupCoordinator coordinator,
            SocketServer server) {
        this.controllers = controllers;
        this.controller = controllers.controller();
        this.coordinatorCreateTopics = coordinatorCreateTopics;
        this.logManager = logManager;
        this.scheduler = scheduler;
        this.coordinator = coordinator;
        this.server = server;
    }

    /** Starts in {@code dir} (its log and metadata directories formatted first if new). */
    static GroupBroker start(Path dir, GroupCoordinatorConfig config) throws IOException, InterruptedException {
        Path dataDir = dir.resolve("data");
        Path metadataDir = dir.resolve("metadata");
        Controllers controllers;
        if (Files.exists(dataDir.resolve("meta.properties"))) {
            controllers = Controllers.start(metadataDir, Map.of());
        } else {
            MetaPropertiesEnsemble.format(List.of(dataDir), Servers.CLUSTER_ID, Servers.NODE_ID);
            try {
                controllers = Controllers.formatAndStart(metadataDir, Map.of());
            } catch (FormatException e) {
                throw new IOException("formatting the controller's directory", e);
            }
        }
        QuorumController controller = controllers.controller();
        AtomicInteger createTopics = new AtomicInteger();
        KafkaScheduler scheduler = new KafkaScheduler(2, "group-broker-");
        LogManager logs = new LogManager(
                LogManagerConfig.fromProps(
                        Map.of("log.dirs", dataDir.toString(), "node.id", Integer.toString(Servers.NODE_ID))),
                topic -> LogConfig.fromProps(Map.of(), controller.image().topicConfig(topic)),
                scheduler,
                Clock.systemUTC());
        logs.startup();
        GroupCoordinator coordinator = new GroupCoordinator(
                Servers.NODE_ID,
                config,
                new CountingController(controller, createTopics),
                logs,
                scheduler,
                Clock.systemUTC());
        coordinator.startup();
        controller.register(new TestReplicaManager(logs));
        controller.register(coordinator);
        AtomicReference<SocketServer> started = new AtomicReference<>();
        SocketServer server = Servers.start(
                Servers.config(),
                new FindCoordinatorHandler(
                        AuthHelper.NONE,
                        coordinator::findCoordinator,
                        transactionalId -> CompletableFuture.completedFuture(Errors.COORDINATOR_NOT_AVAILABLE),
                        Servers.NODE_ID,
                        listener -> started.get().localAddress()),
                new JoinGroupHandler(AuthHelper.NONE, coordinator),
                new SyncGroupHandler(AuthHelper.NONE, coordinator),
                new HeartbeatHandler(AuthHelper.NONE, coordinator),
                new LeaveGroupHandler(AuthHelper.NONE, coordinator),
                new OffsetCommitHandler(AuthHelper.NONE, coordinator, controller::image),
                new OffsetFetchHandler(AuthHelper.NONE, coordinator, controller::image),
                new OffsetDeleteHandler(AuthHelper.NONE, coordinator, controller::image),
                new ListGroupsHandler(AuthHelper.NONE, coordinator),
                new DescribeGroupsHandler(AuthHelper.NONE, coordinator),
                new DeleteGroupsHandler(AuthHelper.NONE, coordinator),
                new MetadataHandler(
                        AuthHelper.NONE,
                        listener -> new BrokerIdentity(
                                Servers.NODE_ID,
                                Servers.CLUSTER_ID,
                                "127.0.0.1",
                                started.get().localAddress().getPort(),
                                Optional.empty()),
                        new MetadataHandler.Config(false),
                        controller));
        started.set(server);
        return new GroupBroker(controllers, createTopics, logs, scheduler, coordinator, server);
    }

    InetSocketAddress address() {
        return server.localAddress();
    }

    /** How many CreateTopics requests the coordinator has made to the controller. */
    int coordinatorCreateTopicsRequests() {
        return coordinatorCreateTopics.get();
    }

    /** Stops the server, the coordinator, the logs (a clean shutdown), the scheduler and the controller. */
    void close() throws IOException, InterruptedException {
        server.close();
        coordinator.close();
        logManager.close();
        scheduler.shutdown();
        controllers.close();
    }
}
