package seckill.app.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import jakarta.inject.Inject;
import seckill.app.identity.BearerTokens;
import seckill.app.identity.GatewaySignatures;
import seckill.app.identity.IdentitySettings;
import seckill.app.sale.HotPathSingleton;

/**
 * Who the buyer of a request is, from something a client cannot forge (issue #36): by default the
 * verified bearer token in {@code Authorization} ({@link BearerTokens}; {@code X-User-Id} is then
 * ignored); in the gateway mode {@code X-User-Id} with the gateway's signature
 * ({@link GatewaySignatures}), from a trusted peer when those are configured. Anything else is
 * {@code 401 UNAUTHENTICATED} with a Bearer challenge, and the answer never says which check failed.
 */
@HotPathSingleton
class BuyerAuthentication {

    private static final HeaderName USER_ID = HeaderNames.create(Buyer.HEADER);

    private final IdentitySettings settings;
    private final BearerTokens tokens;
    private final GatewaySignatures gateway;
    private final HeaderName signatureHeader;
    private final TrustedProxies trustedPeers;

    @Inject
    BuyerAuthentication(IdentitySettings settings, BearerTokens tokens, GatewaySignatures gateway) {
        this.settings = settings;
        this.tokens = tokens;
        this.gateway = gateway;
        this.signatureHeader = HeaderNames.create(settings.signatureHeader());
        this.trustedPeers = settings.trustedPeers().isBlank() ? null : TrustedProxies.parse(settings.trustedPeers());
    }

    /** For CDI's proxy. */
    BuyerAuthentication() {
        this.settings = null;
        this.tokens = null;
        this.gateway = null;
        this.signatureHeader = null;
        this.trustedPeers = null;
    }

    /** The request's buyer; a {@code 401} problem when it names none that can be believed. */
    long buyerOf(ServerRequest request) {
        var headers = request.headers();
        if (settings.mode() == IdentitySettings.Mode.GATEWAY) {
            if (trustedPeers != null && !trustedPeers.trusts(peerOf(request))) {
                throw unauthenticated(false);
            }
            long buyer = gateway.buyerOf(headers.first(USER_ID).orElse(null), headers.first(signatureHeader).orElse(null));
            if (buyer <= 0) {
                throw unauthenticated(false);
            }
            return buyer;
        }
        String authorization = headers.first(HeaderNames.AUTHORIZATION).orElse(null);
        if (authorization == null || authorization.length() < 7
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw unauthenticated(false);
        }
        long buyer = tokens.buyerOf(authorization.substring(7).trim());
        if (buyer <= 0) {
            throw unauthenticated(true);
        }
        return buyer;
    }

    /** The request's buyer when it names one that can be believed, else 0 (for a public route a mark signs a buyer for). */
    long buyerIfAny(ServerRequest request) {
        try {
            return buyerOf(request);
        } catch (Problem nobody) {
            return 0;
        }
    }

    private static Problem unauthenticated(boolean tokenOffered) {
        return new Problem(401, "UNAUTHENTICATED", "Unauthenticated",
                "Send 'Authorization: Bearer <token>' with a valid, unexpired token of the buyer.")
                .header("WWW-Authenticate", tokenOffered ? "Bearer realm=\"seckill\", error=\"invalid_token\""
                        : "Bearer realm=\"seckill\"");
    }

    private static String peerOf(ServerRequest request) {
        try {
            return request.remotePeer().host();
        } catch (RuntimeException e) {
            return "";
        }
    }
}
