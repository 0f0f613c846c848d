package io.krabka.spi.plugin;

/**
 * A version of this SPI, {@code major.minor}. A kernel loads a plugin built against the same major version and
 * the same or an older minor version: minor versions only add.
 *
 * @param major changes when something is removed or changed incompatibly
 * @param minor changes when something is added
 */
public record SpiVersion(int major, int minor) implements Comparable<SpiVersion> {

    /** The version of this SPI. A compile-time constant, so a plugin's copy records the version it was built against. */
    public static final String CURRENT = "1.3";

    /** Validates the numbers. */
    public SpiVersion {
        if (major < 0 || minor < 0) {
            throw new IllegalArgumentException("SPI version numbers cannot be negative: " + major + "." + minor);
        }
    }

    /** {@return the version of the SPI on the class or module path at run time} */
    public static SpiVersion current() {
        return parse(CURRENT);
    }

    /**
     * Parses {@code major.minor}.
     *
     * @param text the version, as {@link #toString()} writes it
     * @return the version
     * @throws IllegalArgumentException if the text is not two dot-separated non-negative numbers
     */
    public static SpiVersion parse(String text) {
        String[] parts = text == null ? new String[0] : text.split("\\.", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("not an SPI version (major.minor): " + text);
        }
        try {
            return new SpiVersion(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an SPI version (major.minor): " + text, e);
        }
    }

    /**
     * Whether a plugin built against {@code builtAgainst} can run on this version.
     *
     * @param builtAgainst the SPI version the plugin states ({@link PluginProvider#spiVersion()})
     * @return whether the major versions are the same and the plugin's minor version is at most this one's
     */
    public boolean canLoad(SpiVersion builtAgainst) {
        return builtAgainst.major == major && builtAgainst.minor <= minor;
    }

    @Override
    public int compareTo(SpiVersion other) {
        return major != other.major ? Integer.compare(major, other.major) : Integer.compare(minor, other.minor);
    }

    @Override
    public String toString() {
        return major + "." + minor;
    }
}
