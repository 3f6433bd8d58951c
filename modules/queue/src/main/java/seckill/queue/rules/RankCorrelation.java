package seckill.queue.rules;

import java.util.List;

/**
 * Spearman's rank correlation between two orderings of the same buyers: 1 when the second keeps the
 * first's order, about 0 when it is unrelated to it, -1 when reversed. The fairness figure of issue #33
 * (join order against the order buyers were called in). Plain logic.
 */
public final class RankCorrelation {

    private RankCorrelation() {
    }

    /** {@code first} and {@code second} list the same distinct items, each in its own order. */
    public static <T> double spearman(List<T> first, List<T> second) {
        int n = first.size();
        if (n != second.size() || n < 2) {
            throw new IllegalArgumentException("two orderings of the same 2 or more items are needed");
        }
        java.util.Map<T, Integer> rankInSecond = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) {
            rankInSecond.put(second.get(i), i);
        }
        double sumSquares = 0;
        for (int i = 0; i < n; i++) {
            Integer other = rankInSecond.get(first.get(i));
            if (other == null) {
                throw new IllegalArgumentException(first.get(i) + " is in the first ordering only");
            }
            double d = i - other;
            sumSquares += d * d;
        }
        return 1 - 6 * sumSquares / ((double) n * ((double) n * n - 1));
    }
}
