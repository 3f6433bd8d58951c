package seckill.app.infra;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The operator's bearer token ({@code seckill.admin.token}). Without one, the service only starts
 * in dev mode (no Redis or database configured), where it uses a well-known dev token and says so
 * loudly; anywhere else it refuses to start rather than run an open admin API.
 */
@ApplicationScoped
public class AdminToken {

    private static final Logger LOG = Logger.getLogger(AdminToken.class.getName());
    public static final String DEV_TOKEN = "dev-admin-token";

    @Inject
    @ConfigProperty(name = "seckill.admin.token")
    Optional<String> configured;

    @Inject
    @ConfigProperty(name = "seckill.redis.uri")
    Optional<String> redisUri;

    @Inject
    @ConfigProperty(name = "seckill.db.url")
    Optional<String> dbUrl;

    private byte[] token;

    @PostConstruct
    void resolve() {
        if (configured.filter(t -> !t.isBlank()).isPresent()) {
            token = configured.get().getBytes(StandardCharsets.UTF_8);
            return;
        }
        if (redisUri.isPresent() || dbUrl.isPresent()) {
            throw new IllegalStateException("seckill.admin.token is not set; it is required when Redis or the "
                    + "database is configured (set SECKILL_ADMIN_TOKEN)");
        }
        LOG.warning("DEV MODE: seckill.admin.token is not set, the admin API accepts the DEV token '" + DEV_TOKEN
                + "'. Never run like this in production.");
        token = DEV_TOKEN.getBytes(StandardCharsets.UTF_8);
    }

    /** Resolving at start-up makes a missing production token fail the start, not the first admin call. */
    void checkAtStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        if (token == null) {
            throw new IllegalStateException("admin token not resolved");
        }
    }

    /** Whether an {@code Authorization} header carries the admin token; constant time. */
    public boolean admits(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.startsWith("Bearer ")) {
            return false;
        }
        byte[] offered = authorizationHeader.substring("Bearer ".length()).trim().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(offered, token);
    }
}
