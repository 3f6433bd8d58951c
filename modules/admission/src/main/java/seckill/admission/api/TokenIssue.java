package seckill.admission.api;

import java.time.Instant;

/** What asking for a purchase token came to. */
public sealed interface TokenIssue {

    /** A signed token bound to the buyer and the activity, usable until {@code expiresAt}. */
    record Issued(String token, Instant expiresAt) implements TokenIssue {
    }

    /** The challenge is unknown, used, expired, someone else's, or the answer is wrong. */
    record ChallengeFailed() implements TokenIssue {
    }

    /**
     * The proof of work the challenge asked for is {@code missing} (the challenge stays usable: send it
     * again with the nonce), or the nonce does not prove it (the challenge is used up).
     */
    record ProofOfWorkFailed(boolean missing) implements TokenIssue {
    }

    /** Tokens are issued only while the activity is open; {@code secondsUntilStart} is 0 once it ended. */
    record NotOpen(boolean notStartedYet, long secondsUntilStart) implements TokenIssue {
    }
}
