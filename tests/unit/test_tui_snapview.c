/* Unit tests: the pure parts of the traceback view and the memory snapshot
 * views: chart columns and bars, segment bars, source files and windows,
 * frame classes, and the key tables they add. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <curses.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/snapshot/snapshot.h"
#include "core/symbols/traceback.h"
#include "tui/frame/help.h"
#include "tui/frame/keymap.h"
#include "tui/snapshot/memchart.h"
#include "tui/frame/srcview.h"
#include "tui/trace/tbframe.h"

/* ------------------------------------------------------------------------ */
/* Chart columns and bars                                                   */
/* ------------------------------------------------------------------------ */

static void test_chart_columns(void **state)
{
    static const uint32_t ranges[][2] = {{0, 1}, {0, 7}, {0, 100}, {5, 6486}, {10, 13}};
    static const int widths[] = {1, 3, 80, 110, 200};
    for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
        uint32_t from = ranges[r][0], to = ranges[r][1];
        for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
            int w = widths[k];
            /* The cut of snapshot_series_buckets. */
            uint64_t span = to - from;
            for (int c = 0; c <= w; c++)
                assert_int_equal(memchart_first(from, to, w, c), from + span * c / w);
            assert_int_equal(memchart_first(from, to, w, 0), from);
            assert_int_equal(memchart_first(from, to, w, w), to);
            /* Every entry is in the column whose range holds it. */
            for (uint32_t i = from; i < to; i++) {
                int c = memchart_col(from, to, w, i);
                assert_true(c >= 0 && c < w);
                assert_true(memchart_first(from, to, w, c) <= i);
                assert_true(i < memchart_first(from, to, w, c + 1));
            }
            assert_int_equal(memchart_col(from, to, w, to), w);
            if (from)
                assert_int_equal(memchart_col(from, to, w, from - 1), -1);
        }
    }
}

static void test_chart_bars(void **state)
{
    assert_int_equal(memchart_eighths(0, 100, 4), 0);
    assert_int_equal(memchart_eighths(-5, 100, 4), 0);
    assert_int_equal(memchart_eighths(1, 1000000, 4), 1);
    assert_int_equal(memchart_eighths(100, 100, 4), 32);
    assert_int_equal(memchart_eighths(500, 100, 4), 32);
    assert_int_equal(memchart_eighths(50, 100, 4), 16);
    assert_int_equal(memchart_eighths(5, 0, 3), 24);
    assert_int_equal(memchart_eighths(5, 10, 0), 0);
    int prev = 0;
    for (int64_t v = 0; v <= 1000; v += 7) {
        int e = memchart_eighths(v, 1000, 6);
        assert_true(e >= prev);
        prev = e;
    }
    /* 13 eighths: a full cell, five eighths, then nothing. */
    assert_int_equal(memchart_level(13, 0), 8);
    assert_int_equal(memchart_level(13, 1), 5);
    assert_int_equal(memchart_level(13, 2), 0);
    assert_int_equal(memchart_level(0, 0), 0);
}

static void test_segment_bars(void **state)
{
    uint8_t cells[16];
    const uint64_t sizes[] = {10, 30, 60};
    const uint8_t states[] = {BS_ACTIVE_ALLOCATED, BS_INACTIVE, BS_ACTIVE_PENDING_FREE};
    memchart_segbar(sizes, states, 3, 10, cells);
    const uint8_t want[10] = {0, 2, 2, 2, 1, 1, 1, 1, 1, 1};
    assert_memory_equal(cells, want, 10);
    /* More cells than bytes: each cell shows the block under it. */
    const uint64_t tiny[] = {1, 1};
    const uint8_t tstates[] = {BS_INACTIVE, BS_ACTIVE_ALLOCATED};
    memchart_segbar(tiny, tstates, 2, 4, cells);
    assert_int_equal(cells[0], BS_INACTIVE);
    assert_int_equal(cells[3], BS_ACTIVE_ALLOCATED);
    /* A tie goes to the lower state; a small block inside a cell loses. */
    const uint64_t tie[] = {5, 5};
    const uint8_t tiestates[] = {BS_INACTIVE, BS_ACTIVE_ALLOCATED};
    memchart_segbar(tie, tiestates, 2, 1, cells);
    assert_int_equal(cells[0], BS_ACTIVE_ALLOCATED);
    const uint64_t mixed[] = {99, 1};
    memchart_segbar(mixed, tiestates, 2, 1, cells);
    assert_int_equal(cells[0], BS_INACTIVE);
    /* No bytes at all. */
    memchart_segbar(NULL, NULL, 0, 5, cells);
    for (int i = 0; i < 5; i++)
        assert_int_equal(cells[i], MEMCHART_EMPTY);
}

