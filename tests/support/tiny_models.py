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
    from transformers import CLIPTextConfig, CLIPTextModel

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
    tokenizer = _clip_tokenizer()
    scheduler = DDIMScheduler(beta_start=0.00085, beta_end=0.012, beta_schedule="scaled_linear",
                              clip_sample=False, set_alpha_to_one=False, steps_offset=1)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    StableDiffusionPipeline(vae=vae, text_encoder=text_encoder, tokenizer=tokenizer, unet=unet,
                            scheduler=scheduler, safety_checker=None, feature_extractor=None,
                            requires_safety_checker=False).save_pretrained(folder, safe_serialization=True)
    return folder


# -- the five architecture families of the registered generators (method §4 Generators) -----------------
# Each builder below mirrors its full model's pipeline class, component classes and scheduler
# config, shrunk (under 1 MB of weights each) after the diffusers test suite's dummy components,
# and writes a folder that ``DiffusionPipeline.from_pretrained(folder)`` loads like a downloaded
# checkpoint. The tokenizers are real (character-level vocabularies written here), so a prompt
# becomes many different tokens, as with the full models. Sizes that the pipelines hard-code
# are kept: HunyuanDiT computes its rotary grid with a VAE factor of 8, PixArt-Σ picks its
# resolution bins from the transformer's sample size.

def _clip_vocab() -> dict[str, int]:
    vocab = {"<|startoftext|>": 0, "<|endoftext|>": 1}
    for suffix in ("", "</w>"):
        vocab.update({s + suffix: len(vocab) + i for i, s in enumerate(_byte_symbols())})
    return vocab


def _clip_tokenizer():
    """A byte-level CLIP tokenizer without merges: one token per byte. transformers 5's
    ``CLIPTokenizer(vocab_file=…)`` ignores the file, so the vocabulary itself is given."""
    from transformers import CLIPTokenizer

    return CLIPTokenizer(vocab=_clip_vocab(), merges=[], model_max_length=77)


def _clip_config(hidden_size: int = 32, projection_dim: int = 32):
    from transformers import CLIPTextConfig

    return CLIPTextConfig(bos_token_id=0, eos_token_id=1, pad_token_id=1, hidden_size=hidden_size,
                          intermediate_size=37, num_attention_heads=4, num_hidden_layers=2, vocab_size=len(_clip_vocab()),
                          max_position_embeddings=77, hidden_act="gelu", projection_dim=projection_dim)


_CHARS = [chr(c) for c in (*range(ord("!"), ord("~") + 1), *range(0xC0, 0x100))]


def _t5_tokenizer(model_max_length: int = 512):
    """A Unigram (sentencepiece-style) T5 tokenizer over single characters, each with and without
    the word-start mark ▁; saved as tokenizer.json like the full models' fast tokenizers."""
    from transformers import T5Tokenizer

    pieces = [("<pad>", 0.0), ("</s>", 0.0), ("<unk>", 0.0), ("▁", -2.0)]
    pieces += [(p + c, -3.0 - i * 1e-3) for i, c in enumerate(_CHARS) for p in ("▁", "")]
    return T5Tokenizer(vocab=pieces, extra_ids=0, model_max_length=model_max_length)


def _t5_encoder(d_model: int = 32, vocab_size: int | None = None):
    from transformers import T5Config, T5EncoderModel

    return T5EncoderModel(T5Config(vocab_size=vocab_size or 4 + 2 * len(_CHARS), d_model=d_model, d_kv=8,
                                   d_ff=37, num_layers=2, num_heads=4, relative_attention_num_buckets=8,
                                   feed_forward_proj="gated-gelu", is_encoder_decoder=False,
                                   decoder_start_token_id=0, pad_token_id=0, eos_token_id=1))


def _vae(blocks: int, latent_channels: int = 4, **extra):
    """An AutoencoderKL with ``blocks`` levels (scale factor 2**(blocks-1)) and 4–8 channels."""
    from diffusers import AutoencoderKL

    channels = [4] + [8] * (blocks - 1)
    return AutoencoderKL(block_out_channels=channels, in_channels=3, out_channels=3,
                         down_block_types=["DownEncoderBlock2D"] * blocks,
                         up_block_types=["UpDecoderBlock2D"] * blocks, latent_channels=latent_channels,
                         layers_per_block=1, norm_num_groups=2, sample_size=32, **extra)


def _save(pipe, folder) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    pipe.save_pretrained(folder, safe_serialization=True)
    return folder


