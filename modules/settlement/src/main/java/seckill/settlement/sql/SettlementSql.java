package seckill.settlement.sql;

/** Every SQL statement of the settlement module (its own tables only). */
final class SettlementSql {

    private SettlementSql() {
    }

    static final String INSERT_RECONCILIATION = """
            INSERT INTO seckill_reconciliation (activity_id, sku_id, checked_at, state, figures, detail)
            VALUES (?, ?, ?, ?, ?, ?)""";

    static final String LATEST_RECONCILIATIONS = """
            SELECT r.activity_id, r.sku_id, r.checked_at, r.state, r.figures, COALESCE(r.detail, '') AS detail
            FROM seckill_reconciliation r
            JOIN (SELECT sku_id, MAX(id) AS id FROM seckill_reconciliation WHERE activity_id = ? GROUP BY sku_id) last
              ON last.id = r.id
            ORDER BY r.sku_id""";
}
