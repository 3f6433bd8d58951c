package seckill.reservation.redis;

import java.time.Instant;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;

/**
 * Runs {@code preheat.lua} for one bucket, then registers the bucket's stream so that consumers on
 * every instance find it. The registry is a separate key (its own slot on a cluster), written after
 * the bucket exists, so a consumer never sees a stream without its group. It cannot be written in
 * the script: every key of one script call shares one slot, and the registry is one key for all
 * buckets. So the registry is an index, never the truth: a retried preheat (same id, the script
 * changes nothing) registers again, and the ordering workers and reconciliation derive the streams
 * that must exist from the ledger and put lost members back ({@code ReservationEvents#registerStreams}).
 */
public final class PreheatScript {

    private final RedisScript script = RedisScript.read(
            PreheatScript.class.getResourceAsStream("preheat.lua"), "preheat.lua");

    /** {@code preheatId} tells a client's retry of this call (same id: nothing changes) from a new preheat. */
    public void preheat(UnifiedJedis redis, StockBuckets buckets, int bucket, long stock, String group, Instant expireAt,
                        long preheatId) {
        List<String> keys = List.of(buckets.stock(bucket), buckets.buyers(bucket), buckets.events(bucket),
                buckets.refilled(bucket), buckets.deadLetters(bucket), buckets.refilledUnits(bucket),
                buckets.served(bucket), buckets.preheatMarker(bucket), buckets.lost(bucket));
        script.run(redis, keys, List.of(Long.toString(stock), group, Long.toString(expireAt.toEpochMilli()),
                Long.toString(preheatId)));
        redis.zadd(buckets.streamRegistry(), expireAt.toEpochMilli(), buckets.events(bucket));
    }
}
