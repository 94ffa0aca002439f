"""The six generators' pipelines built from the published configs in
``resources/generation/configs/<generator>/`` with random weights (``make gpu-check``,
:mod:`gpu_check`): random weights change no shapes, so the time and memory measured are the real
checkpoints'. Text encoders get a stand-in tokenizer (no vocabulary files).
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "resources" / "generation" / "configs"


# -- configs --------------------------------------------------------------------------------
def read_config(path: Path) -> tuple[dict, dict]:
    """(metadata, body) of one config file: keys starting with ``_`` (source, library, class,
    published parameter count) are metadata, the rest is the published config itself."""
    data = json.loads(Path(path).read_text())
    meta = {k: v for k, v in data.items() if k.startswith("_")}
    body = {k: v for k, v in data.items() if not k.startswith("_")}
    if "_class_name" in meta:
        body["_class_name"] = meta["_class_name"]
    return meta, body


def component_configs(generator: str) -> dict[str, Path]:
    """The model components of ``generator``: ``denoiser``, ``vae``, ``text_encoder*``."""
    folder = CONFIGS / generator
    names = ["denoiser", "vae", *sorted(p.stem for p in folder.glob("text_encoder*.json"))]
    return {name: folder / f"{name}.json" for name in names}


def build_module(meta: dict, body: dict, real_buffers: bool = True):
    """The model of one config on the ``meta`` device (no memory). ``real_buffers``: buffers
    (position tables) are computed on the CPU, else they are left on meta too (faster)."""
    import diffusers
    import torch
    import transformers
    from accelerate import init_empty_weights

    place = init_empty_weights() if real_buffers else torch.device("meta")
    quiet = diffusers.utils.logging.get_verbosity()
    diffusers.utils.logging.set_verbosity_error()  # published configs carry keys of older versions
    try:
        with place, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if meta["_library"] == "diffusers":
                return getattr(diffusers, meta["_class_name"]).from_config(body)
            config = transformers.AutoConfig.for_model(**body)
            return getattr(transformers, body["architectures"][0])(config)
    finally:
        diffusers.utils.logging.set_verbosity(quiet)


def parameter_count(module) -> int:
    """Parameters as built (each shared tensor once): what a device has to hold."""
    return sum(p.numel() for p in module.parameters())


def untied_embedding(module) -> int:
    """Parameters of a T5 encoder's second token embedding: transformers 5 builds
    ``encoder.embed_tokens`` apart from ``shared`` when ``tie_word_embeddings`` is false, where
    the published checkpoints count the embedding once."""
    shared, encoder = getattr(module, "shared", None), getattr(module, "encoder", None)
    embed = getattr(encoder, "embed_tokens", None)
    if shared is None or embed is None or embed.weight is shared.weight:
        return 0
    return embed.weight.numel()


# -- building pipelines with random weights -------------------------------------------------
class StandInTokenizer:
    """Any prompt becomes ``max_length`` token ids inside the vocabulary (deterministic), so the
    text encoders see full-length sequences as with a long real prompt; no vocabulary files."""

    def __init__(self, vocab_size: int, model_max_length: int):
        self.vocab_size, self.model_max_length = int(vocab_size), int(model_max_length)
        self.added_tokens_encoder: dict = {}
        self.pad_token_id = 0

    def tokenize(self, text, **_):
        return str(text).split()

    def __call__(self, text, padding=False, max_length=None, **_):
        import torch
        from transformers import BatchEncoding

        texts = [text] if isinstance(text, str) else list(text)
        length = min(max_length or self.model_max_length, self.model_max_length) \
            if padding != "max_length" else (max_length or self.model_max_length)
        generator = torch.Generator().manual_seed(length)
        ids = torch.randint(3, self.vocab_size, (1, length), generator=generator).repeat(len(texts), 1)
        return BatchEncoding({"input_ids": ids, "attention_mask": torch.ones_like(ids)})

    def batch_decode(self, ids, **_):
        return ["" for _ in ids]


def _keep_fp32(module, dtype) -> tuple[str, ...]:
    import torch

    keep = set(getattr(module, "_keep_in_fp32_modules_strict", None) or ())
    if dtype == torch.float16:
        keep |= set(getattr(module, "_keep_in_fp32_modules", None) or ())
    return tuple(keep)


def random_weights(module, dtype, device: str = "cuda") -> dict:
    """Random parameters for ``module`` (built on meta with real buffers) in ``dtype``, made on
    ``device`` and kept on the CPU (pageable, as loaded checkpoints are): matrices N(0, 0.02),
    biases 0, norm scales 1; ``_keep_in_fp32_modules`` stay float32 as transformers loads them.
    Float buffers are cast to ``dtype`` as ``from_pretrained(torch_dtype=…)`` does."""
    import torch

    keep = _keep_fp32(module, dtype)
    params = {}
    for name, p in module.named_parameters():
        kind = torch.float32 if keep and any(k in name.split(".") for k in keep) else dtype
        t = torch.empty(p.shape, dtype=kind, device=device)
        if p.dim() >= 2:
            t.normal_(0.0, 0.02)
        else:
            t.fill_(0.0 if name.endswith("bias") else 1.0)
        params[name] = t.cpu()
        del t
    buffers = {name: b.to(dtype) if b.is_floating_point() else b for name, b in module.named_buffers()}
    return {"params": params, "buffers": buffers}


def load_random(meta: dict, body: dict, weights: dict):
    """A fresh module of the config on the CPU holding ``weights`` (shared, not copied)."""
    module = build_module(meta, body, real_buffers=False)
    module.load_state_dict(weights["params"], strict=False, assign=True)
    for name, buf in weights["buffers"].items():
        owner, _, attr = name.rpartition(".")
        module.get_submodule(owner)._buffers[attr] = buf  # keeps each buffer's persistence
    left = [n for n, t in (*module.named_parameters(), *module.named_buffers()) if t.device.type == "meta"]
    if left:
        raise RuntimeError(f"{meta.get('_class_name', body.get('architectures'))}: left on meta: {left[:3]}")
    return module.eval().requires_grad_(False)


def component_bodies(generator: str, overrides: dict | None = None) -> dict[str, tuple[dict, dict]]:
    """(metadata, config) of each model component; ``overrides`` ({component: {key: value}})
    shrink them for tests."""
    bodies = {}
    for name, path in component_configs(generator).items():
        meta, body = read_config(path)
        bodies[name] = (meta, {**body, **(overrides or {}).get(name, {})})
    return bodies


def make_masters(bodies: dict, dtype, device: str) -> dict:
    """Random weights of every component (see :func:`random_weights`)."""
    return {name: random_weights(build_module(meta, body), dtype, device) for name, (meta, body) in bodies.items()}


def build_pipeline(generator: str, bodies: dict, masters: dict, dtype):
    """The generator's diffusers pipeline from its configs, holding the ``masters`` weights."""
    import diffusers

    folder = CONFIGS / generator
    pipe_meta, pipe_body = read_config(folder / "pipeline.json")
    sched_meta, sched_body = read_config(folder / "scheduler.json")
    kwargs = {"scheduler": getattr(diffusers, sched_meta["_class_name"]).from_config(sched_body)}
    lengths = pipe_body.get("tokenizer_max_length", {})
    for name, (meta, body) in bodies.items():
        module = load_random(meta, body, masters[name])
        kwargs[pipe_body["denoiser"] if name == "denoiser" else name] = module
        if name.startswith("text_encoder"):
            tok = name.replace("text_encoder", "tokenizer")
            kwargs[tok] = StandInTokenizer(body["vocab_size"], lengths.get(tok, 77))
    kwargs.update(pipe_body.get("extra_kwargs", {}))
    pipe = getattr(diffusers, pipe_meta["_class_name"])(**kwargs)
    pipe.set_progress_bar_config(disable=True)
    return pipe
