package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.metadata.MetadataImage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.coordinator.group.GroupConfig;
import org.apache.kafka.coordinator.group.GroupCoordinatorConfig;
import org.apache.kafka.coordinator.group.modern.share.ShareGroupConfig;
import org.junit.jupiter.api.Test;

/**
 * Group configs held to Kafka 4.4's own {@code GroupConfig.validate}: the same changes, under the broker's defaults and
 * under other bounds, are accepted or refused alike, with the same error and message.
 */
class GroupConfigsTest {

    /** Changes, one per map, as an IncrementalAlterConfigs would leave a group's configs. */
    private static final List<Map<String, String>> CHANGES = List.of(
            Map.of("consumer.session.timeout.ms", "50000"),
            Map.of("consumer.session.timeout.ms", "50000", "consumer.heartbeat.interval.ms", "6000"),
            Map.of("consumer.session.timeout.ms", "1000"),
            Map.of("consumer.session.timeout.ms", "100000"),
            Map.of("consumer.session.timeout.ms", "0"),
            Map.of("consumer.session.timeout.ms", "abc"),
            Map.of("consumer.session.timeout.ms", " 46000 "),
            Map.of("consumer.heartbeat.interval.ms", "15000", "consumer.session.timeout.ms", "45000"),
            Map.of("consumer.heartbeat.interval.ms", "60000"),
            Map.of("consumer.assignment.interval.ms", "-1"),
            Map.of("consumer.assignor.offload.enable", "yes"),
            Map.of("consumer.assignor.offload.enable", "TRUE"),
            Map.of("share.session.timeout.ms", "50000", "share.heartbeat.interval.ms", "5000"),
            Map.of("share.record.lock.duration.ms", "999"),
            Map.of("share.record.lock.duration.ms", "20000"),
            Map.of("share.record.lock.duration.ms", "70000"),
            Map.of("share.delivery.count.limit", "1"),
            Map.of("share.delivery.count.limit", "11"),
            Map.of("share.partition.max.record.locks", "5000"),
            Map.of("share.auto.offset.reset", "earliest"),
            Map.of("share.auto.offset.reset", "LATEST"),
            Map.of("share.auto.offset.reset", "by_duration:PT1H"),
            Map.of("share.auto.offset.reset", "by_duration:-PT1H"),
            Map.of("share.auto.offset.reset", "by_duration:soon"),
            Map.of("share.auto.offset.reset", "BY_DURATION:PT1H"),
            Map.of("share.auto.offset.reset", "by_duration:pt1h"),
            Map.of("share.auto.offset.reset", "bogus"),
            Map.of("share.isolation.level", "read_committed"),
            Map.of("share.isolation.level", "READ_COMMITTED"),
            Map.of("share.renew.acknowledge.enable", "false"),
            Map.of("streams.num.standby.replicas", "2"),
            Map.of("streams.num.standby.replicas", "5"),
            Map.of("streams.initial.rebalance.delay.ms", "0"),
            Map.of("streams.task.offset.interval.ms", "5"),
            Map.of("streams.num.warmup.replicas", "21"),
            Map.of("streams.acceptable.recovery.lag", "12.5"),
            Map.of("streams.rack.aware.assignment.tags", "zone,rack"),
            Map.of("streams.rack.aware.assignment.tags", "zone,zone"),
            Map.of("streams.assignor.name", "sticky"),
            Map.of("streams.assignor.name", "foo"),
            Map.of("errors.deadletterqueue.topic.name", "dlq"),
            Map.of("errors.deadletterqueue.topic.name", "__dlq"),
            Map.of("errors.deadletterqueue.copy.record.enable", "true"),
            Map.of("foo", "1"));

    @Test
    void changesAreAcceptedAndRefusedAsKafkaDoes() {
        assertSameAsKafka(Map.of());
    }

    @Test
    void theBrokersBoundsAreThoseKafkaChecksAgainst() {
        assertSameAsKafka(Map.of(
                "group.consumer.max.session.timeout.ms", "120000",
                "group.consumer.min.heartbeat.interval.ms", "1000",
                "group.share.max.delivery.count.limit", "20",
                "group.streams.max.standby.replicas", "4"));
    }

    @Test
    void eachGroupConfigIsDescribedWithItsBrokerKey() {
        GroupConfigs groups =
                new GroupConfigs(GroupConfigDefaults.fromProps(Map.of("group.consumer.session.timeout.ms", "50000")));
        Map<String, GroupConfigs.Entry> entries = new HashMap<>();
        groups.describe(Map.of("share.isolation.level", "read_committed")).forEach(e -> entries.put(e.name(), e));
        assertEquals(
                "50000 STATIC_BROKER_CONFIG [Synonym[name=group.consumer.session.timeout.ms, value=50000, "
                        + "source=STATIC_BROKER_CONFIG], Synonym[name=group.consumer.session.timeout.ms, value=45000, "
                        + "source=DEFAULT_CONFIG]]",
                line(entries.get("consumer.session.timeout.ms")));
        assertEquals(
                "read_committed GROUP_CONFIG [Synonym[name=share.isolation.level, value=read_committed, "
                        + "source=GROUP_CONFIG], Synonym[name=share.isolation.level, value=read_uncommitted, "
                        + "source=DEFAULT_CONFIG]]",
                line(entries.get("share.isolation.level")));
        assertEquals("sticky", entries.get("streams.assignor.name").value());
        assertTrue(
                !entries.containsKey("consumer.assignor.offload.enable"), "Kafka's internal configs are not described");
        assertEquals(
                GroupConfig.configNames().stream()
                        .filter(name -> !GroupConfig.isInternal(name))
                        .sorted()
                        .toList(),
                entries.keySet().stream().sorted().toList());
    }

    private static String line(GroupConfigs.Entry entry) {
        return entry.value() + " " + entry.source() + " " + entry.synonyms();
    }

    private static void assertSameAsKafka(Map<String, String> brokerProps) {
        GroupConfigs ours = new GroupConfigs(GroupConfigDefaults.fromProps(brokerProps));
        ConfigDef def = new ConfigDef(GroupCoordinatorConfig.CONFIG_DEF);
        ShareGroupConfig.CONFIG_DEF.configKeys().values().forEach(def::define);
        AbstractConfig kafkaBroker = new AbstractConfig(def, brokerProps);
        GroupCoordinatorConfig coordinator = new GroupCoordinatorConfig(kafkaBroker);
        ShareGroupConfig share = new ShareGroupConfig(kafkaBroker);
        List<String> differences = new ArrayList<>();
        Map<Map<String, String>, String> answers = new LinkedHashMap<>();
        for (Map<String, String> change : CHANGES) {
            String kafka = outcome(() -> GroupConfig.validate(change, coordinator, share));
            String krabka = outcome(() -> ours.validate(MetadataImage.EMPTY, "payments", change));
            answers.put(change, kafka);
            if (!kafka.equals(krabka)) {
                differences.add(change + "\n  Kafka:  " + kafka + "\n  Krabka: " + krabka);
            }
        }
        assertEquals(List.of(), differences);
        assertTrue(answers.containsValue("OK"), "some changes are valid: " + answers);
    }

    // Kafka's controller answers its ConfigException as INVALID_CONFIG, as it does an InvalidConfigurationException.
    private static String outcome(Runnable validation) {
        try {
            validation.run();
            return "OK";
        } catch (ConfigException | InvalidConfigurationException e) {
            return "INVALID_CONFIG: " + e.getMessage();
        } catch (RuntimeException e) {
            return e.toString();
        }
    }
}
