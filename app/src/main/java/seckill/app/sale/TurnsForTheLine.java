package seckill.app.sale;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LineTurns;
import seckill.queue.api.PastTurns;

/**
 * The record of the line's turns that ran out unused and were left by joining again (issue #33), kept by the ledger
 * (its {@link LineTurns}, table {@code seckill_line_turn_left}) where the line's Redis keys are not: after they are
 * lost, a ticket that a later join replaced gives back no place ahead of buyers who never had a turn.
 */
@ApplicationScoped
public class TurnsForTheLine implements PastTurns {

    private final LineTurns turns;
    private final Clock clock;

    @Inject
    TurnsForTheLine(LineTurns turns, Clock clock) {
        this.turns = turns;
        this.clock = clock;
    }

    /** For CDI's proxy. */
    TurnsForTheLine() {
        this(null, null);
    }

    @Override
    public void turnLeft(long activityId, long buyerId, long place) {
        turns.recordLeft(activityId, buyerId, place, clock.instant());
    }

    @Override
    public long lastTurnLeft(long activityId, long buyerId) {
        return turns.lastLeft(activityId, buyerId);
    }
}
