"""Curation tiers 4 and 5 (method §2): the SigLIP urban-scene score and the Mapillary-Vistas
ratios. Each model is loaded once, the first time an image reaches its tier; a tier whose model
is disabled (empty option) or cannot be loaded is recorded as ``skipped`` on every image that
reaches it, with one note saying why — it never passes silently. Images are scored in batches
(:mod:`.lazy`), so both tiers take the rows to score."""
from __future__ import annotations

from typing import Optional

import numpy as np

from geofidelity_plugin.core.errors import InputError
from geofidelity_plugin.core.events import announce_stage
from geofidelity_plugin.core.vision.semantics import SemanticRatioModel
from geofidelity_plugin.core.progress import Progress
from geofidelity_plugin.core.reference_panels.curation.urban import TierUnavailable, UrbanSceneScorer


def _shared_cache(options):
    """The evaluation engine's on-disk cache (model outputs keyed by image content + model +
    settings), so re-curation after an audit and the later GADS step reuse the model tiers."""
    if not options.use_cache:
        return None
    from geofidelity_plugin.core.vision.feature_cache import FeatureCache

    return FeatureCache()


class ModelTier:
    """One model tier: the model given, else loaded from the options when first needed."""

    def __init__(self, run, tier: int, given, model_id: Optional[str], load):
        self.run, self.tier, self.model, self._load = run, tier, given, load
        self._resolved, self._note, self._noted = given is not None, None, False
        if not self._resolved and not model_id:
            self._resolved, self._note = True, "disabled (no model given in the options)"

    def get(self):
        """The model, or ``None`` when the tier is skipped (the note is added once)."""
        if not self._resolved:
            self._resolved = True
            try:
                self.model = self._load()
            except (TierUnavailable, InputError) as exc:
                self._note = str(exc)
        if self.model is None and not self._noted:
            self._noted = True
            self.run.notes.append(f"tier {self.tier} ({self.run.tier_name(self.tier)}) skipped: {self._note}")
            self.run.progress.warning(self.run.notes[-1])
        return self.model


def urban_tier(run, given) -> ModelTier:
    """Tier 4: SigLIP street prompt top-1 with p ≥ threshold (:mod:`.urban`)."""
    def load():
        o = run.opt
        announce_stage(run.progress, "loading the SigLIP model (filter 4)", o.siglip_model)
        return UrbanSceneScorer(o.siglip_model, o.siglip_street_prompt, o.siglip_distractor_prompts,
                                o.siglip_threshold, device=o.device, batch_size=o.batch_size,
                                cache=_shared_cache(o), precision=o.precision)

    return ModelTier(run, 4, given, run.opt.siglip_model, load)


def ratio_tier(run, given) -> ModelTier:
    """Tier 5: Mapillary-Vistas attribute ratios (method §5 model) against the rules."""
    def load():
        announce_stage(run.progress, "loading the Mask2Former (Vistas) model (filter 5)", run.opt.vistas_model)
        return SemanticRatioModel(run.opt.vistas_model, device=run.opt.device,
                                  exclude_recording_car=run.opt.vistas_exclude_recording_car,
                                  cache=_shared_cache(run.opt), precision=run.opt.precision)

    return ModelTier(run, 5, given, run.opt.vistas_model, load)


def score_urban(run, tier: ModelTier, only, progress: Progress) -> None:
    """Tier 4 on the rows ``only`` that are still in play."""
    if not run.alive(4, only):
        return
    scorer = tier.get()
    if scorer is None:
        run.skip(4, run.alive(4, only))
        return
    indices, paths = run.with_paths(4, only)
    if not indices:
        return
    scores, failed = scorer.score_paths(paths, progress=progress)
    for i, path, score in zip(indices, paths, scores):
        if score is None:
            run.verdict(i, 4, f"image unreadable: {failed.get(path, 'unknown error')}")
            continue
        run.rows[i].measures.update(siglip_p_street=score.p_street, siglip_top1=score.top1)
        run.verdict(i, 4, None if scorer.passes(score) else
                    f"not a street scene: top-1 prompt {score.top1!r}, p(street) "
                    f"{score.p_street:.3f} (threshold {scorer.threshold:g})")
    run.models["siglip"] = scorer.model_info()


def ratio_failures(ratios: dict, rules: dict) -> list[str]:
    """Tier 5 rules missed: each rule sums the attributes named in it ("road+sidewalk")."""
    problems = []
    for rule, (low, high) in rules.items():
        value = sum(ratios[a] for a in str(rule).split("+"))
        if low is not None and value < low:
            problems.append(f"{rule} ratio {value:.3f} < {low:g}")
        elif high is not None and value > high:
            problems.append(f"{rule} ratio {value:.3f} > {high:g}")
    return problems


def score_ratios(run, tier: ModelTier, only, progress: Progress) -> None:
    """Tier 5 on the rows ``only`` that are still in play."""
    if not run.alive(5, only):
        return
    model = tier.get()
    if model is None:
        run.skip(5, run.alive(5, only))
        return
    indices, paths = run.with_paths(5, only)
    if not indices:
        return
    unique = list(dict.fromkeys(paths))
    result = model.ratios_for_paths(unique, progress=progress)
    position = {p: k for k, p in enumerate(unique)}
    for i, path in zip(indices, paths):
        ratios = dict(zip(result.attributes, result.ratios[position[path]].tolist()))
        if path in result.failed or not np.all(np.isfinite(list(ratios.values()))):
            run.verdict(i, 5, f"image unreadable: {result.failed.get(path, 'no ratios')}")
            continue
        run.rows[i].measures.update({f"ratio_{a}": v for a, v in ratios.items()})
        run.verdict(i, 5, "; ".join(ratio_failures(ratios, run.opt.vistas_ratios)) or None)
    run.models["vistas"] = model.model_info() if hasattr(model, "model_info") else {"model": repr(model)}
