"""The prompt conditions of method §4, named as in the published release: three prompt levels
and three same-city controls. One list for generation, evaluation tables, reports and release files."""

CONDITIONS = ("L0", "L1", "L2", "C_WRONG_STREET", "C_SHUFFLED_NEIGHBORHOOD", "C_WRONG_STREET_NEIGHBORHOOD")
LEVELS = CONDITIONS[:3]
CONTROLS = CONDITIONS[3:]
