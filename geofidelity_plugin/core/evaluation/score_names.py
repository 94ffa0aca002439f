"""What the score fields are called where people read them — the attribute table, forms and map
tips of a score layer, the inspector, the report's table headers — and what each one measures
(method §6–§7). Written once here; stdlib only, so QGIS reads it without the scientific stack."""
from __future__ import annotations

#: field → its readable name (the legend's, the inspector's and the glossary's words)
SCORE_NAMES = {"segment_id": "segment", "street_name": "street", "cos_sim": "CosSim", "top1": "top-1",
               "reciprocal_rank": "reciprocal rank", "chance_adjusted_top1": "top-1, chance-adjusted",
               "margin_hard": "Δhard", "margin_mean": "Δmean",
               "margin_nearest_same_city": "Δ nearest same-city street",
               "margin_same_city_other_neighbourhood": "Δ other neighbourhood",
               "margin_same_driving_side_other_city": "Δ other city, same driving side",
               "margin_random_other_city": "Δ random other city",
               "margin_same_neighbourhood": "Δ same neighbourhood (strict)", "gallery_size": "gallery size K",
               "local_margin": "Local Margin", "mmd2": "MMD²", "dcsf": "DCSF", "gads": "GADS",
               "n_generated": "generated images", "n_reference": "reference images", "stand_in": "stand-in data"}

#: the scores where a smaller value is the better one (method §6); the others: higher is better
LOWER_IS_BETTER = ("mmd2", "dcsf", "gads")
#: fields that are counts or sizes, neither better high nor low
NO_DIRECTION = ("gallery_size", "n_generated", "n_reference", "segment_id", "street_name", "stand_in")


def direction(field: str) -> str:
    """"↑" higher is better, "↓" lower is better, "" neither."""
    return "" if field in NO_DIRECTION else "↓" if field in LOWER_IS_BETTER else "↑"


#: the other columns of the evaluation's tables → their readable names
TABLE_COLUMN_NAMES = {"clip_model": "CLIP model", "spearman_clip_cos_sim": "Spearman: CLIP vs CosSim",
                      "spearman_clip_top1": "Spearman: CLIP vs top-1", "auroc_clip_top1": "AUROC: CLIP → top-1",
                      "city_mean": "mean, city-balanced", "matched_pairs": "matched pairs",
                      "positive_pairs": "pairs above 0", "cities_positive": "cities above 0",
                      "fd": "FD", "kid": "KID", "kid_rbf": "KID (RBF)", "precision": "precision", "recall": "recall",
                      "density": "density", "coverage": "coverage", "vendi": "Vendi",
                      "top_quarter": "panels in the top CLIP quarter",
                      "miss_rate_top_quarter": "miss rate, top quarter", "miss_rate_all": "miss rate, all panels",
                      "local_margin_n": "panels with a value"}

#: field → what it measures (the report's header tooltips)
SCORE_DEFINITIONS = {
    "cos_sim": "CosSim of panel means", "top1": "top-1 retrieval (target ranked first)",
    "chance_adjusted_top1": "(top-1 − 1/K)/(1 − 1/K)", "reciprocal_rank": "reciprocal rank of the target",
    "margin_hard": "Δhard: s(target) − max s(negatives)", "mmd2": "RBF MMD² (diagnostic)",
    "margin_mean": "Δmean: s(target) − mean s(negatives)", "gads": "GADS: JS distance of attribute ratios",
    "margin_nearest_same_city": "margin vs the nearest same-city segment", "cities": "cities with panels",
    "dcsf": "DCSF = MMD² + λ·max(0, d_R − d_G) (diagnostic)", "panels": "panels in the row",
    "local_margin": "Local Margin: s(target) − max s(same-city negatives)",
    "fd": "Fréchet distance of Gaussians fitted to the features", "kid": "KID, polynomial kernel (x·y/d + 1)³",
    "vendi": "Vendi score of the generated set (cosine kernel)"}


def column_name(field: str) -> str:
    """The readable name of a score field or table column (the field itself when it has none)."""
    return SCORE_NAMES.get(field) or TABLE_COLUMN_NAMES.get(field) or field
