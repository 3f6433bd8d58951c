package seckill.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

import seckill.queue.api.LineUnavailable;
import seckill.queue.api.Place;
import seckill.queue.api.PlaceFollower;
import seckill.queue.api.PlaceState;
import seckill.queue.api.QueueWindow;
import seckill.redis.RedisScript;

/**
 * One line's reader on this instance ({@link FollowingTheLines}): every period it reads the places of all the
 * buyers followed here in one Redis call ({@code places.lua}, at most {@value #BUYERS_PER_CALL} buyers a call,
 * so no call holds Redis long) and hands each follower its buyer's place when it changed. A stream that has just
 * connected is read at once with the others that connected meanwhile, so its first event does not wait for the
 * period. One thread and at most one pooled connection per line at a time, whatever the number of streams.
 */
final class LineReader implements Runnable {

    private static final Logger LOG = Logger.getLogger(LineReader.class.getName());
    /** Buyers described by one call: ~6 Redis commands each, a few milliseconds of Redis at most. */
    static final int BUYERS_PER_CALL = 500;

    private final RedisScript script = LineCalls.withLine("places.lua");
    private final long activityId;
    private final List<String> keys;
    private final FollowingTheLines lines;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    /** Followed and read every period; guarded by {@link #lock}. */
    private final Set<Follower> followers = new LinkedHashSet<>();
    /** Connected since the last read: read at once; guarded by {@link #lock}. */
    private final Set<Follower> newcomers = new LinkedHashSet<>();
    /** Guarded by {@link #lock}: once set, nobody is added (a new reader is started instead). */
    private boolean stopped;
    private volatile QueueWindow window;

    private LineReader(long activityId, FollowingTheLines lines) {
        this.activityId = activityId;
        this.keys = new LineKeys(activityId).line();
        this.lines = lines;
    }

    static LineReader start(long activityId, FollowingTheLines lines) {
        LineReader reader = new LineReader(activityId, lines);
        Thread.ofVirtual().name("queue-line-reader-" + activityId).start(reader);
        return reader;
    }

    Follower follower(long buyerId, QueueWindow window, Optional<String> ticket) {
        return new Follower(buyerId, window, ticket);
    }

