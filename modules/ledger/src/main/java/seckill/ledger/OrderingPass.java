package seckill.ledger;

import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.LedgerUnavailable;
import seckill.ledger.rules.OrderPace;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationEvents;
import seckill.reservation.api.UnreplicatedEvents;

/**
 * One pass of one consumer over the live streams: from each stream, the new events the pace grants
 * are read and turned into orders (which acknowledges them, {@link PlacingOrders}); when due, events
 * another consumer left pending too long (a crashed or stuck instance) are taken over. A consumer
 * that (re)starts first finishes what it was handed before. The pace is this instance's, shared by
 * its workers.
 */
@ApplicationScoped
class OrderingPass {

    private static final Logger LOG = Logger.getLogger(OrderingPass.class.getName());

    private final ReservationEvents events;
    private final LiveStreams liveStreams;
    private final PlacingOrders placingOrders;
    private final PaceSwitch paceSwitch;
    private final long reclaimIdleSeconds;
    private final OrderPace pace = new OrderPace(System.nanoTime());

    // the benchmark may change it at run time (WorkerHooks.batchSize)
    private volatile int batchSize;

    @Inject
    OrderingPass(ReservationEvents events, LiveStreams liveStreams, PlacingOrders placingOrders, PaceSwitch paceSwitch,
                 OrderingSettings settings) {
        this.events = events;
        this.liveStreams = liveStreams;
        this.placingOrders = placingOrders;
        this.paceSwitch = paceSwitch;
        this.reclaimIdleSeconds = settings.reclaimIdleSeconds();
        this.batchSize = settings.batchSize();
    }

    int batchSize() {
        return batchSize;
    }

    void batchSize(int events) {
        if (events < 1) {
            throw new IllegalArgumentException("batch size must be >= 1");
        }
        batchSize = events;
    }

    /**
     * Runs one pass.
     *
     * @return the events settled
     * @throws LedgerUnavailable   when the ledger does not answer: the events stay pending
     * @throws UnreplicatedEvents  when events read are not yet safe from a failover: they stay pending
     * @throws RuntimeException    any other failure of a stream, after every stream had its turn
     */
    int run(StreamConsumer consumer) {
        if (consumer.ownPendingDue()) {
            settleOwnPending(consumer);
            consumer.ownPendingSettled();
        }
        int settled = 0;
        RuntimeException failure = null;
        for (String stream : liveStreams.list()) {
            // one stream's trouble must not starve the others; an outage of the ledger stops them all
            try {
                int allowed = pace.grant(batchSize, System.nanoTime(), paceSwitch.maxOrdersPerSecond());
                if (allowed == 0) {
                    // paced: the events wait in the stream, the ledger writes at its steady rate
                    continue;
                }
                List<ReservationEvent> batch = events.readNew(stream, consumer.name(), allowed);
                pace.giveBack(allowed - batch.size());
                if (!batch.isEmpty()) {
                    placingOrders.settle(batch);
                    settled += batch.size();
                }
            } catch (CrashInjection.WorkerCrash | LedgerUnavailable | UnreplicatedEvents e) {
                throw e;
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (consumer.reclaimDue(System.nanoTime(), Duration.ofSeconds(Math.max(1, reclaimIdleSeconds / 3)).toNanos())) {
            for (String stream : liveStreams.list()) {
                List<ReservationEvent> stale = events.reclaimIdle(stream, consumer.name(),
                        Duration.ofSeconds(reclaimIdleSeconds), batchSize);
                if (!stale.isEmpty()) {
                    placingOrders.settle(stale);
                    settled += stale.size();
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return settled;
    }

    /**
     * Finishes what this consumer had been handed before it stopped, before the ledger went away, or
     * before the replicas held it. An outage or unreplicated events are thrown; any other trouble is
     * logged and left to the reclaim.
     */
    private void settleOwnPending(StreamConsumer consumer) {
        try {
            for (String stream : liveStreams.list()) {
                // one pass, page by page, each entry once: what stays pending (unreadable, refused by the
                // ledger) waits for the reclaim's spacing. Reading it again at once would be another
                // delivery each time, so a pass that compared what it read would never end, and a
                // refusal would burn max-deliveries in milliseconds.
                List<ReservationEvent> mine = events.readOwnPending(stream, consumer.name(), batchSize, "0-0");
                while (consumer.running() && !mine.isEmpty()) {
                    placingOrders.settle(mine);
                    mine = events.readOwnPending(stream, consumer.name(), batchSize,
                            mine.getLast().position().entryId());
                }
            }
        } catch (CrashInjection.WorkerCrash | LedgerUnavailable | UnreplicatedEvents e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "consumer " + consumer.name() + " could not settle its own pending events", e);
        }
    }
}
