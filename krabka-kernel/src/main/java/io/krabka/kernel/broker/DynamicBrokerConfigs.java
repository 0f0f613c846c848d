package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.cleaner.CleanerConfig;
import io.krabka.kernel.log.config.TopicConfigDef;
import io.krabka.kernel.log.config.TopicConfigs;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which broker configs change without a restart: Kafka 4.4's lists ({@code DynamicBrokerConfig}), and those of them
 * Krabka applies. Kafka updates some keys dynamically that Krabka cannot (it has no such part, or cannot resize it):
 * Krabka refuses them rather than accept a change it would not make.
 */
final class DynamicBrokerConfigs {

    /**
     * The broker defaults of topic configs Kafka reconfigures ({@code DynamicLogConfig}): the first broker key of each
     * topic config ({@code log.retention.ms}, not {@code log.retention.hours}).
     */
    static final Set<String> LOG_DEFAULTS = Set.copyOf(TopicConfigs.ALL.stream()
            .map(TopicConfigDef::brokerSynonyms)
            .filter(synonyms -> !synonyms.isEmpty())
            .map(synonyms -> synonyms.getFirst().name())
            .toList());

    /** The configs Krabka updates without a restart. */
    static final Set<String> KRABKA_DYNAMIC = Set.copyOf(Stream.of(
                    CleanerConfig.RECONFIGURABLE_CONFIGS.stream(),
                    LOG_DEFAULTS.stream(),
                    Stream.of(
                            BrokerConfigs.BACKGROUND_THREADS.name(),
                            BrokerConfigs.NUM_IO_THREADS.name(),
                            LogManagerConfig.NUM_RECOVERY_THREADS_PER_DATA_DIR.name(),
                            BrokerConfigs.MAX_CONNECTIONS.name(),
                            LogManagerConfig.PRODUCER_ID_EXPIRATION_MS.name(),
                            LogManagerConfig.TRANSACTION_PARTITION_VERIFICATION_ENABLE.name()))
            .flatMap(keys -> keys)
            .toList());

    /** Kafka's security configs a listener prefix must name ({@code DYNAMIC_SECURITY_CONFIGS}). */
    static final Set<String> SECURITY = Set.of(
            "ssl.key.password",
            "ssl.keystore.certificate.chain",
            "ssl.keystore.key",
            "ssl.keystore.location",
            "ssl.keystore.password",
            "ssl.keystore.type",
            "ssl.truststore.certificates",
            "ssl.truststore.location",
            "ssl.truststore.password",
            "ssl.truststore.type");

    /** The configs Kafka updates for one broker only, never at the cluster level. */
    static final Set<String> PER_BROKER = Set.copyOf(Stream.concat(
                    SECURITY.stream(),
                    Stream.of(
                            "cordoned.log.dirs",
                            "listener.security.protocol.map",
                            "listeners",
                            "principal.builder.class",
                            "sasl.enabled.mechanisms",
                            "sasl.jaas.config",
                            "sasl.kerberos.kinit.cmd",
                            "sasl.kerberos.min.time.before.relogin",
                            "sasl.kerberos.principal.to.local.rules",
                            "sasl.kerberos.service.name",
                            "sasl.kerberos.ticket.renew.jitter",
                            "sasl.kerberos.ticket.renew.window.factor",
                            "sasl.login.refresh.buffer.seconds",
                            "sasl.login.refresh.min.period.seconds",
                            "sasl.login.refresh.window.factor",
                            "sasl.login.refresh.window.jitter",
                            "sasl.mechanism.inter.broker.protocol",
                            "ssl.cipher.suites",
                            "ssl.client.auth",
                            "ssl.enabled.protocols",
                            "ssl.endpoint.identification.algorithm",
                            "ssl.engine.factory.class",
                            "ssl.keymanager.algorithm",
                            "ssl.protocol",
                            "ssl.provider",
                            "ssl.secure.random.implementation",
                            "ssl.trustmanager.algorithm"))
            .toList());

    /** The other configs Kafka updates dynamically, which Krabka refuses (it serves no such part). */
    private static final Set<String> KAFKA_ONLY = Set.of(
            "config.providers",
            "errors.deadletterqueue.auto.create.topics.enable",
            "errors.deadletterqueue.topic.name.prefix",
            "follower.fetch.last.tiered.offset.enable",
            "follower.replication.throttled.rate",
            "group.consumer.assignment.interval.ms",
            "group.consumer.assignor.offload.enable",
            "group.coordinator.cached.buffer.max.bytes",
            "group.share.assignment.interval.ms",
            "group.share.assignor.offload.enable",
            "group.streams.assignment.interval.ms",
            "group.streams.assignor.offload.enable",
            "leader.replication.throttled.rate",
            "max.connection.creation.rate",
            "max.connections.per.ip",
            "max.connections.per.ip.overrides",
            "metric.reporters",
            "num.network.threads",
            "num.replica.fetchers",
            "remote.fetch.max.wait.ms",
            "remote.list.offsets.request.timeout.ms",
            "remote.log.index.file.cache.total.size.bytes",
            "remote.log.manager.copier.thread.pool.size",
            "remote.log.manager.copy.max.bytes.per.second",
            "remote.log.manager.expiration.thread.pool.size",
            "remote.log.manager.fetch.max.bytes.per.second",
            "remote.log.manager.follower.thread.pool.size",
            "remote.log.reader.threads",
            "replica.alter.log.dirs.io.max.bytes.per.second",
            "share.coordinator.cached.buffer.max.bytes");

    /** Kafka 4.4's dynamic broker configs ({@code DynamicBrokerConfig.ALL_DYNAMIC_CONFIGS}). */
    static final Set<String> KAFKA_DYNAMIC = Set.copyOf(Stream.of(KRABKA_DYNAMIC, PER_BROKER, KAFKA_ONLY)
            .flatMap(Set::stream)
            .toList());

    /** A listener's own config, {@code listener.name.NAME.KEY}: Kafka takes them per broker, per listener. */
    static final Pattern LISTENER_CONFIG = Pattern.compile("listener\\.name\\.[^.]*\\.(.*)");

    private DynamicBrokerConfigs() {}

    /**
     * The keys Kafka updates only for one broker ({@code perBrokerConfigs}): those of its listeners, and the
     * listener-prefixed ones but for the cluster-level connection and thread limits.
     */
    static Set<String> perBroker(Set<String> keys) {
        Set<String> found = new TreeSet<>();
        for (String key : keys) {
            var listener = LISTENER_CONFIG.matcher(key);
            if (PER_BROKER.contains(key)
                    || (listener.matches()
                            && !Set.of("max.connections", "max.connection.creation.rate", "num.network.threads")
                                    .contains(listener.group(1)))) {
                found.add(key);
            }
        }
        return found;
    }
}
