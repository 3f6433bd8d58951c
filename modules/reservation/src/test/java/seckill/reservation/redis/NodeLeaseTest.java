package seckill.reservation.redis;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import seckill.reservation.TestRedis;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/** Node ids are leased exclusively: no two live instances ever mint ids with the same one. */
class NodeLeaseTest {

    private static TestRedis server;
    private static UnifiedJedis redis;

    @BeforeAll
    static void redis() throws IOException {
        server = new TestRedis();
        redis = server.client();
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    @Test
    void the1025thStartAlongsideTheFirstInstanceGetsAnotherNodeId() {
        NodeLease first = new NodeLease(redis, Clock.systemUTC(), Duration.ofSeconds(30), "first");
        long node = first.acquire();
        try {
            // 1,024 starts later the rotating start points at the first instance's id again; the old
            // scheme (INCR modulo 1024) handed it out a second time
            redis.set(NodeLease.START_COUNTER, Long.toString(node - 1 + 1024L * 5));
            NodeLease later = new NodeLease(redis, Clock.systemUTC(), Duration.ofSeconds(30), "later");
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
        NodeLease lease = new NodeLease(redis, Clock.systemUTC(), Duration.ofSeconds(30), "holder");
        long node = lease.acquire();
        assertThat(lease.renew(), is(true));
        // Redis forgot it and another instance took the id (or it lapsed while this one was cut off)
        redis.set(NodeLease.key(node), "someone else");
        assertThat(lease.renew(), is(false));
        assertThat(lease.valid(), is(false));
        lease.release();
        assertThat("another's lease is not given back by the loser", redis.get(NodeLease.key(node)), is("someone else"));
        redis.del(NodeLease.key(node));
    }

    @Test
    void aLeaseReleasedAtShutdownIsFreeAgain() {
        NodeLease lease = new NodeLease(redis, Clock.systemUTC(), Duration.ofSeconds(30), "leaving");
        long node = lease.acquire();
        lease.release();
        assertThat(redis.exists(NodeLease.key(node)), is(false));
        assertThat(lease.valid(), is(false));
    }
}
