package seckill.chaos.api;

import java.util.List;

/**
 * The checker's judgement of one run: per promise, the counterexamples found (none when it held).
 * {@link #exitCode()} is what a command line run exits with: 0 clean, 1 on any violation.
 */
public record Verdict(List<PromiseVerdict> promises) {

    public Verdict {
        promises = List.copyOf(promises);
    }

    /** One promise and the requests or rows that break it; at most a bounded number are kept, with the count. */
    public record PromiseVerdict(Promise promise, long violations, List<String> counterexamples) {

        public PromiseVerdict {
            counterexamples = List.copyOf(counterexamples);
        }

        public boolean held() {
            return violations == 0;
        }
    }

    public boolean clean() {
        return promises.stream().allMatch(PromiseVerdict::held);
    }

    public int exitCode() {
        return clean() ? 0 : 1;
    }

    /** The verdict of one promise. */
    public PromiseVerdict of(Promise promise) {
        return promises.stream().filter(p -> p.promise() == promise).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(promise + " was not judged"));
    }

    /** One line per promise (HELD or VIOLATED with the count), each counterexample indented below. */
    public String report() {
        StringBuilder s = new StringBuilder();
        for (PromiseVerdict p : promises) {
            s.append(String.format("%-20s %s  %s%n", p.promise(), p.held() ? "HELD    " : "VIOLATED",
                    p.held() ? p.promise().sentence() : p.violations() + " violation(s)"));
            p.counterexamples().forEach(c -> s.append("    - ").append(c).append(System.lineSeparator()));
        }
        s.append(clean() ? "verdict: CLEAN" : "verdict: VIOLATIONS FOUND").append(System.lineSeparator());
        return s.toString();
    }
}
