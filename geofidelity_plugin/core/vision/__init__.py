"""The vision room of the core: what every stage that looks at images shares — decoding and
content hashes (``images``), DINOv2 features and their cache (``features``, ``feature_cache``,
``embedding_lookup``), the device and dtype rules (``devices``), the semantic segmentation model
(``semantics``, ``vistas_mapping``), the CLIP check (``clip_scores``) and model references
(``model_refs``). Curation, evaluation, GeoDiv, MFP and Ray import it; it imports no stage.
"""
