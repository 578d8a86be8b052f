/* Built-in device peaks (datasheet dense peaks), matching of deviceProperties
 * records, and TraceLens arch JSON files. */
#include "config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/roofline/devices.h"
#include "core/base/strbuf.h"

const char *devices_prec_name(enum prec p)
{
    static const char *const names[] = {
#define PREC_NAME(id, name) [id] = name,
        PREC_INFO(PREC_NAME)
#undef PREC_NAME
    };
    return (unsigned)p < ARRAY_SIZE(names) ? names[p] : "?";
}

int devices_prec_parse(const char *s)
{
    for (int p = 0; p < PREC__COUNT; p++)
        if (strcasecmp(s, devices_prec_name(p)) == 0)
            return p;
    return -1;
}

/* Columns of the peak arrays: fp64, fp32, tf32, bf16, fp16, fp8, int8.
 * "matrix" is the path a GEMM of that dtype takes by default (tensor /
 * matrix cores where the device has them for the dtype, else the CUDA /
 * vector cores: PyTorch runs fp32 matmuls without TF32 unless asked), so
 * matrix fp32 on NVIDIA parts is the CUDA-core rate and TF32 has its own
 * column. Tensor-core figures are dense: datasheets that quote sparsity
 * are halved. 0 = the document gives no figure. */
struct builtin {
    const char *name;
    double mem_bw_gbps;
    double matrix[PREC__COUNT];
    double vector[PREC__COUNT];
};

