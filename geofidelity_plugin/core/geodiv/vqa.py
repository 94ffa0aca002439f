"""The GeoDiv VQA backend (docs/method.md, GeoDiv): an instruct vision–language model scores
every option of a multiple-choice question by its forced log-likelihood given the image and
the question — no free text is parsed. The answer is the option with the highest
log-likelihood (ties go to the option listed first), and the whole option distribution is kept.

Any image-text-to-text model transformers loads through ``AutoModelForImageTextToText`` with
a chat template works; the default is Qwen2.5-VL-7B-Instruct. The model is loaded from the
folder :func:`local_model` gives, offline, with ``trust_remote_code`` off. Results are cached
by image hash + model + revision + question-set digest; a cached entry that does not hold one
finite log-likelihood per option of every question is deleted and scored again, with a warning
(the cache heals), and entries are written whole and never through a link (:mod:`..state_files`).
"""
from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

import numpy as np

from ..documents import read_json
from ..errors import InputError
from ..models.provenance import provenance_label
from ..models.resolve import local_model, snapshot_commit
from ..progress import check_cancel
from .options import DEFAULT_VQA_MODEL  # registered as qwen2.5-vl-7b-instruct
from .questions import Question, QuestionSet

log = logging.getLogger("geofidelity")


def pick(logliks) -> int:
    """The winning option: the highest log-likelihood; among equal ones the first listed."""
    values = np.asarray(logliks, dtype=float)
    return int(np.flatnonzero(values == values.max())[0])


def option_probabilities(logliks) -> np.ndarray:
    """The option distribution: a softmax over the options' log-likelihoods."""
    values = np.asarray(logliks, dtype=float)
    e = np.exp(values - values.max())
    return e / e.sum()


def prompt_text(question: Question) -> str:
    return f"{question.question}\nAnswer with exactly one of these options: {'; '.join(question.options)}."


