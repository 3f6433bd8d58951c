package seckill.admission.api;

/**
 * What asking for a captcha challenge came to. The cheap refusals come first, before anything is
 * drawn or stored: sales halted, the buyer or address blocked, the sale over, too many challenges
 * asked for; Redis away is {@link Unavailable}.
 */
public sealed interface ChallengeIssue {

    /**
     * A challenge to solve, and the proof of work to send with its answer: a nonce such that
     * SHA-256(challengeId + ":" + nonce) starts with {@code proofOfWorkBits} zero bits (0: none asked).
     */
    record Issued(CaptchaChallenge challenge, int proofOfWorkBits) implements ChallengeIssue {
        public Issued(CaptchaChallenge challenge) {
            this(challenge, 0);
        }
    }

    /** Sales are halted on this instance. */
    record Halted(HaltReason reason) implements ChallengeIssue {
    }

    /** {@code what} is "buyer" or "address". */
    record Blocked(String what) implements ChallengeIssue {
    }

    /** The sale has ended; no token could be used any more. */
    record Ended() implements ChallengeIssue {
    }

    /** Too many challenges from this buyer or address ({@code limit} BUYER or ADDRESS) in the current minute. */
    record Throttled(String limit, long perMinute, long retryAfterSeconds) implements ChallengeIssue {
    }

    /** Redis does not answer: nothing was issued. */
    record Unavailable() implements ChallengeIssue {
    }
}
