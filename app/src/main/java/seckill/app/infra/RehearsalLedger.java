package seckill.app.infra;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import seckill.redis.World;

/**
 * The shadow tables of rehearsals (issue #34, docs/rehearsal.md): a database of its own
 * ({@code seckill.rehearsal.db.url}), migrated by the same changelogs as the real ledger, whose activity
 * ids start at {@link World#REHEARSAL_IDS_FROM}, so every layer knows a rehearsal from its id alone. The
 * real ledger never holds an id of that range, and the shadow database is never the real one.
 */
final class RehearsalLedger {

    private RehearsalLedger() {
    }

    /**
     * Refuses to start over a real ledger holding an activity id of the rehearsal range: its keys would be
     * a rehearsal's, and the shadow tables may have been named as the real ledger by mistake.
     */
    static void checkRealIds(String url, String user, String secret) {
        long highest = query(url, user, secret, "SELECT COALESCE(MAX(id), 0) FROM seckill_activity");
        if (highest >= World.REHEARSAL_IDS_FROM) {
            throw new IllegalStateException("refusing to start: the ledger at " + RedactedAddress.of(url)
                    + " holds activity " + highest + ", an id of rehearsals (from " + World.REHEARSAL_IDS_FROM
                    + "): is seckill.db.url the rehearsal database? (docs/rehearsal.md)");
        }
    }

    /**
     * After its migration: refuses a shadow database that is the real ledger (the same {@code seckill_ledger}
     * id, whatever the URLs say), and starts its activity ids at {@link World#REHEARSAL_IDS_FROM} (InnoDB
     * keeps the counter across restarts; a counter already past it is left alone).
     */
    static void prepare(String realUrl, String realUser, String realSecret, String shadowUrl, String shadowUser,
                        String shadowSecret) {
        String real = text(realUrl, realUser, realSecret, "SELECT ledger_id FROM seckill_ledger WHERE id = 1");
        String shadow = text(shadowUrl, shadowUser, shadowSecret, "SELECT ledger_id FROM seckill_ledger WHERE id = 1");
        if (real.equals(shadow)) {
            throw new IllegalStateException("refusing to start: seckill.rehearsal.db.url names the real ledger ("
                    + RedactedAddress.of(shadowUrl) + " has ledger id " + real + "); rehearsals need a database of "
                    + "their own (docs/rehearsal.md)");
        }
        long highest = query(shadowUrl, shadowUser, shadowSecret, "SELECT COALESCE(MAX(id), 0) FROM seckill_activity");
        if (highest < World.REHEARSAL_IDS_FROM) {
            if (highest > 0) {
                throw new IllegalStateException("refusing to start: the rehearsal database at "
                        + RedactedAddress.of(shadowUrl) + " holds activity " + highest + ", an id of real sales: "
                        + "is seckill.rehearsal.db.url a copy of a real ledger? (docs/rehearsal.md)");
            }
            execute(shadowUrl, shadowUser, shadowSecret,
                    "ALTER TABLE seckill_activity AUTO_INCREMENT = " + World.REHEARSAL_IDS_FROM);
        }
    }

    private static long query(String url, String user, String secret, String sql) {
        return Long.parseLong(text(url, user, secret, sql));
    }

    private static String text(String url, String user, String secret, String sql) {
        try (Connection c = connect(url, user, secret); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            if (!r.next()) {
                throw new IllegalStateException("no answer to " + sql + " at " + RedactedAddress.of(url));
            }
            return r.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the ledger at " + RedactedAddress.of(url) + ": " + e.getMessage(), e);
        }
    }

    private static void execute(String url, String user, String secret, String sql) {
        try (Connection c = connect(url, user, secret); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare the rehearsal database at " + RedactedAddress.of(url) + ": "
                    + e.getMessage(), e);
        }
    }

    private static Connection connect(String url, String user, String secret) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", secret);
        return DriverManager.getConnection(url, properties);
    }
}
