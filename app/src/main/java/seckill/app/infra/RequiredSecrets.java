package seckill.app.infra;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

/**
 * The secrets a service with real stores must have, checked once at start-up so a weak or missing one
 * fails the start, naming its key, instead of surfacing at the first admin call or purchase. In dev
 * mode (no store configured, {@link DevDefaultsSource}) the well-known dev secrets are accepted.
 */
@ApplicationScoped
public class RequiredSecrets {

    static final int MIN_LENGTH = 32;
    private static final Logger LOG = Logger.getLogger(RequiredSecrets.class.getName());

    private final Config config;

    @Inject
    RequiredSecrets(Config config) {
        this.config = config;
    }

    void checkAtStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        if (DevDefaultsSource.isDevMode(config)) {
            return;
        }
        List<String> problems = problems(value("seckill.admin.token"), value("seckill.admission.token-keys"),
                value("seckill.payment.hmac-key"));
        problems.addAll(identityProblems(value("seckill.identity.mode").orElse("bearer"),
                value("seckill.identity.hmac-keys"), value("seckill.identity.jwks-file"),
                value("seckill.identity.gateway.hmac-key")));
        problems.addAll(rehearsalProblems(value("seckill.rehearsal.edge-key"), value("seckill.identity.gateway.hmac-key")));
        if (config.getOptionalValue("seckill.identity.dev-sign-in", Boolean.class).orElse(false)) {
            // one switch must not let anyone sign in as any buyer with the real identity key: outside dev
            // mode it takes a second, deliberately named one (the test configuration sets both)
            if (config.getOptionalValue("seckill.identity.dev-sign-in-outside-dev-mode", Boolean.class).orElse(false)) {
                LOG.severe("DEV SIGN-IN ENABLED outside dev mode (seckill.identity.dev-sign-in and "
                        + "seckill.identity.dev-sign-in-outside-dev-mode): anyone can sign in as any buyer at "
                        + "POST /api/v1/dev/sign-in; never run a sale like this");
            } else {
                problems.add("seckill.identity.dev-sign-in is on outside dev mode: anyone could sign in as any buyer"
                        + " with the real identity key (turn it off; only a test deployment may also set"
                        + " seckill.identity.dev-sign-in-outside-dev-mode=true)");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("refusing to start: " + String.join("; ", problems));
        }
        if (value("seckill.payment.hmac-key").isEmpty()) {
            LOG.severe("PAYMENTS NOT CONFIGURED: seckill.payment.hmac-key is not set; every payment callback is "
                    + "answered 503 PAYMENTS_NOT_CONFIGURED until it is");
        }
        if (value("seckill.payment.price").isEmpty() || value("seckill.payment.currency").isEmpty()) {
            LOG.severe("PAYMENTS NOT CONFIGURED: seckill.payment.price and seckill.payment.currency must both be set"
                    + " (every payment must equal them); until then every payment callback is answered 503"
                    + " PAYMENTS_NOT_CONFIGURED");
        }
    }

    /** What is wrong with the given secrets outside dev mode; empty when they will do. */
    static List<String> problems(Optional<String> adminToken, Optional<String> tokenKeys, Optional<String> paymentKey) {
        List<String> problems = new ArrayList<>();
        if (adminToken.isEmpty()) {
            problems.add("seckill.admin.token is not set (set SECKILL_ADMIN_TOKEN)");
        } else if (adminToken.get().length() < MIN_LENGTH) {
            problems.add("seckill.admin.token is shorter than " + MIN_LENGTH + " characters");
        }
        if (tokenKeys.isEmpty()) {
            problems.add("seckill.admission.token-keys is not set (id=secret[,id=secret], set "
                    + "SECKILL_ADMISSION_TOKEN_KEYS)");
        } else {
            for (String pair : tokenKeys.get().split(",")) {
                String[] idAndSecret = pair.trim().split("=", 2);
                if (idAndSecret.length != 2) {
                    problems.add("seckill.admission.token-keys must look like id=secret[,id=secret]");
                } else if (idAndSecret[1].length() < MIN_LENGTH) {
                    problems.add("seckill.admission.token-keys: the key '" + idAndSecret[0] + "' is shorter than "
                            + MIN_LENGTH + " characters");
                }
            }
        }
        paymentKey.filter(k -> k.length() < MIN_LENGTH).ifPresent(k -> problems.add(
                "seckill.payment.hmac-key is shorter than " + MIN_LENGTH + " characters"));
        return problems;
    }

    /**
     * What is wrong with the buyers' identity configuration outside dev mode: the bearer mode needs
     * HMAC keys (each at least 32 characters) or a JWKS file; the gateway mode its shared key.
     */
    static List<String> identityProblems(String mode, Optional<String> hmacKeys, Optional<String> jwksFile,
                                         Optional<String> gatewayKey) {
        List<String> problems = new ArrayList<>();
        if (mode.equalsIgnoreCase("gateway")) {
            if (gatewayKey.isEmpty()) {
                problems.add("seckill.identity.gateway.hmac-key is not set (the gateway mode needs the key the gateway "
                        + "signs X-User-Id with; set SECKILL_IDENTITY_GATEWAY_HMAC_KEY)");
            } else if (gatewayKey.get().length() < MIN_LENGTH) {
                problems.add("seckill.identity.gateway.hmac-key is shorter than " + MIN_LENGTH + " characters");
            }
        } else if (!mode.equalsIgnoreCase("bearer")) {
            problems.add("seckill.identity.mode must be bearer or gateway");
        }
        if (mode.equalsIgnoreCase("bearer") && hmacKeys.isEmpty() && jwksFile.isEmpty()) {
            problems.add("seckill.identity.hmac-keys or seckill.identity.jwks-file must be set (the keys buyers' "
                    + "bearer tokens are verified with; set SECKILL_IDENTITY_HMAC_KEYS=id=secret or "
                    + "SECKILL_IDENTITY_JWKS_FILE)");
        }
        hmacKeys.ifPresent(keys -> {
            for (String pair : keys.split(",")) {
                String[] idAndSecret = pair.trim().split("=", 2);
                if (idAndSecret.length != 2) {
                    problems.add("seckill.identity.hmac-keys must look like id=secret[,id=secret]");
                } else if (idAndSecret[1].length() < MIN_LENGTH) {
                    problems.add("seckill.identity.hmac-keys: the key '" + idAndSecret[0] + "' is shorter than "
                            + MIN_LENGTH + " characters");
                }
            }
        });
        return problems;
    }

    /**
     * The edge's rehearsal key, when set (unset: no rehearsal mark is valid): at least 32 characters and not the
     * gateway's key, so a leak of one grants nothing of the other (docs/rehearsal.md).
     */
    static List<String> rehearsalProblems(Optional<String> edgeKey, Optional<String> gatewayKey) {
        List<String> problems = new ArrayList<>();
        edgeKey.ifPresent(key -> {
            if (key.length() < MIN_LENGTH) {
                problems.add("seckill.rehearsal.edge-key is shorter than " + MIN_LENGTH + " characters");
            }
            if (gatewayKey.filter(key::equals).isPresent()) {
                problems.add("seckill.rehearsal.edge-key is the gateway's key (seckill.identity.gateway.hmac-key): "
                        + "give the edge's rehearsal mark a key of its own");
            }
        });
        return problems;
    }

    private Optional<String> value(String key) {
        return config.getOptionalValue(key, String.class).map(String::trim).filter(v -> !v.isEmpty());
    }
}
