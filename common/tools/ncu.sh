# Sourced by the parts' gpu_checks.sh: the Nsight Compute counters their pages cite, and one way
# to ask ncu for them.
#
#   NCU_BANK_METRICS     shared-memory bank conflicts, wavefronts and instructions (loads, stores)
#   NCU_SECTOR_METRICS   global sectors and requests (loads, stores), DRAM bytes, kernel time
#
# ncu_counters METRICS KERNEL_REGEX SKIP COUNT LOG PROGRAM [ARG...]: runs PROGRAM with the ARGs
# under ncu (${NCU:-ncu}) and prints the CSV lines of the counters of COUNT launches of the kernels
# matching KERNEL_REGEX (demangled names), after SKIP such launches (empty: ncu's default, none);
# ncu's own messages are appended to LOG.
#
# It also sets what every gpu_checks.sh starts with: BUILD (default build) and BIN, the programs;
# NCU (default ncu); and OUT, the output directory, which must be set and is created.
BUILD=${BUILD:-build}
BIN=$BUILD/bin
NCU=${NCU:-ncu}
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"
NCU_BANK_METRICS=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
NCU_SECTOR_METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum

ncu_counters() {
  local metrics=$1 kernel=$2 skip=$3 count=$4 log=$5
  shift 5
  "${NCU:-ncu}" --csv --print-units base --metrics "$metrics" --kernel-name-base demangled \
    -k "regex:$kernel" ${skip:+--launch-skip "$skip"} --launch-count "$count" "$@" \
    2>>"$log" | grep '^"'
}
