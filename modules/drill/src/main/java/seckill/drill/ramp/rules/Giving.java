package seckill.drill.ramp.rules;

/** A layer that gave way in a step: how, and the figure that shows it against its bound. */
public record Giving(Layer layer, How how, String evidence) {

    public enum How {
        SHEDS, SATURATES;

        public String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
