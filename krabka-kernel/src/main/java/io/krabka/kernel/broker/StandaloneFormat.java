package io.krabka.kernel.broker;

import io.krabka.kernel.format.ClusterId;
import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.format.FormatResult;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.kernel.log.checkpoint.MetaProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Formats a single node's log directories on its first start, as {@code krabka format --standalone} would for the
 * broker's settings: the node its own controller at its controller listener. Directories formatted already are
 * left as they are (after the formatter checked they are this node's); the others join their cluster, or a new one
 * when none is formatted.
 */
public final class StandaloneFormat {

    private StandaloneFormat() {}

    /**
     * Formats the directories that are not, if any.
     *
     * @return what was formatted; empty when every directory was formatted already
     * @throws BrokerConfigException if the settings name no controller listener with a host to record
     * @throws FormatException       as {@link Formatter#format} refuses or fails
     */
    public static Optional<FormatResult> formatIfNeeded(BrokerConfig config, Formatter formatter)
            throws FormatException {
        Optional<String> clusterId = Optional.empty();
        boolean allFormatted = true;
        for (Path dir : config.allLogDirs()) {
            Path file = dir.resolve(MetaProperties.META_PROPERTIES_FILE_NAME);
            if (Files.exists(file)) {
                clusterId = clusterId.or(() -> readClusterId(file));
            } else {
                allFormatted = false;
            }
        }
        if (allFormatted) {
            return Optional.empty();
        }
        Endpoint controller = config.controllerListener()
                .orElseThrow(() -> new BrokerConfigException(
                        "listeners",
                        config.originals().get("listeners"),
                        "formatting a standalone node needs its controller listener"));
        if (controller.host().isEmpty() || controller.isWildcard()) {
            throw new BrokerConfigException(
                    "listeners",
                    controller,
                    "formatting a standalone node records the "
                            + "controller listener's address as the voter's, so it needs a host clients can reach");
        }
        return Optional.of(formatter.format(new FormatSpec(
                config.logDirs(),
                config.metadataLogDir(),
                clusterId.orElseGet(ClusterId::random),
                config.nodeId(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                new InitialQuorum.Standalone(controller.host(), controller.port()),
                controller.name(),
                true)));
    }

    private static Optional<String> readClusterId(Path file) {
        try {
            return Optional.of(MetaProperties.read(file).clusterId());
        } catch (IOException e) {
            return Optional.empty(); // the formatter reads it again and refuses it, with the reason
        }
    }
}
