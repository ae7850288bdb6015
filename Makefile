# paperrank: rank a conference's accepted papers within themes from their public reviews.
# `make demo` runs the whole job offline on a synthetic venue; `make test` runs every test.
# Both create or update .venv first, so either works as the first command on a new machine.

PYTHON ?= python3.11
VENV ?= .venv
BIN := $(abspath $(VENV))/bin
PY := $(BIN)/python
PAPERRANK := $(BIN)/paperrank
DBT := $(BIN)/dbt

# The working warehouse: loaders and dbt write it, the audit runs on it (PAPERRANK_DB).
export PAPERRANK_DB ?= warehouse/paperrank.duckdb
# The published warehouse analysts open read-only: the last audited build (PAPERRANK_PUBLISHED_DB).
export PAPERRANK_PUBLISHED_DB ?= warehouse/published.duckdb
export DBT_PROFILES_DIR := $(CURDIR)

## Settings (make rank TAXONOMY=iclr2026 TOP_N=10 ...); every one reaches dbt as a checked var.
## Empty: dbt_project.yml's default, the one home of every default (its vars and setting_rules).
TAXONOMY ?=
TOP_N ?=
WEIGHT_SET ?=
# rank this venue only (raw.papers.venue); empty: every venue, each ranked separately
VENUE ?=
# use labels of this model only; empty: the latest label of any model
LABEL_MODEL ?=
# review-form profile the raw checks use for every venue (default: found from each venue's name)
PROFILE ?=
# where a venue's CSVs and report page go; empty: the venue's own folders, exports/<venue>/ and
# output/report/<venue>/ (with output/report/index.html listing every venue's page)
EXPORT_DIR ?=
REPORT_DIR ?=
# papers each expert is asked to pick per category, the report's counter (empty: 5)
PICK_QUOTA ?=
# the similarity from which two picks that are each other's related papers get a notice (empty: 0.4)
NEAR_DUPLICATE ?=
# yes: CSVs start with a UTF-8 byte order mark, so Excel shows accents right
CSV_BOM ?= no
# what make build/rank/publish build, audit and publish besides the ranking: all, none (the
# article's method alone) or a comma list of uncertainty,rank_sets,outcomes,picks,related;
# empty: all (docs/dbt_project.md, "Parts")
EXTRAS ?=
SETTINGS = $(if $(TAXONOMY),--taxonomy "$$TAXONOMY") $(if $(TOP_N),--top-n "$$TOP_N") \
    $(if $(WEIGHT_SET),--weight-set "$$WEIGHT_SET") \
    --venue "$$VENUE" --label-model "$$LABEL_MODEL" --profile "$$PROFILE" \
    --engine "$$ENGINE"
