package io.krabka.kernel.group;

import io.krabka.spi.plugin.ConfigType;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.errors.InvalidConfigurationException;

/**
 * One of Kafka 4.4's group configs ({@code GroupConfig.CONFIG_DEF}): its type, its own default, the broker key that
 * gives it its default when there is one, its check, and whether Kafka keeps it internal (settable, not described).
 * Values parse as Kafka's {@code ConfigDef} parses them, with its messages.
 *
 * @param name          the config
 * @param type          its type
 * @param defaultValue  its own default (null for {@code streams.assignor.name}, which the broker names)
 * @param brokerSynonym the broker key its default comes from; null when none
 * @param check         its check of a parsed value
 * @param internal      whether Kafka leaves it out of DescribeConfigs
 * @param documentation Kafka's documentation of it
 */
record GroupConfigDef(
        String name,
        ConfigType type,
        Object defaultValue,
        String brokerSynonym,
        Check check,
        boolean internal,
        String documentation) {

    /** A check of a parsed value, throwing {@link InvalidConfigurationException} with Kafka's message. */
    @FunctionalInterface
    interface Check {
        void check(String name, Object value);
    }

    private static final Check NONE = (name, value) -> {};

    /** Every group config, in Kafka's order: the order Kafka checks them in. */
    static final List<GroupConfigDef> ALL = List.of(
            def(
                    "consumer.session.timeout.ms",
                    45_000,
                    "group.consumer.session.timeout.ms",
                    atLeast(1),
                    "The timeout to detect client failures when using the consumer group protocol."),
            def(
                    "consumer.heartbeat.interval.ms",
                    5000,
                    "group.consumer.heartbeat.interval.ms",
                    atLeast(1),
                    "The heartbeat interval given to the members of a consumer group."),
            def(
                    "consumer.assignment.interval.ms",
                    1000,
                    "group.consumer.assignment.interval.ms",
                    atLeast(0),
                    "The interval between assignment updates for a consumer group."),
            internal(
                    "consumer.assignor.offload.enable",
                    ConfigType.BOOLEAN,
                    true,
                    "group.consumer.assignor.offload.enable",
                    "Whether to offload consumer group assignment to a group coordinator background thread."),
            def(
                    "share.session.timeout.ms",
                    45_000,
                    "group.share.session.timeout.ms",
                    atLeast(1),
                    "The timeout to detect client failures when using the share group protocol."),
            def(
                    "share.heartbeat.interval.ms",
                    5000,
                    "group.share.heartbeat.interval.ms",
                    atLeast(1),
                    "The heartbeat interval given to the members of a share group."),
            def(
                    "share.record.lock.duration.ms",
                    30_000,
                    "group.share.record.lock.duration.ms",
                    atLeast(1000),
                    "The record acquisition lock duration in milliseconds for share groups."),
            def(
                    "share.delivery.count.limit",
                    5,
                    "group.share.delivery.count.limit",
                    atLeast(2),
                    "The maximum number of delivery attempts for a record delivered to a share group."),
            def(
                    "share.partition.max.record.locks",
                    2000,
                    "group.share.partition.max.record.locks",
                    atLeast(100),
                    "Share-group record lock limit per share-partition."),
            new GroupConfigDef(
                    "share.auto.offset.reset",
                    ConfigType.STRING,
                    "latest",
                    null,
                    GroupConfigDef::autoOffsetReset,
                    false,
                    "The strategy to initialize the share-partition start offset. <ul><li>earliest: automatically reset "
                            + "the offset to the earliest offset</li><li>latest: automatically reset the offset to the "
                            + "latest offset</li><li>by_duration:&lt;duration&gt;: automatically reset the offset to a "
                            + "configured duration from the current timestamp. &lt;duration&gt; must be specified in "
                            + "ISO8601 format (PnDTnHnMn.nS). Negative duration is not allowed.</li><li>anything else: "
                            + "throw exception to the share consumer.</li></ul>"),
            new GroupConfigDef(
                    "share.isolation.level",
                    ConfigType.STRING,
                    "read_uncommitted",
                    null,
                    oneOf("read_committed", "read_uncommitted"),
                    false,
                    "Controls how to read records written transactionally. If set to \"read_committed\", the share "
                            + "group will only deliver transactional records which have been committed. If set to "
                            + "\"read_uncommitted\", the share group will return all messages, even transactional "
                            + "messages which have been aborted. Non-transactional records will be returned "
                            + "unconditionally in either mode."),
            new GroupConfigDef(
                    "share.renew.acknowledge.enable",
                    ConfigType.BOOLEAN,
                    true,
                    null,
                    NONE,
                    false,
                    "Whether the renew acknowledge type is enabled for the share group."),
            def(
                    "share.assignment.interval.ms",
                    1000,
                    "group.share.assignment.interval.ms",
                    atLeast(0),
                    "The interval between assignment updates for a share group."),
            internal(
                    "share.assignor.offload.enable",
                    ConfigType.BOOLEAN,
                    true,
                    "group.share.assignor.offload.enable",
                    "Whether to offload share group assignment to a group coordinator background thread."),
            def(
                    "streams.session.timeout.ms",
                    45_000,
                    "group.streams.session.timeout.ms",
                    atLeast(1),
                    "The timeout to detect client failures when using the streams group protocol."),
            def(
                    "streams.heartbeat.interval.ms",
                    5000,
                    "group.streams.heartbeat.interval.ms",
                    atLeast(1),
                    "The heartbeat interval given to the members."),
            def(
                    "streams.num.standby.replicas",
                    0,
                    "group.streams.num.standby.replicas",
                    atLeast(0),
                    "The number of standby replicas for each task."),
            def(
                    "streams.initial.rebalance.delay.ms",
                    3000,
                    "group.streams.initial.rebalance.delay.ms",
                    atLeast(0),
                    "The amount of time the group coordinator will wait for more streams clients to join a new group "
                            + "before performing the first rebalance. A longer delay means potentially fewer "
                            + "rebalances."),
            def(
                    "streams.assignment.interval.ms",
                    1000,
                    "group.streams.assignment.interval.ms",
                    atLeast(0),
                    "The interval between assignment updates for a streams group."),
            internal(
                    "streams.assignor.offload.enable",
                    ConfigType.BOOLEAN,
                    true,
                    "group.streams.assignor.offload.enable",
                    "Whether to offload streams group assignment to a group coordinator background thread."),
            new GroupConfigDef(
                    "streams.task.offset.interval.ms",
                    ConfigType.INT,
                    60_000,
                    "group.streams.task.offset.interval.ms",
                    atLeast(1),
                    true,
                    "The interval in which the warmup task changelog offsets on a client are updated on the broker. "
                            + "The offsets are sent with the next heartbeat after this time has passed."),
            new GroupConfigDef(
                    "streams.num.warmup.replicas",
                    ConfigType.INT,
                    2,
                    "group.streams.num.warmup.replicas",
                    atLeast(0),
                    true,
                    "The maximum number of warmup task replicas."),
            new GroupConfigDef(
                    "streams.rack.aware.assignment.tags",
                    ConfigType.LIST,
                    List.of(),
                    "group.streams.rack.aware.assignment.tags",
                    GroupConfigDef::distinctTags,
                    false,
                    "List of client tag keys used to distribute standby replicas across Kafka Streams instances. When "
                            + "configured, and the used broker-side assignor supports it, it will make a best-effort "
                            + "to distribute standby tasks over each client tag dimension."),
            new GroupConfigDef(
                    "streams.acceptable.recovery.lag",
                    ConfigType.LONG,
                    10_000L,
                    "group.streams.acceptable.recovery.lag",
                    atLeast(0),
                    true,
                    "The maximum acceptable lag (number of offsets to catch up) for a client to be considered "
                            + "caught-up enough to receive an active task assignment."),
            new GroupConfigDef(
                    "streams.assignor.name",
                    ConfigType.STRING,
                    null,
                    "group.streams.assignors",
                    NONE,
                    false,
                    "The task assignor to use for this streams group, selected by short name from the assignors "
                            + "registered via the broker configuration group.streams.assignors. When unset, the group "
                            + "defaults to the first assignor configured in the broker's group.streams.assignors "
                            + "setting. Changing the assignor does not trigger a rebalance for the group; the new "
                            + "assignor takes effect on the next rebalance."),
            new GroupConfigDef(
                    "errors.deadletterqueue.topic.name",
                    ConfigType.STRING,
                    "",
                    null,
                    NONE,
                    false,
                    "The name of the topic to be used as the dead-letter queue (DLQ) topic for this share group. If "
                            + "blank (the default), the group does not have a DLQ topic."),
            new GroupConfigDef(
                    "errors.deadletterqueue.copy.record.enable",
                    ConfigType.BOOLEAN,
                    false,
                    null,
                    NONE,
                    false,
                    "When writing onto the dead-letter queue topic, whether to copy the original record onto the DLQ "
                            + "topic, or just write a record containing the context information headers."));

    /** The config of this name, if there is one. */
    static Optional<GroupConfigDef> find(String name) {
        return ALL.stream().filter(def -> def.name.equals(name)).findFirst();
    }

    /**
     * The value {@code raw} gives this config, as Kafka's {@code ConfigDef} parses it.
     *
     * @throws InvalidConfigurationException with Kafka's message, for a value not of the type or not valid
     */
    Object parse(String raw) {
        String text = raw.trim();
        Object value = switch (type) {
            case INT -> number(raw, () -> Integer.parseInt(text));
            case LONG -> number(raw, () -> Long.parseLong(text));
            case BOOLEAN -> {
                if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                    yield Boolean.parseBoolean(text);
                }
                throw invalid(raw, "Expected value to be either true or false");
            }
            case LIST ->
                text.isEmpty()
                        ? List.of()
                        : Arrays.stream(text.split("\\s*,\\s*", -1)).toList();
            case STRING, PASSWORD -> text;
            case DOUBLE -> throw new IllegalStateException("no group config is a DOUBLE");
        };
        check.check(name, value);
        return value;
    }

    /** Kafka's text of a value ({@code ConfigDef.convertToString}): lists comma-separated. */
    static String text(Object value) {
        return value instanceof List<?> list
                ? String.join(",", list.stream().map(String::valueOf).toList())
                : value == null ? null : String.valueOf(value);
    }

    private Object number(String raw, java.util.function.Supplier<Object> parse) {
        try {
            return parse.get();
        } catch (NumberFormatException e) {
            throw invalid(raw, "Not a number of type " + type);
        }
    }

    private InvalidConfigurationException invalid(Object value, String why) {
        return invalid(name, value, why);
    }

    private static InvalidConfigurationException invalid(String name, Object value, String why) {
        return new InvalidConfigurationException("Invalid value " + value + " for configuration " + name + ": " + why);
    }

    private static GroupConfigDef def(String name, int defaultValue, String brokerSynonym, Check check, String doc) {
        return new GroupConfigDef(name, ConfigType.INT, defaultValue, brokerSynonym, check, false, doc);
    }

    private static GroupConfigDef internal(
            String name, ConfigType type, Object defaultValue, String brokerSynonym, String doc) {
        return new GroupConfigDef(name, type, defaultValue, brokerSynonym, NONE, true, doc);
    }

    private static Check atLeast(long min) {
        return (name, value) -> {
            if (((Number) value).longValue() < min) {
                throw invalid(name, value, "Value must be at least " + min);
            }
        };
    }

    private static Check oneOf(String... allowed) {
        return (name, value) -> {
            if (!List.of(allowed).contains(value)) {
                throw invalid(name, value, "String must be one of: " + String.join(", ", allowed));
            }
        };
    }

    // Kafka's ShareGroupAutoOffsetResetStrategy: earliest, latest, or by_duration: a non-negative ISO 8601 duration.
    private static void autoOffsetReset(String name, Object value) {
        String text = (String) value;
        boolean valid = text.equals("earliest") || text.equals("latest");
        if (text.startsWith("by_duration:")) {
            try {
                valid = !Duration.parse(text.substring("by_duration:".length())).isNegative();
            } catch (DateTimeParseException e) {
                valid = false;
            }
        }
        if (!valid) {
            throw invalid(
                    name,
                    value,
                    "Invalid value `" + value + "` for configuration " + name + ". The value must be either "
                            + "'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.");
        }
    }

    private static void distinctTags(String name, Object value) {
        List<?> tags = (List<?>) value;
        if (new HashSet<>(tags).size() != tags.size()) {
            throw new InvalidConfigurationException(name + " must not contain duplicate tag keys.");
        }
    }
}
