#!/bin/sh
# From a backward kernel to the Python line (issue 14, point 4): the
# traceback of a backward kernel goes on past the autograd node into the
# forward op linked by Sequence number and the Python stack that ran it,
# marked "forward of this backward op".
. "${top_srcdir:-.}/tests/ui/lib.sh"
need_shared
traces=$(cd "$TRACES" && pwd)
run_script backward "$traces/kineto-v100-resnet50-pt19.pt.trace.json.gz" --size 140x42 <<'STEPS'
view kernels
filter convolution_backward_weight
t
M
expect CudnnConvolutionBackward
expect aten::cudnn_convolution  (forward of this backward op)
expect torchvision/models/resnet.py:132
expect resnet50_profiler_api.py:46
save-display backward-traceback.txt
STEPS
check_screen backward-traceback.txt
run_script backward80 "$traces/kineto-v100-resnet50-pt19.pt.trace.json.gz" --size 80x24 <<'STEPS'
view kernels
filter convolution_backward_weight
t
M
expect (forward of this backward op)
save-display backward-traceback-80x24.txt
STEPS
check_screen backward-traceback-80x24.txt
finish
