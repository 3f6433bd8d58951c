package seckill.reservation.api;

import java.util.Optional;
import java.util.regex.Pattern;

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

    private static final Pattern FORM = Pattern.compile("[1-9][0-9]{0,17}-[1-9][0-9]{0,17}-[0-9]{1,4}-[0-9a-z]{1,13}");

    public ReservationId {
        if (activityId <= 0 || skuId <= 0 || bucket < 0 || sequence < 0 || activityId > MAX_PART || skuId > MAX_PART) {
            throw new IllegalArgumentException("invalid reservation id parts");
        }
    }

    /** Parses the text form; empty for anything that is not a well-formed id. */
    public static Optional<ReservationId> parse(String text) {
        if (text == null || !FORM.matcher(text).matches()) {
            return Optional.empty();
        }
        String[] parts = text.split("-");
        try {
            return Optional.of(new ReservationId(Long.parseLong(parts[0]), Long.parseLong(parts[1]),
                    Integer.parseInt(parts[2]), Long.parseLong(parts[3], 36)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return activityId + "-" + skuId + "-" + bucket + "-" + Long.toString(sequence, 36);
    }
}