static const struct builtin builtins[] = {
    /* NVIDIA Tesla V100 GPU Accelerator datasheet (Volta, SXM2 column),
     * images.nvidia.com/content/technologies/volta/pdf/
     * tesla-volta-v100-datasheet-letter-fnl-web.pdf: DP 7.8, SP 15.7,
     * Tensor 125 TFLOPS, HBM2 900 GB/s. FP16 without tensor cores is 2x SP
     * (Volta architecture whitepaper). No BF16 / TF32 / FP8. */
    {"V100 SXM2", 900, {7.8, 15.7, 0, 0, 125, 0, 0}, {7.8, 15.7, 0, 0, 31.4, 0, 0}},
    /* Same datasheet, PCIe column: DP 7, SP 14, Tensor 112 TFLOPS, 900 GB/s. */
    {"V100 PCIe", 900, {7, 14, 0, 0, 112, 0, 0}, {7, 14, 0, 0, 28, 0, 0}},
    /* NVIDIA A100 Tensor Core GPU datasheet (nvidia-a100-datasheet-us-
     * nvidia-1758950-r4-web.pdf), 40GB SXM: FP64 9.7, FP64 Tensor 19.5,
     * FP32 19.5, TF32 156, BF16/FP16 312, INT8 624 TOPS, HBM2 1,555 GB/s.
     * Non-tensor FP16 78 / BF16 39 TFLOPS: "NVIDIA A100 Tensor Core GPU
     * Architecture" whitepaper, table 1. */
    {"A100 40GB", 1555, {19.5, 19.5, 156, 312, 312, 0, 624}, {9.7, 19.5, 0, 39, 78, 0, 0}},
    /* Same datasheet, 80GB SXM column: HBM2e 2,039 GB/s. */
    {"A100 80GB", 2039, {19.5, 19.5, 156, 312, 312, 0, 624}, {9.7, 19.5, 0, 39, 78, 0, 0}},
    /* Same datasheet, 80GB PCIe column: HBM2e 1,935 GB/s. */
    {"A100 80GB PCIe", 1935, {19.5, 19.5, 156, 312, 312, 0, 624}, {9.7, 19.5, 0, 39, 78, 0, 0}},
    /* NVIDIA H100 Tensor Core GPU datasheet (resources.nvidia.com/
     * en-us-tensor-core/nvidia-tensor-core-gpu-datasheet), H100 SXM: FP64
     * 34, FP64 Tensor 67, FP32 67, TF32 989 / BF16 1,979 / FP16 1,979 / FP8
     * 3,958 / INT8 3,958 with sparsity (halved here), 3.35 TB/s. Non-tensor
     * FP16/BF16 133.8: "NVIDIA H100 Tensor Core GPU Architecture"
     * whitepaper, table 3. */
    {"H100 SXM", 3350, {67, 67, 494.5, 989.5, 989.5, 1979, 1979}, {34, 67, 0, 133.8, 133.8, 0, 0}},
    /* Same datasheet, H100 PCIe: FP64 26, FP64 Tensor 51, FP32 51, TF32
     * 756 / BF16 1,513 / FP16 1,513 / FP8 3,026 / INT8 3,026 sparse, 2 TB/s.
     * Non-tensor FP16/BF16 2x FP32 (whitepaper, table 3). */
    {"H100 PCIe", 2000, {51, 51, 378, 756.5, 756.5, 1513, 1513}, {26, 51, 0, 102, 102, 0, 0}},
    /* NVIDIA H200 Tensor Core GPU datasheet (nvdam.widen.net/s/nb5zzzsjdf/
     * hpc-datasheet-sc23-h200-datasheet-3002446), H200 SXM: same compute as
     * H100 SXM (FP8 3,958 sparse), HBM3e 141 GB at 4.8 TB/s. */
    {"H200", 4800, {67, 67, 494.5, 989.5, 989.5, 1979, 1979}, {34, 67, 0, 133.8, 133.8, 0, 0}},
    /* NVIDIA HGX B200 datasheet (nvidia.com/en-us/data-center/hgx), 8-GPU
     * totals divided by 8: FP64/FP64 Tensor 40, FP32 80, TF32 2.25 PF /
     * FP16-BF16 4.5 PF / FP8 9 PF / INT8 9 POPS sparse (halved), HBM3e
     * 8 TB/s per GPU. Non-tensor FP16/BF16 not on the datasheet: taken as 2x
     * FP32 as on Hopper. */
    {"B200", 8000, {40, 80, 1125, 2250, 2250, 4500, 4500}, {40, 80, 0, 160, 160, 0, 0}},
    /* "NVIDIA Turing GPU Architecture" whitepaper (WP-09183-001), appendix
     * A, GeForce RTX 2080 Ti reference board (1545 MHz boost): FP32 13.4,
     * FP16 26.9, FP16 Tensor with FP32 accumulate 53.8 (what PyTorch
     * uses; 107.6 with FP16 accumulate), INT8 Tensor 215.2 TOPS, GDDR6
     * 616 GB/s; FP64 at 1/32 of FP32. */
    {"RTX 2080 Ti", 616, {0.42, 13.4, 0, 0, 53.8, 0, 215.2}, {0.42, 13.4, 0, 0, 26.9, 0, 0}},
    /* NVIDIA L4 Tensor Core GPU datasheet (resources.nvidia.com/
     * en-us-data-center-overview/l4-gpu-datasheet): FP32 30.3, TF32 120 /
     * FP16-BF16 242 / FP8 485 / INT8 485 sparse (halved), GDDR6 300 GB/s.
     * FP64 (1/64 of FP32) and non-tensor FP16 (= FP32) from the "NVIDIA
     * Ada GPU Architecture" whitepaper. */
    {"L4", 300, {0.47, 30.3, 60, 121, 121, 242.5, 242.5}, {0.47, 30.3, 0, 30.3, 30.3, 0, 0}},
    /* AMD Instinct MI210 datasheet (amd.com/system/files/documents/
     * amd-instinct-mi210-brochure.pdf): FP64 vector 22.6 / matrix 45.3,
     * FP32 vector 22.6 / matrix 45.3, packed FP32 45.3, FP16 and BF16
     * 181.0, INT8 181.0 TOPS, HBM2e 1.6 TB/s. Vector FP16/BF16 = packed
     * rate. One GCD of an MI250 has the same peaks. */
    {"MI210", 1638.4, {45.3, 45.3, 0, 181, 181, 0, 181}, {22.6, 22.6, 0, 45.3, 45.3, 0, 0}},
    /* AMD Instinct MI250 datasheet (amd.com/system/files/documents/
     * amd-instinct-mi200-datasheet.pdf): per module FP64 vector 45.3 /
     * matrix 90.5, FP32 vector 45.3 / matrix 90.5, FP16/BF16 362.1, INT8
     * 362.1 TOPS, 3.2 TB/s; halved here: PyTorch sees each of the two GCDs
     * as one device. */
    {"MI250",
     1638.4,
     {45.25, 45.25, 0, 181.05, 181.05, 0, 181.05},
     {22.65, 22.65, 0, 45.25, 45.25, 0, 0}},
    /* Same datasheet, MI250X: per module FP64 vector 47.9 / matrix 95.7,
     * FP32 vector 47.9 / matrix 95.7, FP16/BF16 383, INT8 383 TOPS,
     * 3.2 TB/s; halved per GCD (one PyTorch device). */
    {"MI250X",
     1638.4,
     {47.85, 47.85, 0, 191.5, 191.5, 0, 191.5},
     {23.95, 23.95, 0, 47.85, 47.85, 0, 0}},
    /* AMD Instinct MI300X data sheet (amd.com/content/dam/amd/en/documents/
     * instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf):
     * FP64 vector 81.7 / matrix 163.4, FP32 vector 163.4 / matrix 163.4,
     * TF32 653.7, FP16/BF16 1,307.4, FP8 2,614.9, INT8 2,614.9 TOPS (dense),
     * HBM3 5.3 TB/s. Vector FP16/BF16 = packed FP32 vector rate. */
    {"MI300X",
     5300,
     {163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9},
     {81.7, 163.4, 0, 163.4, 163.4, 0, 0}},
    /* AMD Instinct MI325X data sheet (amd.com/content/dam/amd/en/documents/
     * instinct-tech-docs/product-briefs/instinct-mi325x-datasheet.pdf): the
     * MI300X's compute, HBM3E 256 GB at 6 TB/s. */
    {"MI325X",
     6000,
     {163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9},
     {81.7, 163.4, 0, 163.4, 163.4, 0, 0}},
    /* AMD Instinct MI355X GPU brochure (amd.com/content/dam/amd/en/documents/
     * instinct-tech-docs/product-briefs/amd-instinct-mi355x-gpu-brochure.pdf):
     * FP64 vector/matrix 78.6, FP32 vector/matrix 157.3, FP16/BF16 2,516.6,
     * FP8 5,033.2, INT8 5,033.2 TOPS (dense), HBM3E 8 TB/s; no TF32. */
    {"MI355X",
     8000,
     {78.6, 157.3, 0, 2516.6, 2516.6, 5033.2, 5033.2},
     {78.6, 157.3, 0, 157.3, 157.3, 0, 0}},
};

