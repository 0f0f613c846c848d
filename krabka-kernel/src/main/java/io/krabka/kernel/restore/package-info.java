/**
 * {@code krabka restore}: an archive of the remote tier discovered, reconciled, authenticated and verified batch by
 * batch, and written as a bootable log directory with a report. Its stages are the sub-packages.
 */
package io.krabka.kernel.restore;
