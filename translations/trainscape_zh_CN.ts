<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CoreMessage</name>
    <message>
        <location filename="../models/CoreMessages.cpp" line="20"/>
        <source>does not fit: stage %1 needs %2 of %3</source>
        <translation>放不下：阶段 %1 需要 %2，容量为 %3</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="21"/>
        <source>plan uses %1% of memory: fragmentation risk</source>
        <translation>方案占用 %1% 的显存：有碎片化风险</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="22"/>
        <source>the pipeline schedule simulation did not complete</source>
        <translation>流水线调度模拟未能完成</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="23"/>
        <source>expert imbalance factor assumed 1.1 (busiest expert-parallel rank over the mean; DeepSeek-V3 report, arXiv 2412.19437)</source>
        <translation>专家不均衡系数假定为 1.1（最忙的专家并行 rank 与平均值之比；DeepSeek-V3 技术报告，arXiv 2412.19437）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="24"/>
        <source>expert-parallel all-to-alls counted as exposed: set parallelism.overlap.ep to hide them behind another micro-batch&apos;s compute (DualPipe, Megatron-Core&apos;s --overlap-moe-expert-parallel-comm)</source>
        <translation>专家并行的 all-to-all 按未隐藏计算：设置 parallelism.overlap.ep 可将其隐藏在另一个微批次的计算之后（DualPipe，Megatron-Core 的 --overlap-moe-expert-parallel-comm）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="25"/>
        <source>parallelism.overlap.ep: only the all-to-all overlap is modelled; DualPipe&apos;s bidirectional pipeline schedule is not (the schedule stays %1)</source>
        <translation>parallelism.overlap.ep：只建模了 all-to-all 的重叠；DualPipe 的双向流水线调度未建模（调度仍为 %1）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="26"/>
        <source>network graph: %1: %2</source>
        <translation>网络拓扑图：%1：%2</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="27"/>
        <source>network graph: %1: %2 (collectives use the two-level model)</source>
        <translation>网络拓扑图：%1：%2（集合通信改用两级模型）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="28"/>
        <source>%1 has no measured matmul throughput (MAMF): borrowed from %2 (same dense peaks) and scaled by the power limits %3 W / %4 W = %5, for GEMMs and attention</source>
        <translation>%1 没有实测的矩阵乘吞吐（MAMF）：借用 %2 的数据（稠密峰值相同），并按功耗上限 %3 W / %4 W = %5 缩放，用于 GEMM 和注意力</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="29"/>
        <source>FP8 recipe &quot;delayed&quot; (TransformerEngine DelayedScaling, Megatron-LM&apos;s default): per-tensor scales from the amax history of earlier iterations, so each GEMM input is cast in one fused pass (row-wise and transposed copies); the linear layers&apos; GEMMs run in FP8 at the GPU&apos;s FP8 rate; attention, norms, embedding and output layer stay in BF16</source>
        <translation>FP8 方案“delayed”（TransformerEngine DelayedScaling，Megatron-LM 的默认值）：按张量的缩放因子取自先前迭代的 amax 历史，因此每个 GEMM 输入在一次融合的遍历中完成转换（按行与转置两份副本）；线性层的 GEMM 以 GPU 的 FP8 速率运行；注意力、归一化、嵌入层和输出层保持 BF16</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="30"/>
        <source>FP8 recipe &quot;tensorwise&quot; (per-tensor current scaling: TransformerEngine Float8CurrentScaling, torchao float8 tensorwise): each cast first reduces the tensor&apos;s amax, reading the input twice (6 instead of 4 bytes per element, two kernels); the amax all-reduce across sequence-parallel ranks is not counted; the linear layers&apos; GEMMs run in FP8 at the GPU&apos;s FP8 rate; attention, norms, embedding and output layer stay in BF16</source>
        <translation>FP8 方案“tensorwise”（按张量的即时缩放：TransformerEngine Float8CurrentScaling，torchao float8 tensorwise）：每次转换先归约张量的 amax，输入读取两次（每个元素 6 字节而非 4 字节，两个 kernel）；序列并行 rank 之间的 amax all-reduce 未计入；线性层的 GEMM 以 GPU 的 FP8 速率运行；注意力、归一化、嵌入层和输出层保持 BF16</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="31"/>
        <source>FP8 recipe &quot;blockwise&quot; (TransformerEngine Float8BlockScaling, DeepSeek-V3 sec. 3.3): FP32 scales per 1x128 tile of activations and gradients and per 128x128 weight block, found and applied in one fused pass per cast; this GPU applies block scales in its tensor cores (TransformerEngine runs the recipe as MXFP8 there: precision &quot;mxfp8&quot; is the native choice); the linear layers&apos; GEMMs run in FP8 at the GPU&apos;s FP8 rate; attention, norms, embedding and output layer stay in BF16</source>
        <translation>FP8 方案“blockwise”（TransformerEngine Float8BlockScaling，DeepSeek-V3 第 3.3 节）：激活与梯度每 1x128 分块、权重每 128x128 分块一个 FP32 缩放因子，每次转换在一次融合遍历中求出并应用；这款 GPU 在张量核心中应用分块缩放（TransformerEngine 在此以 MXFP8 运行该方案：精度“mxfp8”是原生选择）；线性层的 GEMM 以 GPU 的 FP8 速率运行；注意力、归一化、嵌入层和输出层保持 BF16</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="32"/>
        <source>FP8 recipe &quot;blockwise&quot; (TransformerEngine Float8BlockScaling, DeepSeek-V3 sec. 3.3): FP32 scales per 1x128 tile of activations and gradients and per 128x128 weight block, found and applied in one fused pass per cast; GEMMs at the per-tensor FP8 rate: the FP32 promotion every 128 elements overlaps the tensor-core work (DeepSeek-V3 sec. 3.3.2; DeepGEMM reaches ~1550 TFLOPS on H800), and no source gives a slowdown; the linear layers&apos; GEMMs run in FP8 at the GPU&apos;s FP8 rate; attention, norms, embedding and output layer stay in BF16</source>
        <translation>FP8 方案“blockwise”（TransformerEngine Float8BlockScaling，DeepSeek-V3 第 3.3 节）：激活与梯度每 1x128 分块、权重每 128x128 分块一个 FP32 缩放因子，每次转换在一次融合遍历中求出并应用；GEMM 按张量级 FP8 速率计算：每 128 个元素一次的 FP32 提升与张量核心的计算重叠（DeepSeek-V3 第 3.3.2 节；DeepGEMM 在 H800 上达到约 1550 TFLOPS），且没有资料给出减速幅度；线性层的 GEMM 以 GPU 的 FP8 速率运行；注意力、归一化、嵌入层和输出层保持 BF16</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="33"/>
        <source>offload transfers at %1 GB/s per GPU and direction (cluster.host.pcie_gb_s), one layer ahead of the compute</source>
        <translation>卸载传输按每 GPU 每方向 %1 GB/s 计（cluster.host.pcie_gb_s），比计算提前一层</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="34"/>
        <source>CPU optimizer step assumed host-memory-bandwidth-bound: %1 bytes per parameter at %2 GB/s per node (the datasheet peak) shared by %3 GPUs; no delayed parameter update (ZeRO-Offload, arXiv 2101.06840)</source>
        <translation>CPU 优化器步骤假定受主机内存带宽限制：每个参数 %1 字节，每节点 %2 GB/s（数据手册峰值），由 %3 个 GPU 共享；不使用延迟参数更新（ZeRO-Offload，arXiv 2101.06840）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="35"/>
        <source>NVMe at %1 GB/s read and %2 GB/s write per node shared by %3 GPUs; a drive&apos;s reads and writes take turns</source>
        <translation>NVMe 每节点读 %1 GB/s、写 %2 GB/s，由 %3 个 GPU 共享；同一块盘的读写轮流进行</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="36"/>
        <source>activation offload with pp &gt; 1: Megatron-Core&apos;s CPU offloading needs pp = 1 (Megatron Bridge docs, CPU offloading), and TransformerEngine&apos;s default offload schedule assumes all forwards before the backwards</source>
        <translation>pp &gt; 1 时卸载激活值：Megatron-Core 的 CPU 卸载要求 pp = 1（Megatron Bridge 文档，CPU offloading），而 TransformerEngine 默认的卸载调度假定所有前向都在反向之前</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="37"/>
        <source>activation offload to nvme: TransformerEngine, Megatron-Core and ZeRO-R offload activations to CPU memory only; modelled as CPU offload bounced on to the drives</source>
        <translation>激活值卸载到 NVMe：TransformerEngine、Megatron-Core 和 ZeRO-R 只能把激活值卸载到 CPU 内存；此处按 CPU 卸载再转存到硬盘建模</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="38"/>
        <source>optimizer offload: DeepSpeed ZeRO-1/2 reduce the gradients in every micro-batch before copying them out; the data-parallel time counts one reduction per step</source>
        <translation>优化器卸载：DeepSpeed ZeRO-1/2 在每个微批次都先归约梯度再拷出；数据并行时间按每步一次归约计算</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="39"/>
        <source>offloaded states need %1 GiB of host memory per node; the node&apos;s memory is unknown (cluster.host.memory_gib)</source>
        <translation>卸载的状态每节点需要 %1 GiB 主机内存；节点内存未知（cluster.host.memory_gib）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="40"/>
        <source>offloaded states need %1 GiB of host memory per node but the node has %2 GiB</source>
        <translation>卸载的状态每节点需要 %1 GiB 主机内存，但节点只有 %2 GiB</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="41"/>
        <source>offloaded states need %1 TB of NVMe per node; the node&apos;s drives are unknown (cluster.host.nvme_gib)</source>
        <translation>卸载的状态每节点需要 %1 TB NVMe；节点的硬盘未知（cluster.host.nvme_gib）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="42"/>
        <source>offloaded states need %1 TB of NVMe per node but the node has %2 TB</source>
        <translation>卸载的状态每节点需要 %1 TB NVMe，但节点只有 %2 TB</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="43"/>
        <source>no PUE given or catalogued: cooling not counted; set costs.pue</source>
        <translation>未给出 PUE，目录中也没有：未计入制冷；请设置 costs.pue</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="44"/>
        <source>GPU idle power assumed 10% of TDP (no sourced figure); set costs.gpu_idle_w</source>
        <translation>GPU 空闲功耗假定为 TDP 的 10%（无有出处的数据）；请设置 costs.gpu_idle_w</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="45"/>
        <source>host power not counted; set costs.host_w_per_node</source>
        <translation>未计入主机功耗；请设置 costs.host_w_per_node</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="46"/>
        <source>a node peaks at %1, above its rated maximum of %2: check costs.host_w_per_node and the GPU power fractions</source>
        <translation>单节点峰值功耗 %1，超过其额定最大值 %2：请检查 costs.host_w_per_node 和 GPU 功耗比例</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="47"/>
        <source>no cost: %1 ownership needs costs.%2</source>
        <translation>无法计算成本：%1 所有权模式需要 costs.%2</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="48"/>
        <source>owned: network capital not counted; set costs.network_capex_usd</source>
        <translation>自有设备：未计入网络投资；请设置 costs.network_capex_usd</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="49"/>
        <source>the run (%1 h) is longer than costs.carbon_csv (%2 h): the series was repeated</source>
        <translation>训练时长（%1 小时）超过 costs.carbon_csv 的长度（%2 小时）：该序列被循环使用</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="50"/>
        <source>costs.carbon_csv needs training.tokens: the start window is chosen for the whole run</source>
        <translation>costs.carbon_csv 需要 training.tokens：开始时间窗口是按整个训练选择的</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="51"/>
        <source>PUE assumed %1, new large facilities%2; set costs.pue</source>
        <translation>PUE 假定为 %1，新建大型数据中心%2；请设置 costs.pue</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="52"/>
        <source>grid carbon intensity assumed %1 gCO2/kWh, US average 2023%2; set costs.grid_gco2_kwh</source>
        <translation>电网碳强度假定为 %1 gCO2/kWh，2023 年美国平均值%2；请设置 costs.grid_gco2_kwh</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="53"/>
        <source>electricity assumed $%1/kWh, US industrial average 2023%2; set costs.electricity_usd_kwh</source>
        <translation>电价假定为 $%1/kWh，2023 年美国工业平均值%2；请设置 costs.electricity_usd_kwh</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="54"/>
        <source>GPU-hour price assumed $%1 (%2, %3)%4; set costs.gpu_hour_usd</source>
        <translation>GPU 小时价格假定为 $%1（%2，%3）%4；请设置 costs.gpu_hour_usd</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="55"/>
        <source>no sourced GPU-hour price for %1: set costs.gpu_hour_usd for the cost</source>
        <translation>%1 没有有出处的 GPU 小时价格：请设置 costs.gpu_hour_usd 以计算成本</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="56"/>
        <source>GPU idle power assumed %1 (%2% of TDP; no sourced figure); set costs.gpu_idle_w</source>
        <translation>GPU 空闲功耗假定为 %1（TDP 的 %2%；无有出处的数据）；请设置 costs.gpu_idle_w</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="57"/>
        <source>idle power %1 exceeds the GPU&apos;s TDP of %2</source>
        <translation>空闲功耗 %1 超过了 GPU 的 TDP %2</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="58"/>
        <source>GPU power by phase assumed idle + %1 (compute-bound), %2 (memory-bound), %3 (communicating) x (TDP - idle); no sourced training power; set costs.gpu_compute_fraction, gpu_memory_fraction, gpu_comm_fraction</source>
        <translation>各阶段 GPU 功耗假定为 空闲 + %1（计算受限）、%2（访存受限）、%3（通信）×（TDP − 空闲）；无有出处的训练功耗；请设置 costs.gpu_compute_fraction、gpu_memory_fraction、gpu_comm_fraction</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="59"/>
        <source>GPU power by phase measured on calibration profile %1: idle %2, compute-bound %3, memory-bound %4, communicating %5 (- = not measured); the power model draws idle + %6 (compute-bound), %7 (memory-bound), %8 (communicating) x (TDP - idle)</source>
        <translation>各阶段 GPU 功耗取自校准配置 %1 的实测值：空闲 %2、计算受限 %3、访存受限 %4、通信 %5（- 表示未测）；功耗模型按 空闲 + %6（计算受限）、%7（访存受限）、%8（通信）×（TDP − 空闲）计算</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="60"/>
        <source>host power assumed %1 per node: %2% of %3&apos;s %4 maximum less %5 x %6 GPUs%7; set costs.host_w_per_node</source>
        <translation>主机功耗假定为每节点 %1：%3 最大功耗 %4 减去 %5 × %6 GPU 后的 %2%%7；请设置 costs.host_w_per_node</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="61"/>
        <source>no server power catalogued for %1 x %2: host power not counted; set costs.host_w_per_node</source>
        <translation>目录中没有 %1 × %2 服务器的功耗：未计入主机功耗；请设置 costs.host_w_per_node</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="62"/>
        <source>network power assumed %1: switch-side optics only (%2 W per port%3, %4 ports, %5 tiers); switch and NIC chips not counted; set costs.network_w</source>
        <translation>网络功耗假定为 %1：仅计交换机侧光模块（每端口 %2 W%3，%4 个端口，%5 层）；未计入交换芯片和网卡芯片；请设置 costs.network_w</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="63"/>
        <source>/execution/fp8_attention: true is read but its effect is not modelled yet; the step time assumes attention in BF16</source>
        <translation>/execution/fp8_attention：已读取 true，但其影响尚未建模；步时按 BF16 注意力计算</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="64"/>
        <source>/execution/recompute_modules: a PyTorch-native recipe checkpoints by its op-level save list: the recompute time of these modules is modelled, but the activation memory follows that save list</source>
        <translation>/execution/recompute_modules：PyTorch 原生方案按其算子级保存列表做检查点：这些模块的重算时间已建模，但激活内存遵循该保存列表</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="65"/>
        <source>required key is missing</source>
        <translation>缺少必需的键</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="66"/>
        <source>must not be null</source>
        <translation>不能为 null</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="67"/>
        <source>%1 is out of range: expected an integer from %2 to %3</source>
        <translation>%1 超出范围：应为 %2 到 %3 之间的整数</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="68"/>
        <source>%1 is not a whole number: expected an integer from %2 to %3</source>
        <translation>%1 不是整数：应为 %2 到 %3 之间的整数</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="69"/>
        <source>%1 is out of range: expected a number from %2 to %3</source>
        <translation>%1 超出范围：应为 %2 到 %3 之间的数</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="70"/>
        <source>%1 is out of range: expected a number greater than %2 and at most %3</source>
        <translation>%1 超出范围：应为大于 %2 且不超过 %3 的数</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="71"/>
        <source>%1 is not valid: expected one of %2</source>
        <translation>%1 无效：应为以下之一：%2</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="72"/>
        <source>tp*pp*cp*dp = %1 but cluster.num_gpus = %2: the degrees must multiply to the GPU count</source>
        <translation>tp*pp*cp*dp = %1，但 cluster.num_gpus = %2：各并行度之积必须等于 GPU 数</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="73"/>
        <source>tp*pp*cp = %1*%2*%3 = %4 does not divide cluster.num_gpus = %5: choose degrees whose product divides the GPU count</source>
        <translation>tp*pp*cp = %1*%2*%3 = %4 不能整除 cluster.num_gpus = %5：请选择乘积能整除 GPU 数的并行度</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="74"/>
        <source>heads = %1 is not divisible by tp = %2</source>
        <translation>heads = %1 不能被 tp = %2 整除</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="75"/>
        <source>kv_heads = %1 and tp = %2 must divide one another</source>
        <translation>kv_heads = %1 与 tp = %2 必须一个整除另一个</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="76"/>
        <source>ffn_hidden = %1 is not divisible by tp = %2</source>
        <translation>ffn_hidden = %1 不能被 tp = %2 整除</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="77"/>
        <source>has no effect with tp = 1 (Megatron-LM turns it off)</source>
        <translation>tp = 1 时无效（Megatron-LM 会将其关闭）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="78"/>
        <source>ZeRO-3 with pp = %1: Megatron-LM and DeepSpeed refuse it (DeepSpeed&apos;s pipeline engine takes ZeRO 0 or 1); torchtitan runs FSDP with pipeline parallelism</source>
        <translation>ZeRO-3 且 pp = %1：Megatron-LM 和 DeepSpeed 拒绝此组合（DeepSpeed 的流水线引擎只接受 ZeRO 0 或 1）；torchtitan 可以同时运行 FSDP 与流水线并行</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="79"/>
        <source>experts = %1 is not divisible by ep = %2</source>
        <translation>experts = %1 不能被 ep = %2 整除</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="80"/>
        <source>etp*ep = %1*%2 must divide tp*cp*dp = %3</source>
        <translation>etp*ep = %1*%2 必须整除 tp*cp*dp = %3</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="81"/>
        <source>expert_ffn_hidden = %1 is not divisible by etp = %2</source>
        <translation>expert_ffn_hidden = %1 不能被 etp = %2 整除</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="82"/>
        <source>micro_batch = %1 exceeds global_batch = %2</source>
        <translation>micro_batch = %1 超过了 global_batch = %2</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="83"/>
        <source>global_batch = %1 is not divisible by dp*micro_batch = %2*%3 = %4</source>
        <translation>global_batch = %1 不能被 dp*micro_batch = %2*%3 = %4 整除</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="84"/>
        <source>vpp = %1 needs schedule &quot;interleaved&quot; or &quot;breadth-first&quot;, not &quot;%2&quot;</source>
        <translation>vpp = %1 需要“interleaved”或“breadth-first”调度，而不是“%2”</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="85"/>
        <source>the interleaved schedule needs vpp &gt;= 2 chunks per rank</source>
        <translation>交错调度要求每个 rank 的 vpp &gt;= 2 个分块</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="86"/>
        <source>vpp = %1 needs pp &gt; 1</source>
        <translation>vpp = %1 需要 pp &gt; 1</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="87"/>
        <source>only applies with recompute &quot;full&quot;</source>
        <translation>仅在重计算为“full”时适用</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="88"/>
        <source>%1 exceeds the %2 layers of the largest pipeline stage</source>
        <translation>%1 超过了最大流水线阶段的 %2 层</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="89"/>
        <source>seq_len = %1 is not divisible by cp = %2</source>
        <translation>seq_len = %1 不能被 cp = %2 整除</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="90"/>
        <source>seq_len is not divisible by 2*cp: causal load balancing of attention is not exact</source>
        <translation>seq_len 不能被 2*cp 整除：注意力的因果负载均衡不精确</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="91"/>
        <source>ep = %1 needs a mixture-of-experts model (model.moe)</source>
        <translation>ep = %1 需要混合专家模型（model.moe）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="92"/>
        <source>has no effect without model.moe</source>
        <translation>没有 model.moe 时无效</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="93"/>
        <source>not set: read as &quot;pytorch&quot; (FSDP2 or DeepSpeed on PyTorch modules) from parallelism.zero = %1; set &quot;megatron&quot; for Megatron-FSDP with Transformer Engine</source>
        <translation>未设置：根据 parallelism.zero = %1 推断为 &quot;pytorch&quot;（PyTorch 模块上的 FSDP2 或 DeepSpeed）；若为使用 Transformer Engine 的 Megatron-FSDP，请设为 &quot;megatron&quot;</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="94"/>
        <source>%1 GPUs do not fill whole nodes of %2</source>
        <translation>%1 个 GPU 填不满每节点 %2 个 GPU 的整数个节点</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="95"/>
        <source>%1 × %2</source>
        <translation>%1 块 %2</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="96"/>
        <source>%1 × %2 (a custom GPU)</source>
        <translation>%1 块 %2（自定义 GPU）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="97"/>
        <source>%1 of the pools&apos; GPUs are not used by parallelism.pipelines</source>
        <translation>资源池中有 %1 个 GPU 未被 parallelism.pipelines 使用</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="98"/>
        <source>pipeline %1, stage %2 on pool &apos;%3&apos; sets the step; the other replicas wait for it at the gradient reduction (Sailor, SOSP&apos;25: the slowest replica sets the iteration time)</source>
        <translation>流水线 %1 的阶段 %2（资源池 &apos;%3&apos;）决定步长；其他副本在梯度归约处等待它（Sailor，SOSP&apos;25：最慢的副本决定迭代时间）</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="99"/>
        <source>stage %1&apos;s gradient reduction spans pools %2: ring all-reduce at the slowest link on the ring, %3 GB/s per GPU</source>
        <translation>阶段 %1 的梯度归约跨越资源池 %2：环形 all-reduce 以环上最慢的链路运行，每 GPU %3 GB/s</translation>
    </message>
    <message>
        <location filename="../models/CoreMessages.cpp" line="100"/>
        <source>does not fit: pool &apos;%1&apos; needs %2 of %3</source>
        <translation>放不下：资源池 &apos;%1&apos; 需要 %2，容量为 %3</translation>
    </message>
