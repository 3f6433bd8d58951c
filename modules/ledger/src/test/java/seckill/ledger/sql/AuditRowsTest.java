package seckill.ledger.sql;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import seckill.ledger.api.LedgerAudit;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;

/**
 * How the audit reads what the auditor's connection hands back as text: counts, DECIMAL sums and
 * NULL. Pure logic over canned rows; the statements themselves run against MariaDB in the app's
 * InvariantCheckTest and DrillTest.
 */
class AuditRowsTest {

    private final List<String> asked = new ArrayList<>();

    private LedgerAudit over(String[]... answers) {
        List<String[]> queue = new ArrayList<>(List.of(answers));
        return LedgerAudit.over((columns, sql, params) -> {
            asked.add(sql);
            return List.<String[]>of(queue.removeFirst());
        });
    }

    @Test
    void anActivitysFiguresComeFromItsOrdersFailuresStockAndOutbox() {
        LedgerAudit audit = over(new String[] {"7", "2", "3.00", "1"}, new String[] {"4"},
                new String[] {"5", "20"}, new String[] {"0"});
        LedgerAudit.ActivityFigures f = audit.activity(9);
        assertThat(f, is(new LedgerAudit.ActivityFigures(7, 2, 3, 1, 4, 5, 20, 0)));
        assertThat("two orders still unpaid", f.quiet(), is(false));
        assertThat(asked.size(), is(4));
    }

    @Test
    void nothingUnpaidAndNoRefillPendingIsQuiet() {
        LedgerAudit audit = over(new String[] {"3", "0", "3", "0"}, new String[] {"0"},
                new String[] {null, null}, new String[] {"0"});
        LedgerAudit.ActivityFigures f = audit.activity(9);
        assertThat(f.available(), is(0L));
        assertThat(f.quiet(), is(true));
    }

    @Test
    void settledReservationsAreOrdersAndFailures() {
        LedgerAudit audit = over(new String[] {"r-1"}, new String[] {"r-2"});
        assertThat(audit.settledReservations(9), contains("r-1", "r-2"));
    }
}
