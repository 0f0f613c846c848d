package io.krabka.kernel.broker;

import io.krabka.kernel.controller.ControllerConfig;
import io.krabka.kernel.controller.QuorumController;
import io.krabka.kernel.fetch.FetchManager;
import io.krabka.kernel.fetch.FetchSessionCache;
import io.krabka.kernel.fetch.FetchSessionCacheConfig;
import io.krabka.kernel.group.GroupConfigs;
import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.GroupCoordinatorConfig;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.checkpoint.MetaProperties;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.Feature;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataVersion;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.kernel.replica.ReplicaManagerConfig;
import io.krabka.kernel.security.Authorizer;
import io.krabka.kernel.security.MetadataScramCredentials;
import io.krabka.kernel.security.ScramCredentials;
import io.krabka.kernel.security.StandardAuthorizer;
import io.krabka.kernel.transaction.ProducerIdManager;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionCoordinatorConfig;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The services {@code krabka broker} runs: the controller on the metadata log (with the broker's dynamic configs and
 * the group configs it keeps), the replica manager over the logs, the fetch sessions, the group coordinator on
 * {@code __consumer_offsets}, the transaction coordinator on {@code __transaction_state}, and a handler for every API
 * they serve.
 */
public final class KrabkaServices implements BrokerServices {

    private static final Map<String, ApiFeatures.Range> SUPPORTED_FEATURES = supportedFeatures();

    private final List<AutoCloseable> started = new ArrayList<>();
    private QuorumController controller;
    private GroupConfigs groupConfigs;
    private ReplicaManager replicaManager;
    private Optional<Authorizer> authorizer = Optional.empty();
    private ScramCredentials scramCredentials;

    @Override
    public Function<String, LogConfig> startBeforeLogs(BrokerContext context) throws IOException {
        BrokerConfig config = context.config();
        controller = QuorumController.start(
                new ControllerConfig(
                        config.nodeId(),
                        config.metadataLogDir(),
                        defaultDirectory(config),
                        config.numPartitions(),
                        config.defaultReplicationFactor(),
                        config.remoteLogStorageSystemEnable(),
                        config.originals()),
                context.scheduler(),
                context.time(),
                context.logDirFailureChannel());
        started.add(controller);
        Optional<StandardAuthorizer> standardAuthorizer =
                config.authorizerConfig().map(StandardAuthorizer::new);
        standardAuthorizer.ifPresent(controller::register);
        authorizer = standardAuthorizer.map(Authorizer.class::cast);
        scramCredentials = new MetadataScramCredentials(controller::image);
        DynamicBrokerConfig dynamicConfig = context.dynamicConfig();
        controller.register(dynamicConfig);
        controller.registerConfigurationValidator(ConfigResource.Type.BROKER, dynamicConfig);
        groupConfigs = new GroupConfigs(config.groupConfigDefaults());
        controller.registerConfigurationValidator(ConfigResource.Type.GROUP, groupConfigs);
        return topic ->
                dynamicConfig.currentConfig().topicLogConfig(controller.image().topicConfig(topic));
    }

