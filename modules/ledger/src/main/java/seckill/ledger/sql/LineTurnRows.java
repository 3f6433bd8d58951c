package seckill.ledger.sql;

import java.time.Instant;

import io.helidon.dbclient.DbClient;

/** Reads and writes {@code seckill_line_turn_left}: the line's turns that ran out unused and were left (issue #33). */
public final class LineTurnRows {

    private final DbClient db;

    public LineTurnRows(DbClient db) {
        this.db = db;
    }

    /** One statement, auto-committed; the highest place is kept (re-run, or an earlier place: no change). */
    public void recordLeft(long activityId, long userId, long place, Instant at) {
        db.execute().dml(OrderingSql.RECORD_TURN_LEFT, activityId, userId, place, UtcTime.column(at));
    }

    public long lastLeft(long activityId, long userId) {
        return db.execute().get(OrderingSql.SELECT_TURN_LEFT, activityId, userId)
                .map(row -> Columns.longOf(row, "place")).orElse(0L);
    }
}
