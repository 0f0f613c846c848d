/**
 * The broker put together: its configuration, its services (log manager, controller, replica manager, group
 * coordinator, tiered storage), the API handlers, the health endpoint, start and shutdown.
 */
package io.krabka.kernel.broker;
