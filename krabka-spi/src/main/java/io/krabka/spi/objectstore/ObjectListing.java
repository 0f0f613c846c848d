package io.krabka.spi.objectstore;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a listing.
 *
 * @param objects       the page's objects, in the store's order
 * @param nextPageToken what to pass for the next page; empty on the last
 */
public record ObjectListing(List<StoredObject> objects, Optional<String> nextPageToken) {

    /** Freezes the parts. */
    public ObjectListing {
        objects = List.copyOf(objects);
        Objects.requireNonNull(nextPageToken, "nextPageToken");
    }
}
