package seckill.admission.rules;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.HaltReason;
import seckill.admission.api.PurchaseAttempt;

/**
 * Admission's checks that need no Redis call, in the order that costs least first: halt, the
 * buyer's and the address' blocklists, the sale window, this instance's sold-out flag, the purchase
 * token. The first that refuses decides; an attempt that passes them all goes on to the shared rate
 * limits. Plain logic: what it reads is handed to it.
 */
public final class CheapChecks {

    /** The hot switches these checks read, as in force now. */
    public record Switches(boolean halt, Set<String> blockedUsers, Set<String> blockedIps, boolean tokenRequired) {
    }

    /** Whether this instance flags the SKU sold out. */
    public interface SoldOutFlags {
        boolean isSet(long activityId, long skuId);
    }

    /** Why a purchase token is refused for this buyer and activity now, or empty when it is valid. */
    public interface TokenCheck {
        Optional<String> refusal(Optional<String> token, long activityId, long userId, Instant now);
    }

    private final SoldOutFlags flags;
    private final TokenCheck tokens;

    public CheapChecks(SoldOutFlags flags, TokenCheck tokens) {
        this.flags = flags;
        this.tokens = tokens;
    }

    /**
     * The checks of a join of the waiting line: halt, blocklists, the sale's end, and the token only once the
     * sale started (none can be issued before). Empty when the buyer may join.
     */
    public Optional<AdmissionDecision> lineRefusal(PurchaseAttempt attempt, Optional<HaltReason> halted,
                                                   Switches switches, Instant now) {
        Optional<AdmissionDecision> who = whoRefusal(attempt, halted, switches);
        if (who.isPresent()) {
            return who;
        }
        if (attempt.window().endedAt(now)) {
            return Optional.of(new AdmissionDecision.Ended());
        }
        if (switches.tokenRequired() && !attempt.window().notStartedAt(now)) {
            return tokens.refusal(attempt.purchaseToken(), attempt.activityId(), attempt.userId(), now)
                    .map(AdmissionDecision.TokenInvalid::new);
        }
        return Optional.empty();
    }

    private static Optional<AdmissionDecision> whoRefusal(PurchaseAttempt attempt, Optional<HaltReason> halted,
                                                          Switches switches) {
        if (halted.isPresent()) {
            return Optional.of(new AdmissionDecision.Halted(halted.get(), 2));
        }
        if (switches.halt()) {
            return Optional.of(new AdmissionDecision.Halted(HaltReason.OPERATOR_SWITCH, 5));
        }
        if (switches.blockedUsers().contains(Long.toString(attempt.userId()))) {
            return Optional.of(new AdmissionDecision.Blocked("buyer"));
        }
        if (!attempt.clientIp().isEmpty() && switches.blockedIps().contains(attempt.clientIp())) {
            return Optional.of(new AdmissionDecision.Blocked("client address"));
        }
        return Optional.empty();
    }

    /** The refusal of the first check that refuses, or empty when the attempt passed them all. */
    public Optional<AdmissionDecision> refusal(PurchaseAttempt attempt, Optional<HaltReason> halted, Switches switches,
                                               Instant now) {
        Optional<AdmissionDecision> who = whoRefusal(attempt, halted, switches);
        if (who.isPresent()) {
            return who;
        }
        if (attempt.window().notStartedAt(now)) {
            return Optional.of(new AdmissionDecision.NotStarted(attempt.window().secondsUntilStart(now)));
        }
        if (attempt.window().endedAt(now)) {
            return Optional.of(new AdmissionDecision.Ended());
        }
        if (flags.isSet(attempt.activityId(), attempt.skuId())) {
            return Optional.of(new AdmissionDecision.SoldOut());
        }
        if (switches.tokenRequired()) {
            return tokens.refusal(attempt.purchaseToken(), attempt.activityId(), attempt.userId(), now)
                    .map(AdmissionDecision.TokenInvalid::new);
        }
        return Optional.empty();
    }
}
