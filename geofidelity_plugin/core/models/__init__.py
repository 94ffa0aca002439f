"""The model manager: which models GeoFidelity uses, which are present in the models folder, and
their download from the Hugging Face Hub with progress, resume, cancel and checksums.

- :mod:`.registry` — the models with size, licence, gate and revision (stdlib only);
- :mod:`.cache` — the models folder (a Hugging Face cache) and what is present in it (stdlib only);
- :mod:`.hub` — the Hub through ``huggingface_hub`` (file list, resumable blobs, Xet);
- :mod:`.download` — download, verify, the table and the offline message;
- :mod:`.resolve` — :func:`~.resolve.local_model`, through which every loader finds its folder.

``python -m geofidelity_plugin models list|download|verify|remove`` and the Processing
algorithm ``geofidelity:models`` drive it.
"""
