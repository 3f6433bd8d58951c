package seckill.reservation.redis;

import java.util.ArrayList;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.reservation.api.BucketSnapshot;
import seckill.reservation.api.EventPosition;
import seckill.redis.RedisScript;

/** Runs {@code snapshot.lua}: one bucket's stock, refills and unsettled events as of one instant. */
public final class SnapshotScript {

    private final RedisScript script = RedisScript.read(
            SnapshotScript.class.getResourceAsStream("snapshot.lua"), "snapshot.lua");

    public BucketSnapshot take(UnifiedJedis redis, StockBuckets buckets, int bucket, String consumerGroup, int limit) {
        List<?> reply = (List<?>) script.run(redis,
                List.of(buckets.stock(bucket), buckets.refilledUnits(bucket), buckets.events(bucket), buckets.lost(bucket)),
                List.of(consumerGroup, Integer.toString(limit)));
        String state = RedisScript.text(reply.getFirst());
        return switch (state) {
            case "NO_STOCK" -> new BucketSnapshot.NotPreheated();
            case "TOO_MANY" -> new BucketSnapshot.TooManyInFlight(limit);
            case "OK" -> {
                List<String> unsettled = new ArrayList<>(reply.size() - 6);
                for (int i = 6; i < reply.size(); i++) {
                    unsettled.add(RedisScript.text(reply.get(i)));
                }
                yield new BucketSnapshot.Taken(number(reply, 1), number(reply, 2),
                        EventPosition.ordinalOf(RedisScript.text(reply.get(3))), number(reply, 4), number(reply, 5),
                        List.copyOf(unsettled));
            }
            default -> throw new IllegalStateException("unexpected snapshot reply " + state);
        };
    }

    private static long number(List<?> reply, int index) {
        return Long.parseLong(RedisScript.text(reply.get(index)));
    }
}
