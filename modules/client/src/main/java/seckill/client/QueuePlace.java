package seckill.client;

/**
 * A buyer's place in an activity's waiting line (issue #33): {@code state} PRE_QUEUE, WAITING, YOUR_TURN, USED,
 * EXPIRED, SOLD_OUT or NOT_IN_LINE; on YOUR_TURN, {@code pass} is sent as {@code passHeader} on purchases until
 * {@code passExpiresAt}. {@code ticket} names the place (shown again as {@code X-Queue-Ticket}, it gives back a
 * place the service's Redis lost); {@code events} is the place's Server-Sent Events stream.
 */
public record QueuePlace(long activityId, String state, long place, long position, long estimatedWaitSeconds,
                         long waiting, long called, String events, String ticket, String pass, String passExpiresAt,
                         String passHeader) {
}
