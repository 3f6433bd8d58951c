package seckill.app.infra;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The application's one source of time; tests replace it to make time exact. */
@ApplicationScoped
class ClockSource {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