BOM_FLAG = $(if $(filter yes true 1,$(CSV_BOM)),--bom)
OUTPUT_DIRS = $(if $(EXPORT_DIR),--export-dir "$$EXPORT_DIR") $(if $(REPORT_DIR),--report-dir "$$REPORT_DIR")
# The rank-uncertainty and weight-sensitivity settings (docs/rank-uncertainty.md), each passed
# only when set: e.g. make rank RANK_UNCERTAINTY_METHOD=normal WEIGHT_DRAWS=50; empty: dbt_project.yml's
SETTINGS += $(if $(RANK_UNCERTAINTY_METHOD),--rank-uncertainty-method "$$RANK_UNCERTAINTY_METHOD")
SETTINGS += $(if $(RANK_UNCERTAINTY_REPLICATES),--rank-uncertainty-replicates "$$RANK_UNCERTAINTY_REPLICATES")
SETTINGS += $(if $(RANK_UNCERTAINTY_SEED),--rank-uncertainty-seed "$$RANK_UNCERTAINTY_SEED")
SETTINGS += $(if $(RANK_UNCERTAINTY_ROW_BUDGET),--rank-uncertainty-row-budget "$$RANK_UNCERTAINTY_ROW_BUDGET")
SETTINGS += $(if $(RANK_BAND_SECURE),--rank-band-secure "$$RANK_BAND_SECURE")
SETTINGS += $(if $(RANK_BAND_OUTSIDE),--rank-band-outside "$$RANK_BAND_OUTSIDE")
SETTINGS += $(if $(WEIGHT_DRAWS),--weight-draws "$$WEIGHT_DRAWS")
SETTINGS += $(if $(WEIGHT_CONCENTRATION),--weight-concentration "$$WEIGHT_CONCENTRATION")
SETTINGS += $(if $(WEIGHT_TAU_MAX_PAPERS),--weight-tau-max-papers "$$WEIGHT_TAU_MAX_PAPERS")
SETTINGS += $(if $(EXTRAS),--extras "$$EXTRAS")
# related papers and the label audit (docs/related-papers.md), each passed only when set
SETTINGS += $(if $(RELATED_PAPERS),--related-papers "$$RELATED_PAPERS")
SETTINGS += $(if $(LABEL_AUDIT_THRESHOLD),--label-audit-threshold "$$LABEL_AUDIT_THRESHOLD")
UNCERTAINTY_SETTINGS = RANK_UNCERTAINTY_METHOD RANK_UNCERTAINTY_REPLICATES RANK_UNCERTAINTY_SEED RANK_UNCERTAINTY_ROW_BUDGET RANK_BAND_SECURE RANK_BAND_OUTSIDE WEIGHT_DRAWS WEIGHT_CONCENTRATION WEIGHT_TAU_MAX_PAPERS

# The engine dbt builds on: duckdb (default) or spark (dbt-spark in a local Spark session; its
# extra is installed on first use, Java 17 must be there). On spark the raw layer is exported
# from DuckDB first (spark-raw), and the marts are Parquet under PAPERRANK_SPARK_WAREHOUSE.
ENGINE ?= duckdb
ifeq ($(filter $(ENGINE),duckdb spark),)
$(error ENGINE must be duckdb or spark, not "$$ENGINE")
endif
export PAPERRANK_SPARK_WAREHOUSE ?= warehouse/spark
ENGINE_SETUP := $(if $(filter spark,$(ENGINE)),setup-spark)

DEMO_DIR ?= output/demo
DEMO_DB ?= warehouse/demo.duckdb
DEMO_PUBLISHED_DB ?= warehouse/demo_published.duckdb
# papers of the synthetic venue (empty: ICML 2026's 6,352)
DEMO_PAPERS ?=

# Every variable a recipe hands to paperrank reaches it as the very text typed: each is taken
# unexpanded (`$(value ...)`: a `$` stays a `$`), exported, and named in the recipes as a shell
# variable in double quotes ("$$VENUE"), which the shell neither splits nor expands again (quotes,
# `$`, backticks and spaces arrive unchanged); a value pasted into the recipe's text ("$(VENUE)")
# would be read by the shell, its quotes dropped and its backticks run.
PASSED_VARS = TAXONOMY TOP_N WEIGHT_SET VENUE LABEL_MODEL PROFILE EXPORT_DIR REPORT_DIR PICK_QUOTA NEAR_DUPLICATE \
    CSV_BOM EXTRAS ENGINE $(UNCERTAINTY_SETTINGS) RELATED_PAPERS LABEL_AUDIT_THRESHOLD VENUE_ID \
    OPENREVIEW_URL LLM_URL SNAPSHOT_DIR REPORT_DB DEMO_DIR DEMO_DB DEMO_PUBLISHED_DB DEMO_PAPERS \
    BENCH_SCALES PAPERRANK_DB PAPERRANK_PUBLISHED_DB
$(foreach v,$(PASSED_VARS),$(eval override $(v) := $$(value $(v))))
export $(PASSED_VARS)

# a var's default as dbt_project.yml sets it, read when make help shows it (the file is its one home)
PROJECT_VAR = $(shell sed -n 's/^  $(1): *//p' dbt_project.yml)