/* ------------------------------------------------------------------------ */
/* Source files                                                             */
/* ------------------------------------------------------------------------ */

static const char *line_of(const struct srcview *sv, size_t i, size_t *n)
{
    *n = sv->off.v[i + 1] - sv->off.v[i];
    return sv->text.s + sv->off.v[i];
}

static void assert_line(const struct srcview *sv, size_t i, const char *want)
{
    size_t n;
    const char *s = line_of(sv, i, &n);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(s, want, n);
}

static void test_source_lines(void **state)
{
    struct srcview sv;
    srcview_init(&sv);
    const char *text = "a\tb\r\n\tx\n12345678\ty\n\xc3\xa9\tz\nesc\033[2J\nlast";
    srcview_set_text(&sv, text, strlen(text), false);
    assert_int_equal(srcview_lines(&sv), 6);
    assert_line(&sv, 0, "a       b");
    assert_line(&sv, 1, "        x");
    assert_line(&sv, 2, "12345678        y");
    assert_line(&sv, 3, "\xc3\xa9       z");
    assert_line(&sv, 4, "esc\\x1b[2J");
    assert_line(&sv, 5, "last");
    /* A final newline ends the last line; it does not start another. */
    srcview_set_text(&sv, "x\n\n", 3, false);
    assert_int_equal(srcview_lines(&sv), 2);
    assert_line(&sv, 1, "");
    srcview_set_text(&sv, "", 0, false);
    assert_int_equal(srcview_lines(&sv), 0);
    /* ASCII terminals get ASCII. */
    srcview_set_text(&sv, "\xc3\xa9", 2, true);
    size_t n;
    const char *s = line_of(&sv, 0, &n);
    for (size_t i = 0; i < n; i++)
        assert_true((unsigned char)s[i] < 0x80);
    srcview_set_text(&sv, "import x\ndef triton_poi_0(a):\n", 29, false);
    assert_int_equal(srcview_find(&sv, "def triton_poi_0("), 2);
    assert_int_equal(srcview_find(&sv, "def other("), 0);
    srcview_done(&sv);
}

static void test_source_window(void **state)
{
    /* The line a third of the way down, clamped to the file. */
    assert_int_equal(srcview_top_for(100, 50, 30), 39);
    assert_int_equal(srcview_top_for(100, 3, 30), 0);
    assert_int_equal(srcview_top_for(100, 99, 30), 70);
    assert_int_equal(srcview_top_for(100, 500, 30), 70);
    assert_int_equal(srcview_top_for(100, 0, 30), 0);
    assert_int_equal(srcview_top_for(0, 5, 30), 0);
    assert_int_equal(srcview_top_for(10, 8, 30), 0);
    assert_int_equal(srcview_top_for(100, 50, 0), 49);
}

