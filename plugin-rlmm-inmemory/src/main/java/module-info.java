/** An in-memory RemoteLogMetadataManager with a JSON snapshot of its cache. */
module io.krabka.plugin.rlmm.inmemory {
    requires io.krabka.spi;
    requires com.fasterxml.jackson.databind;
}
