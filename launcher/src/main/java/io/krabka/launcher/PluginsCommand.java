package io.krabka.launcher;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krabka.kernel.plugin.PluginDescriptor;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginLoadException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/** {@code krabka plugins}: every plugin the distribution holds, where it came from, as a table or as JSON. */
final class PluginsCommand implements Command {
    private final Supplier<List<PluginDescriptor>> discovery;

    /** Lists the plugins of the distribution named by {@code krabka.home}. */
    PluginsCommand() {
        this(() -> PluginDiscovery.discover().plugins());
    }

    /** Lists what {@code discovery} finds; it throws {@link PluginLoadException} when discovery fails. */
    PluginsCommand(Supplier<List<PluginDescriptor>> discovery) {
        this.discovery = Objects.requireNonNull(discovery, "discovery");
    }

    @Override
    public String name() {
        return "plugins";
    }

    @Override
    public String summary() {
        return "List the plugins: name, kind, version, module, and where each was loaded from";
    }

    @Override
    public Options options() {
        return new Options().addOption(Option.builder().longOpt("json")
                .desc("Print JSON: {\"plugins\":[{\"name\",\"kind\",\"version\",\"spiVersion\",\"module\",\"source\",\"isolation\"}]}")
                .get());
    }

    @Override
    public int run(CommandLine line, Console console) throws CommandException {
        List<PluginDescriptor> plugins;
        try {
            plugins = discovery.get();
        } catch (PluginLoadException e) {
            throw new CommandException(ExitCode.FAILURE, e.getMessage(), e);
        }
        if (line.hasOption("json")) {
            console.out().println(json(plugins));
        } else if (plugins.isEmpty()) {
            console.out().println("no plugins");
        } else {
            table(plugins).print(console.out());
        }
        return ExitCode.OK;
    }

    private static TextTable table(List<PluginDescriptor> plugins) {
        TextTable table = new TextTable("NAME", "KIND", "VERSION", "SPI", "MODULE", "ISOLATION", "SOURCE", "ALIASES");
        for (PluginDescriptor plugin : plugins) {
            table.add(plugin.name(), plugin.kind().name(), plugin.version(), plugin.spiVersion(), plugin.module(),
                    plugin.isolation().label(), plugin.source(), String.join(",", plugin.aliases()));
        }
        return table;
    }

    private static ArrayNode aliases(ObjectMapper mapper, PluginDescriptor plugin) {
        ArrayNode aliases = mapper.createArrayNode();
        plugin.aliases().forEach(aliases::add);
        return aliases;
    }

    private static String json(List<PluginDescriptor> plugins) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ArrayNode array = root.putArray("plugins");
        for (PluginDescriptor plugin : plugins) {
            array.addObject()
                    .put("name", plugin.name())
                    .put("kind", plugin.kind().name())
                    .put("version", plugin.version())
                    .put("spiVersion", plugin.spiVersion())
                    .put("module", plugin.module())
                    .put("source", plugin.source())
                    .put("isolation", plugin.isolation().label())
                    .set("aliases", aliases(mapper, plugin));
        }
        try {
            return mapper.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e); // a tree of strings always serialises
        }
    }
}
