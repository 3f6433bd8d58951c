package seckill.reservation.api;

/** What a {@link Restock} did: applied now, applied before, or nothing to apply to (keys expired). */
public enum RestockOutcome { APPLIED, ALREADY_APPLIED, KEYS_GONE }
