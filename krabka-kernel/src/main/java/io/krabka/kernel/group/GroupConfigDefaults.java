package io.krabka.kernel.group;

import static io.krabka.spi.plugin.ConfigType.BOOLEAN;
import static io.krabka.spi.plugin.ConfigType.INT;
import static io.krabka.spi.plugin.ConfigType.LIST;
import static io.krabka.spi.plugin.ConfigType.LONG;
import static io.krabka.spi.plugin.ConfigValidator.atLeast;
import static io.krabka.spi.plugin.ConfigValidator.between;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The broker keys that give the group configs ({@link GroupConfigs}) their defaults and bounds, with Kafka 4.4's
 * names, defaults and ranges ({@code GroupCoordinatorConfig}, {@code ShareGroupConfig}): the settings of the
 * consumer (KIP-848), share and streams group protocols, read from {@code server.properties}.
 */
public final class GroupConfigDefaults {

    /** Every key, in the order of the documentation. */
    public static final List<ConfigKey> KEYS = List.of(
            key(
                    "group.consumer.session.timeout.ms",
                    INT,
                    45_000,
                    "The session timeout of consumer-protocol groups (KIP-848): the default of consumer.session.timeout.ms.",
                    atLeast(1)),
            key(
                    "group.consumer.min.session.timeout.ms",
                    INT,
                    45_000,
                    "The smallest consumer.session.timeout.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.consumer.max.session.timeout.ms",
                    INT,
                    60_000,
                    "The largest consumer.session.timeout.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.consumer.heartbeat.interval.ms",
                    INT,
                    5000,
                    "The heartbeat interval of consumer-protocol groups: the default of consumer.heartbeat.interval.ms.",
                    atLeast(1)),
            key(
                    "group.consumer.min.heartbeat.interval.ms",
                    INT,
                    5000,
                    "The smallest consumer.heartbeat.interval.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.consumer.max.heartbeat.interval.ms",
                    INT,
                    15_000,
                    "The largest consumer.heartbeat.interval.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.consumer.assignment.interval.ms",
                    INT,
                    1000,
                    "The interval between assignment updates of consumer-protocol groups: the default of consumer.assignment.interval.ms.",
                    atLeast(0)),
            key(
                    "group.consumer.min.assignment.interval.ms",
                    INT,
                    0,
                    "The smallest consumer.assignment.interval.ms a group may set.",
                    atLeast(0)),
            key(
                    "group.consumer.max.assignment.interval.ms",
                    INT,
                    15_000,
                    "The largest consumer.assignment.interval.ms a group may set.",
                    atLeast(0)),
            key(
                    "group.consumer.assignor.offload.enable",
                    BOOLEAN,
                    true,
                    "Whether consumer-protocol groups are assigned on a background thread: the default of consumer.assignor.offload.enable."),
            key(
                    "group.share.session.timeout.ms",
                    INT,
                    45_000,
                    "The session timeout of share groups: the default of share.session.timeout.ms.",
                    atLeast(1)),
            key(
                    "group.share.min.session.timeout.ms",
                    INT,
                    45_000,
                    "The smallest share.session.timeout.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.share.max.session.timeout.ms",
                    INT,
                    60_000,
                    "The largest share.session.timeout.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.share.heartbeat.interval.ms",
                    INT,
                    5000,
                    "The heartbeat interval of share groups: the default of share.heartbeat.interval.ms.",
                    atLeast(1)),
            key(
                    "group.share.min.heartbeat.interval.ms",
                    INT,
                    5000,
                    "The smallest share.heartbeat.interval.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.share.max.heartbeat.interval.ms",
                    INT,
                    15_000,
                    "The largest share.heartbeat.interval.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.share.record.lock.duration.ms",
                    INT,
                    30_000,
                    "How long a share consumer holds a record: the default of share.record.lock.duration.ms.",
                    between(1000, 3600000)),
            key(
                    "group.share.min.record.lock.duration.ms",
                    INT,
                    15_000,
                    "The smallest share.record.lock.duration.ms a group may set.",
                    between(1000, 30000)),
            key(
                    "group.share.max.record.lock.duration.ms",
                    INT,
                    60_000,
                    "The largest share.record.lock.duration.ms a group may set.",
                    between(30000, 3600000)),
            key(
                    "group.share.delivery.count.limit",
                    INT,
                    5,
                    "How many times a share group delivers a record: the default of share.delivery.count.limit.",
                    between(2, 10)),
            key(
                    "group.share.min.delivery.count.limit",
                    INT,
                    2,
                    "The smallest share.delivery.count.limit a group may set.",
                    between(2, 5)),
            key(
                    "group.share.max.delivery.count.limit",
                    INT,
                    10,
                    "The largest share.delivery.count.limit a group may set.",
                    between(5, 25)),
            key(
                    "group.share.partition.max.record.locks",
                    INT,
                    2000,
                    "The records of a share partition locked at once: the default of share.partition.max.record.locks.",
                    between(100, 10000)),
            key(
                    "group.share.min.partition.max.record.locks",
                    INT,
                    100,
                    "The smallest share.partition.max.record.locks a group may set.",
                    between(100, 2000)),
            key(
                    "group.share.max.partition.max.record.locks",
                    INT,
                    4000,
                    "The largest share.partition.max.record.locks a group may set.",
                    between(2000, 10000)),
            key(
                    "group.share.assignment.interval.ms",
                    INT,
                    1000,
                    "The interval between assignment updates of share groups: the default of share.assignment.interval.ms.",
                    atLeast(0)),
            key(
                    "group.share.min.assignment.interval.ms",
                    INT,
                    0,
                    "The smallest share.assignment.interval.ms a group may set.",
                    atLeast(0)),
            key(
                    "group.share.max.assignment.interval.ms",
                    INT,
                    15_000,
                    "The largest share.assignment.interval.ms a group may set.",
                    atLeast(0)),
            key(
                    "group.share.assignor.offload.enable",
                    BOOLEAN,
                    true,
                    "Whether share groups are assigned on a background thread: the default of share.assignor.offload.enable."),
            key(
                    "group.streams.session.timeout.ms",
                    INT,
                    45_000,
                    "The session timeout of streams groups: the default of streams.session.timeout.ms.",
                    atLeast(1)),
            key(
                    "group.streams.min.session.timeout.ms",
                    INT,
                    45_000,
                    "The smallest streams.session.timeout.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.streams.max.session.timeout.ms",
                    INT,
                    60_000,
                    "The largest streams.session.timeout.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.streams.heartbeat.interval.ms",
                    INT,
                    5000,
                    "The heartbeat interval of streams groups: the default of streams.heartbeat.interval.ms.",
                    atLeast(1)),
            key(
                    "group.streams.min.heartbeat.interval.ms",
                    INT,
                    5000,
                    "The smallest streams.heartbeat.interval.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.streams.max.heartbeat.interval.ms",
                    INT,
                    15_000,
                    "The largest streams.heartbeat.interval.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.streams.num.standby.replicas",
                    INT,
                    0,
                    "The standby replicas of each task of a streams group: the default of streams.num.standby.replicas.",
                    atLeast(0)),
            key(
                    "group.streams.max.standby.replicas",
                    INT,
                    2,
                    "The largest streams.num.standby.replicas a group may set.",
                    atLeast(0)),
            key(
                    "group.streams.initial.rebalance.delay.ms",
                    INT,
                    3000,
                    "How long a new streams group waits for more members: the default of streams.initial.rebalance.delay.ms.",
                    atLeast(0)),
            key(
                    "group.streams.assignment.interval.ms",
                    INT,
                    1000,
                    "The interval between assignment updates of streams groups: the default of streams.assignment.interval.ms.",
                    atLeast(0)),
            key(
                    "group.streams.min.assignment.interval.ms",
                    INT,
                    0,
                    "The smallest streams.assignment.interval.ms a group may set.",
                    atLeast(0)),
            key(
                    "group.streams.max.assignment.interval.ms",
                    INT,
                    15_000,
                    "The largest streams.assignment.interval.ms a group may set.",
                    atLeast(0)),
            key(
                    "group.streams.assignor.offload.enable",
                    BOOLEAN,
                    true,
                    "Whether streams groups are assigned on a background thread: the default of streams.assignor.offload.enable."),
            key(
                    "group.streams.task.offset.interval.ms",
                    INT,
                    60_000,
                    "How often streams members report their warm-up tasks' offsets: the default of streams.task.offset.interval.ms.",
                    atLeast(1)),
            key(
                    "group.streams.min.task.offset.interval.ms",
                    INT,
                    15_000,
                    "The smallest streams.task.offset.interval.ms a group may set.",
                    atLeast(1)),
            key(
                    "group.streams.num.warmup.replicas",
                    INT,
                    2,
                    "The warm-up replicas of a streams group: the default of streams.num.warmup.replicas.",
                    atLeast(0)),
            key(
                    "group.streams.max.warmup.replicas",
                    INT,
                    20,
                    "The largest streams.num.warmup.replicas a group may set.",
                    atLeast(0)),
            key(
                    "group.streams.acceptable.recovery.lag",
                    LONG,
                    10_000L,
                    "The lag a streams member may have and still get an active task: the default of streams.acceptable.recovery.lag.",
                    atLeast(0)),
            key(
                    "group.streams.rack.aware.assignment.tags",
                    LIST,
                    "",
                    "The client tags standby tasks of streams groups are spread over: the default of streams.rack.aware.assignment.tags."),
            key(
                    "group.streams.assignors",
                    LIST,
                    "sticky",
                    "The task assignors of streams groups by name, the first the default of streams.assignor.name."));

