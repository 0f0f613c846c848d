package io.krabka.kernel.group;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.errors.InvalidConfigurationException;

/**
 * The checks of group configs against the broker's bounds, in Kafka 4.4's order and with its messages
 * ({@code GroupConfig.validateValues}): each value within its {@code group.*.min.*} and {@code group.*.max.*}, a
 * session longer than the heartbeat interval (the broker's defaults standing in for what the group does not set), a
 * registered streams assignor, no dead-letter topic named as an internal one.
 */
final class GroupConfigBounds {

    private final GroupConfigDefaults defaults;

    GroupConfigBounds(GroupConfigDefaults defaults) {
        this.defaults = Objects.requireNonNull(defaults, "defaults");
    }

    /** Checks parsed group configs; throws {@link InvalidConfigurationException} at the first that is out. */
    void check(Map<String, Object> values) {
        range(
                values,
                "consumer.heartbeat.interval.ms",
                "group.consumer.min.heartbeat.interval.ms",
                "group.consumer.max.heartbeat.interval.ms");
        range(
                values,
                "consumer.session.timeout.ms",
                "group.consumer.min.session.timeout.ms",
                "group.consumer.max.session.timeout.ms");
        range(
                values,
                "consumer.assignment.interval.ms",
                "group.consumer.min.assignment.interval.ms",
                "group.consumer.max.assignment.interval.ms");
        range(
                values,
                "share.heartbeat.interval.ms",
                "group.share.min.heartbeat.interval.ms",
                "group.share.max.heartbeat.interval.ms");
        range(
                values,
                "share.session.timeout.ms",
                "group.share.min.session.timeout.ms",
                "group.share.max.session.timeout.ms");
        range(
                values,
                "share.record.lock.duration.ms",
                "group.share.min.record.lock.duration.ms",
                "group.share.max.record.lock.duration.ms");
        range(
                values,
                "share.delivery.count.limit",
                "group.share.min.delivery.count.limit",
                "group.share.max.delivery.count.limit");
        range(
                values,
                "share.partition.max.record.locks",
                "group.share.min.partition.max.record.locks",
                "group.share.max.partition.max.record.locks");
        range(
                values,
                "share.assignment.interval.ms",
                "group.share.min.assignment.interval.ms",
                "group.share.max.assignment.interval.ms");
        range(
                values,
                "streams.heartbeat.interval.ms",
                "group.streams.min.heartbeat.interval.ms",
                "group.streams.max.heartbeat.interval.ms");
        range(
                values,
                "streams.session.timeout.ms",
                "group.streams.min.session.timeout.ms",
                "group.streams.max.session.timeout.ms");
        atMost(values, "streams.num.standby.replicas", "group.streams.max.standby.replicas");
        range(
                values,
                "streams.assignment.interval.ms",
                "group.streams.min.assignment.interval.ms",
                "group.streams.max.assignment.interval.ms");
        atLeast(values, "streams.task.offset.interval.ms", "group.streams.min.task.offset.interval.ms");
        atMost(values, "streams.num.warmup.replicas", "group.streams.max.warmup.replicas");
        registeredAssignor(values);
        sessionOverHeartbeat(values, "consumer");
        sessionOverHeartbeat(values, "share");
        sessionOverHeartbeat(values, "streams");
        Object dlq = values.get("errors.deadletterqueue.topic.name");
        if (dlq instanceof String topic && !topic.isEmpty() && topic.startsWith("__")) {
            throw new InvalidConfigurationException(
                    "errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'");
        }
    }

    private void range(Map<String, Object> values, String name, String minKey, String maxKey) {
        if (values.containsKey(name)) {
            int value = (Integer) values.get(name);
            int min = defaults.intValue(minKey);
            int max = defaults.intValue(maxKey);
            if (value < min || value > max) {
                throw new InvalidConfigurationException(
                        name + " must be in the range " + min + " to " + max + " inclusive.");
            }
        }
    }

    private void atMost(Map<String, Object> values, String name, String maxKey) {
        if (values.containsKey(name) && (Integer) values.get(name) > defaults.intValue(maxKey)) {
            throw new InvalidConfigurationException(
                    name + " must be less than or equal to " + defaults.intValue(maxKey));
        }
    }

    private void atLeast(Map<String, Object> values, String name, String minKey) {
        if (values.containsKey(name) && (Integer) values.get(name) < defaults.intValue(minKey)) {
            throw new InvalidConfigurationException(
                    name + " must be greater than or equal to " + defaults.intValue(minKey));
        }
    }

    private void registeredAssignor(Map<String, Object> values) {
        Object name = values.get("streams.assignor.name");
        List<?> assignors = (List<?>) defaults.value("group.streams.assignors");
        if (name != null && !assignors.contains(name)) {
            throw new InvalidConfigurationException("streams.assignor.name '" + name
                    + "' is not a registered task assignor. Registered assignors are: " + assignors + ".");
        }
    }

    // The group's own values, else the broker's defaults: set alone, one may cross the other's default.
    private void sessionOverHeartbeat(Map<String, Object> values, String protocol) {
        String session = protocol + ".session.timeout.ms";
        String heartbeat = protocol + ".heartbeat.interval.ms";
        if (!values.containsKey(session) && !values.containsKey(heartbeat)) {
            return;
        }
        int sessionMs = (Integer) values.getOrDefault(session, defaults.intValue("group." + session));
        int heartbeatMs = (Integer) values.getOrDefault(heartbeat, defaults.intValue("group." + heartbeat));
        if (sessionMs <= heartbeatMs) {
            throw new InvalidConfigurationException(session + " must be greater than " + heartbeat);
        }
    }
}
