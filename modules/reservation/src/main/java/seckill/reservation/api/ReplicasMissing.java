package seckill.reservation.api;

/**
 * A reservation was not acknowledged because the master has fewer replicas online than required:
 * in doubt like any unacknowledged reservation (it is on the master, not on a replica), and every
 * further one would be too until a replica is back or the requirement is lowered.
 */
public class ReplicasMissing extends ReservationUnavailable {

    private final Replicas replicas;

    public ReplicasMissing(Replicas replicas, Throwable cause) {
        super("reservation not acknowledged: " + replicas.online() + " of " + replicas.required()
                + " required replica(s) online", cause, true);
        this.replicas = replicas;
    }

    public Replicas replicas() {
        return replicas;
    }
}
