/* Unit tests: built-in device peaks, matching deviceProperties records,
 * TraceLens arch files and --arch resolution. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/roofline/devices.h"
#include "core/trace/load.h"

static struct trace *load_devices(const char *props)
{
    char json[2048];
    snprintf(json, sizeof(json), "{\"deviceProperties\": [%s], \"traceEvents\": []}", props);
    struct errinfo err = {0};
    struct trace *t = NULL;
    struct load_opts o = {.threads = 1};
    assert_int_equal(trace_load_mem("dev.json", json, strlen(json), &o, &t, &err), ST_OK);
    errinfo_clear(&err);
    return t;
}

/* The built-in entry deviceProperties record `props` matches, or NULL. */
static const char *match(const char *props, char *buf)
{
    struct trace *t = load_devices(props);
    struct device_peaks p;
    char msg[512];
    bool ok = devices_resolve(t, NULL, &p, msg, sizeof(msg));
    trace_free(t);
    if (!ok)
        return NULL;
    strcpy(buf, p.name);
    return buf;
}

static void test_builtin_table(void **state)
{
    struct device_peaks p;
    assert_true(devices_builtin("H100 SXM", &p));
    assert_true(p.mem_bw_gbps == 3350);
    assert_true(p.matrix[PREC_BF16] == 989.5);
    assert_true(p.matrix[PREC_FP8] == 1979);
    assert_true(p.vector[PREC_FP32] == 67);
    assert_true(devices_peak(&p, "matrix_bf16") == 989.5);
    assert_true(devices_peak(&p, "vector_fp64") == 34);
    assert_true(devices_peak(&p, "matrix_nope") == 0);
    assert_true(devices_peak(&p, "bogus") == 0);
    /* Loose names: case, spaces, dashes. */
    assert_true(devices_builtin("h100-sxm", &p));
    assert_true(devices_builtin("mi300x", &p));
    assert_true(p.matrix[PREC_BF16] == 1307.4);
    assert_false(devices_builtin("TPUv5", &p));
    /* Every required part is there, with a bandwidth and a bf16 or fp16 peak. */
    const char *need[] = {"V100 SXM2", "A100 40GB", "A100 80GB",   "H100 SXM", "H100 PCIe",
                          "H200",      "B200",      "RTX 2080 Ti", "L4",       "MI210",
                          "MI250X",    "MI300X",    "MI325X",      "MI355X"};
    for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
        assert_true(devices_builtin(need[i], &p));
        assert_true(p.mem_bw_gbps > 0);
        assert_true(p.matrix[PREC_FP16] > 0);
        assert_true(p.vector[PREC_FP32] > 0);
    }
    assert_int_equal(devices_builtin_count(), 17);
}

static void test_match_names(void **state)
{
    char b[64];
    assert_string_equal(match("{\"name\": \"NVIDIA H100 80GB HBM3\"}", b), "H100 SXM");
    assert_string_equal(match("{\"name\": \"NVIDIA H100 PCIe\"}", b), "H100 PCIe");
    assert_string_equal(match("{\"name\": \"NVIDIA H200\"}", b), "H200");
    assert_string_equal(match("{\"name\": \"NVIDIA B200\"}", b), "B200");
    assert_string_equal(match("{\"name\": \"Tesla V100-SXM2-32GB\"}", b), "V100 SXM2");
    assert_string_equal(match("{\"name\": \"Tesla V100-PCIE-16GB\"}", b), "V100 PCIe");
    assert_string_equal(match("{\"name\": \"NVIDIA GeForce RTX 2080 Ti\"}", b), "RTX 2080 Ti");
    assert_string_equal(match("{\"name\": \"NVIDIA L4\"}", b), "L4");
    assert_null(match("{\"name\": \"NVIDIA L40S\"}", b));
    assert_string_equal(match("{\"name\": \"NVIDIA A100-PG509-200\", \"totalGlobalMem\": "
                              "42505273344}",
                              b),
                        "A100 40GB");
    assert_string_equal(match("{\"name\": \"NVIDIA A100-SXM4-80GB\"}", b), "A100 80GB");
    assert_string_equal(match("{\"name\": \"NVIDIA A100 80GB PCIe\"}", b), "A100 80GB PCIe");
    assert_string_equal(match("{\"name\": \"AMD Instinct MI300X\"}", b), "MI300X");
    assert_string_equal(match("{\"name\": \"AMD Instinct MI300X VF\"}", b), "MI300X");
    assert_string_equal(match("{\"name\": \"AMD Instinct MI325X\"}", b), "MI325X");
    assert_string_equal(match("{\"name\": \"AMD Instinct MI355X\"}", b), "MI355X");
    assert_string_equal(match("{\"name\": \"AMD Instinct MI250X/MI250\"}", b), "MI250X");
    assert_string_equal(match("{\"name\": \"AMD Instinct MI210\"}", b), "MI210");
}

