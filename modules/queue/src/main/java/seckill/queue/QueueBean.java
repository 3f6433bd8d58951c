package seckill.queue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.inject.Stereotype;
import jakarta.inject.Singleton;

/**
 * One instance, injected as itself (no client proxy): {@code @Singleton} through a stereotype, because this
 * module's beans are discovered by annotation and {@code @Singleton} alone does not define a bean.
 */
@Stereotype
@Singleton
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface QueueBean {
}
