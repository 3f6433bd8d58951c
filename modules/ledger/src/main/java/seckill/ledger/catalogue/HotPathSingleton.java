package seckill.ledger.catalogue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.inject.Stereotype;
import jakarta.inject.Singleton;

/**
 * One instance, injected as itself: {@code @Singleton} without the client proxy an
 * {@code @ApplicationScoped} bean is reached through (a context lookup on every call, about a tenth
 * of the CPU of a purchase in the profile, docs/perf/README.md). A stereotype because this module's
 * beans are discovered by annotation and {@code @Singleton} alone does not define a bean. Here: the activity catalog every purchase asks.
 */
@Stereotype
@Singleton
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface HotPathSingleton {
}
