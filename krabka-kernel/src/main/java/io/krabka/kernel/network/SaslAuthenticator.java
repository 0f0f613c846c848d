package io.krabka.kernel.network;

import io.krabka.kernel.security.ListenerSasl;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import org.apache.kafka.common.errors.IllegalSaslStateException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * One connection's SASL authentication, as Kafka's {@code SaslServerAuthenticator} runs it: ApiVersions (once) and
 * SaslHandshake, then SaslAuthenticate requests (handshake v1) or raw SASL tokens (handshake v0) until the
 * mechanism completes; nothing else before that. A completed authentication gives the connection its principal,
 * {@code User:<name>}, and, with {@code connections.max.reauth.ms}, a session that ends: a client that supports
 * KIP-368 re-authenticates on the connection (a SaslHandshake after the session began starts it, and the principal
 * must stay the same); a connection used for anything else after its session ended is closed. Runs on the
 * connection's event loop, one request at a time in arrival order, so a request that follows a completed
 * authentication already carries its principal.
 */
final class SaslAuthenticator {

    /** What the connection does with a request. */
    sealed interface Step {
        /** Hand it to its handler, with the connection's principal. */
        record Dispatch(Request request) implements Step {}

        /** Answer it now; {@code failed}: the authentication failed, close after the delay. */
        record Answer(Response response, boolean failed) implements Step {}

        /** Write a raw SASL token (handshake v0), or nothing where the token is null. */
        record Token(byte[] token) implements Step {}

        /** Close the connection without an answer. */
        record Close(String reason) implements Step {}
    }

    private enum State {
        HANDSHAKE_OR_VERSIONS,
        HANDSHAKE,
        AUTHENTICATE,
        RAW_TOKEN,
        COMPLETE,
        FAILED
    }

    private final ListenerSasl sasl;
    private final InetAddress client;
    private State state = State.HANDSHAKE_OR_VERSIONS;
    private SaslServer server;
    private String mechanism;
    private String badMechanism;
    private boolean reauthenticating;
    private boolean clientSupportsReauthentication;
    private long sessionExpiryNanos;
    private boolean sessionExpires;
    private KafkaPrincipal principal = KafkaPrincipal.ANONYMOUS;

    SaslAuthenticator(ListenerSasl sasl, InetAddress client) {
        this.sasl = sasl;
        this.client = client;
    }

    /** Whether the initial authentication completed: the connection may send anything. */
    boolean authenticated() {
        return state == State.COMPLETE || reauthenticating;
    }

    /** Whether the next frame is a raw SASL token rather than a request. */
    boolean expectsRawToken() {
        return state == State.RAW_TOKEN;
    }

    /** The authenticated principal; ANONYMOUS before (seen only by ApiVersions). */
    KafkaPrincipal principal() {
        return principal;
    }

    /** The next step for a request. */
    Step onRequest(Request request, long nowNanos) {
        ApiKeys api = request.apiKey();
        return switch (state) {
            case COMPLETE -> {
                if (api == ApiKeys.SASL_HANDSHAKE && sessionExpires && clientSupportsReauthentication) {
                    reauthenticating = true;
                    yield handshake(request);
                }
                if (sessionExpires && nowNanos - sessionExpiryNanos > 0) {
                    yield new Step.Close("the session expired and the client did not re-authenticate");
                }
                yield new Step.Dispatch(request.withPrincipal(principal));
            }
            case HANDSHAKE_OR_VERSIONS -> {
                if (api == ApiKeys.API_VERSIONS) {
                    state = State.HANDSHAKE;
                    yield new Step.Dispatch(request);
                }
                yield api == ApiKeys.SASL_HANDSHAKE ? handshake(request) : unexpected(api, "handshake");
            }
            case HANDSHAKE -> api == ApiKeys.SASL_HANDSHAKE ? handshake(request) : unexpected(api, "handshake");
            case AUTHENTICATE -> {
                if (api == ApiKeys.SASL_AUTHENTICATE) {
                    yield authenticate(request, nowNanos);
                }
                state = State.FAILED;
                sasl.failed();
                yield new Step.Answer(
                        Response.send(request.body()
                                .getErrorResponse(new IllegalSaslStateException(
                                        "Unexpected Kafka request of type " + api + " during SASL authentication."))
                                .data()),
                        true);
            }
            case RAW_TOKEN, FAILED -> new Step.Close("a request in SASL state " + state);
        };
    }

