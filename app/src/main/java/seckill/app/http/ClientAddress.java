package seckill.app.http;

import jakarta.inject.Inject;
import seckill.app.sale.HotPathSingleton;
import io.helidon.webserver.http.ServerRequest;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The client's address for blocklists: the connection's peer, or, when the service sits behind
 * proxies the operator trusts ({@code seckill.admission.trust-forwarded-for}), the rightmost
 * {@code X-Forwarded-For} entry that is not one of them ({@code seckill.admission.trusted-proxies},
 * CIDR list, default loopback). The leftmost entry is whatever the client sent, so it never counts;
 * at most {@code seckill.admission.max-forwarded-hops} (16) entries are looked at, from the right.
 */
@HotPathSingleton
class ClientAddress {

    private final boolean trustForwardedFor;
    private final TrustedProxies proxies;

    @Inject
    ClientAddress(@ConfigProperty(name = "seckill.admission.trust-forwarded-for", defaultValue = "false")
                  boolean trustForwardedFor,
                  @ConfigProperty(name = "seckill.admission.trusted-proxies", defaultValue = "127.0.0.0/8,::1/128")
                  String trustedProxies,
                  @ConfigProperty(name = "seckill.admission.max-forwarded-hops", defaultValue = "16")
                  int maxForwardedHops) {
        this.trustForwardedFor = trustForwardedFor;
        this.proxies = TrustedProxies.parse(trustedProxies, maxForwardedHops);
    }

    /** For CDI's proxy. */
    ClientAddress() {
        this(false, "", 1);
    }

    String of(ServerRequest request, String forwardedFor) {
        return of(peerOf(request), forwardedFor);
    }

    /** The same rule when only the peer's address is at hand (a JAX-RS filter). */
    String of(String peer, String forwardedFor) {
        String known = peer == null ? "" : peer;
        return trustForwardedFor ? proxies.clientOf(known, forwardedFor) : known;
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
