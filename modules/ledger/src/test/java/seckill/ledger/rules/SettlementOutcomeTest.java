package seckill.ledger.rules;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class SettlementOutcomeTest {

    @Test
    void everyOutcomeButARefusalSettlesTheEvent() {
        assertThat(new SettlementOutcome.Ordered().settlesTheEvent(), is(true));
        assertThat(new SettlementOutcome.AlreadySettled().settlesTheEvent(), is(true));
        assertThat(new SettlementOutcome.Failed("UNKNOWN_SKU").settlesTheEvent(), is(true));
        assertThat(new SettlementOutcome.Rejected("constraint").settlesTheEvent(), is(false));
    }
}
