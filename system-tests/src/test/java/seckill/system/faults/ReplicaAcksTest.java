package seckill.system.faults;

import java.net.http.HttpResponse;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.admission.api.Admission;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * A reservation no replica acknowledged is never answered 202: here one replica is required and the
 * test's Redis has none, so the purchase is in doubt, answered 503 HALTED, and sales halt until
 * settlement has reconciled.
 */
@AddConfig(key = "seckill.redis.min-replica-acks", value = "1")
@AddConfig(key = "seckill.redis.replica-ack-timeout-millis", value = "20")
@AddConfig(key = "seckill.settlement.auto-resume", value = "false")
class ReplicaAcksTest extends ServiceTest {

    private static final long SKU = 7401;

    @Inject
    Admission admission;

    @Test
    void anUnacknowledgedReservationIsInDoubtNeverA202() {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createOpenActivity(SKU, 5, 1);
        HttpResponse<String> answer = sale.purchase(activity, activity * 1000 + 1, SKU, 1, "unacked");
        assertThat(answer.body(), answer.statusCode(), is(503));
        assertThat(answer.body(), containsString("\"code\":\"HALTED\""));
        assertThat(answer.headers().firstValue("Retry-After").isPresent(), is(true));
        assertThat(admission.haltedBecause().isPresent(), is(true));
        // the next buyer is refused from memory: nothing is issued while the arbiter is in doubt
        assertThat(sale.purchase(activity, activity * 1000 + 2, SKU, 1, "next").statusCode(), is(503));
    }
}
