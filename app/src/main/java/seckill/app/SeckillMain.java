package seckill.app;

/**
 * Entry point of {@code seckill.jar}. The jar plugin refuses Helidon's own main class for a modular
 * jar, so this one delegates to it.
 */
public final class SeckillMain {

    private SeckillMain() {
    }

    public static void main(String[] args) {
        io.helidon.microprofile.cdi.Main.main(args);
    }
}
