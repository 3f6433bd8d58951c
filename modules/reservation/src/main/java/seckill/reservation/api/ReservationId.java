package seckill.reservation.api;

import java.util.Optional;

/**
 * Identity of one reservation, as handed to the buyer. It names the activity, the SKU and the
 * stock bucket the unit was taken from, plus a sequence unique across instances, so any module can
 * find the reservation's keys and ledger rows from the id alone. Its text form is
 * {@code <activityId>-<skuId>-<bucket>-<sequence in base 36>}.
 */
public record ReservationId(long activityId, long skuId, int bucket, long sequence) {

    /**
     * Largest activity or SKU id an id can carry (18 digits, as {@link #parse} reads them). The HTTP
     * edge refuses larger ones, so no event is ever recorded that nobody could parse.
     */
    public static final long MAX_PART = 999_999_999_999_999_999L;

    public ReservationId {
        if (activityId <= 0 || skuId <= 0 || bucket < 0 || sequence < 0 || activityId > MAX_PART || skuId > MAX_PART) {
            throw new IllegalArgumentException("invalid reservation id parts");
        }
    }

    /** Parses the text form; empty for anything that is not a well-formed id. */
    public static Optional<ReservationId> parse(String text) {
        // read by hand, not by a regex and a split: the ordering workers parse every event they
        // settle (a regex was 3 % of the purchase path's CPU samples with ordering at full speed)
        if (text == null) {
            return Optional.empty();
        }
        int first = text.indexOf('-');
        int second = first < 0 ? -1 : text.indexOf('-', first + 1);
        int third = second < 0 ? -1 : text.indexOf('-', second + 1);
        if (third < 0 || text.indexOf('-', third + 1) >= 0
                || !part(text, 0, first, 18, false) || text.charAt(0) == '0'
                || !part(text, first + 1, second, 18, false) || text.charAt(first + 1) == '0'
                || !part(text, second + 1, third, 4, false) || !part(text, third + 1, text.length(), 13, true)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ReservationId(Long.parseLong(text, 0, first, 10),
                    Long.parseLong(text, first + 1, second, 10), Integer.parseInt(text, second + 1, third, 10),
                    Long.parseLong(text, third + 1, text.length(), 36)));
        } catch (NumberFormatException e) {
            // thirteen base-36 digits can exceed a long
            return Optional.empty();
        }
    }

    /** {@code [0-9]{1,most}}, or {@code [0-9a-z]{1,most}} when {@code base36}. */
    private static boolean part(String text, int from, int to, int most, boolean base36) {
        if (to - from < 1 || to - from > most) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if ((c < '0' || c > '9') && (!base36 || c < 'a' || c > 'z')) {
                return false;
            }
        }
        return true;
    }

    /**
     * When the id was minted, by the minting instance's clock (its sequence's leading milliseconds):
     * where to look for its event in the stream when nothing else says.
     */
    public java.time.Instant mintedAt() {
        return seckill.reservation.redis.ReservationSequence.mintedAt(sequence);
    }

    @Override
    public String toString() {
        return activityId + "-" + skuId + "-" + bucket + "-" + Long.toString(sequence, 36);
    }
}