def make_tiny_sdxl(folder) -> Path:
    """Stable Diffusion XL: a UNet with SDXL's text-time addition embeddings, CLIP-L-like and
    CLIP-G-like (with projection) text encoders, two byte-level tokenizers, SDXL's Euler scheduler."""
    import torch
    from diffusers import EulerDiscreteScheduler, StableDiffusionXLPipeline, UNet2DConditionModel
    from transformers import CLIPTextModel, CLIPTextModelWithProjection

    torch.manual_seed(0)
    unet = UNet2DConditionModel(
        block_out_channels=(4, 8), layers_per_block=1, sample_size=16, in_channels=4, out_channels=4,
        down_block_types=("DownBlock2D", "CrossAttnDownBlock2D"), up_block_types=("CrossAttnUpBlock2D", "UpBlock2D"),
        attention_head_dim=(2, 4), use_linear_projection=True, addition_embed_type="text_time",
        addition_time_embed_dim=8, transformer_layers_per_block=(1, 2),
        projection_class_embeddings_input_dim=6 * 8 + 16, cross_attention_dim=32 + 32, norm_num_groups=2)
    vae = _vae(2, force_upcast=True)
    text_encoder = CLIPTextModel(_clip_config(32))
    text_encoder_2 = CLIPTextModelWithProjection(_clip_config(32, projection_dim=16))
    scheduler = EulerDiscreteScheduler(beta_start=0.00085, beta_end=0.012, beta_schedule="scaled_linear",
                                       steps_offset=1, timestep_spacing="leading", interpolation_type="linear",
                                       prediction_type="epsilon")
    return _save(StableDiffusionXLPipeline(vae=vae, text_encoder=text_encoder, text_encoder_2=text_encoder_2,
                                           tokenizer=_clip_tokenizer(), tokenizer_2=_clip_tokenizer(), unet=unet,
                                           scheduler=scheduler, add_watermarker=False), folder)


def make_tiny_sd3(folder) -> Path:
    """Stable Diffusion 3.5 (MMDiT with RMS q/k norm): CLIP-L, CLIP-G and T5 text encoders, whose
    CLIP embeddings are zero-padded up to T5's width as in the full model, and a 16-channel VAE."""
    import torch
    from diffusers import FlowMatchEulerDiscreteScheduler, SD3Transformer2DModel, StableDiffusion3Pipeline
    from transformers import CLIPTextModelWithProjection

    torch.manual_seed(0)
    transformer = SD3Transformer2DModel(sample_size=16, patch_size=2, in_channels=16, out_channels=16, num_layers=2,
                                        attention_head_dim=8, num_attention_heads=4, joint_attention_dim=48,
                                        caption_projection_dim=32, pooled_projection_dim=16 + 16, pos_embed_max_size=32,
                                        qk_norm="rms_norm")
    text_encoder = CLIPTextModelWithProjection(_clip_config(16, projection_dim=16))
    text_encoder_2 = CLIPTextModelWithProjection(_clip_config(16, projection_dim=16))
    text_encoder_3 = _t5_encoder(48)
    vae = _vae(2, latent_channels=16, use_quant_conv=False, use_post_quant_conv=False, shift_factor=0.0609,
               scaling_factor=1.5305)
    scheduler = FlowMatchEulerDiscreteScheduler(num_train_timesteps=1000, shift=3.0)
    return _save(StableDiffusion3Pipeline(transformer=transformer, scheduler=scheduler, vae=vae,
                                          text_encoder=text_encoder, tokenizer=_clip_tokenizer(),
                                          text_encoder_2=text_encoder_2, tokenizer_2=_clip_tokenizer(),
                                          text_encoder_3=text_encoder_3, tokenizer_3=_t5_tokenizer(256)), folder)


def make_tiny_flux(folder, guidance_embeds: bool = True) -> Path:
    """FLUX.1 (double- and single-stream blocks, RoPE, packed 2×2 latents): CLIP-L pooled + T5,
    FLUX's dynamically shifted flow-matching scheduler; ``guidance_embeds`` as in FLUX.1-dev
    (distilled guidance), False as in FLUX.1-schnell."""
    import torch
    from diffusers import FlowMatchEulerDiscreteScheduler, FluxPipeline, FluxTransformer2DModel
    from transformers import CLIPTextModel

    torch.manual_seed(0)
    transformer = FluxTransformer2DModel(patch_size=1, in_channels=16 * 4, num_layers=1, num_single_layers=1,
                                         attention_head_dim=16, num_attention_heads=2, joint_attention_dim=32,
                                         pooled_projection_dim=32, guidance_embeds=guidance_embeds,
                                         axes_dims_rope=(4, 4, 8))
    text_encoder = CLIPTextModel(_clip_config(32))
    text_encoder_2 = _t5_encoder(32)
    vae = _vae(2, latent_channels=16, use_quant_conv=False, use_post_quant_conv=False, shift_factor=0.1159,
               scaling_factor=0.3611)
    scheduler = FlowMatchEulerDiscreteScheduler(num_train_timesteps=1000, shift=3.0, use_dynamic_shifting=True,
                                                base_shift=0.5, max_shift=1.15, base_image_seq_len=256,
                                                max_image_seq_len=4096)
    return _save(FluxPipeline(scheduler=scheduler, vae=vae, text_encoder=text_encoder, tokenizer=_clip_tokenizer(),
                              text_encoder_2=text_encoder_2, tokenizer_2=_t5_tokenizer(512),
                              transformer=transformer), folder)


