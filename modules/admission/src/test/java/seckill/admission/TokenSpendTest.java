package seckill.admission;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.redis.ReplicaAcks;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A purchase token's spend record on a real redis-server of its own (review of #36 item 2): it waits
 * for the replicas a reservation waits for, so a master without them answers in doubt instead of
 * leaving a record a failover could lose; and it lives until an absolute time, the token's expiry
 * plus the skew margin, whatever the spending instance's clock says.
 */
class TokenSpendTest {

    // its own server: with one replica required and none attached, the spend must be in doubt
    @RegisterExtension
    static final AdmissionRedis REDIS = AdmissionRedis.own();

    @Test
    void aSpendNoReplicaAcknowledgedIsInDoubt() {
        TokenSpend spends = new TokenSpend(REDIS.client(), () -> new ReplicaAcks(1, 50));
        long expires = System.currentTimeMillis() + 60_000;
        assertThrows(ReplicaAcks.Missing.class, () -> spends.spend(1, "t-doubt", 7, "r-1", expires));
    }

    @Test
    void oneTokenOneSkuAndTheRecordOutlivesTheTokenByTheMargin() {
        TokenSpend spends = new TokenSpend(REDIS.client(), () -> ReplicaAcks.NONE);
        long expires = System.currentTimeMillis() + 60_000;
        assertThat(spends.spend(2, "t-once", 7, "r-1", expires), is(true));
        assertThat("the same SKU's retry", spends.spend(2, "t-once", 7, "r-1", expires), is(true));
        assertThat("another SKU", spends.spend(2, "t-once", 8, "r-2", expires), is(false));
        long ttl = REDIS.client().pttl(TokenSpend.key(2, "t-once"));
        assertThat(ttl, allOf(greaterThan(60_000L + TokenSpend.SKEW_MARGIN_MILLIS - 5_000),
                lessThanOrEqualTo(60_000L + TokenSpend.SKEW_MARGIN_MILLIS)));
    }
}
