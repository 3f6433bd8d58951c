package seckill.ledger;

import java.util.function.BooleanSupplier;

/**
 * One consumer of the group, as one worker thread runs it: its name in the streams, whether it is to
 * go on, whether it must first finish what it was handed (after a (re)start, an outage of the ledger,
 * or events the replicas did not hold yet) and when it next takes over other consumers' stale events.
 */
final class StreamConsumer {

    private final String name;
    private final BooleanSupplier running;
    private boolean ownPendingFirst = true;
    private long nextReclaimNanos = System.nanoTime();

    StreamConsumer(String name, BooleanSupplier running) {
        this.name = name;
        this.running = running;
    }

    String name() {
        return name;
    }

    boolean running() {
        return running.getAsBoolean();
    }

    /** The next pass first settles the events already handed to this consumer. */
    void ownPendingFirst() {
        ownPendingFirst = true;
    }

    /** Whether the events already handed to this consumer are to be settled before new ones. */
    boolean ownPendingDue() {
        return ownPendingFirst;
    }

    /** The events handed to this consumer were settled (or left to the reclaim). */
    void ownPendingSettled() {
        ownPendingFirst = false;
    }

    private double eventsPerEntry; // 0: nothing read yet

    /**
     * How many entries a paced read of {@code granted} events asks for so that their events about fill
     * the grant, from the events per stream entry lately read (an entry of a coalesced call records all
     * its reservations); one entry while nothing was read, so a first read under a low cap never hands
     * this consumer more than the pace lets it settle soon.
     */
    int entriesFor(int granted) {
        return eventsPerEntry == 0 ? 1 : Math.max(1, (int) (granted / eventsPerEntry));
    }

    /** Counts a read of {@code entries} entries holding {@code events} events. */
    void read(int entries, int events) {
        if (entries > 0) {
            double now = (double) events / entries;
            eventsPerEntry = eventsPerEntry == 0 ? now : Math.max(1, 0.5 * eventsPerEntry + 0.5 * now);
        }
    }

    /** Whether a reclaim is due at {@code now}; if so the next is set {@code everyNanos} later. */
    boolean reclaimDue(long now, long everyNanos) {
        if (now < nextReclaimNanos) {
            return false;
        }
        nextReclaimNanos = now + everyNanos;
        return true;
    }
}