static void test_source_files(void **state)
{
    char dir[] = "/tmp/torchtop-srcview.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], why[128];
    struct srcview sv;
    srcview_init(&sv);

    snprintf(path, sizeof(path), "%s/ok.py", dir);
    FILE *f = fopen(path, "w");
    fputs("one\ntwo\nthree\n", f);
    fclose(f);
    assert_true(srcview_open(&sv, path, 2, false, why, sizeof(why)));
    assert_int_equal(srcview_lines(&sv), 3);
    assert_int_equal(sv.line, 2);
    assert_false(sv.cut);
    assert_string_equal(sv.path, path);

    snprintf(path, sizeof(path), "%s/missing.py", dir);
    assert_false(srcview_open(&sv, path, 1, false, why, sizeof(why)));
    assert_non_null(strstr(why, "No such file"));
    assert_int_equal(srcview_lines(&sv), 0);

    assert_false(srcview_open(&sv, dir, 1, false, why, sizeof(why)));
    assert_string_equal(why, "not a regular file");

    /* A FIFO with no writer would block a plain open. */
    snprintf(path, sizeof(path), "%s/fifo", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_false(srcview_open(&sv, path, 1, false, why, sizeof(why)));
    assert_string_equal(why, "not a regular file");
    unlink(path);

    snprintf(path, sizeof(path), "%s/bin", dir);
    f = fopen(path, "w");
    fwrite("ELF\0\1\2", 1, 6, f);
    fclose(f);
    assert_false(srcview_open(&sv, path, 1, false, why, sizeof(why)));
    assert_string_equal(why, "a binary file");
    unlink(path);

    /* Larger than the cap: the start is read and the cut is said. */
    snprintf(path, sizeof(path), "%s/big.py", dir);
    f = fopen(path, "w");
    for (unsigned i = 0; i < SRCVIEW_MAX_BYTES / 64 + 10; i++)
        fprintf(f, "%063u\n", i);
    fclose(f);
    assert_true(srcview_open(&sv, path, 5, false, why, sizeof(why)));
    assert_true(sv.cut);
    assert_int_equal(srcview_lines(&sv), SRCVIEW_MAX_BYTES / 64);
    unlink(path);

    snprintf(path, sizeof(path), "%s/ok.py", dir);
    unlink(path);
    rmdir(dir);
    srcview_done(&sv);
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                   */
/* ------------------------------------------------------------------------ */

static void test_frame_classes(void **state)
{
    struct tb_frame f = {.name = "x", .text = "x"};
    f.kind = TB_PYTHON;
    f.file = "model.py";
    f.line = 7;
    assert_int_equal(tbframe_classify(&f, false), TBC_SOURCE);
    f.line = 0;
    assert_int_equal(tbframe_classify(&f, false), TBC_SOURCE);
    f.file = "<string>";
    assert_int_equal(tbframe_classify(&f, false), TBC_NO_SOURCE);
    f.file = NULL;
    assert_int_equal(tbframe_classify(&f, false), TBC_NO_SOURCE);
    f.kind = TB_INDUCTOR;
    f.file = "/tmp/torchinductor_u/ab/cab.py";
    assert_int_equal(tbframe_classify(&f, false), TBC_SOURCE);
    f.kind = TB_NATIVE;
    f.file = "CUDACachingAllocator.cpp";
    f.line = 0;
    assert_int_equal(tbframe_classify(&f, false), TBC_NO_SOURCE);
    f.file = "??";
    f.line = 3;
    assert_int_equal(tbframe_classify(&f, false), TBC_NO_SOURCE);
    f.file = "/src/alloc.cpp";
    assert_int_equal(tbframe_classify(&f, false), TBC_SOURCE);
    f.file = "/usr/lib/libtorch_cuda.so";
    f.line = 0x1a2b;
    assert_int_equal(tbframe_classify(&f, true), TBC_RESOLVE);
    static const enum tb_kind none[] = {TB_OP, TB_RUNTIME, TB_KERNEL};
    for (size_t i = 0; i < 3; i++) {
        f.kind = (uint8_t)none[i];
        f.file = "model.py";
        f.line = 1;
        assert_int_equal(tbframe_classify(&f, false), TBC_NO_SOURCE);
    }
}

static void test_frame_original(void **state)
{
    struct traceback tb;
    traceback_init(&tb);
    traceback_push(&tb, TB_KERNEL, "triton_poi_0", NULL, 0);
    traceback_push(&tb, TB_RUNTIME, "cuLaunchKernel", NULL, 0);
    traceback_push(&tb, TB_INDUCTOR, "triton_poi_0", "/tmp/torchinductor_u/c.py", 0);
    traceback_push(&tb, TB_OP, "triton_poi_0", NULL, 0);
    traceback_push(&tb, TB_PYTHON, "nn.Module: Net_0", NULL, 0)->flags |= TBF_MODULE;
    traceback_push(&tb, TB_INDUCTOR, "call", "/tmp/torchinductor_u/d.py", 40);
    traceback_push(&tb, TB_PYTHON, "forward", "model.py", 7);
    assert_int_equal(tbframe_original(&tb, 2), 6);
    assert_int_equal(tbframe_original(&tb, 5), 6);
    assert_int_equal(tbframe_original(&tb, 6), -1);
    /* Frames with a source file below a frame without one. */
    assert_int_equal(tbframe_source_below(&tb, 0), 2);
    assert_int_equal(tbframe_source_below(&tb, 3), 5);
    assert_int_equal(tbframe_source_below(&tb, 5), 6);
    assert_int_equal(tbframe_source_below(&tb, 6), -1);
    traceback_done(&tb);
}

/* ------------------------------------------------------------------------ */
/* Keys                                                                     */
/* ------------------------------------------------------------------------ */

static void test_key_tables(void **state)
{
    for (int t = KEYS_TRACEBACK; t < KEYS__COUNT; t++) {
        const struct keybind *kb = keymap_table(t);
        assert_true(kb[0].key != 0);
        for (size_t i = 0; kb[i].key; i++) {
            assert_true(kb[i].action > A_NONE && kb[i].action < A__COUNT);
            for (size_t j = i + 1; kb[j].key; j++)
                assert_int_not_equal(kb[i].key, kb[j].key);
            char name[32];
            int key = 0;
            keymap_key_name(kb[i].key, name, sizeof(name));
            assert_int_equal(keymap_key_parse(name, &key), strlen(name));
            assert_int_equal(key, kb[i].key);
        }
    }
    /* The view's table first, then the global one. */
    assert_int_equal(keymap_lookup(KEYS_TRACEBACK, '\n'), A_SOURCE);
    assert_int_equal(keymap_lookup(KEYS_TRACEBACK, 'j'), A_MOVE_DOWN);
    assert_int_equal(keymap_lookup(KEYS_SOURCE, KEYF(KEY_BACKSPACE)), A_BACK);
    assert_int_equal(keymap_lookup(KEYS_SNAP_MEMORY, 'p'), A_PEAK);
    assert_int_equal(keymap_lookup(KEYS_SNAP_CHART, '+'), A_ZOOM_IN);
    assert_int_equal(keymap_lookup(KEYS_SNAP_TABLE, 'D'), A_SITE_DEPTH);
    assert_int_equal(keymap_lookup(KEYS_SNAP_TABLE, 's'), A_SORT_MENU);
    /* t works from every pane of a trace. */
    for (int p = 0; p < PANE__COUNT; p++)
        assert_int_equal(keymap_lookup(p, 't'), A_TRACEBACK);
    /* Snapshot keys do nothing in a trace's panes. */
    assert_int_equal(keymap_lookup(PANE_TABLE, 'D'), A_NONE);
    assert_int_equal(keymap_lookup(PANE_TIMELINE, 'p'), A_NONE);
}

static void test_help(void **state)
{
    struct strbuf sb = STRBUF_INIT;
    help_text(&sb, PANE__COUNT);
    const char *h = sb_str(&sb);
    assert_non_null(strstr(h, "\nTraceback and source\n"));
    assert_non_null(strstr(h, "\nMemory snapshot\n"));
    static const enum action acts[] = {A_TRACEBACK, A_SOURCE,   A_ALL_FRAMES, A_DEVICE_NEXT,
                                       A_PEAK,      A_OOM_NEXT, A_SITE_DEPTH};
    for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
        assert_non_null(strstr(h, action_name(acts[i])));
    assert_non_null(strstr(h, "<Enter>              source"));
    assert_non_null(strstr(h, "D                    site-depth"));
    /* In a view, its own group comes first. */
    sb_clear(&sb);
    help_text(&sb, KEYS_TRACEBACK);
    h = sb_str(&sb);
    const char *first = strstr(h, "\n\n");
    assert_non_null(first);
    assert_memory_equal(first + 2, "Traceback and source\n", 21);
    sb_clear(&sb);
    help_text(&sb, KEYS_SNAP_CHART);
    first = strstr(sb_str(&sb), "\n\n");
    assert_memory_equal(first + 2, "Memory snapshot\n", 16);
    sb_free(&sb);
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chart_columns), cmocka_unit_test(test_chart_bars),
        cmocka_unit_test(test_segment_bars),  cmocka_unit_test(test_source_lines),
        cmocka_unit_test(test_source_window), cmocka_unit_test(test_source_files),
        cmocka_unit_test(test_frame_classes), cmocka_unit_test(test_frame_original),
        cmocka_unit_test(test_key_tables),    cmocka_unit_test(test_help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
