package seckill.settlement;

import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import io.helidon.dbclient.DbClient;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import seckill.ledger.wiring.ShadowLedger;
import seckill.redis.World;
import seckill.settlement.api.SettlementSweeps;

/**
 * Runs the settlement sweeps on their schedules: timeouts every few seconds, the outbox relay
 * continuously, reconciliation every minute, and the resume check while sales are halted. Every
 * sweep is safe to run on several instances at once.
 * <p>
 * Rehearsals (docs/rehearsal.md) have their own timeout sweep, outbox relay, reconciliation and resume check over
 * the shadow ledger, scheduled beside the real ones only when the shadow database is configured
 * ({@code @ShadowLedger}) and {@code seckill.rehearsal.settlement.enabled} holds (by default as
 * {@code seckill.settlement.enabled}); they share no run with the real sweeps, so a rehearsal's slow or failing sweep
 * never holds back a real one, and a rehearsal's halt is lifted on the rehearsals' reconciliation only. The eviction
 * policy, Redis's, halts both worlds while rehearsals run.
 */
@ApplicationScoped
class SettlementSchedule implements SettlementSweeps {

    private static final Logger LOG = Logger.getLogger(SettlementSchedule.class.getName());

    private final ExpiringUnpaidOrders expiring;
    private final RelayingStockRefills relaying;
    private final Reconciling reconciling;
    private final ResumingSales resuming;
    private final boolean enabled;
    private final long timeoutScanSeconds;
    private final long relayMillis;
    private final long reconcileSeconds;
    private final boolean rehearsals;

    @Inject
    SettlementSchedule(ExpiringUnpaidOrders expiring,
                       RelayingStockRefills relaying,
                       Reconciling reconciling,
                       ResumingSales resuming,
                       SettlementSettings settings,
                       @ShadowLedger Optional<DbClient> shadow) {
        this.rehearsals = shadow.isPresent() && settings.rehearsalsEnabled();
        this.expiring = expiring;
        this.relaying = relaying;
        this.reconciling = reconciling;
        this.resuming = resuming;
        this.enabled = settings.enabled();
        this.timeoutScanSeconds = settings.timeoutScanSeconds();
        this.relayMillis = settings.relayMillis();
        this.reconcileSeconds = settings.reconcileSeconds();
    }

    private ScheduledExecutorService scheduler;

    void start(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        if (!enabled) {
            LOG.info("settlement sweeps disabled (seckill.settlement.enabled=false); the eviction policy is still checked");
            // an instance that sells must not sell on a Redis that may evict the sale's keys, sweeps or not
            scheduler = Executors.newScheduledThreadPool(rehearsals ? 5 : 1, r -> Thread.ofPlatform().daemon(true)
                    .name("settlement").unstarted(r));
            every(2_000, "eviction policy check", () -> resuming.evictionUnsafe(worlds()));
            rehearsalSweeps();
            return;
        }
        // one thread per sweep: a long reconciliation must not hold back timeouts or the relay
        scheduler = Executors.newScheduledThreadPool(rehearsals ? 9 : 5, r -> Thread.ofPlatform().daemon(true)
                .name("settlement").unstarted(r));
        every(timeoutScanSeconds * 1000, "timeout sweep", () -> {
            if (expiring.sweep() > 0) {
                relaying.relay();
            }
        });
        every(relayMillis, "outbox relay", relaying::relay);
        rehearsalSweeps();
        every(reconcileSeconds * 1000, "reconciliation", reconciling::reconcileLive);
        every(2_000, "resume check", () -> resuming.tryResume(false));
        // not behind the resume check: a reconciliation waiting for the database must not delay it
        every(2_000, "eviction policy check", () -> resuming.evictionUnsafe(worlds()));
    }

    /** The worlds this instance settles: the real one, and the rehearsals' when they are on. */
    private java.util.List<World> worlds() {
        return rehearsals ? java.util.List.of(World.REAL, World.REHEARSAL) : java.util.List.of(World.REAL);
    }

    /**
     * The rehearsals' timeout sweep, relay, reconciliation and resume check, over the shadow ledger, when it is
     * configured and they are on.
     */
    private void rehearsalSweeps() {
        if (!rehearsals) {
            return;
        }
        every(timeoutScanSeconds * 1000, "rehearsal timeout sweep", () -> {
            if (expiring.sweep(World.REHEARSAL) > 0) {
                relaying.relay(World.REHEARSAL);
            }
        });
        every(relayMillis, "rehearsal outbox relay", () -> relaying.relay(World.REHEARSAL));
        every(reconcileSeconds * 1000, "rehearsal reconciliation", () -> reconciling.reconcileLive(World.REHEARSAL));
        every(2_000, "rehearsal resume check", () -> resuming.tryResume(World.REHEARSAL, false));
    }

    private void every(long millis, String what, Runnable task) {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (BulkheadException e) {
                // the same pass is running already (the resume check or an operator started it)
                LOG.fine(() -> what + " skipped: already running");
            } catch (RuntimeException e) {
                if (seckill.ledger.api.LedgerUnavailable.isOutage(e)) {
                    // an outage is reported by readiness and the ordering workers; no stack trace every run
                    LOG.warning(() -> what + " skipped, the ledger database is unavailable: " + e.getMessage());
                } else {
                    LOG.log(Level.WARNING, what + " failed; next run as scheduled", e);
                }
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    @Override
    public int expireOverdue(World world) {
        return expiring.sweep(world);
    }

    @Override
    public int relayRefills(World world) {
        return relaying.relay(world);
    }

    @Override
    public boolean tryResumeSales(World world) {
        return resuming.tryResume(world, true);
    }
}
