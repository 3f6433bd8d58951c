package seckill.ordering;

import java.util.logging.Logger;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import seckill.ordering.api.LedgerUnavailable;
import seckill.ordering.sql.LedgerRows;
import seckill.reservation.api.NamespaceBinding;

/**
 * One Redis namespace belongs to one ledger (issue #29, item 8). At start, before the ordering
 * workers read anything, the namespace is bound to this ledger's id or found bound to it; bound to
 * another, the instance refuses to start. Before an event is acknowledged as unknown to the ledger,
 * the binding is asked again: only events of this ledger's namespace may be given up on.
 */
@ApplicationScoped
class BindingTheLedger {

    private static final Logger LOG = Logger.getLogger(BindingTheLedger.class.getName());

    private final DbClient db;
    private final NamespaceBinding namespace;
    private volatile String ledgerId;

    @Inject
    BindingTheLedger(DbClient db, NamespaceBinding namespace) {
        this.db = db;
        this.namespace = namespace;
    }

    /** Runs before the workers start ({@code OrderingWorkers} observes the same event at the default priority). */
    void checkAtStartup(@Observes @Priority(100) @Initialized(ApplicationScoped.class) Object ignored) {
        String mine = ledgerId();
        String owner = namespace.bindTo(mine);
        if (!owner.equals(mine)) {
            throw new IllegalStateException("refusing to start: this Redis namespace belongs to ledger " + owner
                    + ", and this instance's database is ledger " + mine + " (another deployment, or a database"
                    + " recreated over an old Redis: point both at the same deployment's stores, or empty the"
                    + " Redis namespace of a ledger that no longer exists)");
        }
        LOG.info(() -> "Redis namespace bound to ledger " + mine);
    }

    /**
     * Whether the namespace still belongs to this ledger; a lost binding is taken again.
     *
     * @throws LedgerUnavailable when the ledger does not answer
     */
    boolean stillOurs() {
        String mine = ledgerId();
        boolean ours = namespace.bindTo(mine).equals(mine);
        if (!ours) {
            LOG.severe(() -> "this Redis namespace now belongs to another ledger than " + mine
                    + ": events of unknown activities are left pending, never acknowledged");
        }
        return ours;
    }

    private String ledgerId() {
        String known = ledgerId;
        if (known == null) {
            try {
                known = new LedgerRows(db).ledgerId();
            } catch (RuntimeException e) {
                throw LedgerUnavailable.isOutage(e) ? new LedgerUnavailable(e) : e;
            }
            ledgerId = known;
        }
        return known;
    }
}
