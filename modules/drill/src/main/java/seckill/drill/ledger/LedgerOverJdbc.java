package seckill.drill.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import seckill.ledger.api.LedgerAudit;

/**
 * The ledger's audit on a plain JDBC connection of a drill's own (the ramp's and the chaos runner's), not
 * the service's pool: the drill reads a deployment's ledger read-only, and names no table itself (the
 * audit's SQL is the ledger's). Reads on one connection are serialized, as JDBC requires.
 */
public final class LedgerOverJdbc {

    private LedgerOverJdbc() {
    }

    /** The audit reading through {@code db}: every value as text, NULL as null. */
    public static LedgerAudit audit(Connection db) {
        return LedgerAudit.over((columns, sql, params) -> rows(db, columns, sql, params));
    }

    private static List<String[]> rows(Connection db, int columns, String sql, Object... params) {
        synchronized (db) {
            try (PreparedStatement s = db.prepareStatement(sql)) {
                for (int i = 0; i < params.length; i++) {
                    s.setObject(i + 1, params[i]);
                }
                try (ResultSet r = s.executeQuery()) {
                    List<String[]> all = new ArrayList<>();
                    while (r.next()) {
                        String[] values = new String[columns];
                        for (int i = 0; i < columns; i++) {
                            values[i] = r.getString(i + 1);
                        }
                        all.add(values);
                    }
                    return all;
                }
            } catch (SQLException e) {
                throw new IllegalStateException("reading the ledger failed: " + e.getMessage(), e);
            }
        }
    }
}
