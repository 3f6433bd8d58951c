package seckill.ledger;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerTrace;
import seckill.ledger.api.LedgerTrail;
import seckill.ledger.sql.TraceRows;
import seckill.redis.World;
import seckill.reservation.api.ReservationId;

/**
 * Support's view of one reservation in the ledger: plain reads of the rows the ledger transactions wrote, in
 * the ledger of the reservation's world (a rehearsal's in the shadow ledger; nothing without one).
 */
@ApplicationScoped
class TracingTheLedger implements LedgerTrail {

    private final LedgersByWorld.PerWorld<TraceRows> rows;

    @Inject
    TracingTheLedger(LedgersByWorld ledgers) {
        this.rows = ledgers.each(TraceRows::new);
    }

    @Override
    public LedgerTrace follow(ReservationId id) {
        return rows.of(World.of(id.activityId())).map(r -> r.follow(id.toString()))
                .orElseGet(() -> new LedgerTrace(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
    }
}
