/** Helpers of the format's encodings (strict JSON, canonical bytes, hex); not exported. */
package io.krabka.archive.internal;
