package seckill.ledger;

import java.time.Clock;
import java.util.Optional;
import java.util.logging.Logger;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.MetricRegistry;
import seckill.ledger.wiring.ShadowLedger;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.redis.World;
import seckill.reservation.api.NamespaceBinding;
import seckill.reservation.api.ReservationEvents;

/**
 * The ordering workers of rehearsals (issue #34, docs/rehearsal.md): a second worker graph
 * ({@link OrderingWorkers}, {@link WorkerLoop}, {@link OrderingPass}, {@link PlacingOrders}, {@link LiveStreams},
 * {@link BindingTheLedger}) built for {@link World#REHEARSAL} over the shadow ledger: it reads only the streams
 * listed in {@code rh:streams} (and the shadow ledger's live activities), writes only the shadow ledger, and
 * binds {@code rh:ledger} to the shadow ledger's id. Started with the service when a shadow ledger is configured
 * ({@code seckill.rehearsal.db.url}) and the instance orders at all ({@code seckill.ordering.enabled}):
 * {@code seckill.rehearsal.workers} threads (1), idle while {@code rh:streams} is empty. Its outages, binding
 * and crashes are its own: none of them is told to readiness, the operator's ordering switch or the real
 * workers' crash drills. Its counters are still the real workers' (the {@code world} label is step 5 of
 * docs/rehearsal.md).
 */
@ApplicationScoped
class RehearsalOrdering {

    private static final Logger LOG = Logger.getLogger(RehearsalOrdering.class.getName());

    private final Optional<DbClient> shadow;
    private final ReservationEvents events;
    private final NamespaceBinding namespace;
    private final ActivityCatalog catalog;
    private final Clock clock;
    private final MetricRegistry metrics;
    private final OrderingSettings settings;
    private final PaceSwitch pace;

    private BindingTheLedger binding;
    private OrderingWorkers workers;

    @Inject
    RehearsalOrdering(@ShadowLedger Optional<DbClient> shadow, ReservationEvents events, NamespaceBinding namespace,
                      ActivityCatalog catalog, Clock clock, MetricRegistry metrics, OrderingSettings settings,
                      PaceSwitch pace) {
        this.shadow = shadow;
        this.events = events;
        this.namespace = namespace;
        this.catalog = catalog;
        this.clock = clock;
        this.metrics = metrics;
        this.settings = settings;
        this.pace = pace;
    }

    /** After the real binding (priority 100): a real namespace bound to another ledger has refused the start by now. */
    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        if (shadow.isEmpty()) {
            return;
        }
        if (!settings.enabled() || settings.rehearsalWorkers() < 1) {
            LOG.info("rehearsal ordering workers not started (seckill.ordering.enabled=false or seckill.rehearsal.workers=0)");
            return;
        }
        startOver(shadow.get());
    }

    /** Builds the rehearsals' graph over {@code ledger} and starts it (for the service, and for a test). */
    synchronized void startOver(DbClient ledger) {
        if (workers != null) {
            return;
        }
        binding = new BindingTheLedger(World.REHEARSAL, ledger, namespace, clock, settings);
        binding.bindAndCheck(false);
        CrashInjection crashes = new CrashInjection();
        PlacingOrders placing = new PlacingOrders(World.REHEARSAL, ledger, events, catalog, clock, metrics, crashes, binding, settings);
        placing.init();
        LiveStreams streams = new LiveStreams(World.REHEARSAL, events, catalog, clock, settings);
        OrderingPass pass = new OrderingPass(events, streams, placing, pace, settings);
        WorkerLoop loop = new WorkerLoop(pass, placing, binding, clock, settings);
        workers = new OrderingWorkers(loop, pass, crashes, settings, pace, settings.rehearsalWorkers(), "-rh");
        workers.resume();
    }

    /** The rehearsal workers' binding verdict: empty while {@code rh:streams}' namespace is the shadow ledger's. */
    Optional<String> foreign() {
        return binding == null ? Optional.of("no rehearsal workers") : binding.foreign();
    }

    boolean running() {
        return workers != null && workers.running();
    }

    @PreDestroy
    synchronized void stop() {
        if (workers != null) {
            workers.pause();
        }
        if (binding != null) {
            binding.stop();
        }
    }
}
