package seckill.app;

import seckill.app.drill.DrillCommand;

/**
 * Entry point of {@code seckill.jar}: with no arguments it serves; {@code drill ...} rehearses a
 * flash sale (see {@code drill --help}); {@code bench-settle} runs the settlement benchmark (the
 * bench module). The jar plugin refuses Helidon's own main class for a
 * modular jar, so serving delegates to it.
 */
public final class SeckillMain {

    private SeckillMain() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("drill")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
            if (rest.length > 0 && rest[0].equals("chaos")) {
                String[] chaos = java.util.Arrays.copyOfRange(rest, 1, rest.length);
                if (chaos.length == 1 && (chaos[0].equals("--help") || chaos[0].equals("-h"))) {
                    System.out.println(seckill.app.chaos.ChaosOptions.USAGE);
                    System.exit(0);
                }
                System.exit(seckill.app.chaos.ChaosCommand.run(chaos));
            }
            if (rest.length == 1 && (rest[0].equals("--help") || rest[0].equals("-h"))) {
                System.out.println(seckill.app.drill.DrillOptions.USAGE);
                System.exit(0);
            }
            System.exit(DrillCommand.run(rest));
        }
        if (args.length > 0 && args[0].equals("bench-settle")) {
            System.exit(seckill.bench.api.SettlementBench.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        io.helidon.microprofile.cdi.Main.main(args);
    }
}