.PHONY: help setup setup-spark lint-ruff lint-mypy lint-sql spark-raw demo run rank report build publish publications rollback export validate validate-raw \
        validate-marts lint test test-fast test-times test-python docs bench bench-million bench-rank rank-sets-sql clean

help: ## the targets and the settings with their current values
	@echo "targets (make <target>):"
	@sed -n 's/^\([a-z-]*\):.*## \(.*\)/  \1\t\2/p' $(MAKEFILE_LIST) | expand -t 18
	@echo "settings (current value):"
	@echo "  TAXONOMY=$${TAXONOMY:-$(call PROJECT_VAR,taxonomy)}  TOP_N=$${TOP_N:-$(call PROJECT_VAR,top_n)}  WEIGHT_SET=$${WEIGHT_SET:-$(call PROJECT_VAR,weight_set)}  VENUE=$$VENUE  (the first three when empty: dbt_project.yml's)"
	@echo "  LABEL_MODEL=$$LABEL_MODEL  PROFILE=$$PROFILE  ENGINE=$$ENGINE  EXTRAS=$$EXTRAS (empty: all)  EXPORT_DIR=$$EXPORT_DIR  REPORT_DIR=$$REPORT_DIR  PICK_QUOTA=$$PICK_QUOTA  CSV_BOM=$$CSV_BOM"
	@echo "  PAPERRANK_DB=$$PAPERRANK_DB  PAPERRANK_PUBLISHED_DB=$$PAPERRANK_PUBLISHED_DB"
	@echo "  uncertainty (empty: dbt_project.yml's):$(foreach v,$(UNCERTAINTY_SETTINGS), $(v)=$$$(v))"
	@echo "  related (empty: dbt_project.yml's): RELATED_PAPERS=$$RELATED_PAPERS LABEL_AUDIT_THRESHOLD=$$LABEL_AUDIT_THRESHOLD"
	@echo "  VENUE_ID=$$VENUE_ID  OPENREVIEW_URL=$$OPENREVIEW_URL  LLM_URL=$$LLM_URL  SNAPSHOT_DIR=$$SNAPSHOT_DIR"
	@echo "every command: .venv/bin/paperrank --help (docs/cli.md)"

setup: $(VENV)/.installed ## create or update .venv with the project and its dev tools
# `paperrank rank-sets`' SQL, rendered from macros/ into the gitignored .cache/rank-sets/<hash>/
# unless a folder of the macros' hash is there (a check of milliseconds; the command checks too)
	@$(PY) -m paperrank.ranksets.cache

# uv installs what pip would (the same packages and versions: `pip freeze` differs by uv alone),
# downloading in parallel and compiling the bytecode on both cores: a fresh machine's set-up with
# nothing cached took 47 s with pip and 20 s with uv; the Spark extra 36 s and 25 s. The bytecode
# is compiled here, not left to the first import: where PYTHONDONTWRITEBYTECODE is set (as in the
# environment of this project's machines) Python never writes it, so every process would compile
# every module it imports, again (tried: the set-up 12 s shorter, the suite about a minute longer).
# --no-cache: uv's cache kept nothing that saved time here and grew without end. The registry's
# answers let uv reuse no build of pyspark (published only as a source distribution), so each
# install fetched and built it again and left 2.3 GB more in ~/.cache/uv: 55 GB after two days of
# fresh clones, which filled the disk the suite then ran on ("No space left on device"). Measured
# on a fresh clone, the set-up and the Spark extra: 16.6 s + 20.5 s with the cache, 15.3 s +
# 21.8 s without, and nothing left behind.
UV := $(BIN)/uv
UV_VERSION ?= 0.13.9
UV_INSTALL = $(UV) pip install --python $(PY) --quiet --compile-bytecode --no-cache

$(VENV)/.installed: pyproject.toml $(wildcard */__init__.py)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet 'uv==$(UV_VERSION)'
	$(UV_INSTALL) -e '.[dev]'
	touch $@