</context>
<context>
    <name>EnumLabels</name>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="48"/>
        <source>FP32 (default)</source>
        <translation>FP32（默认）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="50"/>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="49"/>
        <source>Megatron-LM&apos;s default for bf16 training, torchtitan&apos;s mixed_precision_reduce</source>
        <translation>Megatron-LM 在 bf16 训练中的默认值，torchtitan 的 mixed_precision_reduce</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="51"/>
        <source>Megatron-LM --grad-reduce-in-bf16; Megatron-Bridge&apos;s performance recipes</source>
        <translation>Megatron-LM --grad-reduce-in-bf16；Megatron-Bridge 性能配方</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="6"/>
        <source>SwiGLU (gated, 3 matrices)</source>
        <translation>SwiGLU（门控，3 个矩阵）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="7"/>
        <source>Clamped SwiGLU (GPT-OSS, 3 matrices)</source>
        <translation>截断 SwiGLU（GPT-OSS，3 个矩阵）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="8"/>
        <source>GELU (2 matrices)</source>
        <translation>GELU（2 个矩阵）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="12"/>
        <source>Every layer</source>
        <translation>每一层</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="12"/>
        <source>Every other layer (0, 2, 4, …)</source>
        <translation>隔层（0、2、4、…）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="17"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="17"/>
        <source>What the framework picks for this GPU and model</source>
        <translation>由框架针对此 GPU 和模型选择</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="18"/>
        <source>FlashAttention</source>
        <translation>FlashAttention</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="18"/>
        <source>No attention sinks</source>
        <translation>不支持注意力汇聚（sink）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="19"/>
        <source>cuDNN fused</source>
        <translation>cuDNN 融合</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="20"/>
        <source>Transformer Engine&apos;s FusedAttention; sinks with cuDNN 9.13.1 or later</source>
        <translation>Transformer Engine 的 FusedAttention；cuDNN 9.13.1 及以上支持 sink</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="21"/>
        <source>Unfused</source>
        <translation>非融合</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="22"/>
        <source>Materialised s × s scores: slower and much more memory</source>
        <translation>显式生成 s × s 分数矩阵：更慢且显存占用大得多</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="26"/>
        <source>BF16 mixed precision</source>
        <translation>BF16 混合精度</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="27"/>
        <source>FP16 mixed precision</source>
        <translation>FP16 混合精度</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="28"/>
        <source>FP8 (Transformer Engine)</source>
        <translation>FP8（Transformer Engine）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="29"/>
        <source>MXFP8</source>
        <translation>MXFP8</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="30"/>
        <source>NVFP4</source>
        <translation>NVFP4</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="31"/>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="35"/>
        <source>Adam / AdamW</source>
        <translation>Adam / AdamW</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="36"/>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="37"/>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="55"/>
        <location filename="../widgets/EnumLabels.cpp" line="142"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="56"/>
        <source>Selective (attention)</source>
        <translation>选择性（注意力）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="57"/>
        <source>Full (whole layers)</source>
        <translation>完全（整层）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="61"/>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="62"/>
        <source>Interleaved 1F1B</source>
        <translation>交错式 1F1B</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="63"/>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="64"/>
        <source>Zero bubble</source>
        <translation>零气泡</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="65"/>
        <source>Breadth-first</source>
        <translation>广度优先</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="69"/>
        <source>0 — replicated optimizer</source>
        <translation>0 — 优化器不切分</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="70"/>
        <source>1 — shard optimizer states</source>
        <translation>1 — 切分优化器状态</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="71"/>
        <source>2 — shard gradients too</source>
        <translation>2 — 同时切分梯度</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="72"/>
        <source>3 — shard parameters too (FSDP)</source>
        <translation>3 — 同时切分参数（FSDP）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="76"/>
        <source>Rail-optimized fat-tree</source>
        <translation>轨道优化胖树</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="77"/>
        <source>Rail-only</source>
        <translation>仅轨道（Rail-only）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="78"/>
        <source>Fat-tree</source>
        <translation>胖树</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="79"/>
        <source>Torus</source>
        <translation>环面（Torus）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="84"/>
        <source>None (GPU memory)</source>
        <translation>无（GPU 显存）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="84"/>
        <source>CPU memory</source>
        <translation>CPU 内存</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="84"/>
        <source>NVMe</source>
        <translation>NVMe</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="89"/>
        <source>Ring, peer-to-peer (P2P)</source>
        <translation>环形，点对点（P2P）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="90"/>
        <source>Ring attention: K/V blocks passed between neighbours, overlapped with compute</source>
        <translation>环形注意力：K/V 块在相邻 GPU 之间传递，与计算重叠</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="91"/>
        <source>All-gather K/V</source>
        <translation>全收集 K/V（all-gather）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="92"/>
        <source>K/V all-gathered before attention (Llama 3)</source>
        <translation>注意力计算前全收集 K/V（Llama 3）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="93"/>
        <source>All-to-all heads (Ulysses)</source>
        <translation>注意力头全交换（Ulysses）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="94"/>
        <source>DeepSpeed-Ulysses: heads redistributed; needs heads divisible by TP × CP</source>
        <translation>DeepSpeed-Ulysses：重新分配注意力头；要求头数可被 TP × CP 整除</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="99"/>
        <source>All-to-all</source>
        <translation>All-to-all（全交换）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="100"/>
        <source>One copy per selected expert, separate permutes, a host sync per MoE layer</source>
        <translation>每个选中的专家一份副本，单独的重排内核，每个 MoE 层一次主机同步</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="101"/>
        <source>DeepEP</source>
        <translation>DeepEP</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="102"/>
        <source>Deduplicated per destination rank, fused permutes, no host sync</source>
        <translation>按目标 rank 去重，重排已融合，无主机同步</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="103"/>
        <source>HybridEP</source>
        <translation>HybridEP</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="104"/>
        <source>DeepEP-style deduplication with NVLink-domain forwarding, no host sync</source>
        <translation>DeepEP 式去重并在 NVLink 域内转发，无主机同步</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="105"/>
        <source>All-gather</source>
        <translation>All-gather（全收集）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="105"/>
        <source>Tokens gathered over the EP group</source>
        <translation>在 EP 组内收集全部 token</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="109"/>
        <source>Grouped GEMM</source>
        <translation>分组 GEMM</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="110"/>
        <source>One grouped kernel over the local experts (--moe-grouped-gemm)</source>
        <translation>对本地专家使用一个分组内核（--moe-grouped-gemm）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="111"/>
        <source>One GEMM per expert</source>
        <translation>每个专家一个 GEMM</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="112"/>
        <source>Sequential GEMMs, one launch per expert</source>
        <translation>顺序执行 GEMM，每个专家一次启动</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="113"/>
        <source>Fused expert MLP</source>
        <translation>融合专家 MLP</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="114"/>
        <source>Fused grouped expert MLP: no separate casts or activation kernels</source>
        <translation>融合的分组专家 MLP：无单独的类型转换或激活内核</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="119"/>
        <source>Megatron-LM</source>
        <translation>Megatron-LM</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="120"/>
        <source>Megatron-LM, NeMo, Megatron-Bridge: Transformer Engine&apos;s fused modules, cuDNN fused attention and fused cross entropy</source>
        <translation>Megatron-LM、NeMo、Megatron-Bridge：Transformer Engine 的融合模块、cuDNN 融合注意力与融合交叉熵</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="122"/>
        <source>PyTorch modules</source>
        <translation>PyTorch 模块</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="123"/>
        <source>torchtitan, torchtune, Hugging Face, DeepSpeed: FlashAttention-2 through SDPA, op-level selective checkpointing, FP32 cross entropy</source>
        <translation>torchtitan、torchtune、Hugging Face、DeepSpeed：经 SDPA 的 FlashAttention-2，算子级选择性检查点，FP32 交叉熵</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="132"/>
        <source>torchtune&apos;s CEWithChunkedOutputLoss: the output and loss in chunks</source>
        <translation>torchtune 的 CEWithChunkedOutputLoss：输出层与损失分块计算</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="42"/>
        <location filename="../widgets/EnumLabels.cpp" line="129"/>
        <source>Fused</source>
        <translation>融合</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="43"/>
        <source>foreach (torch.optim default)</source>
        <translation>foreach（torch.optim 默认）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="44"/>
        <source>For-loop (per tensor)</source>
        <translation>逐张量循环</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="130"/>
        <source>Megatron-Core&apos;s fused vocab-parallel cross entropy: 4 bytes per logit</source>
        <translation>Megatron-Core 的融合词表并行交叉熵：每个 logit 4 字节</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="131"/>
        <source>Chunked</source>
        <translation>分块</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="133"/>
        <source>Plain (FP32)</source>
        <translation>普通（FP32）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="134"/>
        <source>F.cross_entropy on FP32 logits (torchtitan, Hugging Face, torch.nn.CrossEntropyLoss): 12 bytes per logit</source>
        <translation>在 FP32 logits 上调用 F.cross_entropy（torchtitan、Hugging Face、torch.nn.CrossEntropyLoss）：每个 logit 12 字节</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="136"/>
        <source>Linear-chunked</source>
        <translation>线性分块</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="137"/>
        <source>Output projection and loss chunk by chunk, no logits kept (torchtune LinearCrossEntropyLoss, Liger)</source>
        <translation>输出投影与损失逐块计算，不保留 logits（torchtune LinearCrossEntropyLoss，Liger）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="143"/>
        <source>Per layer (partial)</source>
        <translation>逐层（部分捕获）</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="144"/>
        <source>Whole iteration</source>
        <translation>整个迭代</translation>
    </message>
    <message>
        <location filename="../widgets/EnumLabels.cpp" line="38"/>
        <source>8-bit AdamW (bitsandbytes, torchao)</source>
        <translation>8 位 AdamW（bitsandbytes、torchao）</translation>
    </message>
</context>
<context>
    <name>HuggingFaceConfig</name>
    <message>
        <location filename="../models/HuggingFaceConfig.cpp" line="50"/>
        <source>config.json must hold a JSON object</source>
        <translation>config.json 必须是一个 JSON 对象</translation>
    </message>
    <message>
        <location filename="../models/HuggingFaceConfig.cpp" line="76"/>
        <source>config.json has no integer &quot;%1&quot;</source>
        <translation>config.json 中没有整数键 &quot;%1&quot;</translation>
    </message>
    <message>
        <location filename="../models/HuggingFaceConfig.cpp" line="70"/>
        <source>config.json: &quot;%1&quot; has the wrong type (a string, true or false, an array or an integer, as transformers writes it)</source>
        <translation>config.json：&quot;%1&quot; 的类型不对（应为 transformers 所写的字符串、true 或 false、数组或整数）</translation>
    </message>
    <message>
        <location filename="../models/HuggingFaceConfig.cpp" line="144"/>
        <source>the shared expert (%1) is not a whole number of routed experts (%2): rounded down to %3</source>
        <translation>共享专家（%1）不是路由专家（%2）的整数倍：向下取整为 %3</translation>
    </message>
    <message>
        <location filename="../models/HuggingFaceConfig.cpp" line="167"/>
        <source>dense layers between MoE layers are not modelled: every layer after the first dense ones is taken as MoE</source>
        <translation>未建模 MoE 层之间的稠密层：开头的稠密层之后每一层都按 MoE 处理</translation>
    </message>
    <message>
        <location filename="../models/HuggingFaceConfig.cpp" line="192"/>
        <source>model_type &quot;%1&quot; is not one Trainscape knows; its keys were read as Llama&apos;s</source>
        <translation>Trainscape 不认识 model_type &quot;%1&quot;；已按 Llama 的键读取</translation>
    </message>
    <message>
        <location filename="../models/HuggingFaceConfig.cpp" line="203"/>
        <source>not a JSON file</source>
        <translation>不是 JSON 文件</translation>
    </message>
</context>
<context>
    <name>PlanDegreeOptions</name>
    <message>
        <location filename="../models/PlanDegreeOptions.cpp" line="78"/>
        <source>Not available: %1 (%2)</source>
        <translation>不可用：%1（%2）</translation>
    </message>
</context>
<context>
    <name>ScenarioHeadline</name>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="19"/>
        <source>Custom model (%1 layers)</source>
        <translation>自定义模型（%1 层）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="28"/>
        <source>TP %1</source>
        <translation>TP %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="30"/>
        <source>PP %1 × %2</source>
        <translation>PP %1 × %2</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="30"/>
        <source>PP %1</source>
        <translation>PP %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="32"/>
        <source>CP %1</source>
        <translation>CP %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="34"/>
        <source>EP %1</source>
        <translation>EP %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="35"/>
        <source>DP %1</source>
        <translation>DP %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="43"/>
        <source>%1 × %2</source>
        <translation>%1 块 %2</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="45"/>
        <source>%1 on %2 · %3 pipelines</source>
        <translation>%1，运行于 %2 · %3 条流水线</translation>
    </message>
    <message>
        <location filename="../models/ScenarioHeadline.cpp" line="48"/>
        <source>%1 on %2 × %3 · %4</source>
        <translation>%1，%2 × %3 · %4</translation>
    </message>
