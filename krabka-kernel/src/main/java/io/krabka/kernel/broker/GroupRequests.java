package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupRequestContext;
import io.krabka.kernel.network.Request;
import java.net.InetSocketAddress;

/** What the group handlers share: the coordinator's view of a request, and the wire's topic ids. */
final class GroupRequests {

    private GroupRequests() {}

    /** The client id, the client's address as Kafka prints it ("/127.0.0.1") and the version. */
    static GroupRequestContext context(Request request) {
        InetSocketAddress remote = request.connection().remote();
        String host = remote.getAddress() != null ? remote.getAddress().toString() : "/" + remote.getHostString();
        return new GroupRequestContext(request.header().clientId(), host, request.apiVersion());
    }
}