## The Spark engine's extra (dbt-spark, pyspark: ~500 MB); ENGINE=spark installs it when missing.
setup-spark: $(VENV)/.installed-spark ## install the Spark engine's extra (dbt-spark, pyspark; Java 17 needed)

$(VENV)/.installed-spark: $(VENV)/.installed
	$(UV_INSTALL) -e '.[dev,spark]'
	touch $@

## The DuckDB raw layer -> Parquet -> Spark tables raw.* (make build ENGINE=spark runs it first).
spark-raw: setup-spark ## copy the DuckDB raw layer to Parquet and register it as Spark tables
	$(PAPERRANK) spark-raw

## The main job, offline: synthetic ICML-sized venue -> keyword labels -> checks -> dbt -> publish -> CSVs.
demo: setup ## the main job offline: synthetic venue, keyword labels, checks, dbt, publish, CSVs
	@PAPERRANK_DB="$$DEMO_DB" PAPERRANK_PUBLISHED_DB="$$DEMO_PUBLISHED_DB" $(PAPERRANK) demo --out "$$DEMO_DIR" $(if $(REPORT_DIR),--report-dir "$$REPORT_DIR") \
	    $(if $(DEMO_PAPERS),--papers "$$DEMO_PAPERS")

## A real venue end to end: fetch from OpenReview, classify with the LLM, rank, export.
##   make run VENUE_ID=ICML.cc/2026/Conference VENUE="ICML 2026" TAXONOMY=icml2026
##   OPENREVIEW_URL and LLM_URL point the fetch and the classifier at other endpoints;
##   SNAPSHOT_DIR moves the snapshots (default snapshots/<venue>/).
run: setup ## a real venue end to end: fetch from OpenReview, classify with the LLM, rank
	@test -n "$$VENUE_ID" || (echo "usage: make run VENUE_ID=ICML.cc/2026/Conference VENUE='ICML 2026' [TAXONOMY=icml2026]"; exit 2)
	$(PAPERRANK) classify check $(if $(LLM_URL),--base-url "$$LLM_URL")
	$(PAPERRANK) ingest openreview --venue-id "$$VENUE_ID" --venue "$${VENUE:-$$VENUE_ID}" \
	    $(if $(OPENREVIEW_URL),--base-url "$$OPENREVIEW_URL") \
	    $(if $(SNAPSHOT_DIR),--snapshot-dir "$$SNAPSHOT_DIR")
	$(PAPERRANK) classify run $(if $(TAXONOMY),--taxonomy "$$TAXONOMY") $(if $(LLM_URL),--base-url "$$LLM_URL")
	$(MAKE) --no-print-directory rank

## Everything after loading, in one process: raw checks, dbt build, mart checks, marts agree,
## publish to PAPERRANK_PUBLISHED_DB, one CSV per category from the published build.
rank: setup $(ENGINE_SETUP) ## everything after loading: checks, dbt build, audit, publish, CSVs, report
	$(PAPERRANK) rank $(SETTINGS) $(OUTPUT_DIRS) $(BOM_FLAG) $(if $(PICK_QUOTA),--pick-quota "$$PICK_QUOTA") \
	    $(if $(NEAR_DUPLICATE),--near-duplicate "$$NEAR_DUPLICATE")

## The experts' report: one self-contained HTML page per venue, from the published marts
##   (PAPERRANK_PUBLISHED_DB; REPORT_DB=path reads another warehouse). make rank writes it too.
report: setup ## the experts' HTML report of the published build, one page per venue
	$(PAPERRANK) report $(if $(REPORT_DIR),--out-dir "$$REPORT_DIR") $(if $(VENUE),--venue "$$VENUE") \
	    $(if $(REPORT_DB),--db "$$REPORT_DB") $(if $(PICK_QUOTA),--pick-quota "$$PICK_QUOTA") \
	    $(if $(NEAR_DUPLICATE),--near-duplicate "$$NEAR_DUPLICATE")

