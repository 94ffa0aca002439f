"""``geofidelity:evaluate`` — method §5–§7 scores, tables and a per-segment margin layer."""
from __future__ import annotations

from geofidelity_plugin.qgis_side.processing_spec import add_specification, values
from geofidelity_plugin.spec import evaluation as spec
from geofidelity_plugin.spec.options import argv

from .algorithm import GeoFidelityAlgorithm
from .common import device_or_default, load_backend_layers, run_backend, user_errors
from .ray_option import PARAMETER as RAY_CLUSTER, add_ray_option, ray_parameter


class EvaluateAlgorithm(GeoFidelityAlgorithm):
    GROUP = "evaluate"
    OUTPUT = "OUTPUT_FOLDER"

    def name(self):
        return "evaluate"

    def displayName(self):  # noqa: N802
        return "4b · Evaluate generated panels"

    def shortHelpString(self):  # noqa: N802
        return ("Embeds every reference and generated image with DINOv2 (cached by content), then scores "
                "each generated panel and the three real anchors: CosSim, MMD², DCSF, GADS (when a "
                "semantic model is given) and retrieval against the hard-negative gallery — top-1, "
                "reciprocal rank, chance-adjusted top-1, Δhard, Δmean and the margin per negative kind "
                "(method §5–§6). Writes per-panel scores (CSV and GeoPackage), the paper's tables with "
                "bootstrap intervals (§7), a run manifest, and a per-segment layer for one model and "
                "condition styled by Δhard around 0. Protocol 'release' instead reproduces the published "
                "release's own evaluator (its raw_results.csv and summaries), to place a generator on its "
                "leaderboard. The method is described in docs/method.md.")

    def createInstance(self):  # noqa: N802
        return EvaluateAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.qgis_side.feature_models import offer_feature_models

        add_specification(self, spec.EVALUATE, after=(ray_parameter(),),
                          choice_labels={"PROTOCOL": spec.PROTOCOL_LABELS})
        offer_feature_models(self.parameterDefinition("FEATURE_MODEL"))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``evaluate`` in the backend process (docs/backend-protocol.md)."""
        plain = values(self, spec.EVALUATE, parameters, context)
        plain["DEVICE"] = device_or_default(plain["DEVICE"])  # empty: the device of the plugin's settings
        args = argv(spec.EVALUATE, plain)
        add_ray_option(args, self.parameterAsString(parameters, RAY_CLUSTER, context))
        run = run_backend(spec.EVALUATE.command, args, feedback)
        load_backend_layers(context, run)
        got = run.values
        feedback.pushInfo(f"{got.get(spec.PANELS.key)} panels scored; γ = {got.get(spec.GAMMA.key)}; features "
                          f"computed {got.get(spec.FEATURE_COUNTS['computed'].key)}, cached "
                          f"{got.get(spec.FEATURE_COUNTS['cached'].key)}")
        segment_scores = run.output(spec.SEGMENT_SCORES.key)
        return {self.OUTPUT: plain[self.OUTPUT],
                spec.SEGMENT_SCORES.key: segment_scores["layer"] if segment_scores else None,
                **{res.key: run.path(res.key) for res in (spec.PER_PANEL_CSV, spec.TABLES, spec.MANIFEST)},
                spec.PANELS.key: got.get(spec.PANELS.key, 0)}
