package seckill.reservation.redis;

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
    private final java.util.function.LongSupplier nanos;
    private final Duration length;
    private final String holder;
    private volatile long node = -1;
    // on the monotonic clock: a lease's life is time elapsed since Redis was asked, whatever the
    // service's clock (the ledger's, moved by a correction or a test) says meanwhile
    private volatile long validUntilNanos;
    private volatile boolean valid;

    public NodeLease(UnifiedJedis redis, java.util.function.LongSupplier nanos, Duration length, String holder) {
        this.redis = redis;
        this.nanos = nanos;
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
            long askedAt = nanos.getAsLong();
            if ("OK".equals(redis.set(key(candidate), holder, SetParams.setParams().nx().px(length.toMillis())))) {
                node = candidate;
                validUntilNanos = askedAt + safeLength();
                valid = true;
                return candidate;
            }
        }
        throw new IllegalStateException("all " + ReservationSequence.MAX_NODES + " node ids are leased");
    }

    /** Extends the lease; false when it is lost (lapsed or held by someone else): stop minting. */
    public boolean renew() {
        long askedAt = nanos.getAsLong();
        boolean held = "1".equals(RedisScript.text(renew.run(redis, List.of(key(node)),
                List.of(holder, Long.toString(length.toMillis())))));
        if (held) {
            validUntilNanos = askedAt + safeLength();
            valid = true;
        } else {
            valid = false;
        }
        return held;
    }

    /** Whether ids may be minted under this lease now: held, and certainly not lapsed yet. */
    public boolean valid() {
        return node >= 0 && valid && nanos.getAsLong() - validUntilNanos < 0;
    }

    public long node() {
        return node;
    }

    public void release() {
        if (node >= 0) {
            release.run(redis, List.of(key(node)), List.of(holder));
            valid = false;
        }
    }

    /** A margin for clock drift between this process and Redis: a third of the lease. */
    private long safeLength() {
        return length.toNanos() * 2 / 3;
    }
}