## dbt build alone, in the working warehouse (publishes nothing); ENGINE=spark: on Spark.
build: setup $(ENGINE_SETUP) ## dbt build alone in the working warehouse (publishes nothing)
	$(PAPERRANK) build $(SETTINGS)

## Audit what make build left in the working warehouse and publish it (EXTRAS: what it built).
publish: setup $(ENGINE_SETUP) ## audit and publish what make build built (marts agree, mart checks)
	$(PAPERRANK) publish $(SETTINGS)

## The CSVs of the published build (the same export `make rank` ends with).
export: setup ## the CSVs of the published build
	$(PAPERRANK) export $(if $(EXPORT_DIR),--export-dir "$$EXPORT_DIR") $(if $(VENUE),--venue "$$VENUE") $(BOM_FLAG)

publications: setup ## list the kept publications and which one is published
	$(PAPERRANK) publications

## Publish a venue's previous build again (VENUE=...; may be left out when one venue is published),
## and its CSVs and report page; the other venues stay as they are.
rollback: setup ## publish a venue's previous build again (VENUE=...), with its CSVs and page
	$(PAPERRANK) rollback $(if $(VENUE),--venue "$$VENUE") $(OUTPUT_DIRS)

validate: setup validate-raw validate-marts ## the great-expectations checks on the raw layer and the marts

validate-raw: setup ## the great-expectations checks on the raw layer (before dbt)
	$(PAPERRANK) validate --stage raw $(if $(TAXONOMY),--taxonomy "$$TAXONOMY") $(if $(TOP_N),--top-n "$$TOP_N") \
	    $(if $(PROFILE),--profile "$$PROFILE")

validate-marts: setup ## the great-expectations checks on the marts (after dbt)
	$(PAPERRANK) validate --stage marts $(if $(TAXONOMY),--taxonomy "$$TAXONOMY") $(if $(TOP_N),--top-n "$$TOP_N") \
	    --engine "$$ENGINE"

# The linters side by side: mypy runs on one core, sqlfluff one process a core (.sqlfluff), so
# together they keep both cores busy; each one's output comes out whole (--output-sync), and any
# linter's failure fails make lint.
LINTERS := lint-ruff lint-mypy lint-sql
LINT_JOBS = $(MAKE) --no-print-directory -j4 --output-sync=target

lint: setup ## ruff, mypy and sqlfluff, side by side
	@$(LINT_JOBS) $(LINTERS)

lint-ruff: setup
	$(BIN)/ruff check paperrank bench sqlfluff_context tests/python

lint-mypy: setup
	$(BIN)/mypy

lint-sql: setup
	$(BIN)/sqlfluff lint models macros tests/generic tests/singular

# Where Java is installed, `make test` also installs the Spark extra, so that it runs every test;
# without Java the Spark tests skip and say why (.ci/run installs Java first).
HAVE_JAVA := $(shell command -v java >/dev/null 2>&1 && echo yes)

# pytest on both cores (pytest-xdist), a test module whole on one worker (--dist loadfile): the
# Spark module's one Spark session and every module-scoped build are made once. (--dist loadgroup
# groups nothing under pytest 9.2, whose node ids xdist 3.8 can no longer tag with the group.)
# Modules go out in collection order (--no-loadscope-reorder, not by their number of tests), and
# conftest.py collects the longest first, by docs/tests.md's table of module times.
TEST_WORKERS ?= 2
PYTEST_XDIST = -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# every run of make test keeps each test's seconds (JUnit XML), so make test-times can turn the
# last run into docs/tests.md's table of module times without running the suite again
TEST_TIMES ?= output/test-times.xml

# make test runs the linters beside the tests: linted first, they left a core idle for about a
# third of their minute and a half (mypy on one core, sqlfluff's two processes not always busy,
# uv installing the Spark extra), and the suite keeps both cores busy from its start. Each
# linter's output comes out whole when it ends (make lint's --output-sync), pytest's as it runs;
# a linter's failure fails make test once the tests end too.
test: setup ## lint and every test, side by side on both cores (Spark's too where Java is installed)
	@$(LINT_JOBS) $(LINTERS) & linters=$$!; \
	$(MAKE) --no-print-directory test-python; tested=$$?; \
	wait $$linters || { echo "make test: a linter failed (its output is above)" >&2; exit 1; }; \
	exit $$tested

