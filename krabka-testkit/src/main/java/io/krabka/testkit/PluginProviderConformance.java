package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.Configurable;
import io.krabka.spi.plugin.Monitorable;
import io.krabka.spi.plugin.ObjectStoreRemoteStorageManagerProvider;
import io.krabka.spi.plugin.PluginConfig;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.PluginProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.Closeable;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider kit: checks a plugin's provider as the kernel reads it, before any instance exists, and the instances
 * it creates as the kernel handles them. Subclass it in a test with one hook, {@link #providerClass()}, and, when
 * the plugin has settings without a default, {@link #requiredSettings(Path)}.
 *
 * <p>What it checks: the provider can be constructed as {@link ServiceLoader} constructs it; the kernel can discover
 * it (its explicit module {@code provides} it, or a {@code META-INF/services} file names it); its name, aliases, kind,
 * SPI version, description and settings follow the SPI's rules; the required settings with the defaults parse; and
 * {@code create()} gives a new instance of the kind's interface each time, which closes whether or not it was
 * configured (the kernel closes an instance whose configuration failed) and configures with the parsed settings; and
 * an instance that is {@link Monitorable} publishes only metrics whose names the kernel accepts.
 */
public abstract class PluginProviderConformance {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

    private Path scratch;

    /** The provider class, as the module's {@code provides} or the service file names it. */
    protected abstract Class<? extends PluginProvider<?>> providerClass();

    /**
     * The value of every setting without a default, for the rules that configure an instance; {@code scratch} is an
     * empty directory of the rule's own (for a {@code dir} setting, say). None by default.
     */
    protected Map<String, Object> requiredSettings(Path scratch) {
        return Map.of();
    }

    /** The rule's own empty directory, for {@link #requiredSettings(Path)}. */
    @BeforeEach
    public final void createScratch(@TempDir Path ruleDirectory) {
        scratch = ruleDirectory;
    }

    @Test
    public final void required_providerHasAPublicNoArgumentConstructor() {
        provider();
    }

    @Test
    public final void required_nameFollowsTheNamingRule() {
        String name = provider().name();
        assertNotNull(name, "name()");
        assertTrue(
                NAME.matcher(name).matches(),
                "name() '" + name + "': lower case letters, digits and dashes, not starting with a dash");
    }

    @Test
    public final void required_aliasesAreDistinctAndNoneIsTheName() {
        PluginProvider<?> provider = provider();
        List<String> aliases = provider.aliases();
        assertNotNull(aliases, "aliases()");
        Set<String> seen = new HashSet<>();
        for (String alias : aliases) {
            assertTrue(alias != null && !alias.isBlank(), "an alias is empty: " + aliases);
            assertTrue(seen.add(alias), "alias '" + alias + "' is given twice");
            assertFalse(alias.equals(provider.name()), "alias '" + alias + "' is the plugin's name");
        }
    }

    @Test
    public final void required_kindIsTheOneItsTypeImplements() {
        PluginProvider<?> provider = provider();
        PluginKind kind = provider.kind();
        assertNotNull(kind, "kind()");
        assertTrue(
                kind.providerType().isInstance(provider),
                "kind() says " + kind + " but the provider does not implement "
                        + kind.providerType().getSimpleName());
    }

    @Test
    public final void required_spiVersionIsOneThisKrabkaLoads() {
        String stated = provider().spiVersion();
        SpiVersion builtAgainst;
        try {
            builtAgainst = SpiVersion.parse(stated);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new AssertionError("spiVersion() '" + stated + "' is not major.minor; return SpiVersion.CURRENT", e);
        }
        assertTrue(
                SpiVersion.current().canLoad(builtAgainst),
                "spiVersion() " + builtAgainst + ": the SPI " + SpiVersion.current() + " on the test's path cannot load"
                        + " it; return SpiVersion.CURRENT and build against the SPI you run");
    }

    @Test
    public final void required_descriptionIsOneLine() {
        String description = provider().description();
        assertTrue(description != null && !description.isBlank(), "description() is empty");
        assertFalse(description.contains("\n") || description.contains("\r"), "description() is not one line");
    }

    @Test
    public final void required_settingsAreDistinctAndDocumented() {
        List<ConfigKey> keys = provider().configKeys();
        assertNotNull(keys, "configKeys()");
        Set<String> names = new HashSet<>();
        for (ConfigKey key : keys) {
            assertTrue(names.add(key.name()), "setting " + key.name() + " is declared twice");
            assertFalse(key.documentation().isBlank(), "setting " + key.name() + " has no documentation");
        }
    }

    @Test
    public final void required_isDiscoverableFromItsModuleOrServiceFile() {
        Class<? extends PluginProvider<?>> type = providerClass();
        PluginKind kind = provider().kind();
        String service = kind.providerType().getName();
        Optional<ModuleDescriptor> module = explicitModule(type);
        if (module.isPresent()) {
            assertTrue(
                    module.get().provides().stream()
                            .anyMatch(p ->
                                    p.service().equals(service) && p.providers().contains(type.getName())),
                    "module " + module.get().name() + " does not declare: provides " + service + " with "
                            + type.getName() + ";");
            return;
        }
        assertTrue(
                ServiceLoader.load(kind.providerType(), type.getClassLoader()).stream()
                        .anyMatch(candidate -> candidate.type() == type),
                type.getName() + " is neither provided by an explicit module (provides " + service + " with ...) nor"
                        + " named in META-INF/services/" + service + ": the kernel would not find it");
    }

    @Test
    public final void required_requiredSettingsAndDefaultsParse() {
        List<ConfigKey> keys = provider().configKeys();
        Map<String, Object> given = requiredSettings(scratch);
        for (ConfigKey key : keys) {
            if (key.isRequired()) {
                assertTrue(
                        given.containsKey(key.name()),
                        "setting " + key.name() + " has no default: requiredSettings() must give it");
            }
        }
        try {
            PluginConfig.parse(keys, given);
        } catch (ConfigException e) {
            throw new AssertionError("the required settings with the defaults do not parse: " + e.getMessage(), e);
        }
    }

    @Test
    public final void required_createGivesANewInstanceOfItsKindEachTime() throws Exception {
        PluginProvider<?> provider = createsAlone();
        Object first = provider.create();
        Object second = provider.create();
        try {
            assertNotNull(first, "create() returned null");
            assertNotSame(first, second, "create() returned the same instance twice");
            assertInstanceOf(instanceType(provider.kind()), first, "create() of a " + provider.kind() + " plugin");
        } finally {
            // Closing an instance never configured is the next rule's.
            closeQuietly(first);
            closeQuietly(second);
        }
    }

    @Test
    public final void required_anInstanceClosesWithoutBeingConfigured() {
        PluginProvider<?> provider = createsAlone();
        Object instance = provider.create();
        assertDoesNotThrow(
                () -> close(instance),
                "close() of an instance never configured (the kernel closes one whose configure() failed)");
    }

    @Test
    public final void required_anInstanceConfiguresWithTheParsedSettingsAndCloses() throws Exception {
        PluginProvider<?> provider = createsAlone();
        Map<String, Object> values = PluginConfig.parse(provider.configKeys(), requiredSettings(scratch))
                .values();
        Object instance = provider.create();
        try {
            assertInstanceOf(Configurable.class, instance).configure(values);
        } finally {
            close(instance);
        }
    }

    @Test
    public final void optional_aMonitorableInstancePublishesMetricsTheKernelAccepts() throws Exception {
        PluginProvider<?> provider = createsAlone();
        Object instance = provider.create();
        if (!(instance instanceof Monitorable monitorable)) {
            closeQuietly(instance);
            Assumptions.abort(Verdicts.NOT_APPLICABLE + "the instances are not Monitorable: they publish no metrics");
            return;
        }
        try {
            assertInstanceOf(Configurable.class, instance)
                    .configure(PluginConfig.parse(provider.configKeys(), requiredSettings(scratch))
                            .values());
            // As the kernel does: after configure, before any other call; a name it would refuse throws here.
            monitorable.withPluginMetrics(new RecordingPluginMetrics());
        } finally {
            close(instance);
        }
    }

    /** The provider, constructed as {@link ServiceLoader} does; a failure is this rule's. */
    private PluginProvider<?> provider() {
        Class<? extends PluginProvider<?>> type = providerClass();
        assertTrue(
                Modifier.isPublic(type.getModifiers()) && !Modifier.isAbstract(type.getModifiers()),
                type.getName() + " must be a public, concrete class");
        Constructor<? extends PluginProvider<?>> constructor;
        try {
            constructor = type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new AssertionError(type.getName() + " has no public no-argument constructor", e);
        }
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new AssertionError(type.getName() + "'s constructor threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(type.getName() + " cannot be constructed: " + e, e);
        }
    }

    /** The provider, when it creates instances by itself; a store-backed manager's the kernel creates over a store. */
    private PluginProvider<?> createsAlone() {
        PluginProvider<?> provider = provider();
        if (provider instanceof ObjectStoreRemoteStorageManagerProvider) {
            Assumptions.abort(
                    Verdicts.NOT_APPLICABLE + "a store-backed manager is created by the kernel over its store");
        }
        return provider;
    }

    private static Class<?> instanceType(PluginKind kind) {
        return switch (kind) {
            case REMOTE_STORAGE_MANAGER -> RemoteStorageManager.class;
            case REMOTE_LOG_METADATA_MANAGER -> RemoteLogMetadataManager.class;
            case OBJECT_STORE -> ObjectStore.class;
        };
    }

    private static void closeQuietly(Object instance) {
        try {
            close(instance);
        } catch (Exception | LinkageError e) {
            // the rule that closes an unconfigured instance reports it
        }
    }

    private static void close(Object instance) throws Exception {
        if (instance instanceof Closeable closeable) {
            closeable.close();
        } else if (instance instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    /**
     * The explicit module that holds the class: its own when it runs in one, else the one its classes directory or jar
     * would be (the tests may run on the class path).
     */
    private static Optional<ModuleDescriptor> explicitModule(Class<?> type) {
        if (type.getModule().isNamed()) {
            ModuleDescriptor descriptor = type.getModule().getDescriptor();
            return descriptor == null || descriptor.isAutomatic() ? Optional.empty() : Optional.of(descriptor);
        }
        CodeSource code = type.getProtectionDomain().getCodeSource();
        if (code == null || code.getLocation() == null) {
            return Optional.empty();
        }
        try {
            return ModuleFinder.of(Path.of(code.getLocation().toURI())).findAll().stream()
                    .map(ModuleReference::descriptor)
                    .filter(descriptor -> !descriptor.isAutomatic())
                    .findFirst();
        } catch (FindException | URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
