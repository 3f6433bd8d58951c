package seckill.app;

/**
 * Entry point of {@code seckill.jar}: with no arguments it serves; {@code drill ...} rehearses a
 * flash sale (see {@code drill --help}; the drill module); {@code bench-settle} runs the settlement
 * benchmark (the bench module). The jar plugin refuses Helidon's own main class for a
 * modular jar, so serving delegates to it.
 */
public final class SeckillMain {

    private SeckillMain() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("drill")) {
            System.exit(seckill.drill.api.DrillMain.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals("bench-settle")) {
            System.exit(seckill.bench.api.SettlementBench.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        io.helidon.microprofile.cdi.Main.main(args);
    }
}
