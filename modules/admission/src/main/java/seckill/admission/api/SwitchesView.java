package seckill.admission.api;

import java.util.Map;

/** The admission switches in force and where each value came from (config source name). */
public interface SwitchesView {

    /** key to {value, source}. */
    Map<String, String[]> effective();
}