</context>
<context>
    <name>ScenarioSummary</name>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="38"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="39"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="40"/>
        <source>(unnamed)</source>
        <translation>（未命名）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="43"/>
        <source>Calibration profile</source>
        <translation>校准配置</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="44"/>
        <source>none (default efficiencies)</source>
        <translation>无（使用默认效率）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="45"/>
        <source>Measured kernel and collective efficiencies that replace the defaults</source>
        <translation>用实测的算子与集合通信效率替换默认值</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="53"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="59"/>
        <source>none (explicit architecture)</source>
        <translation>无（显式给出结构）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="63"/>
        <location filename="../models/ScenarioSummary.cpp" line="137"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="65"/>
        <location filename="../models/ScenarioSummary.cpp" line="139"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="66"/>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="66"/>
        <location filename="../models/ScenarioSummary.cpp" line="101"/>
        <source>%1 layer</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="66"/>
        <location filename="../models/ScenarioSummary.cpp" line="101"/>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="37"/>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="45"/>
        <source>%1 layers</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="67"/>
        <source>Hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="67"/>
        <source>Model width (d_model)</source>
        <translation>模型宽度（d_model）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="70"/>
        <source>GQA, %1 query heads per KV head</source>
        <translation>GQA，每个 KV 头对应 %1 个查询头</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="72"/>
        <source>MLA (multi-head latent attention)</source>
        <translation>MLA（多头潜在注意力）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="74"/>
        <source>MHA (multi-head attention)</source>
        <translation>MHA（多头注意力）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="76"/>
        <source>MQA (multi-query attention)</source>
        <translation>MQA（多查询注意力）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="77"/>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="77"/>
        <location filename="../models/ScenarioSummary.cpp" line="79"/>
        <source>%1 head</source>
        <translation>%1 个头</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="77"/>
        <location filename="../models/ScenarioSummary.cpp" line="79"/>
        <source>%1 heads</source>
        <translation>%1 个头</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="78"/>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="79"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="83"/>
        <source>Head dimension</source>
        <translation>头维度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="84"/>
        <source>FFN hidden size</source>
        <translation>FFN 隐藏层维度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="85"/>
        <source>Width of the dense layers&apos; MLP</source>
        <translation>稠密层 MLP 的宽度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="86"/>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="86"/>
        <location filename="../models/ScenarioSummary.cpp" line="210"/>
        <source>%1 token</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="86"/>
        <location filename="../models/ScenarioSummary.cpp" line="210"/>
        <location filename="../models/ScenarioSummary.cpp" line="216"/>
        <location filename="../models/ScenarioSummary.cpp" line="267"/>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="87"/>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="87"/>
        <source>SwiGLU (3 matrices)</source>
        <translation>SwiGLU（3 个矩阵）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="87"/>
        <source>GeLU (2 matrices)</source>
        <translation>GeLU（2 个矩阵）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="89"/>
        <source>Embeddings</source>
        <translation>嵌入层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="90"/>
        <source>tied (input = output)</source>
        <translation>共享（输入 = 输出）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="90"/>
        <source>separate input and output</source>
        <translation>输入与输出独立</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="95"/>
        <source>Experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="96"/>
        <source>%1 routed + %2 shared</source>
        <translation>%1 个路由专家 + %2 个共享专家</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="98"/>
        <source>Experts per token</source>
        <translation>每个 token 激活的专家</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="98"/>
        <source>top-%1</source>
        <translation>top-%1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="99"/>
        <source>Expert FFN hidden size</source>
        <translation>专家 FFN 隐藏层维度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="100"/>
        <source>Dense layers first</source>
        <translation>前置稠密层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="103"/>
        <source>Capacity factor</source>
        <translation>容量因子</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="105"/>
        <source>dropless (no capacity limit)</source>
        <translation>不丢弃（无容量上限）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="108"/>
        <source>Mixture of experts</source>
        <translation>混合专家（MoE）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="108"/>
        <source>none (dense)</source>
        <translation>无（稠密模型）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="112"/>
        <source>Query LoRA rank</source>
        <translation>查询 LoRA 秩</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="113"/>
        <source>none (uncompressed queries)</source>
        <translation>无（查询不压缩）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="115"/>
        <source>KV LoRA rank</source>
        <translation>KV LoRA 秩</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="116"/>
        <source>QK head dimension</source>
        <translation>QK 头维度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="117"/>
        <source>%1 + %2 RoPE</source>
        <translation>%1 + %2 RoPE</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="119"/>
        <source>V head dimension</source>
        <translation>V 头维度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="126"/>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="133"/>
        <source>none (explicit cluster)</source>
        <translation>无（显式给出集群）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="140"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="141"/>
        <source>Explicit GPU object</source>
        <translation>显式给出的 GPU 参数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="142"/>
        <source>Catalog id: %1</source>
        <translation>目录 ID：%1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="143"/>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="144"/>
        <source>HBM bandwidth</source>
        <translation>HBM 带宽</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="145"/>
        <source>BF16 dense peak</source>
        <translation>BF16 稠密峰值</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="146"/>
        <source>Dense tensor-core peak, without 2:4 sparsity</source>
        <translation>Tensor Core 稠密峰值，不含 2:4 稀疏</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="147"/>
        <source>FP8 dense peak</source>
        <translation>FP8 稠密峰值</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="148"/>
        <source>none (no FP8 tensor cores)</source>
        <translation>无（没有 FP8 Tensor Core）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="150"/>
        <source>TDP</source>
        <translation>TDP</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="151"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="151"/>
        <location filename="../models/ScenarioSummary.cpp" line="152"/>
        <location filename="../models/ScenarioSummary.cpp" line="160"/>
        <source>%1 GPU</source>
        <translation>%1 个 GPU</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="151"/>
        <location filename="../models/ScenarioSummary.cpp" line="152"/>
        <location filename="../models/ScenarioSummary.cpp" line="160"/>
        <source>%1 GPUs</source>
        <translation>%1 个 GPU</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="152"/>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="155"/>
        <source>Nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="155"/>
        <source>%1 node</source>
        <translation>%1 个节点</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="155"/>
        <source>%1 nodes</source>
        <translation>%1 个节点</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="156"/>
        <source>GPUs / GPUs per node</source>
        <translation>GPU 数 / 每节点 GPU 数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="160"/>
        <source>Scale-up domain</source>
        <translation>纵向扩展域</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="161"/>
        <source>GPUs joined by the NVLink-class fabric</source>
        <translation>由 NVLink 类互连连接的 GPU</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="162"/>
        <source>Scale-up bandwidth</source>
        <translation>纵向扩展带宽</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="162"/>
        <source>%1 per GPU per direction</source>
        <translation>每 GPU 每方向 %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="164"/>
        <source>Scale-up latency</source>
        <translation>纵向扩展延迟</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="170"/>
        <source>rail-optimized fat-tree</source>
        <translation>轨道优化胖树</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="173"/>
        <source>rail-only</source>
        <translation>仅轨道（rail-only）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="176"/>
        <source>fat-tree</source>
        <translation>胖树</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="179"/>
        <source>torus</source>
        <translation>环面（torus）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="182"/>
        <source>explicit graph</source>
        <translation>显式拓扑图</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="185"/>
        <source>Scale-out topology</source>
        <translation>横向扩展拓扑</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="186"/>
        <source>NICs per node</source>
        <translation>每节点网卡数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="186"/>
        <source>%1 NIC</source>
        <translation>%1 块网卡</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="186"/>
        <source>%1 NICs</source>
        <translation>%1 块网卡</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="188"/>
        <source>NIC bandwidth</source>
        <translation>网卡带宽</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="188"/>
        <source>%1 per NIC per direction</source>
        <translation>每网卡每方向 %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="190"/>
        <source>Oversubscription</source>
        <translation>超额订阅比</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="190"/>
        <source>%1 : 1</source>
        <translation>%1 : 1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="192"/>
        <source>Scale-out latency</source>
        <translation>横向扩展延迟</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="193"/>
        <source>Switch radix</source>
        <translation>交换机端口数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="193"/>
        <source>%1 port</source>
        <translation>%1 个端口</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="193"/>
        <source>%1 ports</source>
        <translation>%1 个端口</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="195"/>
        <source>Switch tiers</source>
        <translation>交换机层数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="196"/>
        <source>%1 tier</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="196"/>
        <source>%1 tiers</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="197"/>
        <source>automatic (as few as the size needs)</source>
        <translation>自动（按规模取最少层数）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="204"/>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="210"/>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="211"/>
        <source>Global batch</source>
        <translation>全局批大小</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="211"/>
        <location filename="../models/ScenarioSummary.cpp" line="213"/>
        <source>%1 sequence</source>
        <translation>%1 条序列</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="211"/>
        <location filename="../models/ScenarioSummary.cpp" line="213"/>
        <source>%1 sequences</source>
        <translation>%1 条序列</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="212"/>
        <source>Sequences per optimizer step</source>
        <translation>每个优化器步的序列数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="213"/>
        <source>Micro-batch</source>
        <translation>微批大小</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="215"/>
        <source>Tokens per step</source>
        <translation>每步 token 数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="217"/>
        <source>Global batch × sequence length</source>
        <translation>全局批大小 × 序列长度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="220"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="239"/>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="242"/>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="245"/>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="251"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="266"/>
        <source>Tokens to train</source>
        <translation>训练 token 总数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="267"/>
        <location filename="../models/ScenarioSummary.cpp" line="277"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="273"/>
        <source>Costs</source>
        <translation>成本</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="280"/>
        <source>GPU-hour price</source>
        <translation>GPU 时单价</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="280"/>
        <source>%1 USD per GPU-hour</source>
        <translation>每 GPU 小时 %1 美元</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="281"/>
        <source>Electricity price</source>
        <translation>电价</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="281"/>
        <source>%1 USD per kWh</source>
        <translation>每千瓦时 %1 美元</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="283"/>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="283"/>
        <source>%1 × IT power</source>
        <translation>IT 功率 × %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="284"/>
        <source>Grid carbon intensity</source>
        <translation>电网碳强度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="284"/>
        <source>%1 gCO₂e per kWh</source>
        <translation>每千瓦时 %1 gCO₂e</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="21"/>
        <source>CPU memory</source>
        <translation>CPU 内存</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="23"/>
        <source>NVMe</source>
        <translation>NVMe</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="30"/>
        <source>not resolved</source>
        <translation>未解析</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="36"/>
        <source>1 layer</source>
        <translation>1 层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="39"/>
        <source>%1 chunks × 1 layer</source>
        <translation>%1 个块 × 1 层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="41"/>
        <source>%1 chunks × %2 layers</source>
        <translation>%1 个块 × %2 层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="52"/>
        <source>Parallel plan</source>
        <translation>并行方案</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="58"/>
        <source>%1-way</source>
        <translation>%1 路</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="60"/>
        <source>Tensor parallel (TP)</source>
        <translation>张量并行（TP）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="61"/>
        <source>Pipeline parallel (PP)</source>
        <translation>流水线并行（PP）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="62"/>
        <source>Virtual pipeline (VPP)</source>
        <translation>虚拟流水线（VPP）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="63"/>
        <source>1 chunk per rank</source>
        <translation>每个 rank 1 个块</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="63"/>
        <source>%1 chunks per rank</source>
        <translation>每个 rank %1 个块</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="65"/>
        <source>Context parallel (CP)</source>
        <translation>上下文并行（CP）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="66"/>
        <source>Expert parallel (EP)</source>
        <translation>专家并行（EP）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="68"/>
        <source>Expert tensor parallel (ETP)</source>
        <translation>专家张量并行（ETP）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="69"/>
        <source>Data parallel (DP)</source>
        <translation>数据并行（DP）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="70"/>
        <source>GPU grid</source>
        <translation>GPU 网格</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="71"/>
        <source>TP %1 × PP %2 × CP %3 × DP %4 = %5 GPUs</source>
        <translation>TP %1 × PP %2 × CP %3 × DP %4 = %5 个 GPU</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="74"/>
        <source>Expert parallelism divides the data-parallel GPUs of the MoE layers</source>
        <translation>在 MoE 层中，专家并行对数据并行的 GPU 进一步划分</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="79"/>
        <source>Microbatches per step</source>
        <translation>每步微批数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="80"/>
        <source>1 microbatch per pipeline</source>
        <translation>每条流水线 1 个微批</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="81"/>
        <source>%1 microbatches per pipeline</source>
        <translation>每条流水线 %1 个微批</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="82"/>
        <source>Global batch / (DP × micro-batch)</source>
        <translation>全局批大小 /（DP × 微批大小）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="83"/>
        <source>Layers per pipeline chunk</source>
        <translation>每个流水线块的层数</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="84"/>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="84"/>
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="84"/>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="89"/>
        <source>stage 0 (nothing sharded)</source>
        <translation>阶段 0（不切分）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="92"/>
        <source>stage 1 (optimizer states sharded)</source>
        <translation>阶段 1（切分优化器状态）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="95"/>
        <source>stage 2 (optimizer states and gradients sharded)</source>
        <translation>阶段 2（切分优化器状态和梯度）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="98"/>
        <source>stage 3 (optimizer states, gradients and weights sharded)</source>
        <translation>阶段 3（切分优化器状态、梯度和权重）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="101"/>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="106"/>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="147"/>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="158"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="109"/>
        <source>selective (attention core)</source>
        <translation>选择性（注意力核心）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="113"/>
        <source>full, %1 layers per stage</source>
        <translation>完全，每个阶段 %1 层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="114"/>
        <source>full, every layer</source>
        <translation>完全，所有层</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="117"/>
        <source>Activation recompute</source>
        <translation>激活重计算</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="122"/>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="125"/>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="128"/>
        <source>interleaved 1F1B</source>
        <translation>交错式 1F1B</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="132"/>
        <source>zero bubble, V-shaped (ZB-V)</source>
        <translation>零气泡，V 形（ZB-V）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="132"/>
        <source>zero bubble (ZB-H1)</source>
        <translation>零气泡（ZB-H1）</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="135"/>
        <source>breadth-first</source>
        <translation>广度优先</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="138"/>
        <source>Pipeline schedule</source>
        <translation>流水线调度</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="142"/>
        <source>optimizer states → %1</source>
        <translation>优化器状态 → %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="144"/>
        <source>weights → %1</source>
        <translation>权重 → %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="146"/>
        <source>activations → %1</source>
        <translation>激活 → %1</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="147"/>
        <source>Offload</source>
        <translation>卸载</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryPlan.cpp" line="157"/>
        <source>Communication overlap</source>
        <translation>通信重叠</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="225"/>
        <source>delayed, per tensor</source>
        <translation>延迟缩放，逐张量</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="228"/>
        <source>current, per tensor</source>
        <translation>当前缩放，逐张量</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="231"/>
        <source>blockwise, 1×128 and 128×128</source>
        <translation>分块，1×128 与 128×128</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="234"/>
        <source>FP8 scaling</source>
        <translation>FP8 缩放</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="248"/>
        <source>8-bit Adam</source>
        <translation>8 位 Adam</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="256"/>
        <source>full fine-tuning</source>
        <translation>全参数微调</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="258"/>
        <source>%1, rank %2 on %3 modules, %4 base</source>
        <translation>%1，秩 %2，作用于 %3 个模块，%4 基座</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="259"/>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="259"/>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="263"/>
        <source>Fine-tuning</source>
        <translation>微调</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummary.cpp" line="264"/>
        <source>The frozen base keeps no gradients or optimizer states</source>
        <translation>冻结基座不保存梯度和优化器状态</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../app/main.cpp" line="88"/>
        <source>Planner for distributed training of large language models.</source>
        <translation>大语言模型分布式训练规划器。</translation>
    </message>
    <message>
        <location filename="../app/main.cpp" line="94"/>
        <source>Render the main window offscreen to &lt;png&gt; and exit.</source>
        <translation>在屏幕外将主窗口渲染为 &lt;png&gt; 后退出。</translation>
    </message>
    <message>
        <location filename="../app/main.cpp" line="95"/>
        <source>png</source>
        <translation>png</translation>
    </message>
    <message>
        <location filename="../app/main.cpp" line="98"/>
        <source>User interface language, e.g. zh_CN (default: the system&apos;s).</source>
        <translation>界面语言，例如 zh_CN（默认跟随系统）。</translation>
    </message>
    <message>
        <location filename="../app/main.cpp" line="100"/>
        <source>locale</source>
        <translation>语言区域</translation>
    </message>
    <message>
        <location filename="../app/main.cpp" line="111"/>
        <source>Scenario file to open (JSON).</source>
        <translation>要打开的场景文件（JSON）。</translation>
    </message>
    <message>
        <location filename="../app/main.cpp" line="118"/>
        <source>at most one scenario file</source>
        <translation>最多只能指定一个场景文件</translation>
    </message>
    <message>
        <location filename="../app/main.cpp" line="103"/>
        <source>With --screenshot: the view to show (%1).</source>
        <translation>与 --screenshot 一起使用：要显示的视图（%1）。</translation>
    </message>
    <message>
        <location filename="../app/main.cpp" line="105"/>
        <source>view</source>
        <translation>视图</translation>
    </message>
</context>
<context>
    <name>ts::gui::AddNodeTool</name>
    <message>
        <location filename="../widgets/TopologyTools.cpp" line="24"/>
        <source>Add GPU</source>
        <translation>添加 GPU</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTools.cpp" line="26"/>
        <source>Add NIC</source>
        <translation>添加网卡</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTools.cpp" line="28"/>
        <source>Add scale-up switch</source>
        <translation>添加纵向扩展交换机</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTools.cpp" line="30"/>
        <source>Add WAN router</source>
        <translation>添加广域网路由器</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTools.cpp" line="34"/>
        <source>Add switch</source>
        <translation>添加交换机</translation>
    </message>
</context>
<context>
    <name>ts::gui::CapacityRunner</name>
    <message>
        <location filename="../models/CapacityRunner.cpp" line="62"/>
        <source>The capacity plan did not run</source>
        <translation>容量规划未能运行</translation>
    </message>
</context>
<context>
    <name>ts::gui::CapacityScalingModel</name>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="239"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="241"/>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="243"/>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="245"/>
        <source>Energy (MWh)</source>
        <translation>能耗 (MWh)</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="247"/>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="249"/>
        <source>Scaling eff.</source>
        <translation>扩展效率</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="251"/>
        <source>Meets deadline</source>
        <translation>满足期限</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="253"/>
        <source>Best plan, or why none</source>
        <translation>最佳方案，或无方案的原因</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="234"/>
        <source>Tokens per second per GPU against the smallest size with a plan</source>
        <translation>每 GPU 每秒词元数，相对于有方案的最小规模</translation>
    </message>
</context>
<context>
    <name>ts::gui::CapacitySummaryModel</name>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="121"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="123"/>
        <source>Fewest GPUs</source>
        <translation>最少 GPU 数</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="125"/>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="127"/>
        <source>Cheapest GPUs</source>
        <translation>最省钱的 GPU 数</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="129"/>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="131"/>
        <source>Best plan at the fewest</source>
        <translation>最少 GPU 时的最佳方案</translation>
    </message>
    <message>
        <location filename="../models/CapacityTableModels.cpp" line="60"/>
        <source>Impossible: %1</source>
        <translation>无法实现：%1</translation>
    </message>
</context>
<context>
    <name>ts::gui::CapacityView</name>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="202"/>
        <source>Tokens (billions)</source>
        <translation>词元数（十亿）</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="202"/>
        <source>Deadline (days)</source>
        <translation>期限（天）</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="202"/>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="203"/>
        <source>Largest cluster (GPUs)</source>
        <translation>最大集群（GPU 数）</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="203"/>
        <source>Memory headroom</source>
        <translation>显存余量</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="203"/>
        <source>GPU kinds</source>
        <translation>GPU 型号</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="204"/>
        <source>Your GPUs</source>
        <translation>你的 GPU</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="208"/>
        <source>At most (million USD)</source>
        <translation>不超过（百万美元）</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="209"/>
        <source>optional: an inventory file, e.g. resources/inventories/64xh100-128xa100.json</source>
        <translation>可选：库存文件，例如 resources/inventories/64xh100-128xa100.json</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="211"/>
        <source>A JSON list of {&quot;gpu&quot;, &quot;num_gpus&quot;, &quot;site&quot;}: the fastest and the cheapest plan over the GPUs you have, as pools, and each pool alone, beside renting (trainscape-cli capacity --inventory)</source>
        <translation>{&quot;gpu&quot;, &quot;num_gpus&quot;, &quot;site&quot;} 的 JSON 列表：以资源池方式给出你已有 GPU 上最快和最便宜的方案，以及每个资源池单独的方案，并与租用对比（trainscape-cli capacity --inventory）</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="214"/>
        <source>The GPU kinds to size, each with the catalog&apos;s cluster preset that carries it</source>
        <translation>要估算规模的 GPU 型号，各自使用目录中搭载它的集群预设</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="216"/>
        <source>Plan capacity</source>
        <translation>规划容量</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="217"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="218"/>
        <source>Apply plan</source>
        <translation>应用方案</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="219"/>
        <source>Use the selected size&apos;s cluster, plan and tokens in the scenario</source>
        <translation>在场景中使用所选规模的集群、方案和词元数</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="220"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="221"/>
        <source>Days to train</source>
        <translation>训练天数</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="222"/>
        <source>Cost of the run (million USD)</source>
        <translation>训练成本（百万美元）</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="241"/>
        <source>Check at least one GPU kind to size</source>
        <translation>请至少勾选一种 GPU 型号</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="263"/>
        <source>Inventory %1: %2</source>
        <translation>库存 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="265"/>
        <source>does not read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="280"/>
        <source>Planning…</source>
        <translation>规划中…</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="146"/>
        <source>Sizing %1: %2 GPUs</source>
        <translation>正在估算 %1：%2 个 GPU</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="286"/>
        <source>With your GPUs:</source>
        <translation>使用你的 GPU：</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="292"/>
        <source>%1: %2, %3 days, $%4 — %5</source>
        <translation>%1：%2，%3 天，$%4 — %5</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="299"/>
        <source>fastest</source>
        <translation>最快</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="299"/>
        <source>cheapest</source>
        <translation>最便宜</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="301"/>
        <source>%1 alone</source>
        <translation>仅 %1</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="303"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="328"/>
        <source>%1 of %2 GPU kinds meet the deadline</source>
        <translation>%2 种 GPU 型号中有 %1 种满足期限</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="330"/>
        <source>Cancelled: </source>
        <translation>已取消：</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityView.cpp" line="330"/>
        <source> (of the sizes tried)</source>
        <translation>（就已尝试的规模而言）</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityViewPlot.cpp" line="56"/>
        <source>%1: days</source>
        <translation>%1：天数</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityViewPlot.cpp" line="73"/>
        <source>%1: cost</source>
        <translation>%1：成本</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityViewPlot.cpp" line="89"/>
        <source>deadline %1 days</source>
        <translation>期限 %1 天</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityViewPlot.cpp" line="107"/>
        <source>No size has a plan within the limits</source>
        <translation>没有规模在限制内有可行方案</translation>
    </message>
    <message>
        <location filename="../widgets/CapacityViewPlot.cpp" line="140"/>
        <source>Apply capacity plan</source>
        <translation>应用容量方案</translation>
    </message>
