package seckill.app.identity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.logging.Logger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import jakarta.inject.Inject;
import seckill.app.sale.HotPathSingleton;

/**
 * Verifies a buyer's bearer token (a JWS) and returns the buyer it names: signature by a configured
 * key whose type allows the token's algorithm (HMAC secrets by key id, RSA/EC public keys from a JWKS
 * file that is re-read when it changes), {@code exp} required and not past (with a small skew),
 * {@code nbf} not ahead, {@code iss} the configured issuer, {@code aud} containing the configured
 * audience when one is set, and {@code sub} a positive integer, the buyer's id. A verified token is
 * remembered, keyed by its text, until it expires (bounded), so a buyer's repeated clicks cost one
 * map look-up, not a signature check; a changed JWKS file forgets them all. Refusals are never
 * remembered: they cost a parse (and, for a well-formed token, one signature check) each.
 */
@HotPathSingleton
public class BearerTokens {

    private static final Logger LOG = Logger.getLogger(BearerTokens.class.getName());

    /** What a verified token said: the buyer, and until when (epoch millis, skew included) it holds. */
    private record Verified(long buyer, long validUntilMillis) {
    }

    private final IdentitySettings settings;
    private final Clock clock;
    private final Cache<String, Verified> verified;
    private volatile VerificationKeys keys;
    private volatile long nextJwksCheck;
    private volatile long jwksStamp;

    @Inject
    public BearerTokens(IdentitySettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.verified = Caffeine.newBuilder().maximumSize(settings.cacheSize())
                .expireAfter(new Expiry<String, Verified>() {
                    @Override
                    public long expireAfterCreate(String token, Verified value, long currentTime) {
                        return Math.max(0, Duration.ofMillis(value.validUntilMillis() - clock.millis()).toNanos());
                    }

                    @Override
                    public long expireAfterUpdate(String token, Verified value, long currentTime, long currentDuration) {
                        return expireAfterCreate(token, value, currentTime);
                    }

                    @Override
                    public long expireAfterRead(String token, Verified value, long currentTime, long currentDuration) {
                        return currentDuration;
                    }
                }).build();
        this.jwksStamp = settings.jwksFile().map(BearerTokens::stamp).orElse(0L);
        this.keys = load(settings);
        this.nextJwksCheck = clock.millis() + settings.jwksCheckInterval().toMillis();
    }

    /** For CDI's proxy. */
    BearerTokens() {
        this.settings = null;
        this.clock = null;
        this.verified = null;
    }

    /** The buyer a token names, or 0 when it is not a valid token of ours. */
    public long buyerOf(String token) {
        if (token == null || token.isEmpty() || token.length() > 8_192) {
            return 0;
        }
        long now = clock.millis();
        if (settings.jwksFile().isPresent() && now >= nextJwksCheck) {
            reloadIfChanged(now);
        }
        Verified known = verified.getIfPresent(token);
        if (known != null) {
            return now < known.validUntilMillis() ? known.buyer() : 0;
        }
        VerificationKeys keysUsed = keys;
        Verified fresh = verify(token, now, keysUsed);
        if (fresh == null) {
            return 0;
        }
        // a reload that took a key out while this verification ran emptied the cache already: this
        // token, verified with the keys before it, is answered once but not remembered
        if (keys == keysUsed) {
            verified.put(token, fresh);
        }
        return fresh.buyer();
    }

    private Verified verify(String token, long now, VerificationKeys keys) {
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            JWSHeader header = jwt.getHeader();
            List<JWSVerifier> candidates = keys.candidates(header.getKeyID(), header.getAlgorithm(), settings.algorithms());
            boolean signed = false;
            for (JWSVerifier verifier : candidates) {
                if (jwt.verify(verifier)) {
                    signed = true;
                    break;
                }
            }
            if (!signed) {
                return null;
            }
            return claims(jwt.getJWTClaimsSet(), now);
        } catch (ParseException | JOSEException | RuntimeException e) {
            // whatever a client sends, a malformed token is just not a token
            return null;
        }
    }

    private Verified claims(JWTClaimsSet claims, long now) {
        long skew = settings.clockSkew().toMillis();
        Date exp = claims.getExpirationTime();
        if (exp == null || exp.getTime() + skew <= now) {
            return null;
        }
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && nbf.getTime() - skew > now) {
            return null;
        }
        if (!settings.issuer().equals(claims.getIssuer())) {
            return null;
        }
        if (settings.audience().isPresent()
                && (claims.getAudience() == null || !claims.getAudience().contains(settings.audience().get()))) {
            return null;
        }
        long buyer = buyerId(claims.getSubject());
        return buyer > 0 ? new Verified(buyer, exp.getTime() + skew) : null;
    }

    /** A positive decimal id of at most 18 digits; anything else is 0. */
    static long buyerId(String subject) {
        if (subject == null || subject.isEmpty() || subject.length() > 18) {
            return 0;
        }
        long id = 0;
        for (int i = 0; i < subject.length(); i++) {
            char c = subject.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
            id = id * 10 + (c - '0');
        }
        return id;
    }

    private synchronized void reloadIfChanged(long now) {
        if (now < nextJwksCheck) {
            return;
        }
        nextJwksCheck = now + settings.jwksCheckInterval().toMillis();
        long stamp = stamp(settings.jwksFile().orElseThrow());
        if (stamp == jwksStamp) {
            return;
        }
        try {
            keys = load(settings);
            jwksStamp = stamp;
            // a key taken out of the file must stop working now, not when its tokens expire
            verified.invalidateAll();
            LOG.info("identity: reloaded the JWKS file " + settings.jwksFile().orElseThrow());
        } catch (RuntimeException e) {
            LOG.warning("identity: the changed JWKS file " + settings.jwksFile().orElseThrow()
                    + " cannot be read, keeping the keys read before: " + e.getMessage());
        }
    }

    private static VerificationKeys load(IdentitySettings settings) {
        JWKSet jwks = settings.jwksFile().map(BearerTokens::readJwks).orElse(null);
        return VerificationKeys.of(settings.hmacKeys(), jwks);
    }

    private static JWKSet readJwks(Path file) {
        try {
            return JWKSet.parse(Files.readString(file));
        } catch (IOException | ParseException e) {
            throw new IllegalArgumentException("seckill.identity.jwks-file " + file + " cannot be read as a JWKS: "
                    + e.getMessage());
        }
    }

    /**
     * What changes when the file does: a hash of its content (0 when it cannot be read). Not its time and
     * size: a replacement of the same size copied with its old time ({@code cp -p}, {@code rsync -a})
     * would keep a removed key in force. A JWKS file is small and read at most once a check period.
     */
    private static long stamp(Path file) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
            return java.nio.ByteBuffer.wrap(digest).getLong();
        } catch (IOException | java.security.NoSuchAlgorithmException e) {
            return 0;
        }
    }

    /** Whether any key is configured at all (the service refuses to start in bearer mode without one). */
    public boolean hasKeys() {
        return !keys.isEmpty();
    }
}
