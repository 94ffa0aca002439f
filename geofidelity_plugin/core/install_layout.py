"""Which of the two layouts this copy of the plugin has — a fact written by the build, never
guessed from the files around it (docs/architecture.md § Rooms).

In a repository clone (this file as committed) ``resources/`` and ``processing_algorithms/`` stand
beside the ``geofidelity_plugin`` package. ``make plugin`` (and so ``make zip``) copies them inside
the package, as QGIS needs a plugin to be one folder, and rewrites the line below to ``True`` in
the copy it builds.
"""
INSTALLED = False