</context>
<context>
    <name>ts::gui::ClusterEditor</name>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="290"/>
        <source>Cluster preset</source>
        <translation>集群预设</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="291"/>
        <source>A system from the catalog: GPU, node and networks</source>
        <translation>目录中的系统：GPU、节点与网络</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="321"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="304"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="308"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="325"/>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="326"/>
        <source>Scale-up (NVLink) domain</source>
        <translation>纵向扩展（NVLink）域</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="327"/>
        <source>GPUs per domain</source>
        <translation>每域 GPU 数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="328"/>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="328"/>
        <location filename="../widgets/ClusterEditor.cpp" line="356"/>
        <source> GB/s</source>
        <translation> GB/s</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="329"/>
        <source>Per GPU, per direction</source>
        <translation>每 GPU、每方向</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="330"/>
        <location filename="../widgets/ClusterEditor.cpp" line="338"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="330"/>
        <location filename="../widgets/ClusterEditor.cpp" line="338"/>
        <location filename="../widgets/ClusterEditor.cpp" line="347"/>
        <source> µs</source>
        <translation> µs</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="331"/>
        <source>Scale-out network</source>
        <translation>横向扩展网络</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="332"/>
        <source>Topology</source>
        <translation>拓扑</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="334"/>
        <source>NIC speed</source>
        <translation>网卡速率</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="334"/>
        <location filename="../widgets/ClusterEditor.cpp" line="345"/>
        <source> Gbit/s</source>
        <translation> Gbit/s</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="335"/>
        <source>NICs per node</source>
        <translation>每节点网卡数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="336"/>
        <source>Oversubscription</source>
        <translation>超额订阅比</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="337"/>
        <source> : 1</source>
        <translation> : 1</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="259"/>
        <source>PCIe per GPU (GB/s)</source>
        <translation>每 GPU 的 PCIe（GB/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="260"/>
        <source>GPU–host link of one GPU, per direction</source>
        <translation>单个 GPU 与主机之间的链路，单向</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="262"/>
        <source>Memory per node (GiB)</source>
        <translation>每节点内存（GiB）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="263"/>
        <source>Host (CPU) memory of one node, where offloaded states live</source>
        <translation>单个节点的主机（CPU）内存，卸载的状态存放于此</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="265"/>
        <source>Memory bandwidth (GB/s)</source>
        <translation>内存带宽（GB/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="266"/>
        <source>DRAM bandwidth of one node, all sockets</source>
        <translation>单个节点所有插槽的 DRAM 带宽</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="268"/>
        <source>NVMe read (GB/s)</source>
        <translation>NVMe 读取（GB/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="269"/>
        <location filename="../widgets/ClusterEditor.cpp" line="272"/>
        <source>All NVMe drives of one node together</source>
        <translation>单个节点全部 NVMe 盘合计</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="271"/>
        <source>NVMe write (GB/s)</source>
        <translation>NVMe 写入（GB/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="273"/>
        <source>NVMe capacity (GiB)</source>
        <translation>NVMe 容量（GiB）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="274"/>
        <source>All NVMe drives of one node, in GiB of 2³⁰ bytes</source>
        <translation>单个节点全部 NVMe 盘，以 GiB（2³⁰ 字节）计</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="375"/>
        <source>Softmax exponentials (T/s)</source>
        <translation>Softmax 指数运算（T/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="376"/>
        <source>BF16 peak / 256</source>
        <translation>BF16 峰值 / 256</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="437"/>
        <source>Host (offload)</source>
        <translation>主机（卸载）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="454"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="463"/>
        <source>Not set in the file: the cluster preset&apos;s value. Type a figure to override it.</source>
        <translation>文件中未设置：使用集群预设的值。输入数值即可覆盖。</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="465"/>
        <source>Not known for this cluster: type the figure to bound offload by it.</source>
        <translation>此集群的该数值未知：输入数值以便据此约束卸载。</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="474"/>
        <source>Change %1</source>
        <translation>修改%1</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="78"/>
        <source>Custom: %1</source>
        <translation>自定义：%1</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="82"/>
        <source>Custom GPU (figures below)…</source>
        <translation>自定义 GPU（在下方填写参数）…</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="84"/>
        <source>A GPU of your own: starts as a copy of the GPU in use; edit its figures under Custom GPU</source>
        <translation>自己的 GPU：从当前 GPU 复制而来；在“自定义 GPU”下修改其参数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="115"/>
        <source>the current cluster</source>
        <translation>当前集群</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="122"/>
        <source>Matching cluster preset</source>
        <translation>匹配的集群预设</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="123"/>
        <source>%1 is built for this GPU. Use its NVLink, network and host figures instead of those of %2?</source>
        <translation>%1 是为这款 GPU 构建的。是否使用它的 NVLink、网络和主机参数，替换 %2 的参数？</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="137"/>
        <source>None (default efficiencies)</source>
        <translation>无（默认效率）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="313"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="349"/>
        <source>Calibration</source>
        <translation>校准</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="350"/>
        <source>Calibration profile</source>
        <translation>校准配置</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="351"/>
        <source>Measured efficiencies that replace the estimator&apos;s defaults (trainscape-cli calibrate list)</source>
        <translation>替换估算器默认值的实测效率（trainscape-cli calibrate list）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="353"/>
        <source>Custom GPU</source>
        <translation>自定义 GPU</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="355"/>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="355"/>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="356"/>
        <source>HBM bandwidth</source>
        <translation>HBM 带宽</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="357"/>
        <source>BF16 dense</source>
        <translation>BF16 稠密</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="357"/>
        <location filename="../widgets/ClusterEditor.cpp" line="358"/>
        <location filename="../widgets/ClusterEditor.cpp" line="359"/>
        <source> TFLOP/s</source>
        <translation> TFLOP/s</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="358"/>
        <source>FP8 dense</source>
        <translation>FP8 稠密</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="359"/>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="360"/>
        <source>Power limit (TDP)</source>
        <translation>功耗上限（TDP）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="360"/>
        <source> W</source>
        <translation> W</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="215"/>
        <source>Tiers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="216"/>
        <source>Switch tiers of the scale-out network; empty: as few as the size needs</source>
        <translation>横向扩展网络的交换机层数；留空：按规模所需的最少层数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="218"/>
        <source>as few as needed</source>
        <translation>按需最少</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="227"/>
        <source>Torus dimensions</source>
        <translation>环面各维大小</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="228"/>
        <source>Scale-up domains along each torus dimension, separated by commas; empty: automatic</source>
        <translation>环面每一维上的纵向扩展域数，用逗号分隔；留空：自动</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="230"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="339"/>
        <source>Switch radix</source>
        <translation>交换机端口数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="340"/>
        <source>Ports per switch, which sets how many tiers the network needs</source>
        <translation>每台交换机的端口数，决定网络需要几层</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="343"/>
        <source>Datacenters (pods)</source>
        <translation>数据中心（pod）数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="344"/>
        <source>Equal networks of the topology above, joined by WAN links</source>
        <translation>上述拓扑的若干相同网络，由广域网链路相连</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="345"/>
        <source>WAN bandwidth per pod</source>
        <translation>每个 pod 的广域网带宽</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="346"/>
        <source>Out of each pod in all, per direction</source>
        <translation>每个 pod 对外的总带宽，每方向</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="347"/>
        <source>WAN latency</source>
        <translation>广域网延迟</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="348"/>
        <source>One way between pods</source>
        <translation>pod 之间的单向延迟</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="361"/>
        <source>FP16 dense (TFLOP/s)</source>
        <translation>FP16 稠密（TFLOP/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="362"/>
        <source>as BF16</source>
        <translation>同 BF16</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="363"/>
        <source>TF32 dense (TFLOP/s)</source>
        <translation>TF32 稠密（TFLOP/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="363"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="364"/>
        <source>FP4 dense (TFLOP/s)</source>
        <translation>FP4 稠密（TFLOP/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="365"/>
        <source>no FP4 tensor cores</source>
        <translation>无 FP4 张量核心</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="366"/>
        <source>Measured BF16 matmul (TFLOP/s)</source>
        <translation>实测 BF16 矩阵乘（TFLOP/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="367"/>
        <location filename="../widgets/ClusterEditor.cpp" line="369"/>
        <source>default efficiency</source>
        <translation>默认效率</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="368"/>
        <source>Measured FP8 matmul (TFLOP/s)</source>
        <translation>实测 FP8 矩阵乘（TFLOP/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="370"/>
        <source>Idle power (W)</source>
        <translation>空闲功耗（W）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="370"/>
        <source>10% of TDP</source>
        <translation>TDP 的 10%</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="371"/>
        <source>Streaming multiprocessors</source>
        <translation>流式多处理器（SM）数</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="372"/>
        <source>no wave quantization</source>
        <translation>不计波次量化</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="373"/>
        <source>PCIe to host (GB/s)</source>
        <translation>到主机的 PCIe（GB/s）</translation>
    </message>
    <message>
        <location filename="../widgets/ClusterEditor.cpp" line="374"/>
        <source>the cluster&apos;s</source>
        <translation>取集群的值</translation>
    </message>
</context>
<context>
    <name>ts::gui::CommunicationChart</name>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="17"/>
        <source>Communication per GPU by dimension</source>
        <translation>按并行维度的每 GPU 通信量</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="18"/>
        <source>Traffic per link class (whole cluster)</source>
        <translation>按链路类别的流量（整个集群）</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="28"/>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="29"/>
        <source>CP</source>
        <translation>CP</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="30"/>
        <source>EP</source>
        <translation>EP</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="31"/>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="32"/>
        <source>DP</source>
        <translation>DP</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="33"/>
        <source>GB per GPU per step</source>
        <translation>每 GPU 每步 GB</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="36"/>
        <source>Scale-up (NVLink)</source>
        <translation>纵向扩展（NVLink）</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="36"/>
        <source>Scale-out network</source>
        <translation>横向扩展网络</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="38"/>
        <source>TB per step, all GPUs</source>
        <translation>每步 TB，所有 GPU</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="51"/>
        <source>%1: %2 per step</source>
        <translation>%1：每步 %2</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="53"/>
        <source>
%1 GB/s per GPU averaged over the step</source>
        <translation>
按整步平均每 GPU %1 GB/s</translation>
    </message>
    <message>
        <location filename="../widgets/CommunicationChart.cpp" line="56"/>
        <source>
%1 per GPU</source>
        <translation>
每 GPU %1</translation>
    </message>
</context>
<context>
    <name>ts::gui::CompareView</name>
    <message>
        <location filename="../widgets/CompareView.cpp" line="71"/>
        <source>Add scenario files</source>
        <translation>添加场景文件</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="71"/>
        <source>Scenarios (*.json)</source>
        <translation>场景 (*.json)</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="104"/>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="105"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="106"/>
        <source>Export report…</source>
        <translation>导出报告…</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="107"/>
        <source>Check 2 to 8 scenarios and press Compare.</source>
        <translation>勾选 2 到 8 个场景，然后点击“比较”。</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="130"/>
        <source>%1 (library %2, version %3)</source>
        <translation>%1（场景库 %2，版本 %3）</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="154"/>
        <source>%1 (file)</source>
        <translation>%1（文件）</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/CompareView.cpp" line="198"/>
        <source>%n scenario(s) compared</source>
        <translation>
            <numerusform>已比较 %n 个场景</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="255"/>
        <source>Compare scenarios first.</source>
        <translation>请先比较场景。</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="269"/>
        <source>Unknown report format “%1”: use .html, .md, .csv or .pdf</source>
        <translation>未知的报告格式“%1”：请使用 .html、.md、.csv 或 .pdf</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="280"/>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="281"/>
        <source>HTML (*.html);;Markdown (*.md);;CSV (*.csv);;PDF (*.pdf)</source>
        <translation>HTML (*.html);;Markdown (*.md);;CSV (*.csv);;PDF (*.pdf)</translation>
    </message>
    <message>
        <location filename="../widgets/CompareView.cpp" line="285"/>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
</context>
<context>
    <name>ts::gui::CostsEditor</name>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="29"/>
        <source>%1 (assumed)</source>
        <translation>%1（假定）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="40"/>
        <source>Hourly grid CSV</source>
        <translation>逐小时电网 CSV</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="41"/>
        <source>An hourly series of grid carbon intensity (and price): the run is placed on it hour by hour</source>
        <translation>逐小时的电网碳强度（及电价）序列：训练按小时放在其上计算</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="44"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="45"/>
        <source>Ownership</source>
        <translation>所有权</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="46"/>
        <source>Cloud (GPU-hours)</source>
        <translation>云（按 GPU 小时）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="46"/>
        <source>Owned (capital)</source>
        <translation>自有（资本支出）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="47"/>
        <source>GPU-hour price ($)</source>
        <translation>GPU 小时价格（$）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="48"/>
        <source>Cloud: what one GPU-hour costs</source>
        <translation>云：一个 GPU 小时的价格</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="50"/>
        <source>Amortization (years)</source>
        <translation>折旧年限（年）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="51"/>
        <source>Owned: years over which the capital is spread</source>
        <translation>自有：资本分摊的年数</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="53"/>
        <source>Node capital ($)</source>
        <translation>节点资本（$）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="54"/>
        <source>Owned: one server with its GPUs</source>
        <translation>自有：一台带 GPU 的服务器</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="56"/>
        <source>Network capital ($)</source>
        <translation>网络资本（$）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="57"/>
        <source>Owned: the whole scale-out network</source>
        <translation>自有：整个横向扩展网络</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="59"/>
        <source>Site and grid</source>
        <translation>站点与电网</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="60"/>
        <source>Electricity ($/kWh)</source>
        <translation>电价（$/kWh）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="62"/>
        <source>PUE</source>
        <translation>PUE</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="63"/>
        <source>Power usage effectiveness: facility power ÷ IT power</source>
        <translation>电能使用效率：设施功率 ÷ IT 功率</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="65"/>
        <source>Grid carbon (gCO₂/kWh)</source>
        <translation>电网碳强度（gCO₂/kWh）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="68"/>
        <source>Power</source>
        <translation>功率</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="69"/>
        <source>GPU idle power (W)</source>
        <translation>GPU 空闲功率（W）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="71"/>
        <source>GPU power computing</source>
        <translation>GPU 计算时功率</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="72"/>
        <source>Fraction of the way from idle power to TDP while compute-bound</source>
        <translation>计算受限时从空闲功率到 TDP 的比例</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="74"/>
        <source>GPU power memory-bound</source>
        <translation>GPU 访存受限时功率</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="75"/>
        <source>Fraction of the way from idle power to TDP while memory-bound</source>
        <translation>访存受限时从空闲功率到 TDP 的比例</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="77"/>
        <source>GPU power communicating</source>
        <translation>GPU 通信时功率</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="78"/>
        <source>Fraction of the way from idle power to TDP while communicating</source>
        <translation>通信时从空闲功率到 TDP 的比例</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="80"/>
        <source>Host power per node (W)</source>
        <translation>每节点主机功率（W）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="81"/>
        <source>CPUs, memory, NVSwitch and fans: the node without its GPUs</source>
        <translation>CPU、内存、NVSwitch 和风扇：不含 GPU 的节点</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="83"/>
        <source>Network power (W)</source>
        <translation>网络功率（W）</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="84"/>
        <source>The whole scale-out network</source>
        <translation>整个横向扩展网络</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="88"/>
        <source>Choose grid CSV…</source>
        <translation>选择电网 CSV…</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="103"/>
        <source>Hourly Grid CSV</source>
        <translation>逐小时电网 CSV</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="104"/>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../widgets/CostsEditor.cpp" line="110"/>
        <source>Hourly grid CSV → %1</source>
        <translation>逐小时电网 CSV → %1</translation>
    </message>
</context>
<context>
    <name>ts::gui::DeleteTool</name>
    <message>
        <location filename="../widgets/TopologyTools.h" line="80"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>ts::gui::DiagnosticsModel</name>
    <message>
        <location filename="../models/DiagnosticsModel.cpp" line="61"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../models/DiagnosticsModel.cpp" line="61"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../models/DiagnosticsModel.cpp" line="89"/>
        <source>Severity</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../models/DiagnosticsModel.cpp" line="91"/>
        <source>Location</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../models/DiagnosticsModel.cpp" line="93"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>ts::gui::EstimateBadge</name>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="71"/>
        <source>no estimate</source>
        <translation>无估算</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="71"/>
        <source>no estimate: %1</source>
        <translation>无估算：%1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="76"/>
        <source>✔ fits</source>
        <translation>✔ 放得下</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="76"/>
        <source>✘ does not fit</source>
        <translation>✘ 放不下</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="88"/>
        <source>%1 %2/%3 GiB · %4/step · MFU %5</source>
        <translation>%1 %2/%3 GiB · 每步 %4 · MFU %5</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="83"/>
        <source>%1 %2/%3 GiB · %4/step (%5) · MFU %6</source>
        <translation>%1 %2/%3 GiB · 每步 %4（%5）· MFU %6</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/EstimateBadge.cpp" line="47"/>
        <source>Peak memory within %1 of the measured figure for 80% of the %n most similar published memory figures (%2)</source>
        <translation>
            <numerusform>在 %n 个最相似的已发表显存数据中，有 80% 的估计峰值显存与实测值的偏差在 %1 之内（%2）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="54"/>
        <source>No memory error band: too few published memory figures are like this plan (none was published for a Megatron-LM run)</source>
        <translation>没有显存误差区间：与此方案相似的已发表显存数据太少（Megatron-LM 运行未发表过显存数据）</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="59"/>
        <source>No error band: too few published runs are like this one</source>
        <translation>没有误差带：与此相似的已发表运行太少</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/EstimateBadge.cpp" line="40"/>
        <source>Step time within %1 of the measured one for 80% of the %n most similar published runs (%2)</source>
        <translation>
            <numerusform>在 %n 个最相似的已发表运行中，有 80% 的估计步时与实测值的偏差在 %1 之内（%2）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/EstimateBadge.cpp" line="79"/>
        <source>Peak memory on stage %1 against the GPU&apos;s capacity, the time of one optimizer step, and model FLOPS utilization</source>
        <translation>阶段 %1 的峰值显存与 GPU 容量之比、一次优化器步的时间，以及模型 FLOPS 利用率</translation>
    </message>
