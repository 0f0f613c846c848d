package io.krabka.launcher;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.krabka.kernel.plugin.BrokenPluginFolder;
import io.krabka.kernel.plugin.PluginDescriptor;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginLoadException;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;

/**
 * {@code krabka plugins}: every plugin the distribution holds, where it came from, and the folders skipped as broken,
 * as a table or as JSON; or one plugin in full, its settings too.
 */
final class PluginsCommand implements Command {
    private final Supplier<Listing> discovery;

    /**
     * What discovery found.
     *
     * @param plugins the plugins, by kind and then name
     * @param broken  the folders that failed to load
     */
    record Listing(List<PluginDescriptor> plugins, List<BrokenPluginFolder> broken) {
        Listing {
            plugins = List.copyOf(plugins);
            broken = List.copyOf(broken);
        }

        static Listing of(PluginRegistry registry) {
            return new Listing(registry.plugins(), registry.broken());
        }
    }

    /** Lists the plugins of the distribution named by {@code krabka.home}. */
    PluginsCommand() {
        this(() -> Listing.of(PluginDiscovery.discover()));
    }

    /** Lists what {@code discovery} finds; it throws {@link PluginLoadException} when discovery fails. */
    PluginsCommand(Supplier<Listing> discovery) {
        this.discovery = Objects.requireNonNull(discovery, "discovery");
    }

    @Override
    public String name() {
        return "plugins";
    }

    @Override
    public String summary() {
        return "List the plugins: name, kind, version, module, where each was loaded from; or one in full";
    }

    @Override
    public Options options() {
        return new Options()
                .addOption(Option.builder()
                        .longOpt("json")
                        .desc("Print JSON: {\"plugins\":[{\"name\",\"kind\",\"version\",\"spiVersion\",\"module\","
                                + "\"source\",\"isolation\",\"aliases\",\"description\",\"settings\"}],"
                                + "\"broken\":[{\"folder\",\"reason\"}]}")
                        .get())
                .addOption(Option.builder()
                        .longOpt("name")
                        .hasArg()
                        .argName("NAME")
                        .desc("Show only the plugins with this name or alias, in full: description, aliases and "
                                + "settings (key, type, default, documentation)")
                        .get());
    }

    @Override
    public int run(CommandLine line, Console console) throws CommandException {
        Listing listing;
        try {
            listing = discovery.get();
        } catch (PluginLoadException e) {
            throw CommandException.of(e);
        }
        Optional<String> name = Optional.ofNullable(line.getOptionValue("name"));
        if (name.isPresent()) {
            listing = only(listing, name.get());
        }
        if (line.hasOption("json")) {
            console.out().println(json(listing));
        } else if (name.isPresent()) {
            describe(listing.plugins(), console.out());
        } else {
            if (listing.plugins().isEmpty()) {
                console.out().println("no plugins");
            } else {
                table(listing.plugins()).print(console.out());
            }
            listing.broken().forEach(folder -> console.out().println("skipped: " + folder.reason()));
        }
        return ExitCode.OK;
    }

    /** The plugins answering to {@code name}; a folder of that name that failed to load is the failure. */
    private static Listing only(Listing listing, String name) throws CommandException {
        List<PluginDescriptor> named =
                listing.plugins().stream().filter(p -> p.answersTo(name)).toList();
        if (!named.isEmpty()) {
            return new Listing(named, List.of());
        }
        for (BrokenPluginFolder folder : listing.broken()) {
            if (folder.folder().getFileName().toString().equals(name)) {
                throw new CommandException(ExitCode.FAILURE, folder.reason());
            }
        }
        List<String> known = listing.plugins().stream()
                .map(PluginDescriptor::name)
                .distinct()
                .toList();
        throw new CommandException(
                ExitCode.FAILURE,
                "no plugin is named '" + name + "'; "
                        + (known.isEmpty() ? "there are none" : "known: " + String.join(", ", known)));
    }

    private static TextTable table(List<PluginDescriptor> plugins) {
        TextTable table = new TextTable("NAME", "KIND", "VERSION", "SPI", "MODULE", "ISOLATION", "SOURCE", "ALIASES");
        for (PluginDescriptor plugin : plugins) {
            table.add(
                    plugin.name(),
                    plugin.kind().name(),
                    plugin.version(),
                    plugin.spiVersion(),
                    plugin.module(),
                    plugin.isolation().label(),
                    plugin.source(),
                    String.join(",", plugin.aliases()));
        }
        return table;
    }

    private static void describe(List<PluginDescriptor> plugins, PrintStream out) {
        for (int i = 0; i < plugins.size(); i++) {
            PluginDescriptor plugin = plugins.get(i);
            if (i > 0) {
                out.println();
            }
            out.println(plugin.name() + " (" + plugin.kind().name() + " " + plugin.version() + ", SPI "
                    + plugin.spiVersion() + "): " + plugin.description());
            out.println("module " + plugin.module() + ", " + plugin.isolation().label() + ", from " + plugin.source());
            if (!plugin.aliases().isEmpty()) {
                out.println("aliases: " + String.join(", ", plugin.aliases()));
            }
            if (plugin.settings().isEmpty()) {
                out.println("no settings");
                continue;
            }
            TextTable settings = new TextTable("SETTING", "TYPE", "DEFAULT", "DOCUMENTATION");
            for (ConfigKey key : plugin.settings()) {
                String defaultText = defaultText(key).orElse("(required)");
                settings.add(
                        key.name(),
                        key.type().name(),
                        defaultText.isEmpty() ? "\"\"" : defaultText,
                        key.documentation());
            }
            settings.print(out);
        }
    }

    /** A key's default as text; a password's is not shown. */
    private static Optional<String> defaultText(ConfigKey key) {
        return key.defaultValue().map(value -> key.type() == ConfigType.PASSWORD ? "(hidden)" : render(value));
    }

    private static String render(Object value) {
        return value instanceof List<?> list
                ? String.join(",", list.stream().map(String::valueOf).toList())
                : String.valueOf(value);
    }

    private static String json(Listing listing) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ArrayNode array = root.putArray("plugins");
        for (PluginDescriptor plugin : listing.plugins()) {
            ObjectNode node = array.addObject()
                    .put("name", plugin.name())
                    .put("kind", plugin.kind().name())
                    .put("version", plugin.version())
                    .put("spiVersion", plugin.spiVersion())
                    .put("module", plugin.module())
                    .put("source", plugin.source())
                    .put("isolation", plugin.isolation().label());
            plugin.aliases().forEach(node.putArray("aliases")::add);
            node.put("description", plugin.description());
            ArrayNode settings = node.putArray("settings");
            for (ConfigKey key : plugin.settings()) {
                ObjectNode setting = settings.addObject()
                        .put("name", key.name())
                        .put("type", key.type().name())
                        .put("required", key.isRequired());
                setting.put("default", defaultText(key).orElse(null));
                setting.put("documentation", key.documentation());
            }
        }
        ArrayNode broken = root.putArray("broken");
        for (BrokenPluginFolder folder : listing.broken()) {
            broken.addObject().put("folder", folder.folder().toString()).put("reason", folder.reason());
        }
        try {
            return mapper.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e); // a tree of strings always serialises
        }
    }
}
