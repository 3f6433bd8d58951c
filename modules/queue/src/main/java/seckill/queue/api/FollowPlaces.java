package seckill.queue.api;

import java.util.Optional;

/**
 * Follows buyers' places for their event streams. On one instance, one reader per line reads the places of
 * every buyer followed there in one Redis call each period and hands each follower its buyer's new place: a
 * stream waits for its buyer's change and makes no Redis call of its own (but a buyer Redis does not know who
 * shows a ticket: {@link FindPlace}'s path that gives the place back, as before).
 */
public interface FollowPlaces {

    /**
     * Starts following the buyer's place; close the follower when the stream ends. {@code ticket}: the ticket
     * the stream shows, if any (it gives back a place Redis lost, like {@link FindPlace#find}).
     */
    PlaceFollower follow(long activityId, long buyerId, QueueWindow window, Optional<String> ticket);
}
