package seckill.ledger.catalogue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import seckill.ledger.OrderingSettings;
import seckill.ledger.TestLedger;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.redis.World;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue #34 (docs/rehearsal.md): the catalogue every caller is given answers an id from the ledger of the id's
 * world. A rehearsal registered through it lands in the shadow ledger with an id from 10^15 and leaves the
 * real ledger as it was; without a shadow ledger a rehearsal id is unknown and a rehearsal cannot be registered.
 */
class CataloguesByWorldTest {

    @RegisterExtension
    static final TestLedger REAL = new TestLedger();

    @RegisterExtension
    static final TestLedger SHADOW = TestLedger.shadow();

    private static NewActivity activity(String name) {
        return new NewActivity(name, Instant.now().minusSeconds(1), Instant.now().plus(Duration.ofHours(1)),
                Duration.ofMinutes(15), List.of(new SkuLine(1, 10, 1, 1)));
    }

    private static CataloguesByWorld catalogue(boolean withShadow) {
        return new CataloguesByWorld(REAL.db(), withShadow ? Optional.of(SHADOW.db()) : Optional.empty(),
                Clock.systemUTC(), settings());
    }

    static OrderingSettings settings() {
        return new OrderingSettings(true, 1, 100, 20, 30, Optional.empty(), 5000, 5, 1000, 5, 3600, 5, 1);
    }

    @Test
    void aRehearsalIsRegisteredAndFoundInTheShadowLedgerOnly() {
        CataloguesByWorld catalogue = catalogue(true);
        long realActivities = REAL.count("SELECT COUNT(*) FROM seckill_activity");
        long realStock = REAL.count("SELECT COUNT(*) FROM seckill_stock");

        Activity rehearsal = catalogue.register(World.REHEARSAL, activity("rehearsal in the shadow"));
        assertThat(World.of(rehearsal.id()), is(World.REHEARSAL));
        assertThat(SHADOW.count("SELECT COUNT(*) FROM seckill_activity WHERE id = ?", rehearsal.id()), is(1L));
        assertThat(SHADOW.count("SELECT COUNT(*) FROM seckill_stock WHERE activity_id = ?", rehearsal.id()), is(1L));
        assertThat(REAL.count("SELECT COUNT(*) FROM seckill_activity"), is(realActivities));
        assertThat(REAL.count("SELECT COUNT(*) FROM seckill_stock"), is(realStock));

        // found by a fresh catalogue (nothing remembered), from the shadow ledger
        CataloguesByWorld fresh = catalogue(true);
        assertThat(fresh.find(rehearsal.id()).map(Activity::name), is(Optional.of("rehearsal in the shadow")));
        assertThat(fresh.findInLedger(rehearsal.id()).isPresent(), is(true));
        assertThat(fresh.endingAfter(World.REHEARSAL, Instant.now()), hasItem(rehearsal.id()));
        assertThat(fresh.endingAfter(Instant.now()), not(hasItem(rehearsal.id())));

        // a real activity is registered and found in the real ledger, as before
        Activity real = fresh.register(activity("real beside it"));
        assertThat(World.of(real.id()), is(World.REAL));
        assertThat(catalogue(true).find(real.id()).map(Activity::name), is(Optional.of("real beside it")));
        assertThat(SHADOW.count("SELECT COUNT(*) FROM seckill_activity WHERE id = ?", real.id()), is(0L));
        assertThat(fresh.endingAfter(World.REHEARSAL, Instant.now()), not(hasItem(real.id())));
        assertThat(fresh.endingAfter(World.REAL, Instant.now()), hasItem(real.id()));
    }

    @Test
    void withoutAShadowLedgerARehearsalIdIsUnknown() {
        Activity rehearsal = catalogue(true).register(World.REHEARSAL, activity("unseen without a shadow"));
        CataloguesByWorld realOnly = catalogue(false);
        assertThat(realOnly.find(rehearsal.id()), is(Optional.empty()));
        assertThat(realOnly.findInLedger(rehearsal.id()), is(Optional.empty()));
        assertThat(realOnly.endingAfter(World.REHEARSAL, Instant.now()), is(List.of()));
        long shadowActivities = SHADOW.count("SELECT COUNT(*) FROM seckill_activity");
        assertThrows(IllegalStateException.class, () -> realOnly.register(World.REHEARSAL, activity("refused")));
        assertThat(SHADOW.count("SELECT COUNT(*) FROM seckill_activity"), is(shadowActivities));
    }
}
