package seckill.ledger;

import java.time.Duration;
import java.util.ArrayList;
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
 * are read and turned into orders (which acknowledges them, {@link PlacingOrders}), a batch (one
 * transaction) of at most {@code batch-size} events made of whole stream entries, an entry of a
 * coalesced call recording several (issue #35); when due, events
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
                long cap = paceSwitch.maxOrdersPerSecond();
                int allowed = pace.grant(batchSize, System.nanoTime(), cap);
                if (allowed == 0) {
                    // paced: the events wait in the stream, the ledger writes at its steady rate
                    continue;
                }
                // an entry may record several events (a coalesced call's): paced, as many entries as
                // should about fill the grant; unpaced, a batch's worth of entries, settled in batches
                int entries = cap > 0 ? consumer.entriesFor(allowed) : allowed;
                List<ReservationEvent> batch = events.readNew(stream, consumer.name(), entries);
                List<List<ReservationEvent>> chunks = wholeEntries(batch, batchSize);
                consumer.read(entriesIn(chunks), batch.size());
                int used = 0;
                for (List<ReservationEvent> chunk : chunks) {
                    int beyond = Math.min(chunk.size(), used + chunk.size() - allowed);
                    if (beyond > 0 && !paced(consumer, beyond)) {
                        // stopping: the rest stay pending with this consumer (settled after a restart, or reclaimed)
                        break;
                    }
                    placingOrders.settle(chunk);
                    used += chunk.size();
                    settled += chunk.size();
                }
                pace.giveBack(allowed - used);
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
                for (List<ReservationEvent> chunk : wholeEntries(stale, batchSize)) {
                    placingOrders.settle(chunk);
                    settled += chunk.size();
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
                    for (List<ReservationEvent> chunk : wholeEntries(mine, batchSize)) {
                        placingOrders.settle(chunk);
                    }
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

    /**
     * Takes {@code events} beyond the grant from the pace, waiting until it holds them (an entry's events
     * are settled together, and the cap is never exceeded for it).
     *
     * @return false when the consumer stops meanwhile
     */
    private boolean paced(StreamConsumer consumer, int events) {
        while (consumer.running()) {
            if (pace.take(events, System.nanoTime(), paceSwitch.maxOrdersPerSecond())) {
                return true;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /**
     * The events in batches of at most {@code max} (one ledger transaction each), made of whole entries:
     * an entry's events (side by side in a read) are never split, so each batch acknowledges the entries
     * it settles wholly; an entry of more than {@code max} events is a batch of its own.
     */
    static List<List<ReservationEvent>> wholeEntries(List<ReservationEvent> events, int max) {
        List<List<ReservationEvent>> batches = new ArrayList<>();
        List<ReservationEvent> batch = new ArrayList<>();
        int from = 0;
        while (from < events.size()) {
            int to = from + 1;
            while (to < events.size() && events.get(to).position().equals(events.get(from).position())) {
                to++;
            }
            if (!batch.isEmpty() && batch.size() + (to - from) > max) {
                batches.add(batch);
                batch = new ArrayList<>();
            }
            batch.addAll(events.subList(from, to));
            from = to;
        }
        if (!batch.isEmpty()) {
            batches.add(batch);
        }
        return batches;
    }

    private static int entriesIn(List<List<ReservationEvent>> batches) {
        int entries = 0;
        for (List<ReservationEvent> batch : batches) {
            for (int i = 0; i < batch.size(); i++) {
                if (i == 0 || !batch.get(i).position().equals(batch.get(i - 1).position())) {
                    entries++;
                }
            }
        }
        return entries;
    }
}
