package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.broker.BrokerConfigs;
import io.krabka.kernel.broker.DynamicBrokerConfig;
import io.krabka.kernel.group.GroupConfigDefaults;
import io.krabka.kernel.group.GroupConfigs;
import io.krabka.kernel.log.config.ConfigSynonym;
import io.krabka.kernel.log.config.TopicConfigDef;
import io.krabka.kernel.log.config.TopicConfigs;
import io.krabka.kernel.security.SecurityConfigs;
import io.krabka.kernel.tiered.RemoteLogManagerConfig;
import io.krabka.kernel.transaction.TransactionCoordinatorConfig;
import io.krabka.spi.plugin.ConfigKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/configuration.md true to the code: every topic setting of {@link TopicConfigs} and every broker key
 * of {@link LogManagerConfig}, {@link RemoteLogManagerConfig} and {@link BrokerConfigs} has one row in its
 * section, with its type, its default and (for topic settings) its broker keys in order of precedence, and so have
 * the group configs and their broker keys; the dynamic broker keys are those Krabka updates dynamically; and the
 * sections hold no row for a key the code does not read.
 */
class ConfigurationDocTest {
    /** Surefire runs in the module's directory; the docs are the repository's. */
    private static final Path DOC = Path.of("../docs/configuration.md");

    private static final String TOPIC_SECTION = "## Topics: the log";
    private static final String BROKER_SECTION = "## Broker: log directories and the log manager";
    private static final String BROKER_OWN_SECTION = "### The broker's own settings";
    private static final String TIERED_SECTION = "## Broker: tiered storage";
    private static final String TRANSACTION_SECTION = "## Broker: transactions";
    private static final String DYNAMIC_SECTION = "## Broker: dynamic configs";
    private static final String GROUP_SECTION = "## Groups: group configs";
    private static final String SECURITY_SECTION = "## Broker: listeners, TLS and SASL";

    @Test
    void everyListenerSecurityKeyIsDocumentedWithItsTypeAndDefault() throws IOException {
        List<Row> rows = rows(SECURITY_SECTION);
        for (ConfigKey key : SecurityConfigs.KEYS) {
            Row row = row(rows, key.name());
            assertEquals(type(key), row.cells().get(1), key.name() + "'s type");
            String text = text(key.defaultValue().orElseThrow());
            String expected = text.isEmpty() ? "empty" : code(text);
            assertTrue(
                    row.cells().get(2).startsWith(expected),
                    key.name() + "'s default: expected " + expected + ", the doc says "
                            + row.cells().get(2));
        }
        assertEquals(
                SecurityConfigs.KEYS.stream().map(ConfigKey::name).sorted().toList(),
                rows.stream().map(Row::key).sorted().toList(),
                "the listeners' security keys documented");
    }

    @Test
    void everyTopicSettingIsDocumentedWithItsTypeDefaultAndBrokerKeys() throws IOException {
        List<Row> rows = rows(TOPIC_SECTION);
        for (TopicConfigDef def : TopicConfigs.ALL) {
            Row row = row(rows, def.name());
            assertEquals(type(def.key()), row.cells().get(1), def.name() + "'s type");
            String expected = code(def.toText(def.defaultValue()));
            assertTrue(
                    row.cells().get(2).startsWith(expected),
                    def.name() + "'s default: expected " + expected + ", the doc says "
                            + row.cells().get(2));
            String brokerKeys = def.brokerSynonyms().isEmpty()
                    ? "none"
                    : def.brokerSynonyms().stream()
                            .map(ConfigSynonym::name)
                            .map(ConfigurationDocTest::code)
                            .collect(Collectors.joining(", "));
            assertEquals(brokerKeys, row.cells().get(3), def.name() + "'s broker keys, highest precedence first");
        }
        assertEquals(
                TopicConfigs.ALL.stream().map(TopicConfigDef::name).sorted().toList(),
                rows.stream().map(Row::key).sorted().toList(),
                "the topic settings documented");
    }

    @Test
    void everyLogManagerKeyIsDocumentedWithItsTypeAndDefault() throws IOException {
        List<Row> rows = rows(BROKER_SECTION);
        for (ConfigKey key : LogManagerConfig.KEYS) {
            Row row = row(rows, key.name());
            assertEquals(type(key), row.cells().get(1), key.name() + "'s type");
            String expected = key.defaultValue().map(value -> code(text(value))).orElse("none:");
            assertTrue(
                    row.cells().get(2).startsWith(expected),
                    key.name() + "'s default: expected " + expected + ", the doc says "
                            + row.cells().get(2));
        }
        assertEquals(
                LogManagerConfig.KEYS.stream().map(ConfigKey::name).sorted().toList(),
                rows.stream().map(Row::key).sorted().toList(),
                "the log manager's keys documented");
    }

