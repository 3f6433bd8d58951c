package seckill.reservation.redis;

import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import seckill.redis.SlotSpread;
import seckill.redis.World;

/**
 * The Redis key layout of a SKU's stock. Each bucket has its own hash tag, so the keys one
 * reservation touches (stock, buyers, events) always share a cluster slot, while the buckets of one
 * SKU sit on different slot ranges, hence on different masters ({@link SlotSpread}). The tag of a
 * single-bucket SKU is {@code a<activity>:s<sku>:b0}; with several buckets it may carry a salt.
 */
public final class StockBuckets {

    /** Sorted set of the real sales' live event streams, scored by their expiry (epoch millis). */
    public static final String STREAM_REGISTRY = "sk:streams";

    // a purchase asks for its SKU's keys every time: the tags are computed once per SKU
    private static final int KNOWN_LIMIT = 10_000;
    private static final Cache<Layout, StockBuckets> KNOWN = Caffeine.newBuilder().maximumSize(KNOWN_LIMIT).build();

    private record Layout(long activityId, long skuId, int buckets) {
    }

    private final World world;
    private final String prefix;
    private final String[] tags;

    private StockBuckets(long activityId, long skuId, int buckets) {
        world = World.of(activityId);
        prefix = world.prefix();
        tags = new String[buckets];
        for (int bucket = 0; bucket < buckets; bucket++) {
            tags[bucket] = "{" + SlotSpread.tag("a" + activityId + ":s" + skuId + ":b" + bucket, bucket, buckets) + "}";
        }
    }

    /** The keys of a SKU split into {@code buckets} buckets. */
    public static StockBuckets of(long activityId, long skuId, int buckets) {
        Layout layout = new Layout(activityId, skuId, Math.max(1, buckets));
        return KNOWN.get(layout, l -> new StockBuckets(l.activityId(), l.skuId(), l.buckets()));
    }

    /**
     * The registry of one world's live event streams ({@link #STREAM_REGISTRY} for real sales, {@code
     * rh:streams} for rehearsals): each world's ordering workers read their own.
     */
    public static String streamRegistry(World world) {
        return world.key("streams");
    }

    /** The world these keys belong to (the activity id's). */
    public World world() {
        return world;
    }

    /** The registry this SKU's streams are listed in. */
    public String streamRegistry() {
        return streamRegistry(world);
    }

    /** The key {@code <world's prefix><bucket's tag>:<suffix>}. */
    public String key(int bucket, String suffix) {
        return prefix + tags[bucket] + ":" + suffix;
    }

    public int count() {
        return tags.length;
    }

    public String tag(int bucket) {
        return tags[bucket];
    }

    public String stock(int bucket) {
        return prefix + tags[bucket] + ":stock";
    }

    public String buyers(int bucket) {
        return prefix + tags[bucket] + ":buyers";
    }

    public String events(int bucket) {
        return prefix + tags[bucket] + ":events";
    }

    public String refilled(int bucket) {
        return prefix + tags[bucket] + ":refilled";
    }

    /** Units put back into the bucket by refills, counted by the refill script. */
    public String refilledUnits(int bucket) {
        return prefix + tags[bucket] + ":refilled-units";
    }

    /**
     * The bucket's minted ids: every reservation id the bucket gave a unit under, to which buyer, whether
     * reserved here ({@code reserve.lua}) or taken by a buyer of another bucket ({@code take.lua}), so an id
     * is one unit of one buyer whatever became of the node id leases, and a retried take takes nothing
     * twice. Bounded by the bucket's stock plus its refills; expires with the bucket.
     */
    public String served(int bucket) {
        return prefix + tags[bucket] + ":served";
    }

    /** Which preheat put the bucket in place (so a retried preheat changes nothing). */
    public String preheatMarker(int bucket) {
        return prefix + tags[bucket] + ":preheat";
    }

    public String deadLetters(int bucket) {
        return prefix + tags[bucket] + ":dead";
    }

    /** Ids of pending entries found gone from the bucket's stream (reconciliation alarms on them). */
    public String lost(int bucket) {
        return prefix + tags[bucket] + ":lost";
    }

    /** The lost list beside an event stream. */
    public static String lostOf(String eventStream) {
        return eventStream.substring(0, eventStream.length() - ":events".length()) + ":lost";
    }

    /** The dead-letter stream beside an event stream. */
    public static String deadLettersOf(String eventStream) {
        return eventStream.substring(0, eventStream.length() - ":events".length()) + ":dead";
    }

    /**
     * The buyers' rate-limit windows of {@code millis} that opened on this bucket's slot in one period
     * ({@code period} = the opening's epoch millis / {@code millis}): a hash, a field per buyer.
     */
    public String windows(int bucket, long millis, long period) {
        return prefix + tags[bucket] + ":w" + millis + ":" + period;
    }

    /** Keys of one bucket in the order the reservation and preheat scripts expect them. */
    public List<String> bucketKeys(int bucket) {
        return List.of(stock(bucket), buyers(bucket), events(bucket));
    }

    /**
     * The bucket that holds a buyer's dedupe record. Fixed per buyer so that a second click always
     * lands where the first one was recorded.
     */
    public static int homeBucket(long userId, int buckets) {
        return (int) Math.floorMod(mix(userId), (long) Math.max(1, buckets));
    }

    private static long mix(long value) {
        long z = value * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        return z ^ (z >>> 31);
    }
}
