package seckill.app.http;

import jakarta.inject.Inject;
import seckill.app.sale.HotPathSingleton;
import io.helidon.webserver.http.ServerRequest;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The client's address for blocklists: the connection's peer, or, when the service sits behind
 * proxies the operator trusts ({@code seckill.admission.trust-forwarded-for}), the rightmost
 * {@code X-Forwarded-For} entry that is not one of them ({@code seckill.admission.trusted-proxies},
 * CIDR list, default loopback). The leftmost entry is whatever the client sent, so it never counts.
 */
@HotPathSingleton
class ClientAddress {

    private final boolean trustForwardedFor;
    private final TrustedProxies proxies;

    @Inject
    ClientAddress(@ConfigProperty(name = "seckill.admission.trust-forwarded-for", defaultValue = "false")
                  boolean trustForwardedFor,
                  @ConfigProperty(name = "seckill.admission.trusted-proxies", defaultValue = "127.0.0.0/8,::1/128")
                  String trustedProxies) {
        this.trustForwardedFor = trustForwardedFor;
        this.proxies = TrustedProxies.parse(trustedProxies);
    }

    /** For CDI's proxy. */
    ClientAddress() {
        this(false, "");
    }

    String of(ServerRequest request, String forwardedFor) {
        String peer = peerOf(request);
        return trustForwardedFor ? proxies.clientOf(peer, forwardedFor) : peer;
    }

    private static String peerOf(ServerRequest request) {
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
