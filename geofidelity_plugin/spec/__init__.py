"""The specification room: one description per backend command — its options (name, type,
default, choices, help, QGIS label, advanced or not, file or layer kind) and its result keys —
shared by both processes. ``argparse`` (:func:`.options.add_arguments`) and the Processing
parameters (:mod:`geofidelity_plugin.qgis_side.processing_spec`) are both built from it, the
algorithm's command line comes from it (:func:`.options.argv`), and the run manifest records its
values (:func:`.options.recorded`), so an option is written once. Standard library only.
"""
