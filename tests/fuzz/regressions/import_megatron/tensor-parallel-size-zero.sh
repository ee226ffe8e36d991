#!/bin/bash
# A launch written by hand in the layout of Megatron-LM's examples/gpt3 scripts: variables,
# arrays, line continuations, an unknown flag and one the planner does not model.
GPUS_PER_NODE=8
NUM_NODES=4
CHECKPOINT_PATH="/ckpt/my run"
DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
    --master_addr ${MASTER_ADDR:-localhost}
    --master_port 6000
)
GPT_MODEL_ARGS=(
    --num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336
    --num-attention-heads 32 --group-query-attention --num-query-groups 8
    --seq-length 8192 --max-position-embeddings 8192 --vocab-size 128256
    --swiglu --untie-embeddings-and-output-weights --normalization RMSNorm
)
TRAINING_ARGS=(
    --micro-batch-size 1 --global-batch-size 256 --train-iters 1000
    --bf16 --lr 3e-0 --recompute-granularity selective
    --my-custom-flag 7
    --manual-gc
)
MODEL_PARALLEL_ARGS=(
	--tensor-model-parallel-size 0
	--pipeline-model-parallel-size 2î	--sequence-parallel
	--use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather
)
export CUDA_DEVICE_MAX_CONNECTIONS=1
torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    ${GPT_MODEL_ARGS[@]} \
    ${TRAINING_ARGS[@]} \
    ${MODEL_PARALLEL_ARGS[@]} \
    --save "$CHECKPOINT_PATH" --load "$CHECKPOINT_PATH"
