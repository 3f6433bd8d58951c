package seckill.app.identity;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.Config;

/**
 * How the service knows who the buyer is ({@code seckill.identity.*}, docs/identity.md): the mode
 * (a verified bearer token, or a gateway's signed {@code X-User-Id}), the token keys and claims it
 * checks, and the gateway's shared key. Read once from MicroProfile Config.
 *
 * @param mode              {@code BEARER} (default) or {@code GATEWAY}
 * @param hmacKeys          key id to HMAC secret, in configured order (the first signs dev tokens)
 * @param jwksFile          a JWKS file of RSA/EC public keys, re-read when it changes
 * @param issuer            the {@code iss} every token must carry
 * @param audience          when set, a value the token's {@code aud} must contain
 * @param clockSkew         tolerance on {@code exp} and {@code nbf}
 * @param algorithms        the JWS algorithms accepted at all ({@code none} never is)
 * @param cacheSize         verified tokens kept in memory
 * @param jwksCheckInterval how often the JWKS file's modification time is looked at
 * @param gatewayKey        the gateway mode's shared HMAC key
 * @param gatewayWindow     how far a gateway signature's timestamp may be from now
 * @param signatureHeader   the header carrying the gateway's signature
 * @param trustedPeers      when not blank, the CIDR ranges the gateway connects from
 * @param devSignIn         whether {@code POST /api/v1/dev/sign-in} mints tokens
 * @param devTokenTtl       lifetime of a dev sign-in token
 * @param rehearsalEdgeKey  the edge's key for the rehearsal mark ({@code seckill.rehearsal.edge-key}, 32+ characters,
 *                          not the gateway's; {@link RehearsalMarks}): without it no mark is valid, so no rehearsal
 *                          is reachable
 */
public record IdentitySettings(Mode mode, Map<String, String> hmacKeys, Optional<Path> jwksFile, String issuer,
                               Optional<String> audience, Duration clockSkew, Set<String> algorithms, long cacheSize,
                               Duration jwksCheckInterval, Optional<String> gatewayKey, Duration gatewayWindow,
                               String signatureHeader, String trustedPeers, boolean devSignIn, Duration devTokenTtl,
                               Optional<String> rehearsalEdgeKey) {

    /** Where the buyer's id comes from. */
    public enum Mode { BEARER, GATEWAY }

    /** The shortest {@code seckill.rehearsal.edge-key} accepted. */
    static final int REHEARSAL_KEY_LENGTH = 32;

    static final String DEFAULT_ALGORITHMS =
            "HS256,HS384,HS512,RS256,RS384,RS512,PS256,PS384,PS512,ES256,ES384,ES512";

    public IdentitySettings {
        hmacKeys = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(hmacKeys));
        algorithms = Set.copyOf(algorithms);
        rehearsalEdgeKey.ifPresent(k -> {
            if (k.length() < REHEARSAL_KEY_LENGTH) {
                throw new IllegalArgumentException("seckill.rehearsal.edge-key must be at least " + REHEARSAL_KEY_LENGTH
                        + " characters");
            }
        });
        gatewayKey.ifPresent(k -> {
            if (rehearsalEdgeKey.filter(k::equals).isPresent()) {
                throw new IllegalArgumentException("seckill.rehearsal.edge-key must not be the gateway's key "
                        + "(seckill.identity.gateway.hmac-key): a leak of one would grant the other");
            }
        });
    }

    static IdentitySettings from(Config config) {
        String mode = text(config, "seckill.identity.mode").orElse("bearer").toUpperCase();
        if (!mode.equals("BEARER") && !mode.equals("GATEWAY")) {
            throw new IllegalArgumentException("seckill.identity.mode must be bearer or gateway, not " + mode.toLowerCase());
        }
        Set<String> algorithms = List.of(text(config, "seckill.identity.algorithms").orElse(DEFAULT_ALGORITHMS).split(","))
                .stream().map(String::trim).filter(a -> !a.isEmpty()).collect(Collectors.toSet());
        if (algorithms.stream().anyMatch(a -> a.equalsIgnoreCase("none"))) {
            throw new IllegalArgumentException("seckill.identity.algorithms may not allow 'none'");
        }
        return new IdentitySettings(Mode.valueOf(mode),
                keys(text(config, "seckill.identity.hmac-keys").orElse("")),
                text(config, "seckill.identity.jwks-file").map(Path::of),
                text(config, "seckill.identity.issuer").orElse("seckill"),
                text(config, "seckill.identity.audience"),
                Duration.ofSeconds(number(config, "seckill.identity.clock-skew-seconds", 30)),
                algorithms,
                number(config, "seckill.identity.cache-size", 100_000),
                Duration.ofMillis(number(config, "seckill.identity.jwks-check-millis", 1_000)),
                text(config, "seckill.identity.gateway.hmac-key"),
                Duration.ofSeconds(number(config, "seckill.identity.gateway.window-seconds", 30)),
                text(config, "seckill.identity.gateway.signature-header").orElse("X-User-Signature"),
                text(config, "seckill.identity.gateway.trusted-peers").orElse(""),
                config.getOptionalValue("seckill.identity.dev-sign-in", Boolean.class).orElse(false),
                Duration.ofSeconds(number(config, "seckill.identity.dev-token-ttl-seconds", 3_600)),
                text(config, "seckill.rehearsal.edge-key"));
    }

    /** {@code id=secret[,id=secret]}, in order. */
    public static Map<String, String> keys(String text) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String pair : text.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] idAndSecret = pair.trim().split("=", 2);
            if (idAndSecret.length != 2 || idAndSecret[0].isBlank()) {
                throw new IllegalArgumentException("seckill.identity.hmac-keys must look like id=secret[,id=secret]");
            }
            keys.put(idAndSecret[0].trim(), idAndSecret[1]);
        }
        return keys;
    }

    private static Optional<String> text(Config config, String key) {
        return config.getOptionalValue(key, String.class).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static long number(Config config, String key, long fallback) {
        return config.getOptionalValue(key, Long.class).orElse(fallback);
    }
}
