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
 * ({@link #valid()}). Between renewals the holder trusts the lease: if Redis forgets the lease keys,
 * another instance can lease the same id meanwhile. That is why no id's uniqueness rests on the lease
 * alone: the reservation scripts refuse an id their bucket gave a unit under already, and the holder
 * then {@link #replace()}s its node id.
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

    /** A lease key pattern and the start counter, for {@code seckill.reservation.api.KeysAtRisk}. */
    public static java.util.List<String> atRisk() {
        return java.util.List.of("sk:node:*", START_COUNTER);
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
        return acquire(-1);
    }

    /**
     * Leases another node id than the one held, then gives that one back (if still held): ids minted
     * under it were found minted by another instance too (Redis lost the lease keys, and the other
     * instance leased the same id while this one trusted its lease), so it is never taken again here.
     *
     * @return the new node id
     * @throws IllegalStateException when every other id is leased; the old lease is kept then
     */
    public long replace() {
        long old = node;
        long fresh = acquire(old);
        if (old >= 0) {
            release.run(redis, List.of(key(old)), List.of(holder));
        }
        return fresh;
    }

    private long acquire(long excluded) {
        long start = Math.floorMod(redis.incr(START_COUNTER), ReservationSequence.MAX_NODES);
        for (int i = 0; i < ReservationSequence.MAX_NODES; i++) {
            long candidate = (start + i) % ReservationSequence.MAX_NODES;
            if (candidate == excluded) {
                continue;
            }
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
