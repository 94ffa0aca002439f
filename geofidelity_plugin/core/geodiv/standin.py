"""A tiny, randomly initialised vision–language model built from a config, saved like a
downloaded checkpoint: the stand-in the demo and the tests run GeoDiv's VQA path with when no
real VQA model is present. Its answers are meaningless (a random model tends to give every image the same answer, so
its VDI is near 0) — only the code path is real.

A LLaVA layout (CLIP vision tower, Qwen2 text model, byte-level Qwen2 tokenizer, a chat
template in the Qwen style); loaded back through :class:`.vqa.OptionScorer` exactly like
Qwen2.5-VL.
"""
from __future__ import annotations

from pathlib import Path

from .. import atomic

STANDIN_LABEL = "tiny random VLM (stand-in: the numbers test the code path, not the world)"

_TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{% for c in m['content'] %}"
             "{% if c['type'] == 'image' %}<image>\n{% else %}{{ c['text'] }}{% endif %}{% endfor %}"
             "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
_SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<image>"]


def _byte_symbols() -> list[str]:
    kept = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    extra = [b for b in range(256) if b not in kept]
    return [chr(b) for b in kept] + [chr(256 + i) for i in range(len(extra))]


def make_standin_vlm(folder, seed: int = 0) -> Path:
    """Write the stand-in (under 1 MB) to ``folder``; the same seed gives the same weights."""
    import json

    import torch
    from transformers import CLIPImageProcessor, LlavaConfig, LlavaForConditionalGeneration, LlavaProcessor
    from transformers import Qwen2Tokenizer

    vocab = {s: i for i, s in enumerate(_byte_symbols())}
    for special in _SPECIALS:
        vocab[special] = len(vocab)
    tokenizer = Qwen2Tokenizer(vocab=vocab, merges=[], unk_token=None, bos_token=None, eos_token="<|im_end|>",
                               pad_token="<|endoftext|>")
    tokenizer.add_special_tokens({"additional_special_tokens": _SPECIALS[1:]})
    image_processor = CLIPImageProcessor(size={"shortest_edge": 28}, crop_size={"height": 28, "width": 28})
    processor = LlavaProcessor(image_processor=image_processor, tokenizer=tokenizer, chat_template=_TEMPLATE,
                               patch_size=14, vision_feature_select_strategy="default", num_additional_image_tokens=1)
    config = LlavaConfig(
        text_config=dict(model_type="qwen2", vocab_size=len(vocab), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
                         max_position_embeddings=1024, tie_word_embeddings=False),
        vision_config=dict(model_type="clip_vision_model", hidden_size=32, intermediate_size=64,
                           num_hidden_layers=1, num_attention_heads=2, image_size=28, patch_size=14,
                           projection_dim=32),
        image_token_id=vocab["<image>"], vision_feature_layer=-1, vision_feature_select_strategy="default",
        tie_word_embeddings=False)
    torch.manual_seed(seed)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    model = LlavaForConditionalGeneration(config).eval()
    model.save_pretrained(folder, safe_serialization=True)
    processor.save_pretrained(folder)
    atomic.write_text(folder / "PROVENANCE.json", json.dumps({"label": STANDIN_LABEL, "seed": seed}))
    return folder