# the tests alone, no lint (the Spark extra installed first where Java is)
test-python: setup $(if $(HAVE_JAVA),setup-spark) ## every test on both cores, without the linters
	@mkdir -p $(dir $(TEST_TIMES))
	$(BIN)/pytest $(PYTEST_XDIST) --junitxml=$(TEST_TIMES)

test-fast: setup ## every test not marked e2e (none starts dbt): the quick loop while editing
	$(BIN)/pytest -m "not e2e" $(PYTEST_XDIST)

## docs/tests.md's table of each module's time, from the last make test's JUnit XML (run make test
## first; on a fresh clone for the table the docs keep); bench/suite_times.py reads --durations=0 too.
test-times: ## docs/tests.md's table of module times, from the last make test
	@test -f "$(TEST_TIMES)" || { echo "error: no $(TEST_TIMES): run make test first" >&2; exit 2; }
	$(PY) -m bench.suite_times $(TEST_TIMES) --update docs/tests.md

rank-sets-sql: setup ## render paperrank rank-sets' SQL from macros/ now, unless it is cached (the command renders it on first use too)
	$(PY) -m paperrank.ranksets.cache

docs: setup ## dbt docs as one static page: target/static_index.html opens from file://
	$(PAPERRANK) dbt $(SETTINGS) -- docs generate --static
	@echo "open $(or $(DBT_TARGET_PATH),target)/static_index.html in a browser (no server needed)"

bench: setup ## the ranking, uncertainty, rank-set, outcome, related-papers, operator-command and report-page benchmarks (bench/README.md); BENCH_SCALES=1m-short,... picks scales
	$(PY) -m bench $(if $(BENCH_SCALES),--scales "$$BENCH_SCALES")
	$(PY) -m bench.uncertainty
	$(PY) -m bench.rank_sets --command 15,10000,100000 --runs 3
	$(PY) -m bench.rank_sets --command 1000000 --runs 1
	$(PY) -m bench.rank_sets --scales 1m-short,1m-many --runs 2
	$(PY) -m bench.outcomes --synthetic 1000000
	$(PY) -m bench.related
	$(PY) -m bench.pipeline --runs 3
	@if [ -f "$$PAPERRANK_PUBLISHED_DB" ]; then \
	    $(PY) -m paperrank.report.bench --db "$$PAPERRANK_PUBLISHED_DB" && \
	    $(PY) -m bench.rank_sets --db "$$PAPERRANK_PUBLISHED_DB" && \
	    $(PY) -m bench.outcomes --db "$$PAPERRANK_DB"; \
	else echo "report-page, rank-set and outcome benchmarks of a real build skipped: no published build at $$PAPERRANK_PUBLISHED_DB (make rank first)"; fi

# papers of the million-paper bench's venues (10k, 100k or 1M) and its data shapes (short, long,
# twenty; default all): bench/million.py, bench/million.md
SIZE ?= 1M
SHAPES ?=
bench-million: setup ## the ranking path against one hand-written statement at SIZE papers (10k, 100k, 1M); SHAPES=short,long,twenty
	$(PY) -m bench.million --size "$(SIZE)" $(if $(SHAPES),--shapes "$(SHAPES)")

## make rank against dbt build alone on the real ICLR 2026 data (target: within 2x).
bench-rank: setup ## make rank against dbt build alone on the real ICLR 2026 data
	$(PY) -m bench.rank_bench

clean: ## remove dbt's target and logs, outputs, exports and the demo warehouses
	rm -rf target logs output exports exports.versions "$$DEMO_DB" "$$DEMO_PUBLISHED_DB" "$$DEMO_PUBLISHED_DB.versions"