static void test_match_generic(void **state)
{
    char b[64];
    /* ROCm reports "AMD Radeon Graphics" on some stacks: ISA and size tell. */
    assert_string_equal(match("{\"name\": \"AMD Radeon Graphics\", \"gcnArchName\": "
                              "\"gfx90a:sramecc+:xnack-\", \"numSms\": 110}",
                              b),
                        "MI250X");
    assert_string_equal(match("{\"name\": \"AMD Radeon Graphics\", \"numSms\": 104, "
                              "\"computeMajor\": 9, \"computeMinor\": 0}",
                              b),
                        "MI210");
    assert_string_equal(match("{\"name\": \"\", \"numSms\": 304, \"computeMajor\": 9, "
                              "\"computeMinor\": 4, \"totalGlobalMem\": 206141652992}",
                              b),
                        "MI300X");
    assert_string_equal(match("{\"name\": \"AMD Radeon Graphics\", \"gcnArchName\": \"gfx942\", "
                              "\"numSms\": 304, \"totalGlobalMem\": 274877906944}",
                              b),
                        "MI325X");
    assert_string_equal(match("{\"name\": \"\", \"gcnArchName\": \"gfx950\"}", b), "MI355X");
    assert_string_equal(match("{\"name\": \"\", \"numSms\": 132, \"computeMajor\": 9, "
                              "\"computeMinor\": 0}",
                              b),
                        "H100 SXM");
    assert_null(match("{\"name\": \"Some Future GPU\", \"numSms\": 7}", b));
}

/* The note says which device an entry was chosen for: its name, or for an
 * unnamed one what matched. */
static void test_origin(void **state)
{
    struct device_peaks p;
    char msg[512];
    struct trace *t = load_devices("{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"}");
    assert_true(devices_resolve(t, NULL, &p, msg, sizeof(msg)));
    assert_string_equal(p.origin, "built-in entry for device 0 'NVIDIA H100 80GB HBM3'");
    trace_free(t);
    t = load_devices("{\"id\": 0, \"name\": \"\", \"numSms\": 304, \"computeMajor\": 9, "
                     "\"computeMinor\": 4, \"totalGlobalMem\": 206141652992}");
    assert_true(devices_resolve(t, NULL, &p, msg, sizeof(msg)));
    assert_string_equal(p.origin, "built-in entry for unnamed device 0: compute 9.4, 304 "
                                  "multiprocessors, 206 GB");
    trace_free(t);
    t = load_devices("{\"id\": 1, \"name\": \"\", \"gcnArchName\": \"gfx950\"}");
    assert_true(devices_resolve(t, NULL, &p, msg, sizeof(msg)));
    assert_non_null(strstr(p.origin, "unnamed device 1: gfx950, compute"));
    trace_free(t);
}

static void test_arch_file(void **state)
{
    char path[] = "/tmp/torchtop-arch-XXXXXX.json";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    const char *json = "{\"name\": \"MyGPU\", \"mem_bw_gbps\": 5300, \"max_achievable_tflops\": "
                       "{\"matrix_bf16\": 708, \"vector_fp32\": 81, \"matrix_int8\": 2600, "
                       "\"weird\": 1, \"matrix_fp4\": 9}}";
    assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
    close(fd);
    struct device_peaks p;
    char err[256];
    assert_true(devices_load_arch_file(path, &p, err));
    assert_string_equal(p.name, "MyGPU");
    assert_true(p.mem_bw_gbps == 5300);
    assert_true(devices_peak(&p, "matrix_bf16") == 708);
    assert_true(devices_peak(&p, "vector_fp32") == 81);
    assert_true(devices_peak(&p, "matrix_int8") == 2600);
    assert_true(devices_peak(&p, "matrix_fp16") == 0);
    /* --arch with a path wins over the trace's device. */
    struct trace *t = load_devices("{\"name\": \"NVIDIA H100 80GB HBM3\"}");
    char msg[512];
    assert_true(devices_resolve(t, path, &p, msg, sizeof(msg)));
    assert_string_equal(p.name, "MyGPU");
    assert_true(devices_resolve(t, "MI325X", &p, msg, sizeof(msg)));
    assert_string_equal(p.name, "MI325X");
    assert_false(devices_resolve(t, "XYZ-9000", &p, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "MI300X"));
    assert_false(devices_resolve(t, "/nonexistent/arch.json", &p, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "cannot open"));
    trace_free(t);
    /* Not an arch file. */
    FILE *f = fopen(path, "w");
    fputs("{\"mem_bw\": 1}", f);
    fclose(f);
    assert_false(devices_load_arch_file(path, &p, err));
    assert_non_null(strstr(err, "mem_bw_gbps"));
    unlink(path);
}

static void test_unknown_device_message(void **state)
{
    struct trace *t = load_devices("{\"name\": \"Some Future GPU\"}");
    struct device_peaks p;
    char msg[512];
    assert_false(devices_resolve(t, NULL, &p, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "Some Future GPU"));
    assert_non_null(strstr(msg, "--arch"));
    trace_free(t);
    t = load_devices("");
    assert_false(devices_resolve(t, NULL, &p, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "no device"));
    trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_table),          cmocka_unit_test(test_match_names),
        cmocka_unit_test(test_match_generic),          cmocka_unit_test(test_arch_file),
        cmocka_unit_test(test_unknown_device_message), cmocka_unit_test(test_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
