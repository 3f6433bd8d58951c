package seckill.ledger;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerBinding;
import seckill.ledger.api.LedgerUnavailable;
import seckill.ledger.sql.LedgerRows;
import seckill.redis.World;
import seckill.reservation.api.NamespaceBinding;

/**
 * One Redis namespace belongs to one ledger (issue #29, item 8). At start, before the ordering
 * workers read anything, the namespace is bound to this ledger's id or found bound to it; bound to
 * another, the instance refuses to start. Then the binding is checked again every
 * {@code seckill.ordering.binding-check-seconds} and before an event is acknowledged as unknown:
 * while it names another ledger the workers consume nothing and settlement halts sales
 * ({@link LedgerBinding}). A lost binding is taken again only by a ledger that bound a namespace
 * before (it holds this namespace's data, or it is a copy an operator must re-key), or by any ledger
 * while the namespace holds no sale's data: an empty ledger never claims a namespace with events.
 */
@ApplicationScoped
class BindingTheLedger implements LedgerBinding {

    private static final Logger LOG = Logger.getLogger(BindingTheLedger.class.getName());

    private final DbClient db;
    private final World world;
    private final NamespaceBinding namespace;
    private final Clock clock;
    private final long checkSeconds;
    private volatile String ledgerId;
    private volatile Optional<String> foreign = Optional.empty();
    private volatile boolean boundRecorded;
    private ScheduledExecutorService checks;

    @Inject
    BindingTheLedger(DbClient db, NamespaceBinding namespace, Clock clock, OrderingSettings settings) {
        this(World.REAL, db, namespace, clock, settings);
    }

    /**
     * The binding of {@code world}'s namespace to the ledger {@code db} of that world: {@code rh:ledger} to the
     * shadow ledger's id for the rehearsal workers (docs/rehearsal.md), never made through CDI.
     */
    BindingTheLedger(World world, DbClient db, NamespaceBinding namespace, Clock clock, OrderingSettings settings) {
        this.world = world;
        this.db = db;
        this.namespace = namespace;
        this.clock = clock;
        this.checkSeconds = settings.bindingCheckSeconds();
    }

    /** Runs before the workers start ({@code OrderingWorkers} observes the same event at the default priority). */
    void checkAtStartup(@Observes @Priority(100) @Initialized(ApplicationScoped.class) Object ignored) {
        bindAndCheck(true);
    }

    /**
     * Binds the namespace (or finds it bound) and starts the periodic check. Bound to another ledger, a real
     * binding refuses the start ({@code refuse}); a rehearsal's only keeps its workers idle, as
     * {@link #foreign()} tells them, and logs why: a rehearsal never stops the service's real sales.
     */
    void bindAndCheck(boolean refuse) {
        String mine;
        Optional<String> wrong;
        try {
            mine = ledgerId();
            wrong = judge(mine);
        } catch (RuntimeException e) {
            if (refuse) {
                throw e;
            }
            LOG.log(Level.WARNING, world + " namespace binding not checked at start; checked again every "
                    + checkSeconds + " s", e);
            mine = null;
            wrong = Optional.of("not checked yet");
            foreign = wrong;
        }
        if (refuse && wrong.isPresent()) {
            throw new IllegalStateException("refusing to start: " + wrong.get() + " (another deployment, or a database"
                    + " recreated or restored over an old Redis: point both at the same deployment's stores, or empty the"
                    + " Redis namespace of a ledger that no longer exists)");
        }
        if (wrong.isEmpty()) {
            String bound = mine;
            LOG.info(() -> (world == World.REAL ? "Redis namespace" : world + " namespace") + " bound to ledger " + bound);
        }
        if (checkSeconds > 0) {
            checks = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon(true)
                    .name(world == World.REAL ? "ledger-binding" : "ledger-binding-" + world.prefix().replace(":", "")).unstarted(r));
            checks.scheduleWithFixedDelay(this::checkQuietly, checkSeconds, checkSeconds, TimeUnit.SECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (checks != null) {
            checks.shutdownNow();
        }
    }

    @Override
    public Optional<String> foreign() {
        return foreign;
    }

    /**
     * Whether the namespace still belongs to this ledger, checked now.
     *
     * @throws LedgerUnavailable when the ledger does not answer
     */
    boolean stillOurs() {
        try {
            return judge(ledgerId()).isEmpty();
        } catch (LedgerUnavailable e) {
            throw e;
        } catch (RuntimeException e) {
            throw LedgerUnavailable.isOutage(e) ? new LedgerUnavailable(e) : e;
        }
    }

    private void checkQuietly() {
        try {
            judge(ledgerId());
        } catch (RuntimeException e) {
            // Redis or the ledger not answering is another check's business; the last verdict stands
            LOG.log(Level.FINE, "the ledger binding could not be checked now", e);
        }
    }

    /** Checks (and, where the rule allows, makes) the binding; returns what is wrong, remembered for {@link #foreign()}. */
    private Optional<String> judge(String mine) {
        Optional<String> owner = namespace.owner(world);
        Optional<String> wrong;
        if (owner.isEmpty() && !ledgerRows().ledgerBound() && namespace.holdsEvents(world)) {
            wrong = Optional.of("this Redis namespace holds a sale's data but is bound to no ledger, and ledger " + mine
                    + " never bound one; it is not taken: bind it to the ledger its events belong to (SET sk:ledger"
                    + " <that ledger's id>, see docs/ledger-binding.md)");
        } else {
            String bound = owner.isPresent() ? owner.get() : namespace.bindTo(world, mine);
            wrong = bound.equals(mine) ? Optional.empty()
                    : Optional.of("this Redis namespace belongs to ledger " + bound + ", this instance's database is ledger "
                            + mine);
        }
        if (wrong.isEmpty() && !boundRecorded) {
            ledgerRows().markLedgerBound(clock.instant());
            boundRecorded = true;
        }
        if (!wrong.equals(foreign)) {
            wrong.ifPresentOrElse(w -> LOG.severe(() -> w + (world == World.REAL ? ": ordering workers consume nothing, sales halt"
                    : ": the " + world + " ordering workers consume nothing")),
                    () -> LOG.info(() -> "Redis namespace bound to ledger " + mine + " again"));
        }
        foreign = wrong;
        return wrong;
    }

    private LedgerRows ledgerRows() {
        return new LedgerRows(db);
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
