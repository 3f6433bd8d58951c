package seckill.settlement;

import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import io.helidon.dbclient.DbClient;
import seckill.ledger.wiring.ShadowLedger;
import seckill.ledger.api.ExpiredOrder;
import seckill.ledger.api.OrderExpiry;
import seckill.redis.World;

/**
 * The timeout sweep: overdue pending orders are expired in small pages, each by its own
 * compare-and-set transaction, so a payment arriving at the same moment either wins or loses
 * cleanly and several instances can sweep at once. One sweep per world (docs/rehearsal.md): the rehearsals' sweep
 * expires in the shadow ledger only, and is counted in {@code seckill.orders.timeouts} under {@code world="rehearsal"}
 * (the real sweep under {@code world="real"}; the rehearsal series exists when the shadow database is configured).
 */
@ApplicationScoped
class ExpiringUnpaidOrders {
    private static final Metadata TIMEOUTS = Metadata.builder().withName("seckill.orders.timeouts")
            .withDescription("Unpaid orders expired by the timeout sweep after their payment window; their units go "
                    + "back through the outbox.").build();

    private final OrderExpiry ledger;
    private final Clock clock;
    private final MetricRegistry metrics;
    private final int pageSize;

    private final boolean shadowLedger;

    @Inject
    ExpiringUnpaidOrders(OrderExpiry ledger,
                         Clock clock,
                         MetricRegistry metrics,
                         SettlementSettings settings,
                         @ShadowLedger Optional<DbClient> shadow) {
        this.shadowLedger = shadow.isPresent();
        this.ledger = ledger;
        this.clock = clock;
        this.metrics = metrics;
        this.pageSize = settings.timeoutPageSize();
    }

    private final Map<World, Counter> timeouts = new EnumMap<>(World.class);

    @PostConstruct
    void init() {
        for (World world : World.values()) {
            if (world == World.REAL || shadowLedger) {
                timeouts.put(world, metrics.counter(TIMEOUTS, new Tag(World.LABEL, world.label())));
            }
        }
    }

    /**
     * Makes the container create this bean at start rather than at the first sweep (seconds later, or
     * never where sweeps are off), so the counter is on /metrics at 0, with its help, from the start.
     */
    void createdAtStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // @PostConstruct registered the counter
    }

    int sweep() {
        return sweep(World.REAL);
    }

    int sweep(World world) {
        int expired = 0;
        while (true) {
            List<ExpiredOrder> page = ledger.expireOverdue(world, clock.instant(), pageSize);
            expired += page.size();
            Counter counted = timeouts.get(world);
            if (counted != null) {
                counted.inc(page.size());
            }
            if (page.size() < pageSize) {
                return expired;
            }
        }
    }
}
