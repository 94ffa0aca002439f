"""The benchmark store: one SQLite file that every stage reads or writes (segments from
selection, reference panels, generated panels, galleries, features and scores).

Light on purpose — stdlib only (``sqlite3``) — so that the QGIS side (the inspector) can read
it without the backend's scientific stack. See docs/method.md §9 for its tables."""
