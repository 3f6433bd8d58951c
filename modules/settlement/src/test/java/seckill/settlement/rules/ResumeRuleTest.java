package seckill.settlement.rules;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import seckill.admission.api.HaltReason;
import seckill.reservation.api.Replicas;
import seckill.settlement.api.SkuReconciliation;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class ResumeRuleTest {

    private static final Instant AT = Instant.parse("2026-06-18T12:00:00Z");

    @Test
    void doubtIsLiftedBySettlementAndAnOperatorsHaltOnlyByAnOperator() {
        ResumeRule rule = new ResumeRule(true);
        assertThat(rule.mayTry(HaltReason.RESERVATION_STORE_IN_DOUBT, false), is(true));
        assertThat(rule.mayTry(HaltReason.RATE_LIMITS_IN_DOUBT, false), is(true));
        assertThat(rule.mayTry(HaltReason.OPERATOR, false), is(false));
        assertThat(rule.mayTry(HaltReason.OPERATOR, true), is(true));
        assertThat(new ResumeRule(false).mayTry(HaltReason.RESERVATION_STORE_IN_DOUBT, false), is(false));
        assertThat(new ResumeRule(false).mayTry(HaltReason.RESERVATION_STORE_IN_DOUBT, true), is(true));
    }

    @Test
    void tooFewReplicasOnlineIsWhatIsMissingUntilEnoughAreOrFewerAreRequired() {
        ResumeRule rule = new ResumeRule(true);
        assertThat(rule.missing(new Replicas(0, 1)), is(Optional.of(new HaltReason.NoReplica(0, 1))));
        assertThat(rule.missing(new Replicas(0, 1)).orElseThrow().words(),
                is("redis: NO_REPLICA: 0 of 1 required replica(s) connected"));
        assertThat(rule.missing(new Replicas(1, 2)).orElseThrow().arbiterInDoubt(), is(true));
        assertThat(rule.missing(new Replicas(1, 1)), is(Optional.empty()));
        // an operator's switch to 0 accepts no acknowledgement at all
        assertThat(rule.missing(new Replicas(0, 0)), is(Optional.empty()));
        assertThat(rule.mayTry(new HaltReason.NoReplica(0, 1), false), is(true));
    }

    @Test
    void onlyCleanOrNotPreheatedSkusLetSalesResume() {
        ResumeRule rule = new ResumeRule(true);
        SkuReconciliation clean = sku(1, "CLEAN");
        SkuReconciliation notLoaded = sku(2, "NOT_PREHEATED");
        SkuReconciliation mismatch = sku(3, "MISMATCH");
        assertThat(rule.blocking(List.of(clean, notLoaded)), is(Optional.empty()));
        assertThat(rule.blocking(List.of(clean, mismatch, notLoaded)), is(Optional.of(mismatch)));
        assertThat(rule.blocking(List.of(sku(4, "OVERSOLD"))).isPresent(), is(true));
        assertThat(rule.blocking(List.of()), is(Optional.empty()));
    }

    private static SkuReconciliation sku(long skuId, String state) {
        return new SkuReconciliation(1, skuId, AT, state, java.util.Map.of(), "");
    }
}
