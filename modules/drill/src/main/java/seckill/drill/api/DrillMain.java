package seckill.drill.api;

import seckill.drill.chaos.ChaosCommand;
import seckill.drill.chaos.ChaosOptions;
import seckill.drill.switches.SwitchCommand;
import seckill.drill.switches.SwitchDrillOptions;

/**
 * {@code java -jar seckill.jar drill ...} after the word {@code drill}: {@code chaos ...} is the chaos
 * drill ({@link ChaosCommand}), {@code rehearse ...} the ramp ({@link RampCommand}), {@code switches ...} the
 * switch drill ({@link SwitchCommand}), anything else the drill ({@link DrillCommand}); {@code --help} alone
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
        if (args.length > 0 && args[0].equals("rehearse")) {
            String[] ramp = java.util.Arrays.copyOfRange(args, 1, args.length);
            if (help(ramp)) {
                System.out.println(RampOptions.USAGE);
                return 0;
            }
            return RampCommand.run(ramp);
        }
        if (args.length > 0 && args[0].equals("switches")) {
            String[] switches = java.util.Arrays.copyOfRange(args, 1, args.length);
            if (help(switches)) {
                System.out.println(SwitchDrillOptions.USAGE);
                return 0;
            }
            return SwitchCommand.run(switches);
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
