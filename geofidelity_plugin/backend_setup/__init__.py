"""The setup room: builds a backend environment (a venv, a profile's pinned requirements, then the
doctor run inside the new environment). Standard library only, so it runs from QGIS's Python or
any base interpreter before torch & co. exist: ``python3 -m geofidelity_plugin.backend_setup``
(docs/architecture.md).
"""
