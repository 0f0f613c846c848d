package io.krabka.kernel.plugin;

/** How a plugin's classes are kept apart from the kernel's and from other plugins'. */
public enum PluginIsolation {
    /** On the boot module path (or class path) with the kernel: no isolation. */
    BOOT("boot"),
    /** Its folder's jars resolved as modules in a child {@link ModuleLayer} with one class loader. */
    MODULE_LAYER("module-layer"),
    /** Its folder's jars in a class loader that sees only the JDK, the SPI and those jars. */
    CLASS_LOADER("class-loader");

    private final String label;

    PluginIsolation(String label) {
        this.label = label;
    }

    /** The name shown to operators: {@code boot}, {@code module-layer} or {@code class-loader}. */
    public String label() {
        return label;
    }
}
