/**
 * The one mapping of the kernel's failures to Kafka's error codes ({@link io.krabka.kernel.errors.KernelErrors}), for
 * every layer that answers a client: replica, group, broker. Above {@code record} and {@code log}, whose exceptions it
 * maps.
 */
package io.krabka.kernel.errors;
