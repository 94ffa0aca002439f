"""The backend room: what runs in the backend process, ``python -m geofidelity_plugin`` in the
environment that holds torch, transformers and diffusers — the command line, one module per
command under :mod:`.commands`, the demo, and the QGIS map render the MFP command drives. The
plugin starts it as a child process (docs/backend-protocol.md, docs/architecture.md).
"""
