package seckill.reservation.redis;

import java.util.ArrayList;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.reservation.api.BucketSnapshot;
import seckill.reservation.api.EventPosition;
import seckill.redis.RedisScript;

/**
 * Runs {@code snapshot.lua} page by page: one bucket's stock, refills and cut read at one instant,
 * then every event up to the cut that is still unacknowledged, {@code pageSize} at a time, however
 * many there are (the script says why paging keeps the count exact).
 */
public final class SnapshotScript {

    private final RedisScript script = RedisScript.read(
            SnapshotScript.class.getResourceAsStream("snapshot.lua"), "snapshot.lua");

    public BucketSnapshot take(UnifiedJedis redis, StockBuckets buckets, int bucket, String consumerGroup, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be >= 1");
        }
        List<String> keys = List.of(buckets.stock(bucket), buckets.refilledUnits(bucket), buckets.events(bucket),
                buckets.lost(bucket));
        List<?> page = (List<?>) script.run(redis, keys, List.of(consumerGroup, Integer.toString(pageSize), "", ""));
        String state = RedisScript.text(page.getFirst());
        return switch (state) {
            case "NO_STOCK" -> new BucketSnapshot.NotPreheated();
            case "OK" -> {
                // the first page fixed the instant: stock, refills, lost entries and the cut
                long remaining = number(page, 1);
                long refilledUnits = number(page, 2);
                String cut = RedisScript.text(page.get(3));
                long units = 0;
                long lost = 0;
                List<String> unsettled = new ArrayList<>();
                while (true) {
                    if (!"OK".equals(RedisScript.text(page.getFirst()))) {
                        // the stock key vanished between pages: not a figure to judge by
                        yield new BucketSnapshot.NotPreheated();
                    }
                    units += number(page, 4);
                    lost += number(page, 5);
                    for (int i = 7; i < page.size(); i++) {
                        unsettled.add(RedisScript.text(page.get(i)));
                    }
                    String next = RedisScript.text(page.get(6));
                    if (next.isEmpty()) {
                        break;
                    }
                    page = (List<?>) script.run(redis, keys, List.of(consumerGroup, Integer.toString(pageSize), next, cut));
                }
                yield new BucketSnapshot.Taken(remaining, refilledUnits, EventPosition.ordinalOf(cut), units, lost,
                        List.copyOf(unsettled));
            }
            default -> throw new IllegalStateException("unexpected snapshot reply " + state);
        };
    }

    private static long number(List<?> reply, int index) {
        return Long.parseLong(RedisScript.text(reply.get(index)));
    }
}
