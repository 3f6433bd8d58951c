package seckill.queue;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import redis.clients.jedis.UnifiedJedis;
import seckill.queue.api.FollowPlaces;
import seckill.queue.api.PlaceFollower;
import seckill.queue.api.QueueWindow;

/**
 * The event streams' places, read once per line per instance (issue #33): one {@link LineReader} per line
 * followed on this instance reads every followed buyer's place in one Redis call per
 * {@code seckill.queue.events-poll-millis} ({@code places.lua}) and hands each stream its buyer's change.
 * Redis sees one call a period per line, whatever the number of streams (each used to read its own, and 3,000
 * streams took every pooled connection). A reader stops when its line has been followed by nobody for a period.
 */
@QueueBean
class FollowingTheLines implements FollowPlaces {

    private final Map<Long, LineReader> readers = new ConcurrentHashMap<>();
    private final LineCalls calls;
    private final Places places;
    private final LineFigures figures;
    private final FindingThePlace finding;
    private final Clock clock;
    private final long pollMillis;

    @Inject
    FollowingTheLines(UnifiedJedis redis, Clock clock, QueueSettings settings, PassSigner signer,
                      QueueSwitches switches, LineFigures figures, FindingThePlace finding,
                      @ConfigProperty(name = "seckill.queue.events-poll-millis", defaultValue = "500") long pollMillis) {
        this.calls = new LineCalls(redis, settings.acksInForce());
        this.places = new Places(signer, switches, figures);
        this.figures = figures;
        this.finding = finding;
        this.clock = clock;
        this.pollMillis = Math.max(50, pollMillis);
    }

    @Override
    public PlaceFollower follow(long activityId, long buyerId, QueueWindow window, Optional<String> ticket) {
        while (true) {
            LineReader reader = readers.computeIfAbsent(activityId, id -> LineReader.start(id, this));
            LineReader.Follower follower = reader.follower(buyerId, window, ticket);
            if (reader.add(follower)) {
                return follower;
            }
            // that reader just stopped (nobody followed its line for a period): a new one
            readers.remove(activityId, reader);
        }
    }

    /** Readers running now (a test's view: one per line followed). */
    int readers() {
        return readers.size();
    }

    void stopped(long activityId, LineReader reader) {
        readers.remove(activityId, reader);
    }

    LineCalls calls() {
        return calls;
    }

    Places places() {
        return places;
    }

    LineFigures figures() {
        return figures;
    }

    FindingThePlace finding() {
        return finding;
    }

    Clock clock() {
        return clock;
    }

    long pollMillis() {
        return pollMillis;
    }
}
