/**
 * Plugin discovery and isolation: the providers on the boot layer and in {@code plugins/<folder>/} (a module layer
 * or a class loader per folder), the registry that creates their instances with the plugin's loader as context
 * class loader, and the selection of the remote storage plugins by Kafka's {@code *.class.name} keys. A leaf.
 */
package io.krabka.kernel.plugin;