def make_tiny_pixart_sigma(folder) -> Path:
    """PixArt-Σ (DiT with adaLN-single, learned sigma): T5 text encoder, DPM-Solver scheduler, an
    8× VAE. Sample size 32 selects the pipeline's 256-px resolution bins (the full model: 128 → 1024)."""
    import torch
    from diffusers import DPMSolverMultistepScheduler, PixArtSigmaPipeline, PixArtTransformer2DModel

    torch.manual_seed(0)
    transformer = PixArtTransformer2DModel(sample_size=32, num_layers=2, patch_size=2, attention_head_dim=8,
                                           num_attention_heads=3, caption_channels=32, in_channels=4,
                                           cross_attention_dim=24, out_channels=8, attention_bias=True,
                                           activation_fn="gelu-approximate", num_embeds_ada_norm=1000,
                                           norm_type="ada_norm_single", norm_elementwise_affine=False, norm_eps=1e-6,
                                           interpolation_scale=None)
    vae = _vae(4)
    scheduler = DPMSolverMultistepScheduler(beta_start=0.0001, beta_end=0.02, beta_schedule="linear",
                                            prediction_type="epsilon", solver_order=2, algorithm_type="dpmsolver++",
                                            lower_order_final=True)
    return _save(PixArtSigmaPipeline(tokenizer=_t5_tokenizer(300), text_encoder=_t5_encoder(32), vae=vae,
                                     transformer=transformer, scheduler=scheduler), folder)


def _bert_tokenizer():
    """A WordPiece tokenizer over single characters (word-initial and ``##`` continuations)."""
    from transformers import BertTokenizer

    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])}
    for prefix in ("", "##"):
        vocab.update({prefix + c: len(vocab) + i for i, c in enumerate(_CHARS)})
    return BertTokenizer(vocab=vocab, do_lower_case=False, model_max_length=77)


def make_tiny_hunyuandit(folder) -> Path:
    """HunyuanDiT v1.2 (DiT with long skips, no style/size conditioning): a BERT text encoder (the
    full model's bilingual CLIP text tower is stored as a BertModel) and an mT5-like T5 encoder,
    DDPM scheduler (v-prediction), an 8× VAE (the pipeline's rotary grid assumes 8)."""
    import torch
    from diffusers import DDPMScheduler, HunyuanDiT2DModel, HunyuanDiTPipeline
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    transformer = HunyuanDiT2DModel(sample_size=16, num_layers=2, patch_size=2, attention_head_dim=8,
                                    num_attention_heads=3, in_channels=4, cross_attention_dim=32,
                                    cross_attention_dim_t5=32, pooled_projection_dim=16, hidden_size=24,
                                    activation_fn="gelu-approximate", use_style_cond_and_image_meta_size=False)
    tokenizer = _bert_tokenizer()
    text_encoder = BertModel(BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2,
                                        num_attention_heads=4, intermediate_size=37, max_position_embeddings=80))
    vae = _vae(4)
    scheduler = DDPMScheduler(beta_start=0.00085, beta_end=0.018, beta_schedule="scaled_linear",
                              prediction_type="v_prediction", steps_offset=1, clip_sample=False)
    return _save(HunyuanDiTPipeline(vae=vae, text_encoder=text_encoder, tokenizer=tokenizer, transformer=transformer,
                                    scheduler=scheduler, safety_checker=None, feature_extractor=None,
                                    requires_safety_checker=False, text_encoder_2=_t5_encoder(32),
                                    tokenizer_2=_t5_tokenizer(256)), folder)


#: builder of each architecture family's tiny folder, keyed by the family's registered generators
TINY_FAMILIES = {
    "sdxl": make_tiny_sdxl,
    "sd3": make_tiny_sd3,
    "flux": make_tiny_flux,
    "pixart-sigma": make_tiny_pixart_sigma,
    "hunyuandit": make_tiny_hunyuandit,
}
