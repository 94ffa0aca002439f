"""``geofidelity:models`` — the model manager (list, download, verify, remove), run by the backend
process (``models``). Downloads show byte progress, can be cancelled and resume where they
stopped; offline, the error lists the models missing and how to get them. A token for gated
models comes from a QGIS authentication config and reaches the backend in ``HF_TOKEN`` only."""
from __future__ import annotations

from qgis.core import (Qgis, QgsProcessingException, QgsProcessingOutputNumber,
                       QgsProcessingParameterAuthConfig, QgsProcessingParameterEnum, QgsProcessingParameterString)

from geofidelity_plugin.qgis_side.processing_spec import parameter, values
from geofidelity_plugin.spec import models as spec
from geofidelity_plugin.spec.models import ACTIONS
from geofidelity_plugin.spec.options import argv

from .algorithm import GeoFidelityAlgorithm
from .common import advanced, run_backend, user_errors
from .fetch_mapillary import token_from_authcfg


class ModelsAlgorithm(GeoFidelityAlgorithm):
    GROUP = "setup"
    ACTION, MODELS, MODELS_DIR, AUTH, OUTPUT = "ACTION", "MODELS", "MODELS_DIR", "AUTH", "OUTPUT"

    def name(self):
        return "models"

    def displayName(self):  # noqa: N802
        return "0 · Models (list, download, verify, remove)"

    def shortHelpString(self):  # noqa: N802
        return ("The models GeoFidelity uses, in the models folder (a Hugging Face cache): approximate download "
                "size, licence gate, revision and whether each is here. Download fetches the files the loaders "
                "read from the Hugging Face Hub with progress; cancel keeps what arrived and the next download goes "
                "on from there; every file is checked against the Hub's checksum. Nothing else in GeoFidelity "
                "downloads a model. Verify re-checks the files, remove deletes a model's folder. Gated models need "
                "their licence accepted on the model page and a token (authentication config: Basic with the token "
                "as password, or a 'token' entry). Names: " + ", ".join(spec.MODEL_NAMES)
                + ", or any hub id owner/name.")

    def createInstance(self):  # noqa: N802
        return ModelsAlgorithm()

    def initAlgorithm(self, config=None):  # noqa: N802
        from geofidelity_plugin.qgis_side.backend_settings import models_dir

        self.addParameter(QgsProcessingParameterEnum(self.ACTION, "Action", options=list(ACTIONS), defaultValue=0))
        models = QgsProcessingParameterString(self.MODELS, "Models (names or hub ids, separated by spaces or commas; "
                                                           "empty: all, for list and verify)", optional=True)
        self.addParameter(models)
        for opt in spec.MODELS.options:  # the models folder (default: the plugin's setting), the table
            param = parameter(opt)
            if opt.name == self.MODELS_DIR:
                param.setDefaultValue(models_dir() or None)
            if opt.name == self.OUTPUT:  # optional on the command line, always written here
                param.setFlags(param.flags() & ~Qgis.ProcessingParameterFlag.Optional)
                self.addParameter(advanced(QgsProcessingParameterAuthConfig(
                    self.AUTH, "Hugging Face token for gated models (authentication config)", optional=True)))
            self.addParameter(param)
        self.addOutput(QgsProcessingOutputNumber(spec.PRESENT.key, spec.PRESENT.label))

    @user_errors
    def processAlgorithm(self, parameters, context, feedback):  # noqa: N802
        """Runs ``models ACTION`` in the backend process (docs/backend-protocol.md); the token travels
        in the child's environment."""
        action = ACTIONS[self.parameterAsEnum(parameters, self.ACTION, context)]
        names = [n for n in self.parameterAsString(parameters, self.MODELS, context).replace(",", " ").split() if n]
        if action in spec.NAMED_ACTIONS and not names:
            raise QgsProcessingException(f"no model named for {action} — give names such as dinov2-base in Models "
                                         "(the list action shows them all)")
        plain = values(self, spec.MODELS, parameters, context)
        args = [action, *names, *argv(spec.MODELS, plain)]
        token = token_from_authcfg(self.parameterAsString(parameters, self.AUTH, context))
        # without a config the backend reads HF_TOKEN from the environment it inherits
        run = run_backend(spec.MODELS.command, args, feedback, env={"HF_TOKEN": token} if token else None)
        rows = run.values.get(spec.MODELS_TABLE.key) or []
        for row in rows:
            feedback.pushInfo(f"{row['name']}: {row['status']}" + (f" — {row['path']}" if row.get("path") else "")
                              + (f" ({row['note']})" if row.get("note") else ""))
        return {self.OUTPUT: run.path(spec.TABLE.key) or plain[self.OUTPUT],
                spec.PRESENT.key: sum(1 for row in rows if row.get("status") == "present")}
