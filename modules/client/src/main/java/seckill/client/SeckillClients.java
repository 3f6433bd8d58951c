package seckill.client;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import jakarta.ws.rs.client.ClientRequestFilter;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/** Builds the clients outside CDI, on whatever MicroProfile REST Client implementation is present. */
public final class SeckillClients {

    private SeckillClients() {
    }

    /** The buyer's API at {@code base} (e.g. {@code http://127.0.0.1:8080}), waiting at most 10 s for an answer. */
    public static SeckillApi buyer(URI base) {
        return buyer(base, Duration.ofSeconds(10));
    }

    /** The buyer's API, giving up on an answer after {@code readTimeout} (the purchase may still have happened). */
    public static SeckillApi buyer(URI base, Duration readTimeout) {
        return RestClientBuilder.newBuilder().baseUri(base)
                .connectTimeout(2, TimeUnit.SECONDS).readTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .build(SeckillApi.class);
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
