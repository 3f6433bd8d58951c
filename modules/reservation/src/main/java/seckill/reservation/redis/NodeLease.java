package seckill.reservation.redis;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.SetParams;
import seckill.redis.RedisScript;

/**
 * An exclusive, expiring lease on one of the {@link ReservationSequence#MAX_NODES} node ids that
 * reservation ids (and so order numbers) carry. Taken with {@code SET NX PX}, renewed only by its
 * holder, given back at shutdown. The holder must stop minting ids before the lease could lapse
 * ({@link #valid()}), so two live instances never share a node id, however many starts and
 * restarts, and whatever Redis forgot.
 */
public final class NodeLease {

    static final String START_COUNTER = "sk:node-seq";

    private final RedisScript renew = RedisScript.read(NodeLease.class.getResourceAsStream("renew_lease.lua"),
            "renew_lease.lua");
    private final RedisScript release = RedisScript.read(NodeLease.class.getResourceAsStream("release_lease.lua"),
            "release_lease.lua");
    private final UnifiedJedis redis;
    private final Clock clock;
    private final Duration length;
    private final String holder;
    private volatile long node = -1;
    private volatile long validUntilMillis;

    public NodeLease(UnifiedJedis redis, Clock clock, Duration length, String holder) {
        this.redis = redis;
        this.clock = clock;
        this.length = length;
        this.holder = holder;
    }

    static String key(long node) {
        return "sk:node:" + node;
    }

    /**
     * Leases a free node id, trying from a rotating start so that instances spread over the ids.
     *
     * @throws IllegalStateException when every id is leased
     */
    public long acquire() {
        long start = Math.floorMod(redis.incr(START_COUNTER), ReservationSequence.MAX_NODES);
        for (int i = 0; i < ReservationSequence.MAX_NODES; i++) {
            long candidate = (start + i) % ReservationSequence.MAX_NODES;
            long askedAt = clock.millis();
            if ("OK".equals(redis.set(key(candidate), holder, SetParams.setParams().nx().px(length.toMillis())))) {
                node = candidate;
                validUntilMillis = askedAt + safeLength();
                return candidate;
            }
        }
        throw new IllegalStateException("all " + ReservationSequence.MAX_NODES + " node ids are leased");
    }

    /** Extends the lease; false when it is lost (lapsed or held by someone else): stop minting. */
    public boolean renew() {
        long askedAt = clock.millis();
        boolean held = "1".equals(RedisScript.text(renew.run(redis, List.of(key(node)),
                List.of(holder, Long.toString(length.toMillis())))));
        if (held) {
            validUntilMillis = askedAt + safeLength();
        } else {
            validUntilMillis = 0;
        }
        return held;
    }

    /** Whether ids may be minted under this lease now: held, and certainly not lapsed yet. */
    public boolean valid() {
        return node >= 0 && clock.millis() < validUntilMillis;
    }

    public long node() {
        return node;
    }

    public void release() {
        if (node >= 0) {
            release.run(redis, List.of(key(node)), List.of(holder));
            validUntilMillis = 0;
        }
    }

    /** A margin for clock drift between this process and Redis: a third of the lease. */
    private long safeLength() {
        return length.toMillis() * 2 / 3;
    }
}
