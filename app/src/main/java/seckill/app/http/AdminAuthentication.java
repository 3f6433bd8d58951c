package seckill.app.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.app.infra.AdminToken;

/**
 * The one check of the admin token, for every resource marked {@link AdminOnly}: before the body is
 * read or the resource runs, a request without {@code Authorization: Bearer <seckill.admin.token>}
 * is answered {@code 401 UNAUTHENTICATED} with a {@code WWW-Authenticate} challenge.
 *
 * <p>Token guesses are throttled ({@link FailedAdminLogins}): after
 * {@code seckill.admin.auth.max-failures-per-address} failures from one client address (the
 * {@link ClientAddress} rule, so behind a trusted proxy the address it saw) within
 * {@code seckill.admin.auth.window-seconds}, or {@code seckill.admin.auth.max-failures} from everyone,
 * further tries are answered {@code 429 THROTTLED} with {@code Retry-After} before the token is looked
 * at, so a 429 tells a guesser nothing about its guess. Every failure is logged at WARNING with the
 * address (never the offered text: it may be a mistyped real token) and counted in
 * {@code seckill_admin_auth_failures_total}.
 */
@Provider
@AdminOnly
// one instance: the failure counts are the filter's state
@Singleton
@Priority(Priorities.AUTHENTICATION)
public class AdminAuthentication implements ContainerRequestFilter {

    private static final Logger LOG = Logger.getLogger(AdminAuthentication.class.getName());
    /** Where Helidon's JAX-RS bridge leaves the connection's peer for filters. */
    private static final String REMOTE_HOST = "io.helidon.jaxrs.remote-host";
    private static final Metadata FAILURES = Metadata.builder().withName("seckill.admin.auth.failures")
            .withDescription("Admin API requests refused for their token: outcome=missing (no bearer token), "
                    + "wrong (a token that is not the admin token), throttled (429: too many failures from the "
                    + "address or in total; the token was not looked at). A rising rate is someone guessing.")
            .build();

    private final AdminToken token;
    private final ClientAddress clientAddress;
    private final Clock clock;
    private final MetricRegistry metrics;
    private final FailedAdminLogins failedLogins;
    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();

    @Inject
    public AdminAuthentication(AdminToken token, ClientAddress clientAddress, Clock clock, MetricRegistry metrics,
                               @ConfigProperty(name = "seckill.admin.auth.max-failures-per-address", defaultValue = "10")
                               int perAddress,
                               @ConfigProperty(name = "seckill.admin.auth.max-failures", defaultValue = "100")
                               int total,
                               @ConfigProperty(name = "seckill.admin.auth.window-seconds", defaultValue = "60")
                               long windowSeconds) {
        this.token = token;
        this.clientAddress = clientAddress;
        this.clock = clock;
        this.metrics = metrics;
        this.failedLogins = new FailedAdminLogins(
                new FailedAdminLogins.Limits(perAddress, total, Duration.ofSeconds(windowSeconds), 100_000));
        // registered at start, so each series (and its help) exists before the first failure
        for (String outcome : List.of("missing", "wrong", "throttled")) {
            outcomes.computeIfAbsent(outcome, o -> metrics.counter(FAILURES, new Tag("outcome", o)));
        }
    }

    @Override
    public void filter(ContainerRequestContext request) {
        Object peer = request.getProperty(REMOTE_HOST);
        String address = clientAddress.of(peer == null ? "" : peer.toString(), request.getHeaderString("X-Forwarded-For"));
        Instant now = clock.instant();
        String path = request.getUriInfo().getRequestUri().getPath();
        Optional<FailedAdminLogins.Refusal> refusal = failedLogins.refusal(address, now);
        if (refusal.isPresent()) {
            count("throttled");
            request.abortWith(new Problem(429, "THROTTLED", "Too many failed authentications",
                    "Too many failed admin authentications from " + ("ADDRESS".equals(refusal.get().limit())
                            ? "this address" : "everyone") + "; try again after Retry-After.",
                    Duration.ofSeconds(refusal.get().retryAfterSeconds()))
                    .with("limit", refusal.get().limit())
                    .toResponse(path));
            return;
        }
        String authorization = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (token.admits(authorization)) {
            return;
        }
        int failures = failedLogins.failed(address, now);
        String outcome = authorization == null ? "missing" : "wrong";
        count(outcome);
        LOG.warning(() -> "admin authentication failed (" + outcome + " token) from " + address + " on "
                + request.getMethod() + " " + path + ": " + failures + " failure(s) from this address in this window");
        request.abortWith(new Problem(401, "UNAUTHENTICATED", "Unauthenticated",
                "This endpoint needs 'Authorization: Bearer <seckill.admin.token>'.")
                .header("WWW-Authenticate", "Bearer realm=\"seckill-admin\"")
                .toResponse(path));
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, o -> metrics.counter(FAILURES, new Tag("outcome", o))).inc();
    }
}