    @Override
    public List<ApiHandler> handlers(BrokerContext context, LogManager logManager) throws IOException {
        BrokerConfig config = context.config();
        Supplier<MetadataImage> metadata = controller::image;
        AuthHelper auth = new AuthHelper(authorizer());
        Optional<TieredStorage> tiered = TieredStorage.start(context, logManager);
        tiered.ifPresent(started::add);
        // The replica manager first: it creates the logs the remote log manager tiers and the group coordinator
        // loads.
        replicaManager = new ReplicaManager(
                new ReplicaManagerConfig(config.nodeId(), config.originals()),
                logManager,
                context.scheduler(),
                tiered.map(TieredStorage::reader));
        started.add(replicaManager);
        controller.register(replicaManager);
        tiered.ifPresent(storage -> controller.register(storage.remoteLogManager()));
        GroupCoordinator groups = new GroupCoordinator(
                config.nodeId(),
                GroupCoordinatorConfig.fromProps(config.originals()),
                controller,
                logManager,
                context.scheduler(),
                context.time());
        started.add(groups);
        controller.register(groups);
        groups.startup();
        TransactionCoordinator transactions = new TransactionCoordinator(
                config.nodeId(),
                TransactionCoordinatorConfig.fromProps(config.originals()),
                controller,
                logManager,
                replicaManager,
                groups,
                new ProducerIdManager(controller, config.nodeId()),
                context.scheduler(),
                context.time());
        started.add(transactions);
        controller.register(transactions);
        transactions.startup();
        FetchManager fetchManager = new FetchManager(new FetchSessionCache(
                new FetchSessionCacheConfig(
                        config.maxIncrementalFetchSessionCacheSlots(),
                        FetchSessionCacheConfig.DEFAULTS.minIncrementalFetchSessionEvictionMs()),
                context.time()));
        // The advertised listeners are read per request: their ports are known once the broker listens. Each
        // request is answered with the endpoint of the listener it came on, as Kafka answers.
        Function<String, Endpoint> advertised = context.advertisedListeners();
        Function<String, BrokerIdentity> identity = listenerName -> {
            Endpoint listener = advertised.apply(listenerName);
            return new BrokerIdentity(
                    config.nodeId(), context.clusterId(), listener.host(), listener.port(), Optional.empty());
        };
        Function<String, InetSocketAddress> endpoint = listenerName -> {
            Endpoint listener = advertised.apply(listenerName);
            return InetSocketAddress.createUnresolved(listener.host(), listener.port());
        };
        return List.of(
                new MetadataHandler(
                        auth,
                        identity,
                        new MetadataHandler.Config(config.autoCreateTopicsEnable()),
                        controller,
                        logManager::isOffline),
                new DescribeClusterHandler(auth, identity),
                new CreateTopicsHandler(auth, controller),
                new DeleteTopicsHandler(auth, new DeleteTopicsHandler.Config(config.deleteTopicEnable()), controller),
                new CreatePartitionsHandler(auth, controller),
                new DescribeConfigsHandler(
                        auth,
                        new DescribeConfigsHandler.Config(config.nodeId(), config.originals()),
                        controller,
                        groupConfigs),
                new AlterConfigsHandler(auth, controller),
                new ListConfigResourcesHandler(auth, config.nodeId(), controller),
                new IncrementalAlterConfigsHandler(auth, controller),
                new InitProducerIdHandler(auth, transactions),
                new AddPartitionsToTxnHandler(auth, transactions, metadata),
                new AddOffsetsToTxnHandler(auth, transactions, groups),
                new EndTxnHandler(auth, transactions),
                new TxnOffsetCommitHandler(auth, groups, transactions, metadata),
                new WriteTxnMarkersHandler(auth, transactions, metadata),
                new DescribeTransactionsHandler(auth, transactions),
                new ListTransactionsHandler(auth, transactions),
                new DescribeProducersHandler(auth, replicaManager),
                new ProduceHandler(auth, replicaManager, metadata, transactions),
                new FetchHandler(auth, new FetchConfig(config.fetchMaxBytes()), replicaManager, fetchManager, metadata),
                new ListOffsetsHandler(auth, replicaManager),
                new OffsetForLeaderEpochHandler(auth, replicaManager),
                new DeleteRecordsHandler(auth, replicaManager),
                new DescribeLogDirsHandler(auth, logManager),
                new FindCoordinatorHandler(
                        auth, groups::findCoordinator, transactions::findCoordinator, config.nodeId(), endpoint),
                new JoinGroupHandler(auth, groups),
                new SyncGroupHandler(auth, groups),
                new HeartbeatHandler(auth, groups),
                new LeaveGroupHandler(auth, groups),
                new OffsetCommitHandler(auth, groups, metadata),
                new OffsetFetchHandler(auth, groups, metadata),
                new OffsetDeleteHandler(auth, groups, metadata),
                new ListGroupsHandler(auth, groups),
                new DescribeGroupsHandler(auth, groups),
                new DeleteGroupsHandler(auth, groups),
                new CreateAclsHandler(auth, controller),
                new DescribeAclsHandler(auth, metadata),
                new DeleteAclsHandler(auth, controller),
                new AlterUserScramCredentialsHandler(auth, controller),
                new DescribeUserScramCredentialsHandler(auth, metadata),
                new DescribeClientQuotasHandler(auth, metadata));
    }

    @Override
    public void handleLogDirFailure(Path logDir) {
        if (replicaManager != null) {
            replicaManager.handleLogDirFailure(logDir);
        }
    }

    @Override
    public Optional<Authorizer> authorizer() {
        return authorizer;
    }

    @Override
    public ScramCredentials scramCredentials() {
        return Objects.requireNonNull(scramCredentials, "the services have not started");
    }

    @Override
    public ApiFeatures features() {
        if (controller == null) {
            return ApiFeatures.NONE;
        }
        MetadataImage image = controller.image();
        return new ApiFeatures(SUPPORTED_FEATURES, image.features(), image.offset());
    }

    // What this broker supports never changes: computed once, not at every ApiVersions request.
    private static Map<String, ApiFeatures.Range> supportedFeatures() {
        Map<String, ApiFeatures.Range> supported = new HashMap<>();
        supported.put(
                MetadataVersion.FEATURE_NAME,
                new ApiFeatures.Range(
                        MetadataVersion.MINIMUM_VERSION.featureLevel(),
                        MetadataVersion.LATEST_PRODUCTION.featureLevel()));
        for (Feature feature : Feature.values()) {
            supported.put(feature.featureName(), new ApiFeatures.Range((short) 0, feature.latestProduction()));
        }
        return Map.copyOf(supported);
    }

    /** Stops the coordinators, the replica manager, tiered storage and the controller, in that order. */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (AutoCloseable service : started.reversed()) {
            try {
                service.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IOException("stopping " + service + " failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        started.clear();
        if (failure != null) {
            throw failure;
        }
    }

    // Kafka records the directory of each new replica; with several log directories it records none (UNASSIGNED).
    private static Uuid defaultDirectory(BrokerConfig config) throws IOException {
        if (config.logDirs().size() != 1) {
            return Uuid.ZERO_UUID;
        }
        Path dir = config.logDirs().getFirst();
        return MetaProperties.read(dir.resolve(MetaProperties.META_PROPERTIES_FILE_NAME))
                .directoryId()
                .orElse(Uuid.ZERO_UUID);
    }
}
