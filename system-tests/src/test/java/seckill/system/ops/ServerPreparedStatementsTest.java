package seckill.system.ops;

import java.util.Collections;
import java.util.List;

import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbTransaction;
import org.junit.jupiter.api.Test;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The database client the service builds, on the real MariaDB: its statements are prepared by the
 * server (MariaDB parses the ordering workers' batch INSERT once per connection, not once per batch),
 * and a statement the server refuses to prepare (more placeholders than it allows, as a large
 * {@code seckill.ordering.batch-size} would send) is still answered, as text.
 */
class ServerPreparedStatementsTest extends ServiceTest {

    @Test
    void statementsAreExecutedAsServerPreparedStatements() {
        DbTransaction tx = db.transaction();
        try {
            // one transaction is one connection, so the session's counters are this test's alone
            long before = executions(tx);
            for (int i = 1; i <= 3; i++) {
                // read as any Number: the text protocol answers this as an Integer, the binary one as a Long
                long answer = tx.get("SELECT ? + 1 AS n", i).map(row -> ((Number) row.column("n").get()).longValue())
                        .orElseThrow();
                assertThat(answer, is(i + 1L));
            }
            // three executions, and the second reading of the counter, itself a prepared statement
            assertThat(executions(tx) - before, is(4L));
        } finally {
            tx.rollback();
        }
    }

    @Test
    void aStatementWithMorePlaceholdersThanTheServerPreparesIsStillAnswered() {
        int placeholders = 70_000; // MariaDB prepares at most 65,535
        List<Object> ids = Collections.nCopies(placeholders, "no-such-reservation");
        long found = db.execute().get("SELECT COUNT(*) AS n FROM seckill_order WHERE reservation_id IN ("
                        + String.join(", ", Collections.nCopies(placeholders, "?")) + ")", ids.toArray())
                .map(row -> ((Number) row.column("n").get()).longValue()).orElseThrow();
        assertThat(found, is(0L));
    }

    private static long executions(DbTransaction tx) {
        DbRow row = tx.get("SHOW SESSION STATUS LIKE 'Com_stmt_execute'").orElseThrow();
        return Long.parseLong(row.column(2).getString());
    }
}
