package seckill.ledger;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class PaceSwitchTest {

    private static final long HALF_SECOND = 500_000_000L;

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final AtomicLong configured = new AtomicLong(100);
    private volatile boolean halfWritten;

    private final PaceSwitch paceSwitch = PaceSwitch.inForce(() -> {
        if (halfWritten) {
            throw new IllegalArgumentException("not a number");
        }
        return configured.get();
    }, nanos::get);

    @Test
    void theFirstReadTakesTheSwitchAsConfigured() {
        assertThat(paceSwitch.maxOrdersPerSecond(), is(100L));
    }

    @Test
    void aChangeAppliesOnlyAfterHalfASecond() {
        assertThat(paceSwitch.maxOrdersPerSecond(), is(100L));
        configured.set(20);
        nanos.addAndGet(HALF_SECOND);
        assertThat(paceSwitch.maxOrdersPerSecond(), is(100L));
        nanos.addAndGet(1);
        assertThat(paceSwitch.maxOrdersPerSecond(), is(20L));
    }

    @Test
    void aBadValueKeepsThePreviousCap() {
        assertThat(paceSwitch.maxOrdersPerSecond(), is(100L));
        halfWritten = true;
        nanos.addAndGet(HALF_SECOND + 1);
        assertThat(paceSwitch.maxOrdersPerSecond(), is(100L));
    }

    @Test
    void aNegativeCapIsNoCap() {
        configured.set(-5);
        assertThat(paceSwitch.maxOrdersPerSecond(), is(0L));
    }
}
