package seckill.client;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import jakarta.ws.rs.client.ClientRequestFilter;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/** Builds the clients outside CDI, on whatever MicroProfile REST Client implementation is present. */
public final class SeckillClients {

    private SeckillClients() {
    }

    /**
     * The buyer's API at {@code base} (e.g. {@code http://127.0.0.1:8080}), waiting at most 10 s for an
     * answer, sending each call's {@code userId} as {@code X-User-Id} and nothing else: only for a
     * back end behind a gateway that signs that header itself. A buyer's own client is
     * {@link #buyer(URI, String)}.
     */
    public static SeckillApi buyer(URI base) {
        return buyer(base, Duration.ofSeconds(10));
    }

    /** The buyer's API, giving up on an answer after {@code readTimeout} (the purchase may still have happened). */
    public static SeckillApi buyer(URI base, Duration readTimeout) {
        return RestClientBuilder.newBuilder().baseUri(base)
                .connectTimeout(2, TimeUnit.SECONDS).readTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .build(SeckillApi.class);
    }

    /**
     * One signed-in buyer's API: every call carries {@code Authorization: Bearer <bearerToken>}, which
     * names the buyer; the {@code userId} arguments are not sent (the service believes the token only).
     */
    public static SeckillApi buyer(URI base, String bearerToken) {
        return buyer(base, Duration.ofSeconds(10), bearerToken);
    }

    /** The same, giving up on an answer after {@code readTimeout}. */
    public static SeckillApi buyer(URI base, Duration readTimeout, String bearerToken) {
        return buyers(base, readTimeout, userId -> bearerToken);
    }

    /**
     * An API for many buyers at once (a load generator, a service acting for its signed-in users):
     * each call's {@code userId} argument picks the bearer token it carries, {@code tokenOf.apply(userId)};
     * the id itself is not sent.
     */
    public static SeckillApi buyers(URI base, Duration readTimeout, LongFunction<String> tokenOf) {
        ClientRequestFilter bearer = request -> {
            Object userId = request.getHeaders().getFirst(SeckillApi.USER);
            request.getHeaders().remove(SeckillApi.USER);
            if (userId != null) {
                request.getHeaders().putSingle("Authorization",
                        "Bearer " + tokenOf.apply(Long.parseLong(userId.toString())));
            }
        };
        return RestClientBuilder.newBuilder().baseUri(base)
                .connectTimeout(2, TimeUnit.SECONDS).readTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .register(bearer)
                .build(SeckillApi.class);
    }

    /**
     * The buyers of a rehearsal (issue #34, docs/rehearsal.md): as {@link #buyers(URI, Duration, LongFunction)}, and
     * every call naming an activity (in its path, or a reservation id's first part) also carries the edge's signed
     * mark for that activity and the call's buyer, signed when it is sent ({@link RehearsalMark}). Only for an
     * activity of a rehearsal: the service refuses a marked request for a real one ({@code 403}).
     */
    public static SeckillApi rehearsalBuyers(URI base, Duration readTimeout, LongFunction<String> tokenOf,
                                             RehearsalMark mark) {
        ClientRequestFilter bearerAndMark = request -> {
            Object userId = request.getHeaders().getFirst(SeckillApi.USER);
            request.getHeaders().remove(SeckillApi.USER);
            if (userId != null) {
                long buyer = Long.parseLong(userId.toString());
                request.getHeaders().putSingle("Authorization", "Bearer " + tokenOf.apply(buyer));
                RehearsalMark.activityOf(request.getUri().getRawPath()).ifPresent(activity -> request.getHeaders()
                        .putSingle(RehearsalMark.HEADER, mark.sign(activity, buyer, java.time.Instant.now())));
            }
        };
        return RestClientBuilder.newBuilder().baseUri(base)
                .connectTimeout(2, TimeUnit.SECONDS).readTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .register(bearerAndMark)
                .build(SeckillApi.class);
    }

    /**
     * The waiting line's event stream at {@code base} for buyers whose bearer token is {@code tokenOf.apply(userId)}
     * (a null {@code tokenOf}: {@code X-User-Id} is sent instead, for a back end behind a signing gateway).
     */
    public static QueueEvents queueEvents(URI base, LongFunction<String> tokenOf) {
        return new QueueEvents(base, tokenOf, java.time.Clock.systemUTC());
    }

    /** The operator's API at {@code base}, sending {@code Authorization: Bearer <adminToken>} on every call. */
    public static SeckillAdminApi admin(URI base, String adminToken) {
        ClientRequestFilter bearer = request -> request.getHeaders().putSingle("Authorization", "Bearer " + adminToken);
        return RestClientBuilder.newBuilder().baseUri(base)
                .connectTimeout(2, TimeUnit.SECONDS).readTimeout(30, TimeUnit.SECONDS)
                .register(bearer)
                .build(SeckillAdminApi.class);
    }
}
