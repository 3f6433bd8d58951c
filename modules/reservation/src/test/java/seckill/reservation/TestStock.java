package seckill.reservation;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.List;

import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import redis.clients.jedis.UnifiedJedis;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.Restock;
import seckill.reservation.api.RestockOutcome;
import seckill.reservation.api.RestoreStock;

/**
 * The module's stock use cases built by hand over one client and one settings record, as the service
 * wires them: one node id lease, taken at {@link #leased}, that {@link #preheat} and {@link #reserve}
 * mint under; {@link #releaseLease()} gives it back. Metrics count nothing.
 */
final class TestStock {

    private final LeasingNodeIds nodeIds;
    private final ReservingStock reserving;
    private final PreheatingStock preheating;
    private final RestockingStock restocking;

    private TestStock(UnifiedJedis redis, Clock clock, ReservationSettings settings) {
        MetricRegistry metrics = inertRegistry();
        nodeIds = new LeasingNodeIds(redis, clock, metrics, settings);
        nodeIds.leaseNodeId();
        reserving = new ReservingStock(redis, clock, metrics, settings, nodeIds);
        preheating = new PreheatingStock(redis, settings, nodeIds);
        restocking = new RestockingStock(redis, settings);
    }

    /** The use cases over {@code redis}, under a node id leased now. */
    static TestStock leased(UnifiedJedis redis, Clock clock, ReservationSettings settings) {
        return new TestStock(redis, clock, settings);
    }

    void preheat(PreheatStock command) {
        preheating.preheat(command);
    }

    List<RestoreStock.Outcome> restore(RestoreStock command) {
        return preheating.restore(command);
    }

    ReservationOutcome reserve(ReserveStock command) {
        return reserving.reserve(command);
    }

    RestockOutcome restock(Restock command) {
        return restocking.restock(command);
    }

    void releaseLease() {
        nodeIds.releaseLease();
    }

    /** Metrics are not what these tests are about: a registry whose counters count nothing. */
    private static MetricRegistry inertRegistry() {
        Counter counter = (Counter) Proxy.newProxyInstance(Counter.class.getClassLoader(), new Class<?>[] {Counter.class},
                (proxy, method, args) -> method.getReturnType() == long.class ? 0L : null);
        return (MetricRegistry) Proxy.newProxyInstance(MetricRegistry.class.getClassLoader(),
                new Class<?>[] {MetricRegistry.class}, (proxy, method, args) -> counter);
    }
}
