package seckill.settlement.sql;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import seckill.settlement.api.SkuReconciliation;

/**
 * Reads and writes settlement's own tables: reconciliation results. (seckill_payment is written by
 * the ledger's payment transaction, with the order's status: its SQL is the ledger module's.)
 */
public final class SettlementRows {

    private final DbClient db;

    public SettlementRows(DbClient db) {
        this.db = db;
    }

    public void recordReconciliation(SkuReconciliation result) {
        db.execute().dml(SettlementSql.INSERT_RECONCILIATION, result.activityId(), result.skuId(),
                utc(result.checkedAt()), result.state(), encode(result.figures()), result.detail());
    }

    public List<SkuReconciliation> latest(long activityId) {
        try (Stream<DbRow> rows = db.execute().query(SettlementSql.LATEST_RECONCILIATIONS, activityId)) {
            return rows.map(r -> new SkuReconciliation(((Number) r.column("activity_id").get()).longValue(),
                    ((Number) r.column("sku_id").get()).longValue(), instant(r.column("checked_at").get()),
                    String.valueOf(r.column("state").get()), decode(String.valueOf(r.column("figures").get())),
                    blankToNull(String.valueOf(r.column("detail").get())))).toList();
        }
    }

    private static String blankToNull(String text) {
        return text.isEmpty() ? null : text;
    }

    private static String encode(Map<String, Long> figures) {
        StringBuilder s = new StringBuilder();
        figures.forEach((k, v) -> s.append(s.isEmpty() ? "" : ",").append(k).append('=').append(v));
        return s.toString();
    }

    private static Map<String, Long> decode(String text) {
        Map<String, Long> figures = new LinkedHashMap<>();
        if (text.isBlank()) {
            return figures;
        }
        for (String pair : text.split(",")) {
            String[] kv = pair.split("=", 2);
            figures.put(kv[0], Long.parseLong(kv[1]));
        }
        return figures;
    }

    // text with milliseconds: see the ledger module's UtcTime for why not LocalDateTime
    private static String utc(Instant instant) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC)
                .format(instant);
    }

    private static Instant instant(Object column) {
        if (column instanceof LocalDateTime local) {
            return local.toInstant(ZoneOffset.UTC);
        }
        return ((Timestamp) column).toLocalDateTime().toInstant(ZoneOffset.UTC);
    }
}
