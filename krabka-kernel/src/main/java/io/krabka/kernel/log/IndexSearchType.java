package io.krabka.kernel.log;

/** Which half of an index entry a search compares: the key the entries are sorted by, or the value it maps to. */
enum IndexSearchType {
    KEY,
    VALUE
}
