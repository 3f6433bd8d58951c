package seckill.admission;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;
import seckill.redis.SlotSpread;

/**
 * Per-buyer and global purchase-rate limits kept in Redis, so every instance behind the load
 * balancer counts against the same numbers. Buyers are split over {@code partitions} rate-limit
 * partitions, each under its own hash tag spread over the cluster's slot ranges like a SKU's
 * buckets, so a hot activity's limits do not all land on one master; each partition enforces its
 * share of the global limit. One script call judges one buyer, or several of one partition.
 */
final class RateLimits {

    /** The verdict: which limit (if any) stopped the attempt, the buyer's count and when to retry. */
    record Verdict(String limit, long count, long retryAfterMillis, long buyerLimit) {
        boolean admitted() {
            return "OK".equals(limit);
        }
    }

    /** One attempt to judge; attempts judged together must share activity and partition. */
    record Check(long activityId, long userId, long buyerLimit, long windowMillis, long globalPerSecond) {
    }

    private static final int KNOWN_LIMIT = 10_000;

    private final UnifiedJedis redis;
    private final Clock clock;
    private final int partitions;
    private final RedisScript script = RedisScript.read(RateLimits.class.getResourceAsStream("throttle.lua"),
            "throttle.lua");
    // every attempt asks for its partition's tag: computed once per activity
    private final Cache<Long, String[]> tagsByActivity = Caffeine.newBuilder().maximumSize(KNOWN_LIMIT).build();

    RateLimits(UnifiedJedis redis, Clock clock, int partitions) {
        this.redis = redis;
        this.clock = clock;
        this.partitions = Math.max(1, partitions);
    }

    /** The hash tag of the partition that counts this buyer's attempts: also the coalescing lane. */
    String lane(long activityId, long userId) {
        int part = (int) Math.floorMod(userId * 0x9E3779B97F4A7C15L >>> 17, (long) partitions);
        return tagsByActivity.get(activityId, this::tagsOf)[part];
    }

    /** The hash tag of the activity's first partition, where its global budget is leased. */
    String activityTag(long activityId) {
        return tagsByActivity.get(activityId, this::tagsOf)[0];
    }

    private String[] tagsOf(long activityId) {
        String[] tags = new String[partitions];
        for (int part = 0; part < partitions; part++) {
            tags[part] = "{" + SlotSpread.tag("rl:a" + activityId + ":p" + part, part, partitions) + "}";
        }
        return tags;
    }

    Verdict check(long activityId, long userId, long buyerLimit, long windowMillis, long globalPerSecond) {
        return checkAll(lane(activityId, userId),
                List.of(new Check(activityId, userId, buyerLimit, windowMillis, globalPerSecond))).getFirst();
    }

    /**
     * Judges attempts of one partition ({@code tag}, from {@link #lane}) in order, in one call, with
     * the first attempt's limits.
     */
    List<Verdict> checkAll(String tag, List<Check> checks) {
        Check first = checks.getFirst();
        long now = clock.millis();
        List<String> keys = new ArrayList<>(checks.size() + 1);
        keys.add("sk:" + tag + ":g" + (now / 1000));
        checks.forEach(c -> keys.add("sk:" + tag + ":u" + c.userId()));
        long share = first.globalPerSecond() <= 0 ? 0 : (first.globalPerSecond() + partitions - 1) / partitions;
        List<String> args = List.of(Long.toString(first.buyerLimit()), Long.toString(first.windowMillis()),
                Long.toString(share), Long.toString(1000 - now % 1000));
        List<?> reply = (List<?>) script.run(redis, keys, args);
        List<Verdict> verdicts = new ArrayList<>(checks.size());
        for (int i = 0; i < checks.size(); i++) {
            verdicts.add(new Verdict(String.valueOf(reply.get(i * 3)), ((Number) reply.get(i * 3 + 1)).longValue(),
                    Math.max(0, ((Number) reply.get(i * 3 + 2)).longValue()), first.buyerLimit()));
        }
        return verdicts;
    }
}