    private static final Map<String, ConfigKey> BY_NAME = byName();

    private final Map<String, Object> values;
    private final Map<String, String> staticConfigs;

    private GroupConfigDefaults(Map<String, Object> values, Map<String, String> staticConfigs) {
        this.values = values;
        this.staticConfigs = staticConfigs;
    }

    /**
     * The keys' values in {@code server.properties}, their defaults for those not set.
     *
     * @throws io.krabka.spi.plugin.ConfigException naming the key, for a value of the wrong type or range
     */
    public static GroupConfigDefaults fromProps(Map<String, String> props) {
        Map<String, Object> values = new HashMap<>();
        Map<String, String> set = new HashMap<>();
        for (ConfigKey key : KEYS) {
            String raw = props.get(key.name());
            Object value =
                    raw == null ? key.defaultValue().orElseThrow() : key.type().parse(key.name(), raw);
            key.validator().ensureValid(key.name(), value);
            values.put(key.name(), value);
            if (raw != null) {
                set.put(key.name(), raw);
            }
        }
        return new GroupConfigDefaults(Map.copyOf(values), Map.copyOf(set));
    }

    /** The key of this name, if it is one of these. */
    static Optional<ConfigKey> key(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** A key's value, of its type. */
    Object value(String name) {
        Object value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no group config default " + name);
        }
        return value;
    }

    int intValue(String name) {
        return (Integer) value(name);
    }

    /** A key's value as {@code server.properties} sets it, if it does. */
    Optional<String> staticValue(String name) {
        return Optional.ofNullable(staticConfigs.get(name));
    }

    private static ConfigKey key(String name, ConfigType type, Object defaultValue, String documentation) {
        return ConfigKey.optional(name, type, defaultValue, documentation);
    }

    private static ConfigKey key(
            String name, ConfigType type, Object defaultValue, String documentation, ConfigValidator validator) {
        return ConfigKey.optional(name, type, defaultValue, documentation).withValidator(validator);
    }

    private static Map<String, ConfigKey> byName() {
        Map<String, ConfigKey> byName = new HashMap<>();
        KEYS.forEach(key -> byName.put(key.name(), key));
        return Map.copyOf(byName);
    }
}