def image_digest(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class OptionScorer:
    """Forced log-likelihood of each option, batched on one device (method: GeoDiv VDI/SEVI)."""

    def __init__(self, model_ref: str = DEFAULT_VQA_MODEL, device: str | None = None, precision: str = "fp32",
                 revision: str | None = None, batch_size: int = 8, cache_dir=None):
        import torch
        import transformers

        from geofidelity_plugin.core.vision.devices import torch_dtype

        from ..models.registry import find_model

        entry = find_model(str(model_ref))  # a registered name (qwen2.5-vl-7b-instruct) → its hub id
        self.model_ref = entry.repo_id if entry is not None else str(model_ref)
        self.batch_size = max(1, int(batch_size))
        self.cache_dir = Path(cache_dir) if cache_dir else None
        bars = transformers.utils.logging.is_progress_bar_enabled()
        transformers.utils.logging.disable_progress_bar()
        try:
            folder = local_model(self.model_ref, revision)
            self.processor = transformers.AutoProcessor.from_pretrained(
                local_model(self.model_ref, revision), local_files_only=True, trust_remote_code=False)
            model = transformers.AutoModelForImageTextToText.from_pretrained(
                local_model(self.model_ref, revision), local_files_only=True, trust_remote_code=False)
        except InputError:  # e.g. ModelNotPresent: its own message names the download
            raise
        except ImportError as exc:
            raise InputError(f"the VQA model {self.model_ref} needs a package that is missing ({exc}) — install "
                             "it in the backend environment (pip install -r requirements.txt)") from None
        except (OSError, ValueError) as exc:
            raise InputError(f"the VQA model {self.model_ref} could not be loaded ({str(exc).splitlines()[0]}) — "
                             "give an image-text-to-text model folder or hub id (e.g. Qwen/Qwen2.5-VL-7B-Instruct) "
                             "that `python -m geofidelity_plugin models download` has fetched") from None
        finally:
            if bars:
                transformers.utils.logging.enable_progress_bar()
        if not getattr(self.processor, "chat_template", None):
            raise InputError(f"the VQA model {self.model_ref} has no chat template — use an instruct model "
                             "(one whose processor ships a chat template)")
        self.torch = torch
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.dtype = torch_dtype(torch, precision, self.device)
        self.model = model.to(device=self.device, dtype=self.dtype).eval()
        self.tokenizer = getattr(self.processor, "tokenizer", None) or self.processor
        self.tokenizer.padding_side = "right"
        self.revision = snapshot_commit(folder) or revision or "local folder"
        self.label = provenance_label(Path(folder)) or self.model_ref
        self.precision = precision

    def describe(self) -> dict:
        return {"model": self.model_ref, "label": self.label, "revision": self.revision, "device": str(self.device),
                "precision": self.precision, "class": type(self.model).__name__}

    def prompt(self, question: Question) -> str:
        messages = [{"role": "user", "content": [{"type": "image"},
                                                 {"type": "text", "text": prompt_text(question)}]}]
        return self.processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)

    def _forward(self, image, texts: list[str], prompts: list[str]) -> list[float]:
        """Summed log-probabilities of each text's tokens after its prompt (right padding)."""
        torch = self.torch
        full = self.processor(text=texts, images=[image] * len(texts), return_tensors="pt", padding=True)
        heads = self.processor(text=prompts, images=[image] * len(prompts), return_tensors="pt", padding=True)
        batch = {k: (v.to(self.device, self.dtype) if v.is_floating_point() else v.to(self.device))
                 for k, v in full.items()}
        with torch.no_grad():
            logits = self.model(**batch).logits.float()
        logp = torch.log_softmax(logits[:, :-1], dim=-1)
        ids = full["input_ids"].to(self.device)
        out = []
        for row in range(len(texts)):
            end = int(full["attention_mask"][row].sum())
            start = int(heads["attention_mask"][row].sum())
            if start >= end or not torch.equal(ids[row, :start].cpu(), heads["input_ids"][row, :start]):
                raise InputError(f"the VQA model {self.model_ref}'s tokenizer does not keep the prompt as a prefix "
                                 "of prompt + option — use another instruct model")
            targets = ids[row, start:end]
            out.append(float(logp[row, start - 1:end - 1].gather(-1, targets[:, None]).sum()))
        return out

    def score_image(self, image, questions: list[Question], progress=None) -> dict[str, list[float]]:
        """``{question id: [log-likelihood per option]}`` for one PIL image."""
        rows = [(q, option) for q in questions for option in q.options]
        values: list[float] = []
        for start in range(0, len(rows), self.batch_size):
            check_cancel(progress, "GeoDiv VQA")
            chunk = rows[start:start + self.batch_size]
            prompts = [self.prompt(q) for q, _ in chunk]
            values += self._forward(image, [p + option for p, (_, option) in zip(prompts, chunk)], prompts)
        out: dict[str, list[float]] = {}
        for (q, _), value in zip(rows, values):
            out.setdefault(q.id, []).append(value)
        return out

    def _cache_file(self, digest: str, qset: QuestionSet) -> Path | None:
        if self.cache_dir is None:
            return None
        key = hashlib.sha256(f"{digest}|{self.model_ref}|{self.revision}|{qset.digest}".encode()).hexdigest()[:32]
        return self.cache_dir / f"{key}.json"

    def score_file(self, path, qset: QuestionSet, progress=None) -> dict[str, list[float]]:
        """Log-likelihoods for the image file ``path``, read from / written to the cache."""
        from PIL import Image

        cache = self._cache_file(image_digest(path), qset)
        cached = _read_cached(cache, qset)
        if cached is not None:
            return cached
        with Image.open(path) as img:
            result = self.score_image(img.convert("RGB"), list(qset.questions), progress)
        if cache is not None:
            from ..atomic import write_text

            write_text(cache, json.dumps(result))
        return result


def _read_cached(cache: Path | None, qset: QuestionSet) -> dict[str, list[float]] | None:
    """The cached log-likelihoods when they are whole: one number (not NaN, not +inf) per option
    of every question. Anything else that the cache wrote is deleted (and scored again), with a warning."""
    from .. import state_files

    if cache is None or state_files.path_kind(cache) is None:
        return None
    try:
        value = read_json(cache, "the VQA cache entry", "it is deleted, and the image is scored again")
    except InputError:
        value = None
    whole = isinstance(value, dict) and all(
        isinstance(value.get(q.id), list) and len(value[q.id]) == len(q.options)
        and all(isinstance(x, (int, float)) and not np.isnan(x) and x != np.inf for x in value[q.id])
        for q in qset.questions)
    if whole:
        return value
    state_files.remove_owned(cache, lambda p: state_files.cache_entry_is_ours(p, b"{"), "the VQA cache entry",
                             "move it out of the vqa_cache folder")
    log.warning("the VQA cache entry %s was damaged or incomplete: deleted, the image is scored again", cache)
    return None


def answer_rows(image_id: str, logliks: dict[str, list[float]], qset: QuestionSet, labels: dict) -> list[dict]:
    """Answer rows (image_id, question_id, answer, labels…, option_probs) from log-likelihoods."""
    rows = []
    for q in qset.questions:
        if q.id not in logliks:
            continue
        values = logliks[q.id]
        probs = option_probabilities(values)
        rows.append({"image_id": image_id, "question_id": q.id, "answer": q.options[pick(values)], **labels,
                     "option_probs": "|".join(f"{p:.6f}" for p in probs)})
    return rows
