package seckill.redis;

/**
 * Which world a sale's keys belong to (issue #34, docs/rehearsal.md): the real sales ({@code sk:}) or
 * rehearsals, shadow sales run on the production path ({@code rh:}). An activity's world is a function of
 * its id alone, so every layer holding only an id (an activity id, a reservation id, which carries its
 * activity id) builds the keys of the right world with no lookup: rehearsal activities take their ids from
 * {@link #REHEARSAL_IDS_FROM} up (the shadow ledger's counter starts there), real ones from 1. The rest of a
 * key, its hash tag and so its cluster slot, is the same in both worlds.
 */
public enum World {

    REAL("sk:"),
    REHEARSAL("rh:");

    /**
     * The first rehearsal activity id, 10^15: below 2^53, so ids stay exact in JavaScript and any JSON
     * parser, and far below the largest id a reservation id carries (10^18 - 1).
     */
    public static final long REHEARSAL_IDS_FROM = 1_000_000_000_000_000L;

    /**
     * The name of the label every metric series a sale moves carries (docs/rehearsal.md, "Metrics: the
     * {@code world} label"): its value is {@link #label()}.
     */
    public static final String LABEL = "world";

    private final String prefix;

    World(String prefix) {
        this.prefix = prefix;
    }

    /** The world of an activity, from its id alone. */
    public static World of(long activityId) {
        return activityId >= REHEARSAL_IDS_FROM ? REHEARSAL : REAL;
    }

    /** What every key of this world starts with: {@code sk:} or {@code rh:}. */
    public String prefix() {
        return prefix;
    }

    /** This world's value of the {@code world} label: {@code real} or {@code rehearsal}. */
    public String label() {
        return this == REAL ? "real" : "rehearsal";
    }

    /** {@code rest} as a key of this world. */
    public String key(String rest) {
        return prefix + rest;
    }
}