size_t devices_builtin_count(void)
{
    return ARRAY_SIZE(builtins);
}

const char *devices_builtin_name(size_t i)
{
    return i < ARRAY_SIZE(builtins) ? builtins[i].name : NULL;
}

void devices_builtin_names(struct strbuf *out)
{
    for (size_t i = 0; i < ARRAY_SIZE(builtins); i++)
        sb_printf(out, "%s%s", i ? "," : "", builtins[i].name);
}

static void fill(const struct builtin *b, struct device_peaks *out)
{
    memset(out, 0, sizeof(*out));
    snprintf(out->name, sizeof(out->name), "%s", b->name);
    out->mem_bw_gbps = b->mem_bw_gbps;
    memcpy(out->matrix, b->matrix, sizeof(out->matrix));
    memcpy(out->vector, b->vector, sizeof(out->vector));
}

/* Lowercase letters and digits only, for loose name comparison. */
static void squash(char *dst, size_t n, const char *src)
{
    size_t k = 0;
    for (; *src && k + 1 < n; src++)
        if (isalnum((unsigned char)*src))
            dst[k++] = (char)tolower((unsigned char)*src);
    dst[k] = '\0';
}

static const struct builtin *builtin_find(const char *name)
{
    char want[64], have[64];
    squash(want, sizeof(want), name);
    for (size_t i = 0; i < ARRAY_SIZE(builtins); i++) {
        squash(have, sizeof(have), builtins[i].name);
        if (strcmp(want, have) == 0)
            return &builtins[i];
    }
    return NULL;
}

bool devices_builtin(const char *name, struct device_peaks *out)
{
    const struct builtin *b = builtin_find(name);
    if (!b)
        return false;
    fill(b, out);
    snprintf(out->origin, sizeof(out->origin), "built-in entry, --arch %s", b->name);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Matching deviceProperties                                                */
/* ------------------------------------------------------------------------ */

static bool has(const char *upper, const char *needle)
{
    return strstr(upper, needle) != NULL;
}

/* "L4" as a whole word ("NVIDIA L4"), not "L40". */
static bool has_word(const char *upper, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(upper, word); p; p = strstr(p + 1, word)) {
        bool start = p == upper || !isalnum((unsigned char)p[-1]);
        bool end = !isalnum((unsigned char)p[n]);
        if (start && end)
            return true;
    }
    return false;
}

