package seckill.ledger.hooks;

/** Where a rehearsed worker crash happens: events read but not committed, or committed but not acknowledged. */
public enum CrashPoint { AFTER_READ, AFTER_COMMIT }
