package seckill.reservation.redis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;
import seckill.reservation.api.RestoreStock;

/**
 * Runs {@code restore.lua} for one bucket, then registers its stream for the consumers, whatever the
 * outcome: a bucket left in place (PRESENT, STREAM_PRESENT) has a stream to read all the same, and a
 * restore retried after its registration was lost puts the registry right (see {@link PreheatScript}).
 */
public final class RestoreScript {

    private final RedisScript script = RedisScript.read(
            RestoreScript.class.getResourceAsStream("restore.lua"), "restore.lua");

    public RestoreStock.Outcome restore(UnifiedJedis redis, StockBuckets buckets, int bucket, long remaining,
                                        long refilledUnits, List<String> refilled, long lastEvent,
                                        List<RestoreStock.Holder> holders,
                                        String group, Instant expireAt, long preheatId) {
        List<String> keys = List.of(buckets.stock(bucket), buckets.buyers(bucket), buckets.events(bucket),
                buckets.refilledUnits(bucket), buckets.preheatMarker(bucket), buckets.refilled(bucket));
        List<String> args = new ArrayList<>(7 + refilled.size() + holders.size() * 2);
        args.add(Long.toString(remaining));
        args.add(group);
        args.add(Long.toString(expireAt.toEpochMilli()));
        args.add(entryId(lastEvent));
        args.add(Long.toString(refilledUnits));
        args.add(Long.toString(preheatId));
        args.add(Integer.toString(refilled.size()));
        args.addAll(refilled);
        for (RestoreStock.Holder holder : holders) {
            args.add(Long.toString(holder.userId()));
            args.add(holder.reservationId());
        }
        RestoreStock.Outcome outcome = RestoreStock.Outcome.valueOf(RedisScript.text(script.run(redis, keys, args)));
        redis.zadd(buckets.streamRegistry(), expireAt.toEpochMilli(), buckets.events(bucket));
        return outcome;
    }

    /** The stream entry id of an ordinal ({@code ms * 1,000,000 + seq}). */
    static String entryId(long ordinal) {
        return (ordinal / 1_000_000) + "-" + (ordinal % 1_000_000);
    }
}
