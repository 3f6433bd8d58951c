package seckill.drill.api;

import seckill.drill.chaos.ChaosCommand;
import seckill.drill.chaos.ChaosOptions;

/**
 * {@code java -jar seckill.jar drill ...} after the word {@code drill}: {@code chaos ...} is the chaos
 * drill ({@link ChaosCommand}), anything else the drill ({@link DrillCommand}); {@code --help} alone
 * prints the usage. Returns the exit code.
 */
public final class DrillMain {

    private DrillMain() {
    }

    public static int run(String[] args) {
        if (args.length > 0 && args[0].equals("chaos")) {
            String[] chaos = java.util.Arrays.copyOfRange(args, 1, args.length);
            if (help(chaos)) {
                System.out.println(ChaosOptions.USAGE);
                return 0;
            }
            return ChaosCommand.run(chaos);
        }
        if (help(args)) {
            System.out.println(DrillOptions.USAGE);
            return 0;
        }
        return DrillCommand.run(args);
    }

    private static boolean help(String[] args) {
        return args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"));
    }
}