</context>
<context>
    <name>ts::gui::EstimateCards</name>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="55"/>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="56"/>
        <source>Throughput per GPU</source>
        <translation>每 GPU 吞吐量</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="57"/>
        <source>Model FLOPS utilization</source>
        <translation>模型 FLOPS 利用率</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="58"/>
        <source>Peak memory per GPU</source>
        <translation>每 GPU 峰值显存</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="62"/>
        <source>not computed</source>
        <translation>未计算</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="76"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="78"/>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="79"/>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="80"/>
        <source>exposed TP communication</source>
        <translation>未被掩盖的 TP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="81"/>
        <source>exposed CP communication</source>
        <translation>未被掩盖的 CP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="82"/>
        <source>exposed EP communication</source>
        <translation>未被掩盖的 EP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="83"/>
        <source>exposed PP communication</source>
        <translation>未被掩盖的 PP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="84"/>
        <source>pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="85"/>
        <source>exposed DP communication</source>
        <translation>未被掩盖的 DP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="86"/>
        <source>optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="87"/>
        <source>exposed offload</source>
        <translation>未被掩盖的卸载</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="99"/>
        <source>%1 days to train</source>
        <translation>训练需 %1 天</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/EstimateCards.cpp" line="92"/>
        <source>%1 on %n similar runs</source>
        <translation>
            <numerusform>%1（基于 %n 个相似运行）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="89"/>
        <source>per optimizer step</source>
        <translation>每个优化器步</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="104"/>
        <source>%1 tokens/s</source>
        <translation>%1 token/s</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="105"/>
        <source>Tokens per second per GPU; %1 tokens/s for the whole cluster</source>
        <translation>每 GPU 每秒处理的 token 数；整个集群为 %1 token/s</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="107"/>
        <source>%1 tokens/s in total</source>
        <translation>总计 %1 token/s</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="110"/>
        <source>Model FLOPS (6·N·tokens plus attention, no recompute) per second, as a share of the precision&apos;s dense peak</source>
        <translation>每秒模型 FLOPS（6·N·token 数加注意力，不含重计算）占该精度稠密峰值的比例</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="113"/>
        <source>%1 of model FLOPS per GPU</source>
        <translation>每 GPU 模型 FLOPS 为 %1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="116"/>
        <source>weights: %1</source>
        <translation>权重：%1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="117"/>
        <source>gradients: %1</source>
        <translation>梯度：%1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="118"/>
        <source>optimizer states: %1</source>
        <translation>优化器状态：%1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="119"/>
        <source>activations: %1</source>
        <translation>激活：%1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="120"/>
        <source>communication buffers: %1</source>
        <translation>通信缓冲区：%1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="121"/>
        <source>framework overhead: %1</source>
        <translation>框架开销：%1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="128"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="133"/>
        <source>fits · %1 of capacity, peak on stage %2</source>
        <translation>放得下 · 占容量 %1，峰值在阶段 %2</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateCards.cpp" line="134"/>
        <source>does not fit · %1 of capacity, peak on stage %2</source>
        <translation>放不下 · 占容量 %1，峰值在阶段 %2</translation>
    </message>
</context>
<context>
    <name>ts::gui::EstimateChart</name>
    <message>
        <location filename="../widgets/EstimateChart.cpp" line="76"/>
        <source>No estimate</source>
        <translation>无估算</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateChart.cpp" line="192"/>
        <source>Export Chart…</source>
        <translation>导出图表…</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateChart.cpp" line="248"/>
        <source>unknown format &quot;%1&quot;: choose .png, .svg or .pdf</source>
        <translation>未知格式 &quot;%1&quot;：请选择 .png、.svg 或 .pdf</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateChart.cpp" line="252"/>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateChart.cpp" line="259"/>
        <location filename="../widgets/EstimateChart.cpp" line="269"/>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location filename="../widgets/EstimateChart.cpp" line="260"/>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
</context>
<context>
    <name>ts::gui::ExplainCard</name>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="76"/>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="78"/>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="80"/>
        <source>TP communication</source>
        <translation>TP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="82"/>
        <source>CP communication</source>
        <translation>CP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="84"/>
        <source>EP all-to-all</source>
        <translation>EP all-to-all</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="86"/>
        <source>PP send/receive</source>
        <translation>PP 发送/接收</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="88"/>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="90"/>
        <source>DP gradient sync</source>
        <translation>DP 梯度同步</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="92"/>
        <source>Optimizer step</source>
        <translation>优化器步</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="94"/>
        <source>Offload transfers</source>
        <translation>卸载传输</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="100"/>
        <source>tensor cores</source>
        <translation>张量核心</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="102"/>
        <source>HBM bandwidth</source>
        <translation>HBM 带宽</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="104"/>
        <source>NVLink (scale-up)</source>
        <translation>NVLink（纵向扩展）</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="106"/>
        <source>scale-out network</source>
        <translation>横向扩展网络</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="108"/>
        <source>PCIe and host</source>
        <translation>PCIe 与主机</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="110"/>
        <source>idle pipeline stages</source>
        <translation>空闲的流水线阶段</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="118"/>
        <source>NVLink %1 → %2 GB/s</source>
        <translation>NVLink %1 → %2 GB/s</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="120"/>
        <source>NICs %1 → %2 Gbit/s</source>
        <translation>网卡 %1 → %2 Gbit/s</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="122"/>
        <source>Oversubscription %1:1 → %2:1</source>
        <translation>超额订阅 %1:1 → %2:1</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="124"/>
        <source>DP %1 → %2 (GPUs with it)</source>
        <translation>DP %1 → %2（GPU 数随之变化）</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="125"/>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="135"/>
        <source>WHY THIS STEP TIME</source>
        <translation>为什么是这个步时</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="137"/>
        <source>No estimate to explain</source>
        <translation>没有可解释的估算</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="142"/>
        <source>Bound by %1 on %2: %3% of the step</source>
        <translation>受限于%2上的%1：占步时的 %3%</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="157"/>
        <source>%1, %2 GB/s per GPU</source>
        <translation>%1，每 GPU %2 GB/s</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="161"/>
        <source>%1: %2 hidden behind compute (%3)</source>
        <translation>%1：%2 被计算掩盖（%3）</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="163"/>
        <source>%1: %2, %3 exposed (%4)</source>
        <translation>%1：%2，暴露 %3（%4）</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="169"/>
        <source>Edits with the largest effect</source>
        <translation>影响最大的修改</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="176"/>
        <source>%1: not a valid plan</source>
        <translation>%1：不是有效的方案</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="179"/>
        <source>%1: step %2, peak memory %3%4</source>
        <translation>%1：步时 %2，峰值显存 %3%4</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="182"/>
        <source> (does not fit)</source>
        <translation>（放不下）</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="186"/>
        <source>none offered for a plan over pools (they edit one uniform plan)</source>
        <translation>资源池方案不提供（这些修改针对单一同构方案）</translation>
    </message>
    <message>
        <location filename="../widgets/ExplainCard.cpp" line="159"/>
        <source>; under one leaf switch: oversubscription does not apply</source>
        <translation>；位于同一叶交换机下：超额订阅不起作用</translation>
    </message>
