"""The QGIS room: what runs inside QGIS's own Python — the plugin object, the GUI (options page,
inspector dock, map tool), the atlas and project writers, and the runner that starts the backend
as a child process. It imports qgis, PyQt, the standard library, the shared specification
(:mod:`geofidelity_plugin.spec`) and the stdlib-only reads of the core (store, inspector, atlas
data); never torch, transformers, diffusers, ray, numpy, PIL or scipy (docs/architecture.md).
"""
