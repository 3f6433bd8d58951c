package seckill.queue.api;

import java.time.Instant;

/**
 * A buyer's turn: an HMAC-signed text bound to the buyer and the activity that a purchase shows while the
 * queue is on ({@code X-Queue-Pass}), good until {@code expiresAt}.
 */
public record Pass(String token, Instant expiresAt) {
}
