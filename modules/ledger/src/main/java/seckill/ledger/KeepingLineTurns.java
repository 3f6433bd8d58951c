package seckill.ledger;

import java.time.Instant;

import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LineTurns;
import seckill.ledger.sql.LineTurnRows;

/**
 * Keeps the waiting line's turns that ran out unused and were left by joining again (issue #33) where the line's Redis
 * keys are not. Asked only on the line's rare paths (such a buyer joining again; a ticket of a buyer Redis lost), never
 * on a purchase.
 */
@ApplicationScoped
class KeepingLineTurns implements LineTurns {

    private final LineTurnRows rows;

    @Inject
    KeepingLineTurns(DbClient db) {
        this.rows = new LineTurnRows(db);
    }

    @Override
    public void recordLeft(long activityId, long userId, long place, Instant at) {
        rows.recordLeft(activityId, userId, place, at);
    }

    @Override
    public long lastLeft(long activityId, long userId) {
        return rows.lastLeft(activityId, userId);
    }
}
