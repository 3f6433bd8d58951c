package seckill.chaos.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.resps.StreamPendingEntry;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The one place the checker reads Redis: the units left on a SKU's shelf, summed over its buckets,
 * through the keys the reservation module documents ({@code sk:{<tag>}:stock}, the tag
 * {@code a<activity>:s<sku>:b<bucket>} spread over the cluster's slot ranges), and the units of the
 * events in each bucket's stream ({@code sk:{<tag>}:events}) that its consumer group has not
 * acknowledged: delivered and pending, or not delivered yet. The layout is spelled out here rather
 * than imported, so a change to it shows up as a checker failure, not as agreement.
 */
final class ShelfReading {

    private static final int SLOTS = 16384;

    private final UnifiedJedis redis;

    ShelfReading(UnifiedJedis redis) {
        this.redis = redis;
    }

    /** Units on the shelf; {@code -1} when none of the SKU's stock keys exists. */
    long units(long activityId, long skuId, int buckets) {
        long sum = 0;
        boolean any = false;
        for (int b = 0; b < buckets; b++) {
            String value = redis.get("sk:{" + tag("a" + activityId + ":s" + skuId + ":b" + b, b, buckets) + "}:stock");
            if (value != null) {
                any = true;
                sum += Long.parseLong(value);
            }
        }
        return any ? sum : -1;
    }

    /**
     * Units held by events of the SKU's bucket streams that no consumer group acknowledged: pending
     * (delivered, e.g. to a consumer that died with its instance) or never delivered; with the first
     * reservation ids among them.
     */
    InFlight inFlight(long activityId, long skuId, int buckets, int maxIds) {
        long units = 0;
        List<String> ids = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            String stream = "sk:{" + tag("a" + activityId + ":s" + skuId + ":b" + b, b, buckets) + "}:events";
            if (!redis.exists(stream)) {
                continue;
            }
            for (StreamGroupInfo group : redis.xinfoGroups(stream)) {
                List<StreamEntry> unacknowledged = new ArrayList<>();
                if (group.getPending() > 0) {
                    for (StreamPendingEntry pending : redis.xpending(stream, group.getName(),
                            XPendingParams.xPendingParams().count((int) Math.min(Integer.MAX_VALUE, group.getPending())))) {
                        unacknowledged.addAll(redis.xrange(stream, pending.getID(), pending.getID(), 1));
                    }
                }
                StreamEntryID last = group.getLastDeliveredId();
                unacknowledged.addAll(redis.xrange(stream, "(" + last, "+"));
                for (StreamEntry event : unacknowledged) {
                    for (String[] read : reservationsAndQuantities(event)) {
                        units += Long.parseLong(read[1]);
                        if (ids.size() < maxIds) {
                            ids.add(read[0]);
                        }
                    }
                }
            }
        }
        return new InFlight(units, ids);
    }

    /**
     * An entry's reservation ids and quantities, in every shape the reservation module writes: one field
     * {@code es}, the reservations of one coalesced call (since issue #35's third step), each
     * {@code reservationId,userId,quantity,reservedAt,requestId}, joined by newlines; one field {@code e}
     * holding one such text (the coalesced script since issue #35's second step); or named fields. The
     * entry id and 1 for what is none of these.
     */
    static List<String[]> reservationsAndQuantities(StreamEntry event) {
        Map<String, String> fields = event.getFields();
        String many = fields.get("es");
        if (many != null) {
            List<String[]> all = new ArrayList<>();
            for (String text : many.split("\n")) {
                all.add(reservationAndQuantity(event, text));
            }
            return all;
        }
        return java.util.Collections.singletonList(reservationAndQuantity(event, fields.get("e")));
    }

    private static String[] reservationAndQuantity(StreamEntry event, String packed) {
        if (packed != null) {
            String[] parts = packed.split(",", 5);
            if (parts.length == 5) {
                return new String[] {parts[0], parts[2]};
            }
        }
        Map<String, String> fields = event.getFields();
        return new String[] {fields.getOrDefault("reservationId", event.getID().toString()),
                fields.getOrDefault("quantity", "1")};
    }

    /** Units held by unacknowledged events and the first of their reservation ids. */
    record InFlight(long units, List<String> reservations) {
    }

    /** The hash tag of part {@code part} of {@code parts}: the name, salted until its slot lies mid-range. */
    static String tag(String name, int part, int parts) {
        if (parts <= 1) {
            return name;
        }
        long low = (long) SLOTS * part / parts;
        long high = (long) SLOTS * (part + 1) / parts;
        long margin = (high - low) / 4;
        for (int salt = 0; ; salt++) {
            String candidate = salt == 0 ? name : name + "~" + salt;
            int slot = JedisClusterCRC16.getSlot("{" + candidate + "}");
            if (slot >= low + margin && slot < high - margin) {
                return candidate;
            }
        }
    }
}
