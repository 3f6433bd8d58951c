package seckill.ledger.wiring;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.inject.Qualifier;

/**
 * The shadow ledger of rehearsals (issue #34, docs/rehearsal.md): the app produces
 * {@code @ShadowLedger Optional<DbClient>}, the client of the database {@code seckill.rehearsal.db.url}
 * (migrated at start by the same changelogs as the real ledger, its activity ids from
 * {@code World.REHEARSAL_IDS_FROM}), with its own small pool ({@code seckill.rehearsal.db.pool-size}).
 * Empty when no rehearsal database is configured: then nothing of the shadow world starts. The ledger
 * chooses between it and the real {@code DbClient} by {@code seckill.redis.World}, never by a flag.
 * <p>
 * In a package of its own, exported to the modules that produce or need the client only: an {@code api}
 * package holds no framework type ({@code ArchitectureTest}), and a qualifier is one.
 */
@Qualifier
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER})
public @interface ShadowLedger {
}
