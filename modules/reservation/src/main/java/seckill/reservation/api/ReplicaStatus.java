package seckill.reservation.api;

/**
 * Whether Redis has the replicas a reservation must reach, asked by whoever decides to sell again.
 * Redis failures surface as {@link ReservationUnavailable}.
 */
public interface ReplicaStatus {

    Replicas replicas();
}
