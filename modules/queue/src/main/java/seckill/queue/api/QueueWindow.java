package seckill.queue.api;

import java.time.Instant;

/** The sale's window as the line needs it: before {@code startsAt} joins go to the pre-queue. */
public record QueueWindow(Instant startsAt, Instant endsAt) {

    public boolean startedAt(Instant now) {
        return !now.isBefore(startsAt);
    }

    /** Milliseconds since the start (negative before it): what the line numbers new places by. */
    public long millisSinceStart(Instant now) {
        return now.toEpochMilli() - startsAt.toEpochMilli();
    }

    public boolean endedAt(Instant now) {
        return !now.isBefore(endsAt);
    }
}