    private Step unexpected(ApiKeys api, String phase) {
        state = State.FAILED;
        sasl.failed();
        return new Step.Close("Unexpected Kafka request of type " + api + " during SASL " + phase + ".");
    }

    private Step handshake(Request request) {
        SaslHandshakeRequest handshake = (SaslHandshakeRequest) request.body();
        String requested = handshake.data().mechanism();
        SaslHandshakeResponseData data = new SaslHandshakeResponseData().setMechanisms(sasl.enabledMechanisms());
        if (!sasl.enabledMechanisms().contains(requested)) {
            state = State.FAILED;
            sasl.failed();
            return new Step.Answer(Response.send(data.setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code())), true);
        }
        if (reauthenticating && !requested.equals(mechanism)) {
            badMechanism = "SASL mechanism '" + requested + "' requested by client is not supported for "
                    + "re-authentication of mechanism '" + mechanism + "'";
        } else {
            mechanism = requested;
            server = sasl.newServer(requested);
        }
        state = request.apiVersion() >= 1 ? State.AUTHENTICATE : State.RAW_TOKEN;
        return new Step.Answer(Response.send(data.setErrorCode(Errors.NONE.code())), false);
    }

    private Step authenticate(Request request, long nowNanos) {
        SaslAuthenticateRequest authenticate = (SaslAuthenticateRequest) request.body();
        clientSupportsReauthentication |= request.apiVersion() > 0;
        try {
            byte[] token = evaluate(authenticate.data().authBytes(), nowNanos);
            long lifetimeMs = state == State.COMPLETE && sessionExpires ? sasl.maxReauthMs(mechanism) : 0L;
            return new Step.Answer(
                    Response.send(new SaslAuthenticateResponseData()
                            .setErrorCode(Errors.NONE.code())
                            .setAuthBytes(token == null ? new byte[0] : token)
                            .setSessionLifetimeMs(lifetimeMs)),
                    false);
        } catch (SaslException e) {
            return new Step.Answer(
                    Response.send(new SaslAuthenticateResponseData()
                            .setErrorCode(Errors.SASL_AUTHENTICATION_FAILED.code())
                            .setErrorMessage(failure(e))),
                    true);
        }
    }

    /** The next step for a raw SASL token (after a v0 handshake). */
    Step onRawToken(ByteBuffer frame, long nowNanos) {
        byte[] token = new byte[frame.remaining()];
        frame.get(token);
        try {
            return new Step.Token(evaluate(token, nowNanos));
        } catch (SaslException e) {
            return new Step.Close(failure(e));
        }
    }

    // Kafka's message: a SaslAuthenticationException's own, else one that tells nothing of the user.
    private String failure(SaslException e) {
        state = State.FAILED;
        sasl.failed();
        return e.getCause() instanceof SaslAuthenticationException own
                ? own.getMessage()
                : "Authentication failed during " + (reauthenticating ? "re-authentication" : "authentication")
                        + " due to invalid credentials with SASL mechanism " + mechanism;
    }

    /** Evaluates a client token; completes the authentication when the mechanism does. */
    private byte[] evaluate(byte[] clientToken, long nowNanos) throws SaslException {
        try {
            if (badMechanism != null) {
                throw new SaslAuthenticationException(badMechanism);
            }
            byte[] response = server.evaluateResponse(Arrays.copyOf(clientToken, clientToken.length));
            if (server.isComplete()) {
                complete(nowNanos);
            }
            return response;
        } catch (SaslAuthenticationException e) {
            throw new SaslException(e.getMessage(), e);
        }
    }

    private void complete(long nowNanos) {
        KafkaPrincipal authenticated = sasl.principal(server, client);
        if (reauthenticating && !authenticated.equals(principal)) {
            throw new SaslAuthenticationException("Cannot change principals during re-authentication from "
                    + principal.getPrincipalType() + "." + principal.getName() + ": "
                    + authenticated.getPrincipalType() + "." + authenticated.getName());
        }
        long maxReauthMs = sasl.maxReauthMs(mechanism);
        sessionExpires = maxReauthMs > 0;
        sessionExpiryNanos = nowNanos + maxReauthMs * 1_000_000L;
        sasl.authenticated(reauthenticating);
        principal = authenticated;
        reauthenticating = false;
        state = State.COMPLETE;
        server = null;
    }
}
