package seckill.ledger;

import java.time.Clock;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerUnavailable;
import seckill.ledger.rules.Backoff;
import seckill.reservation.api.UnreplicatedEvents;

/**
 * What one worker thread does until it is stopped: pass after pass ({@link OrderingPass}), an idle
 * pause when a pass found nothing, and a growing pause ({@link Backoff}) while the ledger or Redis is
 * failing. While the ledger is away no new events are taken, and the outage is told to readiness
 * ({@link #ledgerOutage()}); a rehearsed crash ends the thread with its batch in hand.
 */
@ApplicationScoped
class WorkerLoop {

    private static final Logger LOG = Logger.getLogger(WorkerLoop.class.getName());

    private final OrderingPass pass;
    private final PlacingOrders placingOrders;
    private final BindingTheLedger binding;
    private final Clock clock;
    private final long idlePollMillis;
    /** Longest pause between attempts while the ledger or Redis is failing. */
    private final long maxBackoffMillis;
    private final LedgerOutage outage = new LedgerOutage();

    @Inject
    WorkerLoop(OrderingPass pass, PlacingOrders placingOrders, BindingTheLedger binding, Clock clock,
               OrderingSettings settings) {
        this.pass = pass;
        this.placingOrders = placingOrders;
        this.binding = binding;
        this.clock = clock;
        this.idlePollMillis = settings.idlePollMillis();
        this.maxBackoffMillis = settings.maxBackoffMillis();
    }

    /** Why the workers are backing off, while they find the ledger away; empty otherwise. */
    Optional<String> ledgerOutage() {
        return outage.current();
    }

    /** Runs {@code consumer} until it is stopped, interrupted or crashed on purpose. */
    void work(StreamConsumer consumer) {
        Backoff backoff = new Backoff(maxBackoffMillis);
        while (consumer.running()) {
            try {
                if (binding.foreign().isPresent()) {
                    // another ledger's namespace (or nobody's): its events are not this ledger's to order
                    Thread.sleep(Math.max(idlePollMillis, 200));
                    continue;
                }
                if (outage.ongoing() && !placingOrders.ledgerAnswers()) {
                    throw new LedgerUnavailable(new java.sql.SQLTransientConnectionException("the ledger does not answer"));
                }
                int settled = pass.run(consumer);
                backoff.afterSuccess();
                outage.ended();
                if (settled == 0) {
                    Thread.sleep(idlePollMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (CrashInjection.WorkerCrash crash) {
                LOG.warning(() -> "ordering worker " + consumer.name() + " killed: " + crash.getMessage());
                return;
            } catch (LedgerUnavailable e) {
                // not the events' fault: they stay pending, nothing counts against them, and no new ones are taken
                consumer.ownPendingFirst();
                long pause = backoff.afterFailure();
                if (outage.began(clock.instant())) {
                    LOG.warning("ledger database unavailable; ordering workers back off (up to " + maxBackoffMillis
                            + " ms) and take no new events until it answers: " + e.getMessage());
                }
                if (!pause(pause)) {
                    return;
                }
            } catch (UnreplicatedEvents e) {
                // read but not yet safe from a failover: they stay pending with this consumer, which
                // reads them again first, once the replicas have caught up
                consumer.ownPendingFirst();
                long pause = backoff.afterFailure();
                LOG.warning(() -> "ordering worker " + consumer.name() + " waits for Redis replicas: " + e.getMessage());
                if (!pause(pause)) {
                    return;
                }
            } catch (RuntimeException e) {
                long pause = backoff.afterFailure();
                LOG.log(Level.WARNING, "ordering worker " + consumer.name() + " failed; retrying in " + pause + " ms", e);
                if (!pause(pause)) {
                    return;
                }
            }
        }
    }

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
