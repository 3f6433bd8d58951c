package seckill.admission.rules;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.HaltReason;
import seckill.admission.api.PurchaseAttempt;
import seckill.admission.api.SaleWindow;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The cheap checks' order and answers, with the token check and the sold-out flags as fakes. */
class CheapChecksTest {

    private static final Instant NOW = Instant.parse("2026-06-18T12:00:00Z");
    private static final SaleWindow OPEN = new SaleWindow(NOW.minusSeconds(60), NOW.plusSeconds(600));
    private static final CheapChecks.Switches PLAIN = new CheapChecks.Switches(false, Set.of(), Set.of(), true);

    private final CheapChecks checks = new CheapChecks((activity, sku) -> sku == 2,
            (token, activity, user, now) -> token.isEmpty() ? Optional.of("MISSING")
                    : token.get().equals("good") ? Optional.empty() : Optional.of("BAD_SIGNATURE"));

    @Test
    void theTokenIsCheckedLastAndAValidOnePassesEverything() {
        assertThat(checks.refusal(attempt(1, Optional.of("good")), Optional.empty(), PLAIN, NOW), is(Optional.empty()));
        assertThat(checks.refusal(attempt(1, Optional.empty()), Optional.empty(), PLAIN, NOW),
                is(Optional.of(new AdmissionDecision.TokenInvalid("MISSING"))));
        assertThat(checks.refusal(attempt(1, Optional.of("forged")), Optional.empty(), PLAIN, NOW),
                is(Optional.of(new AdmissionDecision.TokenInvalid("BAD_SIGNATURE"))));
        CheapChecks.Switches noTokens = new CheapChecks.Switches(false, Set.of(), Set.of(), false);
        assertThat(checks.refusal(attempt(1, Optional.empty()), Optional.empty(), noTokens, NOW), is(Optional.empty()));
    }

    @Test
    void theSoldOutFlagComesBeforeTheToken() {
        assertThat(checks.refusal(attempt(2, Optional.empty()), Optional.empty(), PLAIN, NOW),
                is(Optional.of(new AdmissionDecision.SoldOut())));
    }

    @Test
    void haltsComeFirstThenTheBlocklists() {
        CheapChecks.Switches haltedAndBlocked = new CheapChecks.Switches(true, Set.of("42"), Set.of("203.0.113.9"), true);
        assertThat(checks.refusal(attempt(2, Optional.empty()), Optional.of(HaltReason.RATE_LIMITS_IN_DOUBT),
                haltedAndBlocked, NOW), is(Optional.of(new AdmissionDecision.Halted(HaltReason.RATE_LIMITS_IN_DOUBT, 2))));
        assertThat(checks.refusal(attempt(2, Optional.empty()), Optional.empty(), haltedAndBlocked, NOW),
                is(Optional.of(new AdmissionDecision.Halted(HaltReason.OPERATOR_SWITCH, 5))));
        CheapChecks.Switches blockedAddress = new CheapChecks.Switches(false, Set.of(), Set.of("203.0.113.9"), true);
        assertThat(checks.refusal(attempt(2, Optional.empty()), Optional.empty(), blockedAddress, NOW),
                is(Optional.of(new AdmissionDecision.Blocked("client address"))));
    }

    @Test
    void aJoinOfTheLineAsksWhoMayTakePartButNotTheSoldOutFlagNorATokenBeforeTheStart() {
        // sold-out flag set for SKU 2: the line, not the flag, knows the stock
        assertThat(checks.lineRefusal(attempt(2, Optional.of("good")), Optional.empty(), PLAIN, NOW), is(Optional.empty()));
        assertThat(checks.lineRefusal(attempt(2, Optional.empty()), Optional.empty(), PLAIN, NOW),
                is(Optional.of(new AdmissionDecision.TokenInvalid("MISSING"))));
        SaleWindow later = new SaleWindow(NOW.plusSeconds(60), NOW.plusSeconds(600));
        PurchaseAttempt early = new PurchaseAttempt(1, 0, 42, "203.0.113.9", later, Optional.empty());
        assertThat(checks.lineRefusal(early, Optional.empty(), PLAIN, NOW), is(Optional.empty()));
        SaleWindow over = new SaleWindow(NOW.minusSeconds(600), NOW.minusSeconds(1));
        assertThat(checks.lineRefusal(new PurchaseAttempt(1, 0, 42, "", over, Optional.of("good")), Optional.empty(),
                PLAIN, NOW), is(Optional.of(new AdmissionDecision.Ended())));
        CheapChecks.Switches blocked = new CheapChecks.Switches(false, Set.of("42"), Set.of(), true);
        assertThat(checks.lineRefusal(early, Optional.empty(), blocked, NOW), is(Optional.of(new AdmissionDecision.Blocked("buyer"))));
        assertThat(checks.lineRefusal(early, Optional.of(HaltReason.RATE_LIMITS_IN_DOUBT), PLAIN, NOW),
                is(Optional.of(new AdmissionDecision.Halted(HaltReason.RATE_LIMITS_IN_DOUBT, 2))));
    }

    private static PurchaseAttempt attempt(long skuId, Optional<String> token) {
        return new PurchaseAttempt(1, skuId, 42, "203.0.113.9", OPEN, token);
    }
}
