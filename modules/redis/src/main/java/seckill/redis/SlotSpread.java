package seckill.redis;

import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Hash tags that spread the parts of one hot thing (a SKU's stock buckets, admission's rate-limit
 * partitions) over a Redis Cluster. A cluster creates its masters over equal slot ranges, so part
 * {@code i} of {@code n} gets a tag whose slot lies in the middle of the {@code i}-th of {@code n}
 * equal ranges: with {@code n} a multiple of the master count, every master carries the same
 * number of parts. The tag is the given name, or the name with {@code ~<salt>} appended, the first
 * salt that lands in range; it depends only on its inputs, so every instance computes the same one.
 * A single part keeps its plain name. The search costs a few CRC16s per part: callers on a hot path
 * keep the tags they computed.
 */
public final class SlotSpread {

    /** Slots of a Redis Cluster. */
    public static final int SLOTS = 16384;

    private SlotSpread() {
    }

    /** The hash tag (without braces) for part {@code part} of {@code parts} of {@code name}. */
    public static String tag(String name, int part, int parts) {
        if (parts <= 1) {
            return name;
        }
        if (part < 0 || part >= parts || parts > SLOTS / 4) {
            throw new IllegalArgumentException("part " + part + " of " + parts);
        }
        return search(name, part, parts);
    }

    /** The cluster slot of a hash tag. */
    public static int slotOf(String tag) {
        return JedisClusterCRC16.getSlot("{" + tag + "}");
    }

    private static String search(String name, int part, int parts) {
        long low = (long) SLOTS * part / parts;
        long high = (long) SLOTS * (part + 1) / parts;
        // the middle half of the range: a cluster whose boundaries are a few slots off still agrees
        long margin = (high - low) / 4;
        for (int salt = 0; ; salt++) {
            String candidate = salt == 0 ? name : name + "~" + salt;
            int slot = slotOf(candidate);
            if (slot >= low + margin && slot < high - margin) {
                return candidate;
            }
        }
    }
}
