package seckill.queue;

import java.util.List;

import seckill.redis.World;

/**
 * The Redis keys of one activity's line, all under the hash tag {@code {q:a<activity>}} so that every
 * script of the line runs on one cluster slot: {@code sk:{q:a<id>}:pre|line|meta|places|passes|done} and
 * the per-second count of buyers called, {@code sk:{q:a<id>}:s<epochSecond>}; {@code rh:} in place of
 * {@code sk:} for a rehearsal's activity ({@link World}).
 */
record LineKeys(long activityId) {

    String tag() {
        return World.of(activityId).key("{q:a" + activityId + "}:");
    }

    /** KEYS of line.lua's scripts, in its order. */
    List<String> line() {
        String t = tag();
        return List.of(t + "pre", t + "line", t + "meta", t + "places", t + "passes", t + "done");
    }

    List<String> admitting(long epochSecond) {
        String t = tag();
        // (the claims last: a pass bound to a purchase in flight keeps its room past its expiry, admit.lua)
        return List.of(t + "pre", t + "line", t + "meta", t + "places", t + "passes", t + "done", t + "s" + epochSecond,
                t + "claims");
    }

    String meta() {
        return tag() + "meta";
    }

    /** claim.lua's: the purchase each pass is bound to, the marks of passes used, and the passes out. */
    List<String> claiming() {
        return List.of(tag() + "claims", tag() + "done", tag() + "passes");
    }

    /** KEYS of use.lua. */
    List<String> using() {
        String t = tag();
        return List.of(t + "passes", t + "done", t + "meta", t + "line");
    }
}
