"""``geofidelity:generate_panels`` and ``geofidelity:import_generated`` — method §4 panels.

Both run in the backend process (docs/backend-protocol.md): ``generate`` and ``import-generated``."""
from __future__ import annotations

from qgis.core import Qgis, QgsProcessingException

from geofidelity_plugin.qgis_side.processing_spec import add_parameters, output, parameter, values
from geofidelity_plugin.spec.options import CommandSpec, argv_of
from geofidelity_plugin.spec import generation as spec

from .algorithm import GeoFidelityAlgorithm
from .common import device_or_default, run_backend, user_errors
from .ray_option import PARAMETER as RAY_CLUSTER, add_ray_option, ray_parameter


class GeneratePanelsAlgorithm(GeoFidelityAlgorithm):
    GROUP = "generate"
    STORE, GENERATOR, CUSTOM, NAME = spec.STORE.name, spec.GENERATOR.name, spec.CUSTOM_FOLDER.name, \
        spec.CUSTOM_NAME.name

    def name(self):
        return "generate_panels"

    def displayName(self):  # noqa: N802
        return "3a · Generate panels (diffusers)"

    def shortHelpString(self):  # noqa: N802
        return ("Builds the prompts of method §4 for every segment — L0 (city), L1 (+ street and neighbourhood), "
                "L2 (+ coordinates) and the same-city controls (wrong street, shuffled neighbourhood, both) — and "
                "generates a panel of images per prompt with one diffusers generator (registered: SDXL, SD 3.5 "
                "Large, FLUX.1-dev, FLUX.1-schnell, PixArt-Σ, HunyuanDiT; or a local diffusers folder). A distinct "
                "recorded seed per image, or shared noise across conditions. Resumable: images already made with "
                "the same settings are kept; images made with other settings (dtype, device, steps, seed, …) are "
                "refused unless 'Replace panels made with other settings' is ticked. Memory plan: 'auto' picks the "
                "fastest way the generator fits the GPU's free memory (or the VRAM budget) — whole pipeline on the "
                "GPU, model offload, group offload, sequential offload — and splits a panel's batch when needed. "
                "Heavy: needs a GPU for the full models; runs in the GeoFidelity backend (Settings › Options › "
                "GeoFidelity).")

    def createInstance(self):  # noqa: N802
        return GeneratePanelsAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        self.options = spec.algorithm_options()
        for opt in self.options:
            param = parameter(opt)
            if opt.kind == "choice" and not opt.multiple:  # a list with a default: never "not set"
                param.setFlags(param.flags() & ~Qgis.ProcessingParameterFlag.Optional)
            self.addParameter(param)
        self.addParameter(ray_parameter())
        for res in spec.GENERATE.results:
            self.addOutput(output(res))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``generate`` in the backend process (docs/backend-protocol.md)."""
        plain = values(self, CommandSpec(spec.GENERATE.command, "", self.options), parameters, context)
        plain[spec.DEVICE.name] = device_or_default(plain[spec.DEVICE.name])
        plain[spec.VRAM_BUDGET.name] = (plain[spec.VRAM_BUDGET.name] or "").strip()
        plain[self.NAME] = (plain[self.NAME] or "").strip()
        custom = {o.name for o in spec.CUSTOM_SETTINGS}
        if plain[self.GENERATOR] == spec.CUSTOM_FOLDER_CHOICE:
            if not plain[self.CUSTOM] or not plain[self.NAME]:
                raise QgsProcessingException("a custom generator needs its diffusers folder and a name — fill in "
                                             "'Custom diffusers folder' and 'Custom generator name'")
            sent = [o for o in self.options if o.name != self.GENERATOR]  # the name is sent as --generator
        else:  # a registered generator runs with the protocol's settings: the custom ones are not sent
            sent = [o for o in self.options if o.name != self.NAME and o.name not in custom]
        args = argv_of(sent, plain)
        add_ray_option(args, self.parameterAsString(parameters, RAY_CLUSTER, context))
        run = run_backend(spec.GENERATE.command, args, feedback)
        got = run.values
        feedback.pushInfo(f"{got.get(spec.GENERATED.key)} images generated, {got.get(spec.KEPT.key)} kept from "
                          f"earlier runs, {got.get(spec.SKIPPED_PROMPTS.key)} prompts skipped")
        if got.get(spec.PLAN_USED.key):
            feedback.pushInfo(f"memory plan {got[spec.PLAN_USED.key]}, {got.get(spec.IMAGES_PER_CALL.key)} "
                              f"image(s) per call, predicted peak {got.get(spec.PREDICTED_PEAK_GIB.key)} GiB")
        return {spec.GENERATED.key: got.get(spec.GENERATED.key, 0), spec.KEPT.key: got.get(spec.KEPT.key, 0),
                spec.GENERATIONS.key: run.path(spec.GENERATIONS.key), spec.MANIFEST.key: run.path(spec.MANIFEST.key)}


class ImportGeneratedAlgorithm(GeoFidelityAlgorithm):
    GROUP = "generate"
    def name(self):
        return "import_generated"

    def displayName(self):  # noqa: N802
        return "3b · Import a folder of generated images"

    def shortHelpString(self):  # noqa: N802
        return ("For generators outside the tool: reads {condition}/{segment_id}/{sample}.jpg (or "
                "{model}/{condition}/… when no model name is given), checks conditions and segment ids against "
                "the store, and records the images (seeds marked missing unless a prompts.csv sidecar gives them).")

    def createInstance(self):  # noqa: N802
        return ImportGeneratedAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        add_parameters(self, spec.IMPORT_GENERATED)

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``import-generated`` in the backend process (docs/backend-protocol.md)."""
        from geofidelity_plugin.qgis_side.processing_spec import command_line

        args, _ = command_line(self, spec.IMPORT_GENERATED, parameters, context)
        run = run_backend(spec.IMPORT_GENERATED.command, args, feedback)
        images = run.values.get(spec.IMAGES.key, 0)
        feedback.pushInfo(f"{images} images imported for {', '.join(run.values.get(spec.MODELS.key) or [])}")
        return {spec.IMAGES.key: images}