static const char *match_by_name(const char *upper, uint64_t mem)
{
    if (has(upper, "MI355"))
        return "MI355X";
    if (has(upper, "MI325"))
        return "MI325X";
    if (has(upper, "MI300X") || (has(upper, "MI300") && !has(upper, "MI300A")))
        return "MI300X";
    if (has(upper, "MI250X"))
        return "MI250X";
    if (has(upper, "MI250"))
        return "MI250";
    if (has(upper, "MI210"))
        return "MI210";
    if (has(upper, "H200"))
        return "H200";
    if (has(upper, "B200"))
        return "B200";
    if (has(upper, "H100"))
        return has(upper, "PCIE") ? "H100 PCIe" : "H100 SXM";
    if (has(upper, "A100")) {
        bool big = has(upper, "80GB") || mem > 60ull * 1000 * 1000 * 1000;
        if (!big)
            return "A100 40GB";
        return has(upper, "PCIE") ? "A100 80GB PCIe" : "A100 80GB";
    }
    if (has(upper, "V100"))
        return has(upper, "PCIE") ? "V100 PCIe" : "V100 SXM2";
    if (has(upper, "2080 TI") || has(upper, "2080TI"))
        return "RTX 2080 Ti";
    if (has_word(upper, "L4"))
        return "L4";
    return NULL;
}

/* Generic names ("AMD Radeon Graphics", ""): the ISA and the size of the
 * part tell the product. */
static const char *match_by_props(const char *upper, const char *arch, const struct device *dev)
{
    bool amd = has(upper, "AMD") || has(upper, "RADEON") || (arch && *arch);
    bool nvidia = has(upper, "NVIDIA") || has(upper, "TESLA");
    int major = dev->compute_major, minor = dev->compute_minor, cus = dev->num_sms;
    if (arch && strncmp(arch, "gfx90a", 6) == 0)
        major = 9, minor = 0, amd = true;
    else if (arch && strncmp(arch, "gfx942", 6) == 0)
        major = 9, minor = 4, amd = true;
    else if (arch && strncmp(arch, "gfx950", 6) == 0)
        major = 9, minor = 5, amd = true;
    if (!nvidia && major == 9 && minor == 4)
        return dev->total_mem > 240ull * 1000 * 1000 * 1000 ? "MI325X" : "MI300X";
    if (!nvidia && major == 9 && minor == 5)
        return "MI355X";
    if (!nvidia && major == 9 && minor == 0 && (amd || cus == 104 || cus == 110))
        return cus == 110 ? "MI250X" : cus == 104 ? "MI210" : NULL;
    if (amd)
        return NULL;
    if (major == 9 && minor == 0)
        return cus == 114 ? "H100 PCIe" : cus == 132 ? "H100 SXM" : NULL;
    if (major == 8 && minor == 0 && cus == 108)
        return dev->total_mem > 60ull * 1000 * 1000 * 1000 ? "A100 80GB" : "A100 40GB";
    if (major == 7 && minor == 0 && cus == 80)
        return "V100 SXM2";
    if (major == 7 && minor == 5 && cus == 68)
        return "RTX 2080 Ti";
    if (major == 8 && minor == 9 && cus == 58)
        return "L4";
    if (major == 10 && minor == 0 && cus == 148)
        return "B200";
    return NULL;
}

bool devices_match(const struct trace *t, const struct device *dev, struct device_peaks *out)
{
    const char *name = dev->name ? trace_str(t, dev->name) : "";
    const char *arch = dev->arch ? trace_str(t, dev->arch) : NULL;
    char upper[128];
    size_t k = 0;
    for (; name[k] && k + 1 < sizeof(upper); k++)
        upper[k] = (char)toupper((unsigned char)name[k]);
    upper[k] = '\0';
    const char *hit = match_by_name(upper, dev->total_mem);
    if (!hit)
        hit = match_by_props(upper, arch, dev);
    if (!hit)
        return false;
    fill(builtin_find(hit), out);
    return true;
}

/* ------------------------------------------------------------------------ */
/* TraceLens arch files                                                     */
/* ------------------------------------------------------------------------ */

