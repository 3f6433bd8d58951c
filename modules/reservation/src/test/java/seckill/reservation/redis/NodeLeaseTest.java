package seckill.reservation.redis;

import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.reservation.TestRedis;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/** Node ids are leased exclusively: no two live instances ever mint ids with the same one. */
class NodeLeaseTest {

    @RegisterExtension
    static final TestRedis SERVER = new TestRedis();

    @Test
    void the1025thStartAlongsideTheFirstInstanceGetsAnotherNodeId() {
        NodeLease first = new NodeLease(SERVER.client(), System::nanoTime, Duration.ofSeconds(30), "first");
        long node = first.acquire();
        try {
            // 1,024 starts later the rotating start points at the first instance's id again; the old
            // scheme (INCR modulo 1024) handed it out a second time
            SERVER.client().set(NodeLease.START_COUNTER, Long.toString(node - 1 + 1024L * 5));
            NodeLease later = new NodeLease(SERVER.client(), System::nanoTime, Duration.ofSeconds(30), "later");
            long laterNode = later.acquire();
            try {
                assertThat(laterNode, is(not(node)));
                assertThat(first.valid(), is(true));
                assertThat(later.valid(), is(true));
            } finally {
                later.release();
            }
        } finally {
            first.release();
        }
    }

    @Test
    void aLeaseTakenOverIsLostAndItsHolderStopsMinting() {
        NodeLease lease = new NodeLease(SERVER.client(), System::nanoTime, Duration.ofSeconds(30), "holder");
        long node = lease.acquire();
        assertThat(lease.renew(), is(true));
        // Redis forgot it and another instance took the id (or it lapsed while this one was cut off)
        SERVER.client().set(NodeLease.key(node), "someone else");
        assertThat(lease.renew(), is(false));
        assertThat(lease.valid(), is(false));
        lease.release();
        assertThat("another's lease is not given back by the loser", SERVER.client().get(NodeLease.key(node)), is("someone else"));
        SERVER.client().del(NodeLease.key(node));
    }

    @Test
    void aLeaseReleasedAtShutdownIsFreeAgain() {
        NodeLease lease = new NodeLease(SERVER.client(), System::nanoTime, Duration.ofSeconds(30), "leaving");
        long node = lease.acquire();
        lease.release();
        assertThat(SERVER.client().exists(NodeLease.key(node)), is(false));
        assertThat(lease.valid(), is(false));
    }

    /**
     * The lease's life is time elapsed since Redis was asked (the monotonic clock), not the service's
     * clock: that clock (the ledger's, or a test's) can be set forward by minutes, and a lease judged on
     * it lapsed at once, so the instance refused to mint ids (a launch answered 503 REDIS_UNAVAILABLE in
     * a rehearsal, after a test moved its clock 15 min) until the next renewal. Red on the old code as
     * "a lease outlives its instance clock moved forward or back" (it took a Clock then).
     */
    @Test
    void aLeaseIsJudgedByTimeElapsedSinceRedisWasAsked() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(System.nanoTime());
        NodeLease lease = new NodeLease(SERVER.client(), now::get, Duration.ofSeconds(30), "elapsed");
        lease.acquire();
        try {
            now.addAndGet(Duration.ofSeconds(19).toNanos());
            assertThat("19 s of a 30 s lease (trusted for two thirds)", lease.valid(), is(true));
            now.addAndGet(Duration.ofSeconds(2).toNanos());
            assertThat("21 s: no longer trusted without a renewal", lease.valid(), is(false));
            assertThat(lease.renew(), is(true));
            assertThat("renewed", lease.valid(), is(true));
        } finally {
            lease.release();
        }
    }
}