    /** Whether the follower was taken (false: this reader has stopped). */
    boolean add(Follower follower) {
        lock.lock();
        try {
            if (stopped) {
                return false;
            }
            window = follower.window;
            newcomers.add(follower);
            arrived.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void remove(Follower follower) {
        lock.lock();
        try {
            followers.remove(follower);
            newcomers.remove(follower);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run() {
        long period = TimeUnit.MILLISECONDS.toNanos(lines.pollMillis());
        long nextRound = System.nanoTime() + period;
        while (true) {
            List<Follower> reading;
            lock.lock();
            try {
                long left;
                while (newcomers.isEmpty() && (left = nextRound - System.nanoTime()) > 0) {
                    arrived.awaitNanos(left);
                }
                if (followers.isEmpty() && newcomers.isEmpty()) {
                    stopped = true;
                    lines.stopped(activityId, this);
                    return;
                }
                boolean round = System.nanoTime() - nextRound >= 0;
                reading = new ArrayList<>(round ? followers : newcomers);
                if (round) {
                    reading.addAll(newcomers);
                    nextRound = System.nanoTime() + period;
                }
                followers.addAll(newcomers);
                newcomers.clear();
            } catch (InterruptedException e) {
                // the instance is going down
                stopped = true;
                lines.stopped(activityId, this);
                return;
            } finally {
                lock.unlock();
            }
            try {
                read(reading);
            } catch (LineUnavailable e) {
                // Redis silent: nothing the buyers can be told changed; read again next period
                LOG.log(Level.FINE, "the line's places could not be read", e);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "reading the places of line " + activityId + " failed", e);
            }
        }
    }

    /** One call per {@value #BUYERS_PER_CALL} buyers; each follower whose buyer's description changed is handed it. */
    private void read(List<Follower> reading) {
        Map<Long, List<Follower>> byBuyer = new LinkedHashMap<>();
        for (Follower follower : reading) {
            byBuyer.computeIfAbsent(follower.buyerId, b -> new ArrayList<>(1)).add(follower);
        }
        List<Long> buyers = new ArrayList<>(byBuyer.keySet());
        QueueWindow now = window;
        String started = now.startedAt(lines.clock().instant()) ? "1" : "0";
        for (int from = 0; from < buyers.size(); from += BUYERS_PER_CALL) {
            List<Long> some = buyers.subList(from, Math.min(buyers.size(), from + BUYERS_PER_CALL));
            List<String> args = new ArrayList<>(some.size() + 1);
            args.add(started);
            for (long buyer : some) {
                args.add(Long.toString(buyer));
            }
            lines.figures().placesRead(activityId);
            List<?> described = (List<?>) lines.calls().read(script, keys, args);
            for (int i = 0; i < some.size(); i++) {
                long buyer = some.get(i);
                Object description = described.get(i);
                String seen = seen(description);
                Place place = null;
                for (Follower follower : byBuyer.get(buyer)) {
                    if (!seen.equals(follower.seen)) {
                        follower.seen = seen;
                        if (place == null) {
                            place = lines.places().of(activityId, buyer, description);
                        }
                        follower.hand(place);
                    }
                }
            }
        }
    }

    /**
     * line.lua's description as text, but for the line's length (its last part): what the stream tells the buyer
     * (their event's id: state, position, called) changes only when this does, and a join at the end of the line
     * does not hand every follower its unchanged place again.
     */
    private static String seen(Object description) {
        List<?> parts = (List<?>) description;
        StringBuilder text = new StringBuilder();
        for (Object part : parts.subList(0, parts.size() - 1)) {
            text.append(part instanceof Number n ? n.toString() : RedisScript.text(part)).append('|');
        }
        return text.toString();
    }

    /** One stream's follower: waits for what the reader hands it. */
    final class Follower implements PlaceFollower {

        private final long buyerId;
        private final QueueWindow window;
        private final Optional<String> ticket;
        private final ReentrantLock handing = new ReentrantLock();
        private final Condition handed = handing.newCondition();
        /** The description last handed: read and written by the reader's thread only. */
        private String seen;
        /** Guarded by {@link #handing}. */
        private Place pending;
        /** The stream's thread's: the reader last said Redis does not know this buyer. */
        private boolean lost;

        private Follower(long buyerId, QueueWindow window, Optional<String> ticket) {
            this.buyerId = buyerId;
            this.window = window;
            this.ticket = ticket;
        }

        private void hand(Place place) {
            handing.lock();
            try {
                pending = place;
                handed.signal();
            } finally {
                handing.unlock();
            }
        }

        @Override
        public Optional<Place> next(Duration most) throws InterruptedException {
            Place place;
            handing.lock();
            try {
                long left = most.toNanos();
                while (pending == null && left > 0) {
                    left = handed.awaitNanos(left);
                }
                place = pending;
                pending = null;
            } finally {
                handing.unlock();
            }
            if (place != null) {
                lost = place.state() == PlaceState.NOT_IN_LINE;
            }
            if (!lost || ticket.isEmpty()) {
                return Optional.ofNullable(place);
            }
            // Redis does not know this buyer, who shows a ticket: the per-buyer path that gives the place back
            // (asks the record of past purchases, writes, waits for the replicas), as each stream did before,
            // every period until the place is back
            try {
                Place found = lines.finding().find(activityId, buyerId, window, ticket);
                lost = found.state() == PlaceState.NOT_IN_LINE;
                return Optional.of(found);
            } catch (LineUnavailable silent) {
                return Optional.empty();
            }
        }

        @Override
        public void close() {
            remove(this);
        }
    }
}
