package seckill.drill.switches;

import java.time.Duration;
import java.util.Optional;

/**
 * What one instance showed after one flip (or its restore): when its effective value became the
 * expected one and, where a probe applies, when its answers did, each counted from the moment the file
 * was in place (or the endpoint was called). Empty times: not seen within the drill's wait.
 *
 * @param instance  the instance's address
 * @param phase     {@code flip} or {@code restore}
 * @param expected  the value (or sales state) the instance should show
 * @param shown     the last value it showed
 * @param value     time until it showed {@code expected}
 * @param probed    whether a purchase probe applies
 * @param behaviour time until the probe answered as expected
 * @param answer    the probe's last answer ({@code 503 HALTED}, ...)
 * @param skipped   why it was not measured, when it was not
 */
public record Effect(String instance, String phase, String expected, String shown, Optional<Duration> value,
                     boolean probed, Optional<Duration> behaviour, String answer, Optional<String> skipped) {

    public enum Verdict { PASS, FAIL, SKIPPED }

    /** A measurement not carried out, and why. */
    public static Effect skipped(String instance, String phase, String why) {
        return new Effect(instance, phase, "", "", Optional.empty(), false, Optional.empty(), "", Optional.of(why));
    }

    /**
     * PASS when the value was seen within {@code bound} and, where a probe applies, so was the behaviour;
     * FAIL when either came later or never; SKIPPED when not measured.
     */
    public Verdict verdict(Duration bound) {
        if (skipped.isPresent()) {
            return Verdict.SKIPPED;
        }
        if (value.isEmpty() || value.get().compareTo(bound) > 0) {
            return Verdict.FAIL;
        }
        if (probed && (behaviour.isEmpty() || behaviour.get().compareTo(bound) > 0)) {
            return Verdict.FAIL;
        }
        return Verdict.PASS;
    }

    /** Why it failed, in words, or empty when it did not. */
    public Optional<String> failure(Duration bound) {
        if (verdict(bound) != Verdict.FAIL) {
            return Optional.empty();
        }
        if (value.isEmpty()) {
            return Optional.of("value " + expected + " not shown (last shown: " + shown + ")");
        }
        if (value.get().compareTo(bound) > 0) {
            return Optional.of("value took " + value.get().toMillis() + " ms > bound " + bound.toMillis() + " ms");
        }
        if (behaviour.isEmpty()) {
            return Optional.of("behaviour not seen (last answer: " + answer + ")");
        }
        return Optional.of("behaviour took " + behaviour.get().toMillis() + " ms > bound " + bound.toMillis() + " ms");
    }
}