</context>
<context>
    <name>ts::gui::ExportDialog</name>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="74"/>
        <source>Export Launch Configuration</source>
        <translation>导出启动配置</translation>
    </message>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="75"/>
        <source>&amp;Save to Folder…</source>
        <translation>保存到文件夹(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="76"/>
        <source>&amp;Copy File</source>
        <translation>复制文件(&amp;C)</translation>
    </message>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="146"/>
        <source>The scenario does not resolve; fix the fields marked in red first.</source>
        <translation>场景无法解析；请先修正标红的字段。</translation>
    </message>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="174"/>
        <source>%1 cannot express this plan (Adapt plan to this target shows the nearest plan it runs):</source>
        <translation>%1 无法表达此方案（“使方案适配此目标”会显示它能运行的最接近方案）：</translation>
    </message>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="173"/>
        <source>%1 runs no adapted plan:</source>
        <translation>%1 无法运行任何适配后的方案：</translation>
    </message>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="77"/>
        <source>&amp;Adapt plan to this target</source>
        <translation>使方案适配此目标(&amp;A)</translation>
    </message>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="78"/>
        <source>Where the target refuses a setting, show the nearest plan it runs: every change listed, re-estimated, and the adapted scenario saved with the launch files</source>
        <translation>目标拒绝某项设置时，显示它能运行的最接近方案：列出每处改动并重新估算，适配后的场景与启动文件一起保存</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/ExportDialog.cpp" line="112"/>
        <source>&lt;b&gt;Adapted plan&lt;/b&gt;, %n change(s) (ADAPTATION.md): step %1 s → %2 s, peak %3 → %4 GiB of %5 GiB.</source>
        <translation>
            <numerusform>&lt;b&gt;适配后的方案&lt;/b&gt;，%n 处改动（ADAPTATION.md）：每步 %1 s → %2 s，峰值 %3 → %4 GiB（共 %5 GiB）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/ExportDialog.cpp" line="187"/>
        <source>%n file(s), written atomically on Save.</source>
        <translation>
            <numerusform>%n 个文件，保存时原子写入。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/ExportDialog.cpp" line="227"/>
        <source>Save Launch Files To</source>
        <translation>启动文件保存到</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/ExportDialog.cpp" line="235"/>
        <source>Saved %n file(s) to %1.</source>
        <translation>
            <numerusform>已将 %n 个文件保存到 %1。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ts::gui::ImportJobDialog</name>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="46"/>
        <location filename="../widgets/ImportJobDialog.cpp" line="47"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="72"/>
        <source>Hugging Face config (*.json)</source>
        <translation>Hugging Face 配置 (*.json)</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="84"/>
        <source>Import Job</source>
        <translation>导入作业</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="85"/>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="86"/>
        <source>Launch file:</source>
        <translation>启动文件：</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="87"/>
        <source>Model config (DeepSpeed):</source>
        <translation>模型配置（DeepSpeed）：</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="88"/>
        <source>Sequence length (DeepSpeed):</source>
        <translation>序列长度（DeepSpeed）：</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="89"/>
        <source>Cluster preset:</source>
        <translation>集群预设：</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="127"/>
        <source>Choose a launch file to read.</source>
        <translation>请选择要读取的启动文件。</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="134"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="150"/>
        <source>Not read: %1</source>
        <translation>未读取：%1</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="152"/>
        <source>Ignored (no effect on the plan): %1</source>
        <translation>已忽略（不影响方案）：%1</translation>
    </message>
    <message>
        <location filename="../widgets/ImportJobDialog.cpp" line="169"/>
        <source>Every flag was read.</source>
        <translation>所有参数均已读取。</translation>
    </message>
</context>
<context>
    <name>ts::gui::LibraryView</name>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="29"/>
        <source>Delete “%1”</source>
        <translation>删除“%1”</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="117"/>
        <source>Search names, notes and tags</source>
        <translation>搜索名称、备注和标签</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="118"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="118"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="118"/>
        <source>Versions</source>
        <translation>版本数</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="118"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="119"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="119"/>
        <source>Saved</source>
        <translation>保存时间</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="119"/>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="120"/>
        <source>tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="121"/>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="122"/>
        <source>Open version</source>
        <translation>打开版本</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="123"/>
        <source>Diff two versions</source>
        <translation>比较两个版本</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="124"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="125"/>
        <source>Undo delete</source>
        <translation>撤销删除</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="138"/>
        <source>No library</source>
        <translation>没有场景库</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/LibraryView.cpp" line="156"/>
        <source>%n scenario(s) in %1</source>
        <translation>
            <numerusform>%1 中有 %n 个场景</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="229"/>
        <source>Select two versions to compare.</source>
        <translation>请选择两个版本进行比较。</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="240"/>
        <source>Version %1 → version %2</source>
        <translation>版本 %1 → 版本 %2</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="244"/>
        <location filename="../widgets/LibraryView.cpp" line="245"/>
        <source>(absent)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../widgets/LibraryView.cpp" line="247"/>
        <source>No differences.</source>
        <translation>没有差异。</translation>
    </message>
</context>
<context>
    <name>ts::gui::LinkTool</name>
    <message>
        <location filename="../widgets/TopologyTools.cpp" line="63"/>
        <location filename="../widgets/TopologyTools.cpp" line="92"/>
        <source>Expand the group to link one of its members</source>
        <translation>展开该组后才能连接其中的成员</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTools.cpp" line="100"/>
        <source>Not linked: %1</source>
        <translation>未连接：%1</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTools.h" line="64"/>
        <source>Link</source>
        <translation>连线</translation>
    </message>
</context>
<context>
    <name>ts::gui::MainWindow</name>
    <message>
        <location filename="../app/MainWindow.cpp" line="257"/>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="157"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="159"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="167"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="169"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="171"/>
        <source>&amp;Open Scenario…</source>
        <translation>打开场景(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="172"/>
        <source>Open a scenario file (trainscape.scenario/1 JSON)</source>
        <translation>打开场景文件（trainscape.scenario/1 JSON）</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="178"/>
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="179"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="180"/>
        <source>&amp;About Trainscape</source>
        <translation>关于 Trainscape(&amp;A)</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="254"/>
        <source>Plan layout</source>
        <translation>方案布局</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="255"/>
        <source>Scenario file</source>
        <translation>场景文件</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="367"/>
        <source>Open a scenario to see how its plan places the model on the GPUs.</source>
        <translation>打开一个场景，查看其并行方案如何把模型放置到各个 GPU 上。</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="368"/>
        <source>The scenario is not valid; its errors are listed under Messages.</source>
        <translation>该场景无效；错误列在“消息”中。</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="370"/>
        <source>No scenario open</source>
        <translation>未打开场景</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="373"/>
        <source>Trainscape</source>
        <translation>Trainscape</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="380"/>
        <source>%1 · not a valid scenario: see the errors under Messages</source>
        <translation>%1 · 不是有效的场景：请查看“消息”中的错误</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="243"/>
        <source>no scenario open</source>
        <translation>未打开场景</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="245"/>
        <source>not computed: the scenario is not valid</source>
        <translation>未计算：场景无效</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="247"/>
        <source>estimator not available</source>
        <translation>估算器不可用</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="252"/>
        <source>not computed</source>
        <translation>未计算</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="250"/>
        <source>not computed: %1</source>
        <translation>未计算：%1</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="406"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="406"/>
        <source>Messages (%1)</source>
        <translation>消息（%1）</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="394"/>
        <location filename="../app/MainWindow.cpp" line="408"/>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="408"/>
        <source>1 error</source>
        <translation>1 个错误</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="408"/>
        <source>%1 errors</source>
        <translation>%1 个错误</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="409"/>
        <source>1 warning</source>
        <translation>1 个警告</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="409"/>
        <source>%1 warnings</source>
        <translation>%1 个警告</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="413"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="417"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="415"/>
        <source>%1 is not a valid scenario</source>
        <translation>%1 不是有效的场景</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="171"/>
        <source>Open Scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="144"/>
        <location filename="../app/MainWindowDocument.cpp" line="172"/>
        <source>Scenario files (*.json);;All files (*)</source>
        <translation>场景文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="264"/>
        <source>About Trainscape</source>
        <translation>关于 Trainscape</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="265"/>
        <source>&lt;h3&gt;Trainscape %1&lt;/h3&gt;&lt;p&gt;A planner for distributed training of large language models: will it fit, how long does a step take, and what does the run cost.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Trainscape %1&lt;/h3&gt;&lt;p&gt;大语言模型分布式训练规划器：放不放得下、每步需要多长时间、整个训练要花多少成本。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="73"/>
        <source>Not changed: %1 (%2)</source>
        <translation>未修改：%1（%2）</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="246"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="247"/>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="248"/>
        <source>Parallel plan</source>
        <translation>并行方案</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="249"/>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="251"/>
        <source>Resolved</source>
        <translation>解析结果</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="252"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="253"/>
        <source>Dashboard</source>
        <translation>仪表板</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="371"/>
        <source>Choose File ▸ Open Scenario… to read a scenario file, or File ▸ New from Example.</source>
        <translation>选择“文件 ▸ 打开场景…”读取场景文件，或“文件 ▸ 从示例新建”。</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="381"/>
        <location filename="../app/MainWindow.cpp" line="398"/>
        <source>%1[*] — Trainscape</source>
        <translation>%1[*] — Trainscape</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="386"/>
        <source>not saved yet</source>
        <translation>尚未保存</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="397"/>
        <source>%1 · the scenario has errors: see Messages</source>
        <translation>%1 · 场景有错误：见“消息”</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="158"/>
        <source>&amp;New from Example</source>
        <translation>从示例新建(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="160"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="168"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="170"/>
        <source>Main toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="173"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="174"/>
        <source>Save the scenario (written atomically)</source>
        <translation>保存场景（原子写入）</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="175"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="176"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="177"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="182"/>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="129"/>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="131"/>
        <location filename="../app/MainWindowDocument.cpp" line="143"/>
        <source>Save Scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="132"/>
        <source>Cannot save %1:
%2</source>
        <translation>无法保存 %1：
%2</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="136"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="158"/>
        <source>Unsaved Changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="159"/>
        <source>“%1” has changes that are not saved. Save them?</source>
        <translation>“%1”有未保存的更改。要保存吗？</translation>
    </message>
    <message>
        <location filename="../app/MainWindowDocument.cpp" line="234"/>
        <source>estimated in %1 ms</source>
        <translation>估算用时 %1 ms</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="250"/>
        <source>Costs</source>
        <translation>成本</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="161"/>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="162"/>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="163"/>
        <source>A new scenario with only the required keys, to edit</source>
        <translation>只含必需键的新场景，供编辑</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="164"/>
        <source>Import Hugging Face config.json…</source>
        <translation>导入 Hugging Face config.json…</translation>
    </message>
    <message>
        <location filename="../app/MainWindowActions.cpp" line="166"/>
        <source>Replace the model by the architecture of a Hugging Face config.json</source>
        <translation>用 Hugging Face config.json 的架构替换模型</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLaunch.cpp" line="22"/>
        <source>&amp;Export Launch Configuration…</source>
        <translation>导出启动配置(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLaunch.cpp" line="24"/>
        <source>Megatron-LM, Megatron-Bridge, DeepSpeed, torchtitan, torchtune, Slurm or Kubernetes files for this plan</source>
        <translation>为此方案生成 Megatron-LM、Megatron-Bridge、DeepSpeed、torchtitan、torchtune、Slurm 或 Kubernetes 文件</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLaunch.cpp" line="26"/>
        <source>&amp;Import Job…</source>
        <translation>导入作业(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLaunch.cpp" line="28"/>
        <source>Read a Megatron-LM launch script, a DeepSpeed config or a torchtitan TOML as a new scenario</source>
        <translation>将 Megatron-LM 启动脚本、DeepSpeed 配置或 torchtitan TOML 读取为新场景</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="48"/>
        <source>Save to library</source>
        <translation>保存到场景库</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="48"/>
        <source>Note for this version:</source>
        <translation>此版本的备注：</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="61"/>
        <source>Library</source>
        <translation>场景库</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="62"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="63"/>
        <source>Save to &amp;Library…</source>
        <translation>保存到场景库(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="65"/>
        <source>Save the scenario as a new version in the scenario library</source>
        <translation>将场景保存为场景库中的新版本</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="92"/>
        <source>Saved as version %1 of library scenario %2</source>
        <translation>已保存为场景库场景 %2 的版本 %1</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="107"/>
        <source>Version %1 of “%2” cannot be read</source>
        <translation>无法读取“%2”的版本 %1</translation>
    </message>
    <message>
        <location filename="../app/MainWindowLibrary.cpp" line="118"/>
        <source>Opened version %1 of “%2” from the library</source>
        <translation>已从场景库打开“%2”的版本 %1</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="256"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../app/MainWindow.cpp" line="258"/>
        <source>Topology</source>
        <translation>拓扑</translation>
    </message>
</context>
<context>
    <name>ts::gui::MemoryChart</name>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="18"/>
        <source>Memory per GPU by pipeline stage</source>
        <translation>按流水线阶段的每 GPU 显存</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="44"/>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="45"/>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="46"/>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="48"/>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="49"/>
        <source>Communication buffers</source>
        <translation>通信缓冲区</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="50"/>
        <source>Framework and allocator</source>
        <translation>框架与分配器</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="73"/>
        <source>Stage %1 · %2: %3 (stage total %4)</source>
        <translation>阶段 %1 · %2：%3（该阶段合计 %4）</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="94"/>
        <source>Pool %1 capacity: %2</source>
        <translation>资源池 %1 容量：%2</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="100"/>
        <source>Pipeline stage and pool</source>
        <translation>流水线阶段与资源池</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="118"/>
        <source>capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="123"/>
        <source>GPU capacity: %1</source>
        <translation>GPU 容量：%1</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="129"/>
        <source>Pipeline stage</source>
        <translation>流水线阶段</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="103"/>
        <location filename="../widgets/MemoryChart.cpp" line="132"/>
        <source>GiB per GPU</source>
        <translation>每 GPU GiB</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="38"/>
        <source>Frozen base</source>
        <translation>冻结基座</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="40"/>
        <source>Adapters</source>
        <translation>适配器</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="41"/>
        <source>Adapter gradients</source>
        <translation>适配器梯度</translation>
    </message>
    <message>
        <location filename="../widgets/MemoryChart.cpp" line="42"/>
        <source>Adapter optimizer states</source>
        <translation>适配器优化器状态</translation>
    </message>
</context>
<context>
    <name>ts::gui::ModelEditor</name>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="220"/>
        <source>Sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="221"/>
        <source>Tokens a query attends to, itself included, on the windowed layers; empty: full attention</source>
        <translation>窗口层上每个查询关注的 token 数（含自身）；留空：全注意力</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="226"/>
        <source>full attention</source>
        <translation>全注意力</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="232"/>
        <source>Windowed layers</source>
        <translation>窗口层</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="234"/>
        <source>Which layers the sliding window applies to</source>
        <translation>滑动窗口作用于哪些层</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="251"/>
        <source>Preset</source>
        <translation>预设</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="251"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="252"/>
        <source>A published architecture from the catalog</source>
        <translation>目录中已发布的模型结构</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="266"/>
        <source>Architecture</source>
        <translation>结构</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="267"/>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="268"/>
        <source>Hidden size</source>
        <translation>隐藏层维度</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="269"/>
        <source>FFN hidden size</source>
        <translation>FFN 隐藏层维度</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="270"/>
        <source>Attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="271"/>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="272"/>
        <source>Fewer than the attention heads: grouped-query attention</source>
        <translation>少于注意力头数：分组查询注意力（GQA）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="273"/>
        <source>Head dimension</source>
        <translation>头维度</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="274"/>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="275"/>
        <source>MLP</source>
        <translation>MLP</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="276"/>
        <source>Tied embeddings</source>
        <translation>共享输入输出嵌入</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="277"/>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="280"/>
        <source>Attention sinks</source>
        <translation>注意力汇聚（sink）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="281"/>
        <source>One learnable logit per head in the softmax (GPT-OSS); fused only in cuDNN attention</source>
        <translation>softmax 中每个头一个可学习的 logit（GPT-OSS）；只有 cuDNN 注意力能融合执行</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="283"/>
        <source>Attention biases</source>
        <translation>注意力偏置</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="284"/>
        <source>Biases on the QKV and output projections (unset: a GELU model has them)</source>
        <translation>QKV 与输出投影上的偏置（未设置时：GELU 模型带偏置）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="286"/>
        <source>Mixture of experts</source>
        <translation>混合专家（MoE）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="287"/>
        <source>Routed experts</source>
        <translation>路由专家数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="288"/>
        <source>Experts per token</source>
        <translation>每个 token 激活的专家</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="289"/>
        <source>Expert FFN size</source>
        <translation>专家 FFN 维度</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="290"/>
        <source>Shared experts</source>
        <translation>共享专家数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="291"/>
        <source>Leading dense layers</source>
        <translation>开头的稠密层数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="296"/>
        <source>Expert biases</source>
        <translation>专家偏置</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="297"/>
        <source>Biases on both expert matrices (GPT-OSS)</source>
        <translation>两个专家矩阵上的偏置（GPT-OSS）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="300"/>
        <source>Router bias</source>
        <translation>路由器偏置</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="301"/>
        <source>A bias on the router&apos;s logits (GPT-OSS)</source>
        <translation>路由器 logits 上的偏置（GPT-OSS）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="317"/>
        <location filename="../widgets/ModelEditor.cpp" line="354"/>
        <source>Import Hugging Face config.json…</source>
        <translation>导入 Hugging Face config.json…</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="328"/>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="330"/>
        <source>the imported model is not a valid scenario model</source>
        <translation>导入的模型不是有效的场景模型</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="340"/>
        <location filename="../widgets/ModelEditor.cpp" line="346"/>
        <location filename="../widgets/ModelEditor.cpp" line="349"/>
        <source>Import Hugging Face Config</source>
        <translation>导入 Hugging Face 配置</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="341"/>
        <source>Hugging Face config (config.json *.json);;All files (*)</source>
        <translation>Hugging Face 配置 (config.json *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="347"/>
        <source>Cannot import %1: %2</source>
        <translation>无法导入 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="85"/>
        <source>Expert groups</source>
        <translation>专家分组</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="86"/>
        <source>Group-limited routing: the experts form this many groups and a token&apos;s experts come from a few of them (DeepSeek-V3: 8 groups, one per node)</source>
        <translation>分组限制路由：专家分成这么多组，每个 token 的专家只来自其中几组（DeepSeek-V3：8 组，每个节点一组）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="89"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="100"/>
        <source>Groups of %1 experts: %2 experts per token need more groups than that</source>
        <translation>每组 %1 个专家：每个 token 的 %2 个专家需要比这更多的组</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="127"/>
        <source>Groups per token</source>
        <translation>每个 token 的组数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="128"/>
        <source>How many expert groups a token&apos;s experts may come from (DeepSeek-V3: 4 of 8)</source>
        <translation>一个 token 的专家最多可来自几个专家组（DeepSeek-V3：8 组中的 4 组）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="139"/>
        <source>More than the experts per token or the groups</source>
        <translation>超过每个 token 的专家数或组数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="141"/>
        <source>Too few experts in that many groups for the experts per token</source>
        <translation>这么多组里的专家少于每个 token 的专家数</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="193"/>
        <source>Multi-head latent attention</source>
        <translation>多头潜在注意力（MLA）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="194"/>
        <source>Query LoRA rank</source>
        <translation>Query 低秩维度</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="195"/>
        <source>KV LoRA rank</source>
        <translation>KV 低秩维度</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="196"/>
        <source>QK head dim (no RoPE)</source>
        <translation>QK 头维度（不含 RoPE）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="197"/>
        <source>QK head dim (RoPE)</source>
        <translation>QK 头维度（RoPE）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="198"/>
        <source>V head dim</source>
        <translation>V 头维度</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="206"/>
        <source>Capacity factor</source>
        <translation>容量因子</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="207"/>
        <source>Tokens an expert takes, as a multiple of the even share; empty: no limit (dropless)</source>
        <translation>每个专家接收的 token 数，相对平均份额的倍数；留空：不限（不丢弃）</translation>
    </message>
    <message>
        <location filename="../widgets/ModelEditor.cpp" line="212"/>
        <source>dropless</source>
        <translation>不丢弃</translation>
    </message>
</context>
<context>
    <name>ts::gui::NetworkBomPanel</name>
    <message>
        <location filename="../widgets/NetworkBomPanel.cpp" line="30"/>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../widgets/NetworkBomPanel.cpp" line="30"/>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../widgets/NetworkBomPanel.cpp" line="30"/>
        <source>Unit price</source>
        <translation>单价</translation>
    </message>
    <message>
        <location filename="../widgets/NetworkBomPanel.cpp" line="30"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../widgets/NetworkBomPanel.cpp" line="30"/>
        <source>Power</source>
        <translation>功率</translation>
    </message>
    <message>
        <location filename="../widgets/NetworkBomPanel.cpp" line="48"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../widgets/NetworkBomPanel.cpp" line="51"/>
        <location filename="../widgets/NetworkBomPanel.cpp" line="53"/>
        <source>%1 (known part %2)</source>
        <translation>%1（已知部分 %2）</translation>
    </message>
    <message>
        <location filename="../widgets/NetworkBomPanel.cpp" line="54"/>
        <source>Network capital cost: %1
Network power: %2
%3 switches, %4 transceivers, %5 cables, %6 NICs</source>
        <translation>网络资本支出：%1
网络功率：%2
%3 台交换机，%4 个光模块，%5 根线缆，%6 块网卡</translation>
    </message>
</context>
<context>
    <name>ts::gui::PlanEditor</name>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="240"/>
        <source>Data parallel (DP)</source>
        <translation>数据并行（DP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="241"/>
        <source>GPUs ÷ (TP × PP × CP): follows the other degrees</source>
        <translation>GPU 数 ÷（TP × PP × CP）：随其他并行度变化</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="259"/>
        <source>Degrees</source>
        <translation>并行度</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="260"/>
        <source>Tensor parallel (TP)</source>
        <translation>张量并行（TP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="261"/>
        <source>Splits every layer&apos;s matrices over GPUs of one NVLink domain</source>
        <translation>把每一层的矩阵切分到同一 NVLink 域内的 GPU 上</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="262"/>
        <source>Pipeline parallel (PP)</source>
        <translation>流水线并行（PP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="263"/>
        <source>Splits the layers into stages</source>
        <translation>把各层划分为流水线阶段</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="264"/>
        <source>Virtual stages (VPP)</source>
        <translation>虚拟流水线阶段（VPP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="265"/>
        <source>Model chunks per pipeline rank (interleaved, breadth-first; 2 with zero bubble = ZB-V)</source>
        <translation>每个流水线 rank 的模型块数（交错、广度优先；零气泡取 2 即 ZB-V）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="267"/>
        <source>Context parallel (CP)</source>
        <translation>上下文并行（CP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="268"/>
        <source>Splits each sequence over GPUs</source>
        <translation>把每条序列切分到多个 GPU 上</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="270"/>
        <source>Expert parallel (EP)</source>
        <translation>专家并行（EP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="271"/>
        <source>Splits the experts of a mixture-of-experts model</source>
        <translation>切分混合专家模型的专家</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="285"/>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="286"/>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="287"/>
        <source>Shards the activations between TP regions (Korthikanti et al. 2022)</source>
        <translation>在 TP 区域之间切分激活（Korthikanti 等，2022）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="288"/>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="289"/>
        <source>Recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="299"/>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="300"/>
        <source>Pipeline schedule</source>
        <translation>流水线调度</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="301"/>
        <source>Overlap TP communication</source>
        <translation>重叠 TP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="302"/>
        <source>Overlap DP communication</source>
        <translation>重叠 DP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="303"/>
        <source>Overlap PP communication</source>
        <translation>重叠 PP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="48"/>
        <source>Shard group (DP shard)</source>
        <translation>分片组（DP shard）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="49"/>
        <source>ZeRO shards within groups of this many data-parallel ranks and replicates across the groups (hybrid sharding, FSDP HYBRID_SHARD)</source>
        <translation>ZeRO 在由这么多数据并行 rank 组成的组内分片，并在组间复制（混合分片，FSDP HYBRID_SHARD）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="53"/>
        <source>Full (= DP)</source>
        <translation>完全分片（= DP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="58"/>
        <source>%1 (= DP)</source>
        <translation>%1（= DP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="252"/>
        <source>CP communication</source>
        <translation>CP 通信方式</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="253"/>
        <source>How context-parallel attention exchanges K/V (needs CP &gt; 1)</source>
        <translation>上下文并行注意力交换 K/V 的方式（需要 CP &gt; 1）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="294"/>
        <source>Offload optimizer states</source>
        <translation>卸载优化器状态</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="296"/>
        <source>Offload parameters</source>
        <translation>卸载参数</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="298"/>
        <source>Offload activations</source>
        <translation>卸载激活值</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="305"/>
        <source>Overlap EP communication</source>
        <translation>重叠 EP 通信</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="306"/>
        <source>Expert all-to-alls hidden behind another micro-batch&apos;s compute (DualPipe, Megatron-Core --overlap-moe-expert-parallel-comm)</source>
        <translation>专家并行的 all-to-all 隐藏在另一个微批次的计算之后（DualPipe，Megatron-Core --overlap-moe-expert-parallel-comm）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="311"/>
        <source>FP8 expert dispatch</source>
        <translation>FP8 专家分发</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="312"/>
        <source>Expert all-to-alls send the tokens in FP8 with one scale per 128 values, about half the bytes; combines stay BF16 (DeepSeek-V3, DeepEP)</source>
        <translation>专家 all-to-all 以 FP8 发送 token，每 128 个值一个缩放因子，字节数约减半；合并仍为 BF16（DeepSeek-V3，DeepEP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="85"/>
        <source>Layers per chunk</source>
        <translation>每块层数</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="86"/>
        <source>Transformer layers of each pipeline chunk in order, PP × VPP numbers separated by commas; empty: as even as possible</source>
        <translation>按顺序给出每个流水线块的 Transformer 层数，共 PP × VPP 个数，以逗号分隔；留空：尽量均分</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="156"/>
        <source>Attention core (default)</source>
        <translation>注意力核心（默认）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="157"/>
        <source>MLA up-projections</source>
        <translation>MLA 上投影</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="158"/>
        <source>MLA up-projections + expert activation</source>
        <translation>MLA 上投影 + 专家激活</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="160"/>
        <source>Norms + expert activation</source>
        <translation>归一化 + 专家激活</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="161"/>
        <source>Norms + whole MoE layer</source>
        <translation>归一化 + 整个 MoE 层</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="162"/>
        <source>Attention core + MLP</source>
        <translation>注意力核心 + MLP</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="172"/>
        <source>Recomputed modules</source>
        <translation>重计算模块</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="174"/>
        <source>What selective recomputation recomputes (Megatron --recompute-modules; needs recompute selective)</source>
        <translation>选择性重计算所重算的模块（Megatron --recompute-modules；需要选择性重计算）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="181"/>
        <source>Host launch per kernel</source>
        <translation>每个内核的主机启动时间</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="182"/>
        <source> µs</source>
        <translation> µs</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="183"/>
        <source>CPU time to issue one kernel; a layer takes the longer of its GPU time and its launch time</source>
        <translation>CPU 发出一个内核所需的时间；每层耗时取其 GPU 时间与启动时间中的较大者</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="186"/>
        <source>Execution</source>
        <translation>执行方式</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="188"/>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="190"/>
        <source>Whose kernels run the layers: it sets what memory they keep and, on Hopper, the attention kernel. Unset: inferred (PyTorch with compile, bf16 states or ZeRO 2/3)</source>
        <translation>由谁的内核执行各层：决定它们保留哪些显存，在 Hopper 上还决定注意力内核。未设置时自动推断（compile、bf16 状态或 ZeRO 2/3 时为 PyTorch）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="195"/>
        <source>Cross entropy</source>
        <translation>交叉熵</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="197"/>
        <source>How the loss is computed: it sets the memory the logits take. Unset: inferred from the framework</source>
        <translation>损失的计算方式：决定 logits 占用的显存。未设置：由框架推断</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="201"/>
        <source>Loss chunks</source>
        <translation>损失分块数</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="203"/>
        <source>Chunks of a chunked or linear-chunked loss</source>
        <translation>分块或线性分块损失的块数</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="206"/>
        <source>Attention kernel</source>
        <translation>注意力内核</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="208"/>
        <source>Which kernel runs attention; sinks need cuDNN or the unfused path</source>
        <translation>由哪个内核执行注意力；sink 需要 cuDNN 或非融合路径</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="211"/>
        <source>CUDA graphs</source>
        <translation>CUDA 图</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="213"/>
        <source>Captured kernels launch without host cost</source>
        <translation>被捕获的内核启动时没有主机开销</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="217"/>
        <source>FP8 attention</source>
        <translation>FP8 注意力</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="218"/>
        <source>Attention in FP8 (with an FP8 precision)</source>
        <translation>以 FP8 计算注意力（需 FP8 类精度）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="220"/>
        <source>FP8 weight cache</source>
        <translation>FP8 权重缓存</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="221"/>
        <source>Keep each weight&apos;s FP8 copy from the first micro-batch to the step (Transformer Engine); off: cast afresh per micro-batch</source>
        <translation>从第一个微批次到优化器步保留每个权重的 FP8 副本（Transformer Engine）；关闭：每个微批次重新转换</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="224"/>
        <source>Token dispatcher</source>
        <translation>Token 分发器</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="226"/>
        <source>How tokens reach their experts (Megatron --moe-token-dispatcher-type)</source>
        <translation>token 如何到达其专家（Megatron --moe-token-dispatcher-type）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="228"/>
        <source>Expert GEMMs</source>
        <translation>专家 GEMM</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="230"/>
        <source>Force expert balance</source>
        <translation>强制专家负载均衡</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="231"/>
        <source>Tokens spread evenly over the experts (benchmarks; --moe-router-force-load-balancing)</source>
        <translation>token 均匀分布到各专家（基准测试；--moe-router-force-load-balancing）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="277"/>
        <source>Embedding takes a layer slot</source>
        <translation>嵌入层占一个层位</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="278"/>
        <source>The input embedding counts as one layer in the default pipeline split (Megatron --account-for-embedding-in-pipeline-split)</source>
        <translation>在默认流水线切分中，输入嵌入按一层计（Megatron --account-for-embedding-in-pipeline-split）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="281"/>
        <source>Loss takes a layer slot</source>
        <translation>损失占一个层位</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="282"/>
        <source>The output layer and loss count as one layer in the default pipeline split (Megatron --account-for-loss-in-pipeline-split)</source>
        <translation>在默认流水线切分中，输出层与损失按一层计（Megatron --account-for-loss-in-pipeline-split）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="125"/>
        <source>Expert tensor parallel (ETP)</source>
        <translation>专家张量并行（ETP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="126"/>
        <source>Splits each expert&apos;s matrices; empty: as TP (Megatron --expert-tensor-parallel-size)</source>
        <translation>切分每个专家的矩阵；留空：与 TP 相同（Megatron --expert-tensor-parallel-size）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="141"/>
        <source>Recomputed layers per stage</source>
        <translation>每阶段重计算的层数</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="142"/>
        <source>Full recomputation of this many layers of each stage (Megatron --recompute-num-layers); empty: all</source>
        <translation>每个阶段完整重计算的层数（Megatron --recompute-num-layers）；留空：全部</translation>
    </message>
    <message>
        <location filename="../widgets/PlanEditor.cpp" line="144"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
</context>
<context>
    <name>ts::gui::PlanLayoutView</name>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="76"/>
        <source>× %1 data-parallel replicas of this pipeline</source>
        <translation>× %1 个该流水线的数据并行副本</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="84"/>
        <source>TP × CP = 1 GPU per stage replica: no tensor or context parallel traffic</source>
        <translation>TP × CP = 每个阶段副本 1 个 GPU：没有张量并行或上下文并行通信</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="86"/>
        <source>TP × CP = %1 GPUs per stage replica, inside one %2-GPU scale-up domain</source>
        <translation>TP × CP = 每个阶段副本 %1 个 GPU，位于一个 %2-GPU 纵向扩展域之内</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="88"/>
        <source>TP × CP = %1 GPUs per stage replica, more than one %2-GPU scale-up domain: part of its traffic crosses the scale-out network</source>
        <translation>TP × CP = 每个阶段副本 %1 个 GPU，超出一个 %2-GPU 纵向扩展域：部分通信要经过横向扩展网络</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="17"/>
        <source>Stages %1–%2</source>
        <translation>阶段 %1–%2</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="17"/>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="174"/>
        <source>%1 · pool %2</source>
        <translation>%1 · 资源池 %2</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="181"/>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="183"/>
        <source>%1 layers in %2 chunks</source>
        <translation>%1 层，分为 %2 个块</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="185"/>
        <source>%1 layers</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="188"/>
        <source>TP %1 × CP %2</source>
        <translation>TP %1 × CP %2</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="219"/>
        <source>Plan layout: TP %1 × PP %2 × CP %3 × DP %4 = %5 GPUs</source>
        <translation>方案布局：TP %1 × PP %2 × CP %3 × DP %4 = %5 个 GPU</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="281"/>
        <source>MoE layers: experts split %1 ways (EP) across the data-parallel GPUs</source>
        <translation>MoE 层：专家在数据并行 GPU 之间切分为 %1 份（EP）</translation>
    </message>
    <message>
        <location filename="../widgets/PlanLayoutView.cpp" line="275"/>
        <source>pipeline: forward pass from stage 0 to stage %1</source>
        <translation>流水线：前向传播从阶段 0 到阶段 %1</translation>
    </message>
</context>
<context>
    <name>ts::gui::PoolsEditor</name>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="74"/>
        <source>&lt;b&gt;Pools of unlike GPUs&lt;/b&gt;</source>
        <translation>&lt;b&gt;异构 GPU 资源池&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="76"/>
        <source>Id</source>
        <translation>标识</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="76"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="76"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="76"/>
        <source>Per node</source>
        <translation>每节点</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="80"/>
        <location filename="../widgets/PoolsEditor.cpp" line="223"/>
        <source>Use pools</source>
        <translation>使用资源池</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="81"/>
        <source>Turn this cluster into one pool and the plan into pipelines, to add GPUs of other kinds</source>
        <translation>把此集群变为一个资源池、把方案变为流水线，以便加入其他型号的 GPU</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="83"/>
        <location filename="../widgets/PoolsEditor.cpp" line="239"/>
        <source>Add pool</source>
        <translation>添加资源池</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="84"/>
        <location filename="../widgets/PoolsEditor.cpp" line="253"/>
        <source>Remove pool</source>
        <translation>移除资源池</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="88"/>
        <location filename="../widgets/PoolsEditor.cpp" line="286"/>
        <source>One cluster</source>
        <translation>单一集群</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="90"/>
        <source>Back to one uniform cluster of the first pool&apos;s GPUs</source>
        <translation>回到由第一个资源池的 GPU 组成的单一同构集群</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="94"/>
        <source>Link between pools (Gbit/s per node)</source>
        <translation>资源池间链路（每节点 Gbit/s）</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="97"/>
        <source>shared network</source>
        <translation>共享网络</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="98"/>
        <source>Per node, between pools whose networks are not one fabric; empty: the pools share the scale-out network</source>
        <translation>每节点，用于网络不属于同一互连结构的资源池之间；留空：资源池共享横向扩展网络</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="102"/>
        <source>Pipelines (replicas; stages as pool:tp, ...)</source>
        <translation>流水线（副本；阶段写作 资源池:tp, ...）</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="103"/>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="103"/>
        <source>Stages</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="103"/>
        <source>Micro-batch</source>
        <translation>微批大小</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="103"/>
        <source>Sequences</source>
        <translation>序列数</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="106"/>
        <location filename="../widgets/PoolsEditor.cpp" line="122"/>
        <source>Clear pipelines</source>
        <translation>清除流水线</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="108"/>
        <source>Remove the pipelines (search then chooses them)</source>
        <translation>移除流水线（之后由搜索选择）</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="110"/>
        <location filename="../widgets/PoolsEditor.cpp" line="131"/>
        <source>Add pipeline</source>
        <translation>添加流水线</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="259"/>
        <location filename="../widgets/PoolsEditor.cpp" line="269"/>
        <source>Edit pool link</source>
        <translation>编辑资源池间链路</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="265"/>
        <source>Link between pools: give Gbit/s per node, e.g. 400, or leave it empty</source>
        <translation>资源池间链路：请填写每节点 Gbit/s，例如 400，或留空</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="300"/>
        <source>Pool %1: GPUs must be a whole number of at least 1</source>
        <translation>资源池 %1：GPU 数必须是不小于 1 的整数</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="313"/>
        <source>Edit pools</source>
        <translation>编辑资源池</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="327"/>
        <source>Pipeline %1: give a count of at least 1 and stages as pool:tp, pool:tp (e.g. h100:8, a100:8)</source>
        <translation>流水线 %1：数量至少为 1，阶段写作 资源池:tp, 资源池:tp（例如 h100:8, a100:8）</translation>
    </message>
    <message>
        <location filename="../widgets/PoolsEditor.cpp" line="347"/>
        <source>Edit pipelines</source>
        <translation>编辑流水线</translation>
    </message>
</context>
<context>
    <name>ts::gui::PowerChart</name>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="25"/>
        <source>Facility power over one step</source>
        <translation>单步内的设施功率</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="117"/>
        <source>Seconds into the step</source>
        <translation>步内时间（秒）</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="118"/>
        <source>Facility power (kW)</source>
        <translation>设施功率（kW）</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="125"/>
        <source>No power estimate for this plan</source>
        <translation>此方案没有功率估算</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="153"/>
        <source>%1 to %2: %3 kW facility power</source>
        <translation>%1 至 %2：设施功率 %3 kW</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="161"/>
        <source>peak %1 kW</source>
        <translation>峰值 %1 kW</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="169"/>
        <source>Average over the step: %1 kW</source>
        <translation>全步平均：%1 kW</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="171"/>
        <source>average %1 kW (dashed) · peak %2 kW</source>
        <translation>平均 %1 kW（虚线）· 峰值 %2 kW</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="182"/>
        <source>Covers only the simulated part of the step: the first %1 of %2</source>
        <translation>仅覆盖步内已模拟的部分：%2 中的前 %1</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="190"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="191"/>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="192"/>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="193"/>
        <source>Cooling</source>
        <translation>冷却</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="203"/>
        <source>%1 kWh</source>
        <translation>%1 kWh</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="204"/>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="217"/>
        <source>%1: %2 per step, %3 of the facility&apos;s energy</source>
        <translation>%1：每步 %2，占设施能耗的 %3</translation>
    </message>
    <message>
        <location filename="../widgets/PowerChart.cpp" line="221"/>
        <source>Energy per step: %1</source>
        <translation>每步能耗：%1</translation>
    </message>
</context>
<context>
    <name>ts::gui::RunCostCards</name>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="49"/>
        <source>Time to train</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="50"/>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="51"/>
        <source>Energy</source>
        <translation>能耗</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="52"/>
        <source>CO₂ emitted</source>
        <translation>CO₂ 排放</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="58"/>
        <source>no estimate</source>
        <translation>无估算</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="61"/>
        <source>not computed: the energy and cost model has not produced this figure for the plan</source>
        <translation>未计算：能耗与成本模型尚未给出该方案的此项数值</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="78"/>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="79"/>
        <source>%1 steps</source>
        <translation>%1 步</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="81"/>
        <source>$%1</source>
        <translation>$%1</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="83"/>
        <source>$%1 per million tokens</source>
        <translation>每百万 token $%1</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="88"/>
        <source>%1 MWh</source>
        <translation>%1 MWh</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="89"/>
        <source>%1 kWh</source>
        <translation>%1 kWh</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="97"/>
        <source>%1 kg</source>
        <translation>%1 千克</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="96"/>
        <source>%1 t</source>
        <translation>%1 吨</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="59"/>
        <source>not computed: set the tokens to train (Training dock) for the run&apos;s totals</source>
        <translation>未计算：请在“训练”面板设置训练 token 总数以得到整个训练的合计</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="91"/>
        <source>%1 kWh per step</source>
        <translation>每步 %1 kWh</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="93"/>
        <source>average power %1</source>
        <translation>平均功率 %1</translation>
    </message>
    <message>
        <location filename="../widgets/RunCostCards.cpp" line="77"/>
        <source>set Tokens to train (Training dock)</source>
        <translation>请设置训练 token 数（训练面板）</translation>
    </message>
</context>
<context>
    <name>ts::gui::ScenarioDocument</name>
    <message>
        <location filename="../models/ScenarioDocument.cpp" line="129"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
</context>
<context>
    <name>ts::gui::ScenarioForm</name>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="442"/>
        <source>Not set in the file: the preset&apos;s or the format&apos;s default value.</source>
        <translation>文件中未设置：取自预设或格式的默认值。</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="121"/>
        <location filename="../widgets/ScenarioForm.cpp" line="135"/>
        <location filename="../widgets/ScenarioForm.cpp" line="149"/>
        <location filename="../widgets/ScenarioForm.cpp" line="317"/>
        <location filename="../widgets/ScenarioForm.cpp" line="320"/>
        <location filename="../widgets/ScenarioForm.cpp" line="322"/>
        <location filename="../widgets/ScenarioForm.cpp" line="431"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="224"/>
        <source>“%1” is not a number</source>
        <translation>“%1”不是数字</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="230"/>
        <source>%1 is out of range: give %2 to %3</source>
        <translation>%1 超出范围：请填写 %2 到 %3</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="251"/>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="252"/>
        <source>Reset %1 to its default</source>
        <translation>将%1重置为默认值</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="279"/>
        <location filename="../widgets/ScenarioForm.cpp" line="289"/>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="293"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="293"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location filename="../widgets/ScenarioForm.cpp" line="355"/>
        <source>Reset to the default: remove %1 from the file</source>
        <translation>重置为默认值：从文件中删除 %1</translation>
    </message>
</context>
<context>
    <name>ts::gui::ScenarioSummaryModel</name>
    <message>
        <location filename="../models/ScenarioSummaryModel.cpp" line="132"/>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../models/ScenarioSummaryModel.cpp" line="132"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>ts::gui::SearchResultsModel</name>
    <message>
        <location filename="../models/SearchResultsModel.cpp" line="93"/>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <location filename="../models/SearchResultsModel.cpp" line="95"/>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <location filename="../models/SearchResultsModel.cpp" line="97"/>
        <source>Step (s)</source>
        <translation>单步（秒）</translation>
    </message>
    <message>
        <location filename="../models/SearchResultsModel.cpp" line="99"/>
        <source>Tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <location filename="../models/SearchResultsModel.cpp" line="101"/>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <location filename="../models/SearchResultsModel.cpp" line="103"/>
        <source>Peak (GiB)</source>
        <translation>峰值（GiB）</translation>
    </message>
    <message>
        <location filename="../models/SearchResultsModel.cpp" line="105"/>
        <source>Days</source>
        <translation>天数</translation>
    </message>
    <message>
        <location filename="../models/SearchResultsModel.cpp" line="107"/>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
</context>
<context>
    <name>ts::gui::SearchView</name>
    <message>
        <location filename="../widgets/SearchView.cpp" line="92"/>
        <source>Searching: %1 plans so far</source>
        <translation>搜索中：已处理 %1 个方案</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="108"/>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="108"/>
        <source>Tokens per second</source>
        <translation>每秒 token 数</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="109"/>
        <source>Time to train</source>
        <translation>训练时长</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="109"/>
        <source>Cost per token</source>
        <translation>每 token 成本</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="110"/>
        <source>Cost per run</source>
        <translation>每次训练成本</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="110"/>
        <source>Energy per run</source>
        <translation>每次训练能耗</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="114"/>
        <source>Objective</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="114"/>
        <location filename="../widgets/SearchViewPlot.cpp" line="58"/>
        <source>Best plans</source>
        <translation>最佳方案数</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="114"/>
        <source>Memory headroom</source>
        <translation>显存余量</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="115"/>
        <source>Threads (0: all)</source>
        <translation>线程数（0：全部）</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="115"/>
        <source>Pins</source>
        <translation>固定字段</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="115"/>
        <source>Launcher</source>
        <translation>启动器</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="119"/>
        <source>Fix fields or allow lists, as for trainscape-cli search --pin</source>
        <translation>固定字段或给出允许值列表，同 trainscape-cli search --pin</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="120"/>
        <source>Any launcher (plans at least one target exports as they are)</source>
        <translation>任一启动器（至少一个目标可原样导出的方案）</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="121"/>
        <source>No launcher filter</source>
        <translation>不按启动器过滤</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="122"/>
        <source>Rank only plans this launcher runs as they are, as trainscape-cli search --target</source>
        <translation>只排名此启动器可原样运行的方案，同 trainscape-cli search --target</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="124"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="125"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="126"/>
        <source>Apply plan</source>
        <translation>应用方案</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="127"/>
        <source>Step time (s)</source>
        <translation>单步时间（秒）</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="128"/>
        <source>Peak memory per GPU (GiB)</source>
        <translation>每 GPU 峰值显存（GiB）</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="138"/>
        <source>The scenario has errors: fix them to search</source>
        <translation>场景有错误：修正后才能搜索</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="165"/>
        <source>Searching…</source>
        <translation>搜索中…</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="183"/>
        <source>%1 plans, %2 timed, %3 fit, %4 full estimates, %5 s</source>
        <translation>%1 个方案，%2 个已计时，%3 个可放下，%4 次完整估算，%5 秒</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="190"/>
        <source>Cancelled: </source>
        <translation>已取消：</translation>
    </message>
    <message>
        <location filename="../widgets/SearchView.cpp" line="194"/>
        <source>; this scenario&apos;s plan ranks %1</source>
        <translation>；本场景的方案排名第 %1</translation>
    </message>
    <message>
        <location filename="../widgets/SearchViewPlot.cpp" line="45"/>
        <source>Timed plans (bounds)</source>
        <translation>已计时方案（下界）</translation>
    </message>
    <message>
        <location filename="../widgets/SearchViewPlot.cpp" line="51"/>
        <source>Pareto front (time, memory)</source>
        <translation>帕累托前沿（时间，显存）</translation>
    </message>
    <message>
        <location filename="../widgets/SearchViewPlot.cpp" line="65"/>
        <source>This scenario&apos;s plan</source>
        <translation>本场景的方案</translation>
    </message>
    <message>
        <location filename="../widgets/SearchViewPlot.cpp" line="92"/>
        <source>%1
step ≥ %2 s (bound) · %3 GiB</source>
        <translation>%1
单步 ≥ %2 秒（下界）· %3 GiB</translation>
    </message>
    <message>
        <location filename="../widgets/SearchViewPlot.cpp" line="98"/>
        <source>%1
%2 s/step · %3 GiB · MFU %4%</source>
        <translation>%1
%2 秒/步 · %3 GiB · MFU %4%</translation>
    </message>
    <message>
        <location filename="../widgets/SearchViewPlot.cpp" line="124"/>
        <location filename="../widgets/SearchViewPlot.cpp" line="146"/>
        <source>Apply searched plan</source>
        <translation>应用搜索到的方案</translation>
    </message>
</context>
<context>
    <name>ts::gui::SelectTool</name>
    <message>
        <location filename="../widgets/TopologyTools.h" line="42"/>
        <source>Select</source>
        <translation>选择</translation>
    </message>
</context>
<context>
    <name>ts::gui::StepTimeChart</name>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="10"/>
        <source>Step time breakdown</source>
        <translation>单步时间分解</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="16"/>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="17"/>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="18"/>
        <source>TP exposed</source>
        <translation>TP 暴露通信</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="19"/>
        <source>CP exposed</source>
        <translation>CP 暴露通信</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="20"/>
        <source>EP exposed</source>
        <translation>EP 暴露通信</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="21"/>
        <source>PP exposed</source>
        <translation>PP 暴露通信</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="22"/>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="23"/>
        <source>DP exposed</source>
        <translation>DP 暴露通信</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="24"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="25"/>
        <source>Offload exposed</source>
        <translation>卸载暴露时间</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="40"/>
        <source>%1: %2 (%3 of the step)</source>
        <translation>%1：%2（占单步 %3）</translation>
    </message>
    <message>
        <location filename="../widgets/StepTimeChart.cpp" line="47"/>
        <source>Seconds per step (total %1)</source>
        <translation>每步秒数（合计 %1）</translation>
    </message>
</context>
<context>
    <name>ts::gui::TimelineChart</name>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="10"/>
        <source>Pipeline schedule (one step)</source>
        <translation>流水线调度（一步）</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="16"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="18"/>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="20"/>
        <source>backward (input gradients)</source>
        <translation>反向（输入梯度）</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="22"/>
        <source>backward (weight gradients)</source>
        <translation>反向（权重梯度）</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="24"/>
        <source>gradient reduction</source>
        <translation>梯度归约</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="26"/>
        <source>optimizer step</source>
        <translation>优化器更新</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="53"/>
        <source>%1 of micro-batch %2</source>
        <translation>微批 %2 的%1</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="55"/>
        <source>%1, chunk %2</source>
        <translation>%1，模型块 %2</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="57"/>
        <source>Stage %1 · %2
%3 → %4 (%5)</source>
        <translation>阶段 %1 · %2
%3 → %4（%5）</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="66"/>
        <source>stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="71"/>
        <source>Seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="73"/>
        <source>Seconds (the first %1 of %2 micro-batches are simulated; the rest repeat the steady state)</source>
        <translation>秒（模拟了 %2 个微批中的前 %1 个；其余重复稳态）</translation>
    </message>
    <message>
        <location filename="../widgets/TimelineChart.cpp" line="78"/>
        <source> · first %1 of %2 operations drawn</source>
        <translation> · 绘制了 %2 个操作中的前 %1 个</translation>
    </message>
</context>
<context>
    <name>ts::gui::TopologyCanvas</name>
    <message>
        <location filename="../widgets/TopologyCanvas.cpp" line="179"/>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyCanvas.cpp" line="191"/>
        <source>Collapse %1</source>
        <translation>折叠 %1</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyCanvas.cpp" line="196"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyCanvas.cpp" line="198"/>
        <source>Fit to window</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyCanvas.cpp" line="230"/>
        <source>Nothing to delete</source>
        <translation>没有可删除的内容</translation>
    </message>
</context>
<context>
    <name>ts::gui::TopologyCommand</name>
    <message>
        <location filename="../models/TopologyCommands.cpp" line="53"/>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <location filename="../models/TopologyCommands.cpp" line="67"/>
        <source>Link %1 to %2</source>
        <translation>连接 %1 与 %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../models/TopologyCommands.cpp" line="82"/>
        <source>Delete %n item(s)</source>
        <translation>
            <numerusform>删除 %n 项</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../models/TopologyCommands.cpp" line="119"/>
        <source>Move %n node(s)</source>
        <translation>
            <numerusform>移动 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../models/TopologyCommands.cpp" line="149"/>
        <source>Change %1</source>
        <translation>修改 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../models/TopologyCommands.cpp" line="177"/>
        <source>Change %n link(s)</source>
        <translation>
            <numerusform>修改 %n 条链路</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ts::gui::TopologyGraphModel</name>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="92"/>
        <location filename="../models/TopologyGraphModel.cpp" line="249"/>
        <source>unknown node</source>
        <translation>未知节点</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="96"/>
        <source>a link must join two different nodes</source>
        <translation>链路必须连接两个不同的节点</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="108"/>
        <source>the NIC already serves this GPU</source>
        <translation>该网卡已服务于此 GPU</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="117"/>
        <source>GPUs reach the network through NICs; scale-up links join GPUs and scale-up switches</source>
        <translation>GPU 通过网卡接入网络；纵向扩展链路连接 GPU 与纵向扩展交换机</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="133"/>
        <source>%1 has all its %2 ports in use: raise its radix</source>
        <translation>%1 的 %2 个端口已全部占用：请提高其端口数（radix）</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="166"/>
        <source>a node &quot;%1&quot; exists already</source>
        <translation>节点 &quot;%1&quot; 已存在</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="256"/>
        <source>a node keeps its kind; delete it and add another</source>
        <translation>节点类型不可更改；请删除后再添加新节点</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="274"/>
        <location filename="../models/TopologyGraphModel.cpp" line="279"/>
        <source>unknown link</source>
        <translation>未知链路</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="284"/>
        <source>a link keeps its ends; delete it and draw another</source>
        <translation>链路端点不可更改；请删除后重新连线</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="286"/>
        <source>the bandwidth must be above 0 GB/s</source>
        <translation>带宽必须大于 0 GB/s</translation>
    </message>
    <message>
        <location filename="../models/TopologyGraphModel.cpp" line="288"/>
        <source>scale-up links join GPUs and scale-up switches, others the network</source>
        <translation>纵向扩展链路连接 GPU 与纵向扩展交换机，其他链路属于网络</translation>
    </message>
</context>
<context>
    <name>ts::gui::TopologyPropertiesPanel</name>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="26"/>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="131"/>
        <source>Select a node, a link or a group.</source>
        <translation>请选择一个节点、一条链路或一个组。</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="36"/>
        <source>not limited</source>
        <translation>不限</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="39"/>
        <source>from the NICs</source>
        <translation>按到网卡的距离</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="43"/>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="44"/>
        <source>Radix (ports)</source>
        <translation>端口数（radix）</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="45"/>
        <source>Tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="46"/>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="54"/>
        <source>scale-up</source>
        <translation>纵向扩展</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="55"/>
        <source>scale-out</source>
        <translation>横向扩展</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="56"/>
        <source>WAN</source>
        <translation>广域网</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="60"/>
        <source> GB/s</source>
        <translation> GB/s</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="64"/>
        <source> µs</source>
        <translation> µs</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="66"/>
        <source>Link class</source>
        <translation>链路类别</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="67"/>
        <source>Bandwidth per direction</source>
        <translation>单向带宽</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="68"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="75"/>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="76"/>
        <source>Collapse parent</source>
        <translation>折叠上级组</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="127"/>
        <source>%n link(s) selected</source>
        <translation>
            <numerusform>已选择 %n 条链路</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyPropertiesPanel.cpp" line="132"/>
        <source>%n item(s) selected</source>
        <translation>
            <numerusform>已选择 %n 项</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ts::gui::TopologyScene</name>
    <message numerus="yes">
        <location filename="../widgets/TopologyScene.cpp" line="34"/>
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 个 GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyScene.cpp" line="36"/>
        <source>%n NIC(s)</source>
        <translation>
            <numerusform>%n 块网卡</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyScene.cpp" line="38"/>
        <source>%n switch(es)</source>
        <translation>
            <numerusform>%n 台交换机</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="46"/>
        <source>Pod %1</source>
        <translation>Pod %1</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="48"/>
        <source>Scalable unit %1</source>
        <translation>可扩展单元 %1</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="50"/>
        <source>Scale-up domain %1</source>
        <translation>纵向扩展域 %1</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="52"/>
        <source>Node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="56"/>
        <source>Tier %1 switches</source>
        <translation>第 %1 层交换机</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyScene.cpp" line="321"/>
        <source>%n link(s), %1</source>
        <translation>
            <numerusform>%n 条链路，%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="322"/>
        <source>mixed classes</source>
        <translation>多种类别</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="323"/>
        <source>%1 GB/s per direction</source>
        <translation>单向 %1 GB/s</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="325"/>
        <source>%1 per step, utilisation %2%</source>
        <translation>每步 %1，利用率 %2%</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyScene.cpp" line="329"/>
        <source>(routed for a sample of ranks, scaled to all)</source>
        <translation>（按部分 rank 的抽样路由，并按全体缩放）</translation>
    </message>
</context>
<context>
    <name>ts::gui::TopologyTemplatePanel</name>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="39"/>
        <source>NVSwitch domain (one server)</source>
        <translation>NVSwitch 域（单台服务器）</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="40"/>
        <source>NVL72 racks</source>
        <translation>NVL72 机柜</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="41"/>
        <source>Rail-optimized fat-tree</source>
        <translation>轨道优化胖树</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="42"/>
        <source>Fat-tree</source>
        <translation>胖树</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="43"/>
        <source>Rail-only</source>
        <translation>仅轨道（Rail-only）</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="44"/>
        <source>Torus of domains</source>
        <translation>域组成的环面（Torus）</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="45"/>
        <source>Multi-datacenter</source>
        <translation>多数据中心</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="51"/>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="57"/>
        <source> Gbit/s</source>
        <translation> Gbit/s</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="55"/>
        <source>as needed</source>
        <translation>按需</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="58"/>
        <source> µs</source>
        <translation> µs</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="59"/>
        <source>Template</source>
        <translation>模板</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="60"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="61"/>
        <source>GPUs per scale-up domain</source>
        <translation>每个纵向扩展域的 GPU 数</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="62"/>
        <source>GPUs per node</source>
        <translation>每节点 GPU 数</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="63"/>
        <source>NICs per node</source>
        <translation>每节点网卡数</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="64"/>
        <source>NIC rate</source>
        <translation>网卡速率</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="65"/>
        <source>Switch radix</source>
        <translation>交换机端口数</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="66"/>
        <source>Leaf oversubscription</source>
        <translation>叶交换机超分比</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="67"/>
        <source>Switch tiers</source>
        <translation>交换机层数</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="68"/>
        <source>Datacenters</source>
        <translation>数据中心数</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="69"/>
        <source>WAN per datacenter</source>
        <translation>每个数据中心的广域网带宽</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="70"/>
        <source>WAN latency</source>
        <translation>广域网延迟</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="72"/>
        <source>Apply template</source>
        <translation>应用模板</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="167"/>
        <source>The builder refused these parameters</source>
        <translation>构建器拒绝了这些参数</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyTemplatePanel.cpp" line="193"/>
        <source>Template: %1</source>
        <translation>模板：%1</translation>
    </message>
</context>
<context>
    <name>ts::gui::TopologyView</name>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="91"/>
        <source>Templates</source>
        <translation>模板</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="92"/>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="93"/>
        <source>Network cost</source>
        <translation>网络成本</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="101"/>
        <source>Link utilisation over one step: 0 % (blue) to 100 % (red)</source>
        <translation>单步内的链路利用率：0 %（蓝）到 100 %（红）</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="134"/>
        <source>Select</source>
        <translation>选择</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="135"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="136"/>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="137"/>
        <source>Switch</source>
        <translation>交换机</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="138"/>
        <source>NVSwitch</source>
        <translation>NVSwitch</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="139"/>
        <source>WAN router</source>
        <translation>广域网路由器</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="140"/>
        <source>Link</source>
        <translation>连线</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="141"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="151"/>
        <source>Fit</source>
        <translation>适应</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="152"/>
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="153"/>
        <source>Collapse</source>
        <translation>折叠</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="155"/>
        <source>Heat map</source>
        <translation>热力图</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="159"/>
        <source>No group</source>
        <translation>不显示组</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="161"/>
        <source>%1 group</source>
        <translation>%1 组</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="164"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="174"/>
        <source>Export SVG…</source>
        <translation>导出 SVG…</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="175"/>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyView.cpp" line="245"/>
        <source>%n problem(s) in the drawing: %1</source>
        <translation>
            <numerusform>拓扑图中有 %n 个问题：%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="253"/>
        <source>%1 GPUs, %2 nodes and %3 links; %4 items drawn</source>
        <translation>%1 个 GPU，%2 个节点，%3 条链路；绘制了 %4 个图元</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="257"/>
        <source> (the builder&apos;s graph: an edit writes it into the scenario)</source>
        <translation>（构建器生成的图：一经编辑即写入场景）</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="284"/>
        <source>Heat map: no estimate for this scenario</source>
        <translation>热力图：此场景没有估算结果</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="288"/>
        <source>Heat map: not drawn for a plan over pools (each pool has its own network); see the estimate&apos;s traffic per link class</source>
        <translation>热力图：资源池方案不绘制（每个资源池有自己的网络）；请查看估算中按链路类别的流量</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="316"/>
        <source>Heat map of one step (%1), hottest drawn link at %2: hover a link for its bytes and utilisation</source>
        <translation>单步热力图（%1），所绘链路中最高利用率 %2：悬停链路可查看字节数与利用率</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="320"/>
        <source>; routed from a sample of the ranks and scaled to all of them</source>
        <translation>；按部分 rank 抽样路由，并按全部 rank 换算</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="356"/>
        <source>No %1 group in this plan</source>
        <translation>此方案中没有 %1 组</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyView.cpp" line="381"/>
        <source>%1 group %2: %n GPU(s)</source>
        <translation>
            <numerusform>%1 组 %2：%n 个 GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyView.cpp" line="385"/>
        <source>, %n link(s) on its ring</source>
        <translation>
            <numerusform>，环上 %n 条链路</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/TopologyView.cpp" line="384"/>
        <source>, %n link(s) in its all-to-all</source>
        <translation>
            <numerusform>，其 all-to-all 使用 %n 条链路</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="401"/>
        <source>Export drawing as SVG</source>
        <translation>将拓扑图导出为 SVG</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="401"/>
        <source>Export drawing as PNG</source>
        <translation>将拓扑图导出为 PNG</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="402"/>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="402"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="406"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location filename="../widgets/TopologyView.cpp" line="406"/>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>ts::gui::TrainingEditor</name>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="158"/>
        <source>Tokens per packed document</source>
        <translation>每个打包文档的词元数</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="160"/>
        <source>Sequences packed from shorter documents whose attention stays within each (THD / variable-length attention, packed SFT data): their mean length. Empty: the whole sequence attends</source>
        <translation>由较短文档打包而成、注意力仅限于各自文档内的序列（THD / 变长注意力，打包的 SFT 数据）：文档的平均长度。留空：整个序列参与注意力</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="180"/>
        <source>Gradient buffer</source>
        <translation>梯度缓冲区</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="182"/>
        <source>The dtype gradients accumulate and are reduced in beside FP32 master weights: FP32 by default; BF16 halves the gradient memory and the data-parallel traffic (Megatron-LM --grad-reduce-in-bf16)</source>
        <translation>与 FP32 主权重配合时梯度累加和归约所用的数据类型：默认 FP32；BF16 使梯度内存和数据并行通信量减半（Megatron-LM --grad-reduce-in-bf16）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="147"/>
        <source>Batch</source>
        <translation>批</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="148"/>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="149"/>
        <location filename="../widgets/TrainingEditor.cpp" line="159"/>
        <source> tokens</source>
        <translation> token</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="150"/>
        <source>Global batch</source>
        <translation>全局批大小</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="151"/>
        <location filename="../widgets/TrainingEditor.cpp" line="154"/>
        <source> sequences</source>
        <translation> 条序列</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="152"/>
        <source>Sequences per optimizer step, over all data-parallel ranks</source>
        <translation>每个优化器步的序列数，覆盖所有数据并行 rank</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="154"/>
        <source>Micro-batch</source>
        <translation>微批大小</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="155"/>
        <source>Sequences per forward/backward pass on one pipeline</source>
        <translation>一条流水线上每次前向/反向的序列数</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="163"/>
        <source>Numerics</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="25"/>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="166"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="211"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="38"/>
        <source>FP8 scaling</source>
        <translation>FP8 缩放</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="39"/>
        <source>Delayed (per tensor, amax history)</source>
        <translation>延迟缩放（逐张量，amax 历史）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="40"/>
        <source>TransformerEngine DelayedScaling: scales from earlier iterations, one cast pass per GEMM input</source>
        <translation>TransformerEngine DelayedScaling：缩放因子取自先前迭代，每个 GEMM 输入一次转换</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="42"/>
        <source>Tensorwise (per tensor, current)</source>
        <translation>逐张量（当前缩放）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="43"/>
        <source>Current scaling (TransformerEngine Float8CurrentScaling, torchao tensorwise): an amax pass before each cast</source>
        <translation>当前缩放（TransformerEngine Float8CurrentScaling、torchao tensorwise）：每次转换前先求一遍 amax</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="45"/>
        <source>Blockwise (1×128 and 128×128 blocks)</source>
        <translation>分块（1×128 与 128×128 块）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="46"/>
        <source>TransformerEngine Float8BlockScaling, as DeepSeek-V3: FP32 scales per block</source>
        <translation>TransformerEngine Float8BlockScaling，同 DeepSeek-V3：每块一个 FP32 缩放因子</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="48"/>
        <source>How FP8 GEMM inputs are scaled (Megatron-LM --fp8-recipe; needs precision FP8)</source>
        <translation>FP8 GEMM 输入的缩放方式（Megatron-LM --fp8-recipe；需精度为 FP8）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="137"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="138"/>
        <source>The scenario&apos;s name; empty: the headline derived from the model, the GPUs and the plan</source>
        <translation>场景名称；留空：由模型、GPU 和方案生成的标题</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="145"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="169"/>
        <source>How the optimizer step runs. Fused: Megatron, DeepSpeed, torchtitan; foreach (torch.optim without fused=True) holds a temporary the size of Adam&apos;s second moments during the step</source>
        <translation>优化器步骤的执行方式。融合：Megatron、DeepSpeed、torchtitan；foreach（未设 fused=True 的 torch.optim）在步骤中持有与 Adam 二阶矩同样大小的临时张量</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="213"/>
        <source>Tokens to train (billions)</source>
        <translation>训练 token 数（十亿）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="214"/>
        <source>Total training tokens, in billions (15000 = 15T, as Llama 3). The run&apos;s days, cost, energy and CO₂ need it.</source>
        <translation>训练 token 总数，单位十亿（15000 = 15T，如 Llama 3）。训练天数、成本、能耗和 CO₂ 都需要它。</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="67"/>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="68"/>
        <source>None (pre-training)</source>
        <translation>无（预训练）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="69"/>
        <source>Every weight trains with full optimizer states</source>
        <translation>所有权重都训练，保留完整的优化器状态</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="70"/>
        <source>Full fine-tuning</source>
        <translation>全参数微调</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="71"/>
        <source>Every weight trains; states in the training precision</source>
        <translation>所有权重都训练；状态采用训练精度</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="72"/>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="73"/>
        <source>Low-rank adapters on a frozen 16-bit base (Hu et al. 2021)</source>
        <translation>在冻结的 16 位基座上加低秩适配器（Hu 等，2021）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="74"/>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="75"/>
        <source>Adapters on a 4-bit NF4 base (Dettmers et al. 2023)</source>
        <translation>在 4 位 NF4 基座上加适配器（Dettmers 等，2023）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="76"/>
        <source>Which weights train (the scenario&apos;s finetune section)</source>
        <translation>哪些权重参与训练（场景的 finetune 部分）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="100"/>
        <source>Adapter targets</source>
        <translation>适配器目标模块</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="101"/>
        <source>q, v (PEFT default)</source>
        <translation>q、v（PEFT 默认）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="102"/>
        <source>q, k, v</source>
        <translation>q、k、v</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="103"/>
        <source>Attention (q, k, v, o)</source>
        <translation>注意力（q、k、v、o）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="107"/>
        <source>q, v, o and the MLP (torchtune)</source>
        <translation>q、v、o 和 MLP（torchtune）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="109"/>
        <source>All linear layers</source>
        <translation>所有线性层</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="112"/>
        <source>All linear layers and lm_head</source>
        <translation>所有线性层及 lm_head</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="115"/>
        <source>The modules the adapters wrap</source>
        <translation>适配器所包裹的模块</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="122"/>
        <source>Base weights</source>
        <translation>基座权重</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="123"/>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="124"/>
        <source>FP16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="125"/>
        <source>FP8</source>
        <translation>FP8</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="126"/>
        <source>INT8</source>
        <translation>INT8</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="127"/>
        <source>NF4 (4-bit)</source>
        <translation>NF4（4 位）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="128"/>
        <source>Storage of the frozen base: 16-bit for LoRA, quantised for QLoRA</source>
        <translation>冻结基座的存储格式：LoRA 为 16 位，QLoRA 为量化格式</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="167"/>
        <source>Optimizer kernels</source>
        <translation>优化器内核</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="172"/>
        <source>Optimizer step in backward</source>
        <translation>在反向传播中执行优化器更新</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="173"/>
        <source>Step each weight in its gradient hook: no whole-model gradient buffer (torchtune optimizer_in_bwd; one micro-batch per step)</source>
        <translation>在每个权重的梯度钩子中更新：无需整模型梯度缓冲（torchtune optimizer_in_bwd；每步仅一个微批）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="175"/>
        <source>FP32 master weights</source>
        <translation>FP32 主权重</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="176"/>
        <source>FP32 master weights, gradients and optimizer states (Megatron-LM, torchtitan); off: all states in the training precision (torchtune)</source>
        <translation>FP32 主权重、梯度和优化器状态（Megatron-LM、torchtitan）；关闭时所有状态采用训练精度（torchtune）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="191"/>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="192"/>
        <source>Compiled model: fused elementwise kernels keep fewer activations</source>
        <translation>编译模型：融合的逐元素算子保存更少的激活</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="193"/>
        <source>Fine-tuning</source>
        <translation>微调</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="196"/>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="197"/>
        <source>Rank r of each adapter (typically 8 to 64)</source>
        <translation>每个适配器的秩 r（通常为 8 到 64）</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="202"/>
        <source>LoRA alpha</source>
        <translation>LoRA alpha</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="203"/>
        <source>Scaling alpha / r of the update</source>
        <translation>更新量的缩放系数 alpha / r</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="209"/>
        <source>Double quantisation</source>
        <translation>双重量化</translation>
    </message>
    <message>
        <location filename="../widgets/TrainingEditor.cpp" line="210"/>
        <source>QLoRA: 8-bit NF4 block scales (0.127 instead of 0.5 bits per weight)</source>
        <translation>QLoRA：NF4 块缩放因子量化为 8 位（每个权重 0.127 位而非 0.5 位）</translation>
    </message>
</context>
</TS>
