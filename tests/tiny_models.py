"""Tiny, randomly initialised models built from configs for tests (ENVIRONMENT.md "Models with
no hub"): they are saved with ``save_pretrained`` and loaded back through the project's real
loading code, exactly like a downloaded checkpoint.
"""
from __future__ import annotations

from pathlib import Path


def make_tiny_dinov2(folder, seed: int = 0, crop: int = 56, shortest_edge: int = 64) -> Path:
    """A 2-layer, 32-wide DINOv2 (patch 14, 56 px) plus its BitImageProcessor, in ``folder``.

    Deterministic: the same seed gives byte-identical weights.
    """
    import torch
    import transformers
    from transformers import Dinov2Config, Dinov2Model

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    config = Dinov2Config(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                          intermediate_size=64, image_size=56, patch_size=14)
    torch.manual_seed(seed)
    model = Dinov2Model(config).eval()
    with torch.no_grad():  # random init leaves cls/position embeddings tiny: give them weight
        for name, param in model.named_parameters():
            if "embeddings" in name and param.dim() > 1:
                param.normal_(0.0, 0.5)
    model.save_pretrained(folder, safe_serialization=True)
    processor_class = (getattr(transformers, "BitImageProcessorPil", None)
                       or transformers.BitImageProcessor)
    processor_class(size={"shortest_edge": shortest_edge}, crop_size={"height": crop, "width": crop},
                    resample=3, do_center_crop=True, image_mean=[0.485, 0.456, 0.406],
                    image_std=[0.229, 0.224, 0.225]).save_pretrained(folder)
    return folder


def make_tiny_mask2former(folder, id2label: dict[int, str], seed: int = 0) -> Path:
    """A tiny Swin-backbone Mask2Former (hidden sizes multiples of 32) with ``id2label`` and its
    image processor, in ``folder``. Its wide initialisation gives label maps that mix classes."""
    import torch
    from transformers import (Mask2FormerConfig, Mask2FormerForUniversalSegmentation,
                              Mask2FormerImageProcessorPil, SwinConfig)

    backbone = SwinConfig(image_size=64, patch_size=4, embed_dim=32, depths=[1, 1, 1, 1],
                          num_heads=[1, 1, 2, 2], window_size=4,
                          out_features=["stage1", "stage2", "stage3", "stage4"])
    config = Mask2FormerConfig(
        backbone_config=backbone, num_labels=len(id2label), id2label=dict(id2label),
        label2id={n: i for i, n in id2label.items()}, hidden_dim=32, feature_size=32,
        mask_feature_size=32, num_queries=8, encoder_layers=1, decoder_layers=2,
        num_attention_heads=2, encoder_feedforward_dim=64, dim_feedforward=64,
        init_std=1.0, init_xavier_std=5.0)
    torch.manual_seed(seed)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    Mask2FormerForUniversalSegmentation(config).save_pretrained(folder)
    Mask2FormerImageProcessorPil(size={"shortest_edge": 64, "longest_edge": 128},
                                 num_labels=len(id2label)).save_pretrained(folder)
    return folder


def _byte_symbols() -> list[str]:
    """The 256 byte symbols of byte-level BPE (printable bytes map to themselves)."""
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    extra = [b for b in range(256) if b not in kept]
    return [chr(b) for b in kept] + [chr(256 + i) for i in range(len(extra))]


def make_tiny_sd(folder) -> Path:
    """The diffusers test-suite dummy Stable Diffusion (tiny UNet, VAE and CLIP text encoder),
    randomly initialised, saved as a diffusers folder (ENVIRONMENT.md "Models with no hub")."""
    import torch
    from diffusers import AutoencoderKL, DDIMScheduler, StableDiffusionPipeline, UNet2DConditionModel
    from transformers import CLIPTextConfig, CLIPTextModel, CLIPTokenizer

    torch.manual_seed(0)
    unet = UNet2DConditionModel(block_out_channels=(4, 8), layers_per_block=1, sample_size=32, in_channels=4,
                                out_channels=4, down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"),
                                up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"), cross_attention_dim=32,
                                norm_num_groups=2)
    vae = AutoencoderKL(block_out_channels=[4, 8], in_channels=3, out_channels=3,
                        down_block_types=["DownEncoderBlock2D"] * 2, up_block_types=["UpDecoderBlock2D"] * 2,
                        latent_channels=4, norm_num_groups=2)
    text_encoder = CLIPTextModel(CLIPTextConfig(
        bos_token_id=0, eos_token_id=1, pad_token_id=1, hidden_size=32, intermediate_size=64,
        num_attention_heads=4, num_hidden_layers=2, vocab_size=600, max_position_embeddings=77))
    # transformers 5: CLIPTokenizer(vocab_file=…) ignores the file; give the vocabulary itself
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    for suffix in ("", "</w>"):
        vocab.update({s + suffix: len(vocab) + i for i, s in enumerate(_byte_symbols())})
    tokenizer = CLIPTokenizer(vocab=vocab, merges=[], model_max_length=77)
    scheduler = DDIMScheduler(beta_start=0.00085, beta_end=0.012, beta_schedule="scaled_linear",
                              clip_sample=False, set_alpha_to_one=False, steps_offset=1)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    StableDiffusionPipeline(vae=vae, text_encoder=text_encoder, tokenizer=tokenizer, unet=unet,
                            scheduler=scheduler, safety_checker=None, feature_extractor=None,
                            requires_safety_checker=False).save_pretrained(folder, safe_serialization=True)
    return folder
