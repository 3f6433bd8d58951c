package seckill.queue.api;

import java.time.Duration;
import java.util.Optional;

/** One stream's view of its buyer's place ({@link FollowPlaces}). */
public interface PlaceFollower extends AutoCloseable {

    /**
     * The buyer's place once the line's reader read it changed since the last one given (the first: the place
     * as first read), or empty when nothing changed within {@code most} (or Redis did not answer: nothing the
     * buyer can be told changed).
     */
    Optional<Place> next(Duration most) throws InterruptedException;

    /** Stops following: the line's reader reads this buyer no more for this stream. */
    @Override
    void close();
}
