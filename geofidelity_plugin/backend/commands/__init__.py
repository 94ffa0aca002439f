"""The sub-commands of ``python -m geofidelity_plugin``, one module per pipeline stage, in the
order the data flows: selection → reference_panels → generation → galleries / release →
evaluation → report. :data:`STAGES` is that order (the order of ``--help``)."""

STAGES = ("selection", "reference_panels", "generation", "galleries", "release", "evaluation", "report", "atlas", "map_fidelity", "geodiv", "models", "doctor")
