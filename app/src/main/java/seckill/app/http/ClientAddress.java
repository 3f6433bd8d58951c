package seckill.app.http;

import io.helidon.webserver.http.ServerRequest;

/**
 * The client's address for blocklists: the connection's peer, or the first {@code X-Forwarded-For}
 * entry when the service sits behind a proxy the operator trusts
 * ({@code seckill.admission.trust-forwarded-for}); a client could forge the header otherwise.
 */
final class ClientAddress {

    private ClientAddress() {
    }

    static String of(ServerRequest request, String forwardedFor, boolean trustForwardedFor) {
        if (trustForwardedFor && forwardedFor != null && !forwardedFor.isBlank()) {
            return forwardedFor.split(",")[0].trim();
        }
        if (request == null) {
            return "";
        }
        try {
            return request.remotePeer().host();
        } catch (RuntimeException e) {
            return "";
        }
    }
}
