package seckill.reservation.api;

/**
 * Events were read, but fewer replicas than required ({@code seckill.redis.min-replica-acks}) hold
 * them: a failover now could lose their reservations, so they must not be settled yet. They stay
 * pending with the consumer that read them; it reads them again through
 * {@link ReservationEvents#readOwnPending} once the replicas have caught up.
 */
public class UnreplicatedEvents extends RuntimeException {

    public UnreplicatedEvents(String stream, int events, Throwable cause) {
        super(events + " event(s) of " + stream + " are not yet held by the required replicas: " + cause.getMessage(),
                cause);
    }
}