bool devices_load_arch_file(const char *path, struct device_peaks *out, char *err)
{
    memset(out, 0, sizeof(*out));
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, 256, "cannot open arch file '%.160s'", path);
        return false;
    }
    struct strbuf text = STRBUF_INIT;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && text.len < (1u << 20))
        sb_putn(&text, buf, n);
    bool io_error = ferror(f);
    fclose(f);
    if (io_error || text.len >= (1u << 20)) {
        snprintf(err, 256, "cannot read arch file '%.160s'", path);
        sb_free(&text);
        return false;
    }
    cJSON *root = cJSON_ParseWithLength(sb_str(&text), text.len);
    sb_free(&text);
    const cJSON *bw = root ? cJSON_GetObjectItemCaseSensitive(root, "mem_bw_gbps") : NULL;
    const cJSON *peaks =
        root ? cJSON_GetObjectItemCaseSensitive(root, "max_achievable_tflops") : NULL;
    if (!cJSON_IsNumber(bw) || !cJSON_IsObject(peaks)) {
        snprintf(err, 256,
                 "arch file '%.120s' is not a TraceLens arch JSON (needs mem_bw_gbps and "
                 "max_achievable_tflops)",
                 path);
        cJSON_Delete(root);
        return false;
    }
    out->mem_bw_gbps = bw->valuedouble;
    const cJSON *p;
    cJSON_ArrayForEach(p, peaks)
    {
        if (!cJSON_IsNumber(p) || !p->string)
            continue;
        const char *us = strchr(p->string, '_');
        if (!us)
            continue;
        int prec = devices_prec_parse(us + 1);
        if (prec < 0)
            continue;
        if (strncmp(p->string, "matrix_", 7) == 0)
            out->matrix[prec] = p->valuedouble;
        else if (strncmp(p->string, "vector_", 7) == 0)
            out->vector[prec] = p->valuedouble;
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    const char *base = strrchr(path, '/');
    snprintf(out->name, sizeof(out->name), "%s",
             cJSON_IsString(name) ? name->valuestring
             : base               ? base + 1
                                  : path);
    snprintf(out->origin, sizeof(out->origin), "arch file %s", path);
    cJSON_Delete(root);
    return true;
}

static bool looks_like_file(const char *arch)
{
    struct stat st;
    size_t n = strlen(arch);
    if (n > 5 && strcasecmp(arch + n - 5, ".json") == 0)
        return true;
    return strchr(arch, '/') != NULL || stat(arch, &st) == 0;
}

bool devices_resolve(const struct trace *t, const char *arch, struct device_peaks *out, char *msg,
                     size_t msg_size)
{
    msg[0] = '\0';
    struct strbuf names = STRBUF_INIT;
    devices_builtin_names(&names);
    bool ok = false;
    if (arch && *arch) {
        if (looks_like_file(arch)) {
            char err[256];
            ok = devices_load_arch_file(arch, out, err);
            if (!ok)
                snprintf(msg, msg_size, "%s", err);
        } else if (devices_builtin(arch, out)) {
            ok = true;
        } else {
            snprintf(msg, msg_size,
                     "no built-in device '%.40s' (built-ins: %s); or pass a "
                     "TraceLens arch JSON file",
                     arch, sb_str(&names));
        }
        sb_free(&names);
        return ok;
    }
    for (size_t d = 0; t && d < t->devices.n && !ok; d++) {
        const struct device *dev = &t->devices.v[d];
        if (devices_match(t, dev, out)) {
            const char *nm = dev->name ? trace_str(t, dev->name) : "";
            const char *isa = dev->arch ? trace_str(t, dev->arch) : "";
            if (*nm)
                snprintf(out->origin, sizeof(out->origin), "built-in entry for device %d '%.80s'",
                         dev->id, nm);
            else
                /* Unnamed (ROCm in some containers): what it was matched by. */
                snprintf(out->origin, sizeof(out->origin),
                         "built-in entry for unnamed device %d: %.20s%scompute %d.%d, %d "
                         "multiprocessors, %.0f GB",
                         dev->id, isa, *isa ? ", " : "", dev->compute_major, dev->compute_minor,
                         dev->num_sms, (double)dev->total_mem / 1e9);
            ok = true;
        }
    }
    if (!ok) {
        const char *nm =
            t && t->devices.n && t->devices.v[0].name ? trace_str(t, t->devices.v[0].name) : NULL;
        if (nm)
            snprintf(msg, msg_size,
                     "device '%.60s' is not in the built-in table: pass --arch "
                     "NAME (%s) or --arch FILE.json",
                     nm, sb_str(&names));
        else
            snprintf(msg, msg_size,
                     "the trace names no device: pass --arch NAME (%s) or --arch "
                     "FILE.json",
                     sb_str(&names));
    }
    sb_free(&names);
    return ok;
}

double devices_peak(const struct device_peaks *d, const char *spec)
{
    if (!d || !spec)
        return 0;
    const char *us = strchr(spec, '_');
    if (!us)
        return 0;
    int prec = devices_prec_parse(us + 1);
    if (prec < 0)
        return 0;
    if (strncmp(spec, "matrix_", 7) == 0)
        return d->matrix[prec];
    if (strncmp(spec, "vector_", 7) == 0)
        return d->vector[prec];
    return 0;
}