    @Test
    void everyRemoteLogManagerKeyIsDocumentedWithItsTypeAndDefault() throws IOException {
        List<Row> rows = rows(TIERED_SECTION);
        // remote.log.storage.system.enable is the log manager's key too, documented there.
        List<ConfigKey> keys = RemoteLogManagerConfig.KEYS.stream()
                .filter(key -> !LogManagerConfig.KEYS.contains(key))
                .toList();
        for (ConfigKey key : keys) {
            Row row = row(rows, key.name());
            assertEquals(type(key), row.cells().get(1), key.name() + "'s type");
            String expected = key.defaultValue().map(value -> code(text(value))).orElse("none");
            assertTrue(
                    row.cells().get(2).startsWith(expected),
                    key.name() + "'s default: expected " + expected + ", the doc says "
                            + row.cells().get(2));
        }
        assertEquals(
                keys.stream().map(ConfigKey::name).sorted().toList(),
                rows.stream().map(Row::key).sorted().toList(),
                "the remote log manager's keys documented");
    }

    @Test
    void everyTransactionCoordinatorKeyIsDocumentedWithItsTypeAndDefault() throws IOException {
        List<Row> rows = rows(TRANSACTION_SECTION);
        for (ConfigKey key : TransactionCoordinatorConfig.KEYS) {
            Row row = row(rows, key.name());
            assertEquals(type(key), row.cells().get(1), key.name() + "'s type");
            String expected = code(text(key.defaultValue().orElseThrow()));
            assertTrue(
                    row.cells().get(2).startsWith(expected),
                    key.name() + "'s default: expected " + expected + ", the doc says "
                            + row.cells().get(2));
        }
        assertEquals(
                TransactionCoordinatorConfig.KEYS.stream()
                        .map(ConfigKey::name)
                        .sorted()
                        .toList(),
                rows.stream().map(Row::key).sorted().toList(),
                "the transaction coordinator's keys documented");
    }

    @Test
    void everyKeyOfTheBrokerItselfIsDocumentedWithItsTypeAndDefault() throws IOException {
        List<Row> rows = rows(BROKER_OWN_SECTION);
        for (ConfigKey key : BrokerConfigs.ALL) {
            Row row = row(rows, key.name());
            assertEquals(type(key), row.cells().get(1), key.name() + "'s type");
            String text = key.defaultValue().map(ConfigurationDocTest::text).orElse("");
            String expected = key.isRequired() ? "required" : text.isEmpty() ? "empty" : code(text);
            assertTrue(
                    row.cells().get(2).startsWith(expected),
                    key.name() + "'s default: expected " + expected + ", the doc says "
                            + row.cells().get(2));
        }
        assertEquals(
                BrokerConfigs.ALL.stream().map(ConfigKey::name).sorted().toList(),
                rows.stream().map(Row::key).sorted().toList(),
                "the broker's own keys documented");
    }

    @Test
    void theDynamicBrokerKeysAreThoseKrabkaUpdatesDynamically() throws IOException {
        assertEquals(
                DynamicBrokerConfig.dynamicKeys().stream().sorted().toList(),
                rows(DYNAMIC_SECTION).stream().map(Row::key).sorted().toList(),
                "the dynamic broker keys documented");
    }

    @Test
    void everyGroupConfigAndItsBrokerKeysAreDocumentedWithTheirTypesAndDefaults() throws IOException {
        List<Row> rows = rows(GROUP_SECTION);
        List<ConfigKey> keys = new ArrayList<>(GroupConfigs.configKeys());
        keys.addAll(GroupConfigDefaults.KEYS);
        for (ConfigKey key : keys) {
            Row row = row(rows, key.name());
            assertEquals(type(key), row.cells().get(1), key.name() + "'s type");
            key.defaultValue()
                    .ifPresent(value -> assertTrue(
                            row.cells().get(2).startsWith(code(text(value))),
                            key.name() + "'s default: expected " + code(text(value)) + ", the doc says "
                                    + row.cells().get(2)));
        }
        assertEquals(
                keys.stream().map(ConfigKey::name).sorted().toList(),
                rows.stream().map(Row::key).sorted().toList(),
                "the group configs and their broker keys documented");
    }

    /** A table row of the doc: its cells, the first being the key in backticks. */
    private record Row(List<String> cells) {
        String key() {
            return cells.getFirst().replace("`", "");
        }
    }

    /** The table rows of a key column in the section under {@code heading}, up to the next section. */
    private static List<Row> rows(String heading) throws IOException {
        List<String> lines = Files.readAllLines(DOC);
        int start = lines.indexOf(heading);
        assertTrue(start >= 0, DOC + " has no section " + heading);
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (line.startsWith("| `")) {
                rows.add(new Row(
                        Arrays.stream(line.substring(1, line.length() - 1).split(" \\| ", -1))
                                .map(String::trim)
                                .toList()));
            }
        }
        return rows;
    }

    private static Row row(List<Row> rows, String key) {
        List<Row> found = rows.stream().filter(row -> row.key().equals(key)).toList();
        assertEquals(1, found.size(), key + " must have exactly one row in " + DOC);
        return found.getFirst();
    }

    private static String type(ConfigKey key) {
        return key.type().name().toLowerCase(Locale.ROOT);
    }

    /** Kafka's text of a value: lists comma-separated. */
    private static String text(Object value) {
        return value instanceof List<?> list
                ? list.stream().map(String::valueOf).collect(Collectors.joining(","))
                : String.valueOf(value);
    }

    /** A value as the doc writes it: in backticks, the empty text as {@code ""}. */
    private static String code(String text) {
        return "`" + (text.isEmpty() ? "\"\"" : text) + "`";
    }
}
