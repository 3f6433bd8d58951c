package seckill.app.sale;

import java.util.concurrent.Semaphore;

import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Overload shedding: at most {@code seckill.http.max-purchases-in-flight} admitted purchase attempts
 * wait on Redis at once on this instance (0: no bound). One more is answered {@code 503 BUSY} at
 * once, before it costs a Redis call, so the attempts inside keep their latency instead of every
 * attempt queueing behind every other. Only attempts admission let through count: what admission
 * refuses from memory (sold out, over the global rate, no token) is answered so whatever the load,
 * and never takes a place an admitted buyer needs. Nothing happened for the refused one, so a retry
 * is safe. The gauge {@code seckill_purchases_in_flight} shows the load.
 */
@HotPathSingleton
public class PurchasesInFlight {
    private static final Metadata IN_FLIGHT = Metadata.builder().withName("seckill.purchases.in.flight")
            .withDescription("Admitted purchase attempts waiting on Redis on this instance now; at "
                    + "seckill.http.max-purchases-in-flight one more is answered 503 BUSY.").build();

    private final int bound;
    private final Semaphore permits;

    @Inject
    PurchasesInFlight(@ConfigProperty(name = "seckill.http.max-purchases-in-flight", defaultValue = "0") int bound,
                      MetricRegistry metrics) {
        this.bound = Math.max(0, bound);
        this.permits = new Semaphore(this.bound == 0 ? Integer.MAX_VALUE : this.bound);
        if (metrics != null) {
            metrics.gauge(IN_FLIGHT, this::inFlight);
        }
    }

    /** Takes a place, or says there is none (the caller answers BUSY). */
    boolean enter() {
        return permits.tryAcquire();
    }

    void leave() {
        permits.release();
    }

    long inFlight() {
        return (bound == 0 ? Integer.MAX_VALUE : bound) - permits.availablePermits();
    }
}
