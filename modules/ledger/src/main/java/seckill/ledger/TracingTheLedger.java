package seckill.ledger;

import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerTrace;
import seckill.ledger.api.LedgerTrail;
import seckill.ledger.sql.TraceRows;
import seckill.reservation.api.ReservationId;

/** Support's view of one reservation in the ledger: plain reads of the rows the ledger transactions wrote. */
@ApplicationScoped
class TracingTheLedger implements LedgerTrail {

    private final TraceRows rows;

    @Inject
    TracingTheLedger(DbClient db) {
        this.rows = new TraceRows(db);
    }

    @Override
    public LedgerTrace follow(ReservationId id) {
        return rows.follow(id.toString());
    }
}
