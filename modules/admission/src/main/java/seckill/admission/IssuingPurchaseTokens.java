package seckill.admission;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import seckill.admission.api.CaptchaChallenge;
import seckill.admission.rules.RecentRate;
import seckill.admission.rules.WorkDifficulty;
import redis.clients.jedis.exceptions.JedisException;
import seckill.admission.api.Admission;
import seckill.admission.api.ChallengeIssue;
import seckill.admission.api.CaptchaVerifier;
import seckill.admission.api.HaltReason;
import seckill.admission.api.PurchaseTokens;
import seckill.admission.api.SaleWindow;
import seckill.admission.api.TokenIssue;

/**
 * Captcha first, then a signed token, and only while the activity is open: scripts cannot collect
 * tokens before the start and camp on the purchase endpoint.
 */
@ApplicationScoped
class IssuingPurchaseTokens implements PurchaseTokens {

    private static final Logger LOG = Logger.getLogger(IssuingPurchaseTokens.class.getName());

    private final CaptchaVerifier captcha;
    private final ProofOfWork work;
    private final RecentRate challengeRate = new RecentRate();
    private final Admission admission;
    private final AdmissionSwitches switches;
    private final ChallengeThrottle throttle;
    private final Clock clock;
    private final Optional<String> keys;
    private final long ttlSeconds;
    private final Randomness randomness;

    @Inject
    IssuingPurchaseTokens(@Any Instance<CaptchaVerifier> verifiers,
                          UnifiedJedis redis,
                          Admission admission,
                          AdmissionSwitches switches,
                          ChallengeThrottle throttle,
                          Clock clock,
                          Randomness randomness,
                          AdmissionSettings settings) {
        this.randomness = randomness;
        this.captcha = chosen(verifiers, settings.captchaVerifier());
        this.work = new ProofOfWork(redis, settings.captchaTtlSeconds());
        this.admission = admission;
        this.switches = switches;
        this.throttle = throttle;
        this.clock = clock;
        this.keys = settings.tokenKeys();
        this.ttlSeconds = settings.tokenTtlSeconds();
    }

    private TokenSigner signer;

    /** The verifier {@code seckill.admission.captcha-verifier} names (a CDI bean's {@code @Named}); the built-in is "image". */
    private static CaptchaVerifier chosen(Instance<CaptchaVerifier> verifiers, String name) {
        Instance<CaptchaVerifier> named = verifiers.select(NamedLiteral.of(name));
        if (!named.isResolvable()) {
            throw new IllegalStateException("seckill.admission.captcha-verifier=" + name + " names no single CDI bean "
                    + "implementing seckill.admission.api.CaptchaVerifier with @Named(\"" + name + "\")");
        }
        return named.get();
    }

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
    public ChallengeIssue challenge(long activityId, long userId, String clientIp, SaleWindow window) {
        // every ask counts as load, refused or not: a flood raises the price of the next token
        challengeRate.count(clock.millis());
        Optional<HaltReason> halted = admission.haltedBecause(seckill.redis.World.of(activityId));
        if (halted.isPresent()) {
            return new ChallengeIssue.Halted(halted.get());
        }
        if (switches.blockedUsers().contains(Long.toString(userId))) {
            return new ChallengeIssue.Blocked("buyer");
        }
        if (clientIp != null && !clientIp.isEmpty() && switches.blockedIps().contains(clientIp)) {
            return new ChallengeIssue.Blocked("address");
        }
        if (window.endedAt(clock.instant())) {
            return new ChallengeIssue.Ended();
        }
        try {
            Optional<ChallengeThrottle.Refusal> refused = throttle.check(activityId, userId, clientIp);
            if (refused.isPresent()) {
                ChallengeThrottle.Refusal r = refused.get();
                return new ChallengeIssue.Throttled(r.limit(), r.perMinute(), r.retryAfterSeconds());
            }
            CaptchaChallenge challenge = captcha.issue(activityId, userId);
            int bits = WorkDifficulty.bits(switches.proofOfWorkBits(), switches.proofOfWorkMaxBits(),
                    switches.proofOfWorkLoadThreshold(), challengeRate.perSecond(clock.millis()));
            work.stamp(activityId, challenge.challengeId(), bits);
            return new ChallengeIssue.Issued(challenge, bits);
        } catch (JedisException e) {
            LOG.warning(() -> "captcha challenge not issued, Redis does not answer: " + e.getMessage());
            return new ChallengeIssue.Unavailable();
        }
    }

    @Override
    public TokenIssue issue(long activityId, long userId, String challengeId, String answer, String nonce,
                            SaleWindow window) {
        Instant now = clock.instant();
        if (window.notStartedAt(now)) {
            return new TokenIssue.NotOpen(true, window.secondsUntilStart(now));
        }
        if (window.endedAt(now)) {
            return new TokenIssue.NotOpen(false, 0);
        }
        if (signer == null) {
            return new TokenIssue.ChallengeFailed();
        }
        // the work before the captcha: one hash, and a script that skipped it never reaches the verifier
        ProofOfWork.Verdict proof = work.check(activityId, challengeId, Optional.ofNullable(nonce));
        switch (proof) {
            case MISSING -> {
                return new TokenIssue.ProofOfWorkFailed(true);
            }
            case WRONG -> {
                return new TokenIssue.ProofOfWorkFailed(false);
            }
            case UNKNOWN_CHALLENGE -> {
                return new TokenIssue.ChallengeFailed();
            }
            case PROVED -> {
                // on to the captcha
            }
        }
        if (!captcha.verify(activityId, userId, challengeId, answer)) {
            return new TokenIssue.ChallengeFailed();
        }
        Instant expiresAt = now.plus(Duration.ofSeconds(ttlSeconds));
        return new TokenIssue.Issued(signer.sign(activityId, userId, expiresAt, randomness.hexId(12)), expiresAt);
    }
}
