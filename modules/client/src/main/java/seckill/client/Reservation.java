package seckill.client;

/**
 * The answer to a purchase that holds a unit: {@code status} is {@code QUEUED} for a new reservation
 * (202) or {@code ALREADY_RESERVED} when the buyer already held it (200, the same id).
 */
public record Reservation(String reservationId, String status) {

    public boolean isNew() {
        return "QUEUED".equals(status);
    }
}
