package seckill.app.infra;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The operator's bearer token ({@code seckill.admin.token}). Required: the service refuses to start
 * without one rather than run an open admin API (in dev mode {@link DevDefaultsSource} supplies it).
 */
@ApplicationScoped
public class AdminToken {

    private final Optional<String> configured;

    @Inject
    AdminToken(@ConfigProperty(name = "seckill.admin.token") Optional<String> configured) {
        this.configured = configured;
    }

    private byte[] token;

    @PostConstruct
    void resolve() {
        token = configured.filter(t -> !t.isBlank())
                .orElseThrow(() -> new IllegalStateException("seckill.admin.token is not set; it is required when Redis "
                        + "or the database is configured (set SECKILL_ADMIN_TOKEN)"))
                .getBytes(StandardCharsets.UTF_8);
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
        // digests of equal length: the comparison's time tells nothing of the token's length either
        return MessageDigest.isEqual(sha256(offered), sha256(token));
    }

    private static byte[] sha256(byte[] text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
