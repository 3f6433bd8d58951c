package seckill.reservation.api;

/**
 * Where a reservation event sits: the stream it was recorded in and its entry id. Other modules
 * hand it back to acknowledge, and keep its {@link #ordinal()} beside what they record of the event.
 */
public record EventPosition(String stream, String entryId) {

    /**
     * The entry id as one number that orders like the id itself ({@code ms * 1,000,000 + seq}; a
     * stream never gives a million entries the same millisecond), for storing and comparing in SQL.
     */
    public long ordinal() {
        return ordinalOf(entryId);
    }

    /** {@link #ordinal()} of an entry id {@code <ms>-<seq>}; 0 for {@code 0-0}. */
    public static long ordinalOf(String entryId) {
        int dash = entryId.indexOf('-');
        long millis = Long.parseLong(dash < 0 ? entryId : entryId.substring(0, dash));
        long seq = dash < 0 ? 0 : Math.min(999_999, Long.parseLong(entryId.substring(dash + 1)));
        return millis * 1_000_000 + seq;
    }

    /** The entry id {@code <ms>-<seq>} whose {@link #ordinalOf ordinal} is {@code ordinal} (what the ledger stores). */
    public static String entryIdOf(long ordinal) {
        return (ordinal / 1_000_000) + "-" + (ordinal % 1_000_000);
    }
}
