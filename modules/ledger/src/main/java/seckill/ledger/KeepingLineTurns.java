package seckill.ledger;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LineTurns;
import seckill.ledger.sql.LineTurnRows;
import seckill.redis.World;

/**
 * Keeps the waiting line's turns that ran out unused (issue #33) where the line's Redis keys are not, in the ledger
 * of the activity's world (issue #34: a rehearsal's line writes the shadow table only, never a real row). Asked only
 * on the line's rare paths (a turn run out, such a buyer joining again, a ticket of a buyer Redis lost), never on a
 * purchase.
 */
@ApplicationScoped
class KeepingLineTurns implements LineTurns {

    private final LedgersByWorld.PerWorld<LineTurnRows> rows;

    @Inject
    KeepingLineTurns(LedgersByWorld ledgers) {
        this.rows = ledgers.each(LineTurnRows::new);
    }

    @Override
    public void recordLeft(long activityId, long userId, long place, Instant at) {
        // without a shadow ledger no rehearsal exists (its id is an unknown activity): refused, never the real table
        rows.of(World.of(activityId)).orElseThrow(() -> new IllegalStateException(
                        "activity " + activityId + " is a rehearsal and no shadow ledger is configured"))
                .recordLeft(activityId, userId, place, at);
    }

    @Override
    public long lastLeft(long activityId, long userId) {
        return rows.of(World.of(activityId)).map(r -> r.lastLeft(activityId, userId)).orElse(0L);
    }
}
