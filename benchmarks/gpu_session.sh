#!/bin/bash
# The checks of a GPU node in one command, each under its own time limit, in the order
# given; a part that would not fit in what is left of LIMIT seconds (default 570) is
# skipped and said so. Every figure is a `name=value` line; the whole output also goes to
# $OUT/session.log (OUT: default /tmp/gpu-session).
#
# usage: bash benchmarks/gpu_session.sh [--smoke] [PART ...]
#   parts: score ratios precision naive batches finetune profile vectors align pytest featcache
#   (default: all, in that order); --smoke: the CI sizes, for a dry run on a CPU.
# A node without a package index: a folder .whl of wheels in the checkout (what the
# node's Python lacks of pyproject.toml's pins) is installed into /tmp/site first.
# Parts and their limits (s) at full size, measured on an H100 (docs/workflow.md,
# "Measured on a GPU"): score 170 (took about 100 with the model's build), ratios 170,
# precision 80 (53), naive 200 (about 125), batches 120, finetune 420 (ten trainings of
# 300 steps at about 25 s each, and a compiled one), profile 120, vectors 60 (14),
# align 150 (108), pytest 150, featcache 90 (batches and profile not yet run there;
# batches, score, naive and precision build the mBERT-sized model in WORK first, unless
# an earlier call on the node did). What is still owed, in two calls of a session's
# 900 s (the node's start takes about 30 s of it):
#   LIMIT=560 bash benchmarks/gpu_session.sh ratios batches profile align
#   LIMIT=250 bash benchmarks/gpu_session.sh pytest featcache
# and in a later session: finetune (the full-size figures and the compiled run).
set -u
START=$(date +%s)
LIMIT=${LIMIT:-570}
OUTDIR=${OUT:-/tmp/gpu-session}
mkdir -p "$OUTDIR"
LOG=$OUTDIR/session.log
SMOKE=""
PARTS=()
for arg in "$@"; do
  if [ "$arg" = "--smoke" ]; then SMOKE=--smoke; else PARTS+=("$arg"); fi
done
[ ${#PARTS[@]} -eq 0 ] && PARTS=(score ratios precision naive batches finetune profile vectors align pytest featcache)
if [ -d .whl ] && [ -z "$SMOKE" ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 3
  export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=$PWD/src:$PWD/benchmarks:${PYTHONPATH:-}
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
PY=${PY:-python3}
WORK=${WORK:-/tmp/gpu-bench}  # the benchmark's model, kept between calls on one node
mkdir -p "$WORK"
{
  nvidia-smi -L 2>&1
  echo "cores=$(nproc)"
  $PY -c "import torch, transformers, pandas, tokenizers, numpy, scipy
print('torch', torch.__version__, 'transformers', transformers.__version__, 'pandas',
      pandas.__version__, 'tokenizers', tokenizers.__version__, 'numpy', numpy.__version__,
      'scipy', scipy.__version__, 'cuda', torch.cuda.is_available())"
} 2>&1 | tee -a "$LOG"

run_part() {
  local name=$1 budget=$2
  shift 2
  local left=$((LIMIT - ($(date +%s) - START)))
  if [ "$left" -lt "$budget" ]; then
    echo "== skip $name (${left} s left, it is given ${budget} s)" | tee -a "$LOG"
    return
  fi
  echo "== $name $(date +%T)" | tee -a "$LOG"
  timeout "$budget" "$@" 2>&1 | tee -a "$LOG" | grep -E "^[a-z_0-9]+=|passed|failed|rror"
  echo "== $name rc=${PIPESTATUS[0]} at $(($(date +%s) - START)) s" | tee -a "$LOG"
}

if [ -n "$SMOKE" ]; then WORDS=5000 ALIGN_SIZE=--quick BIOS=500; else WORDS=50000 ALIGN_SIZE="--words 50000" BIOS=2000; fi
DEVICE=$($PY -c "import torch; print('cuda' if torch.cuda.is_available() else 'cpu')")
TESTS=(tests/unit/mlm/test_determinism.py tests/unit/mlm/test_precision.py
  tests/unit/mlm/test_device_waits.py tests/unit/mlm/test_mlm_train.py
  tests/unit/bios/test_bios_classifier.py tests/unit/cli/test_cli_score.py
  tests/integration/test_gpu_benchmark.py)
for part in "${PARTS[@]}"; do
  case $part in
    score) run_part score 170 $PY benchmarks/gpu.py $SMOKE --only score --workdir "$WORK" ;;
    ratios) run_part ratios 170 $PY benchmarks/gpu.py $SMOKE --only ratios --workdir "$WORK" ;;
    precision) run_part precision 80 $PY benchmarks/gpu.py $SMOKE --only precision --workdir "$WORK" ;;
    naive) run_part naive 200 $PY benchmarks/gpu.py $SMOKE --only naive --workdir "$WORK" ;;
    batches) run_part batches 120 $PY benchmarks/gpu.py $SMOKE --only batches --workdir "$WORK" ;;
    finetune) run_part finetune 420 $PY benchmarks/gpu.py $SMOKE --only finetune --workdir "$WORK" ;;
    profile) run_part profile 120 $PY benchmarks/gpu.py $SMOKE --only profile --workdir "$WORK" ;;
    vectors) run_part vectors 60 $PY benchmarks/vectors.py --words $WORDS --dim 300 --repeat 3 ;;
    align) run_part align 150 $PY benchmarks/embeddings.py $ALIGN_SIZE --reread --reread-repeat 2 --device "$DEVICE" --threads "$(nproc)" ;;
    pytest) run_part pytest 150 $PY -m pytest -q -p no:cacheprovider -o addopts="" "${TESTS[@]}" ;;
    featcache) run_part featcache 90 $PY benchmarks/bios.py --part featcache --bios $BIOS ;;
    *) echo "unknown part: $part (parts: score ratios precision naive batches finetune profile vectors align pytest featcache)" >&2; exit 2 ;;
  esac
done
echo "== figures"
grep -E "^[a-z_0-9]+=" "$LOG"
echo "== done at $(($(date +%s) - START)) s"
