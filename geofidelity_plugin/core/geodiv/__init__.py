"""GeoDiv for street scenes (docs/method.md, GeoDiv): how diverse a set of panels is, by the
answers a VQA model gives to fixed multiple-choice questions (VDI, SEVI) and by the spread of
its embeddings (Vendi score). Never imports qgis; torch and transformers only in :mod:`.vqa`.
"""
