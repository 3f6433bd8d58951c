package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import seckill.admission.api.CaptchaChallenge;
import seckill.admission.api.CaptchaVerifier;
import seckill.admission.api.PurchaseTokens;
import seckill.admission.api.TokenIssue;

/**
 * Captcha first, then a signed token, and only while the activity is open: scripts cannot collect
 * tokens before the start and camp on the purchase endpoint.
 */
@ApplicationScoped
class IssuingPurchaseTokens implements PurchaseTokens {

    private static final Logger LOG = Logger.getLogger(IssuingPurchaseTokens.class.getName());

    @Inject
    CaptchaVerifier captcha;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "seckill.admission.token-keys")
    Optional<String> keys;

    @Inject
    @ConfigProperty(name = "seckill.admission.token-ttl-seconds", defaultValue = "60")
    long ttlSeconds;

    private TokenSigner signer;

    @PostConstruct
    void init() {
        // in dev mode the app's dev-defaults config source supplies well-known keys
        if (keys.filter(k -> !k.isBlank()).isPresent()) {
            signer = new TokenSigner(keys.get());
        } else {
            LOG.severe("seckill.admission.token-keys is not set: no purchase token can be issued or accepted; with "
                    + "seckill.admission.token-required=true every purchase is refused until it is set");
        }
    }

    /** The signer, or null when no key is configured (every token is then refused). */
    TokenSigner signer() {
        return signer;
    }

    @Override
    public CaptchaChallenge challenge(long activityId, long userId) {
        return captcha.issue(activityId, userId);
    }

    @Override
    public TokenIssue issue(long activityId, long userId, String challengeId, String answer, Instant startsAt,
                            Instant endsAt) {
        Instant now = clock.instant();
        if (now.isBefore(startsAt) || !now.isBefore(endsAt)) {
            return new TokenIssue.NotOpen(now.isBefore(startsAt));
        }
        if (signer == null || !captcha.verify(activityId, userId, challengeId, answer)) {
            return new TokenIssue.ChallengeFailed();
        }
        Instant expiresAt = now.plus(Duration.ofSeconds(ttlSeconds));
        return new TokenIssue.Issued(signer.sign(activityId, userId, expiresAt), expiresAt);
    }
}
