/* Unit tests: the pure layout function and the list cursor arithmetic. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "tui/frame/layout.h"
#include "tui/frame/pane.h"

/* Every visible slot inside the screen, no two overlapping, and every
 * cell of the screen covered by exactly one slot. */
static void check_tiling(int lines, int cols, const struct layout *l)
{
    static unsigned char cover[200][400];
    memset(cover, 0, sizeof(cover));
    for (int s = 0; s < L__COUNT; s++) {
        const struct rect *r = &l->r[s];
        if (r->h == 0)
            continue;
        assert_true(r->w > 0 && r->h > 0);
        assert_true(r->y >= 0 && r->x >= 0);
        assert_true(r->y + r->h <= lines);
        assert_true(r->x + r->w <= cols);
        for (int y = r->y; y < r->y + r->h; y++)
            for (int x = r->x; x < r->x + r->w; x++)
                cover[y][x]++;
    }
    for (int y = 0; y < lines; y++)
        for (int x = 0; x < cols; x++)
            assert_int_equal(cover[y][x], 1);
}

static void test_minimum(void **state)
{
    struct layout_cfg cfg = {.timeline_lanes = 2, .maximized = -1};
    struct layout l;
    assert_false(layout_compute(LAYOUT_MIN_LINES - 1, 200, &cfg, &l));
    assert_true(l.too_small);
    assert_false(layout_compute(50, LAYOUT_MIN_COLS - 1, &cfg, &l));
    assert_true(l.too_small);
    assert_false(layout_compute(0, 0, &cfg, &l));
    assert_true(layout_compute(LAYOUT_MIN_LINES, LAYOUT_MIN_COLS, &cfg, &l));
    assert_false(l.too_small);
    check_tiling(LAYOUT_MIN_LINES, LAYOUT_MIN_COLS, &l);
    /* Each pane keeps room for its title and one row at the minimum. */
    assert_true(l.r[L_TABLE].h >= 3);
    assert_true(l.r[L_TREE].h >= 3);
    assert_true(l.r[L_TIMELINE].h >= 3);
    assert_true(l.r[L_DETAIL].h >= 2);
}

/* Lines a document adds to the header come out of the body: the header
 * grows by them, the panes start below it, the screen stays tiled, and
 * more than LAYOUT_MAX_HEADER_EXTRA are not given. */
static void test_header_extra(void **state)
{
    for (int extra = 0; extra <= LAYOUT_MAX_HEADER_EXTRA + 2; extra++) {
        int sizes[][2] = {{24, 80}, {42, 140}, {30, 120}, {20, 60}};
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            int lines = sizes[k][0], cols = sizes[k][1];
            struct layout_cfg cfg = {.timeline_lanes = 3, .maximized = -1, .header_extra = extra};
            struct layout l, plain;
            assert_true(layout_compute(lines, cols, &cfg, &l));
            check_tiling(lines, cols, &l);
            int want = 2 + (extra < LAYOUT_MAX_HEADER_EXTRA ? extra : LAYOUT_MAX_HEADER_EXTRA);
            assert_int_equal(l.r[L_HEADER].h, want);
            assert_int_equal(l.r[L_TABLE].y, want);
            cfg.header_extra = 0;
            assert_true(layout_compute(lines, cols, &cfg, &plain));
            /* The message line and key bar stay at the bottom. */
            assert_int_equal(l.r[L_KEYBAR].y, plain.r[L_KEYBAR].y);
            assert_int_equal(l.r[L_MESSAGE].y, plain.r[L_MESSAGE].y);
            assert_true(layout_compute(lines, cols,
                                       &(struct layout_cfg){.timeline_lanes = 3,
                                                            .maximized = L_TREE,
                                                            .header_extra = extra},
                                       &l));
            assert_int_equal(l.r[L_TREE].y, want);
            assert_int_equal(l.r[L_TREE].h, lines - 2 - want);
        }
    }
}

static void test_wide_and_narrow(void **state)
{
    struct layout_cfg cfg = {.timeline_lanes = 3, .maximized = -1};
    struct layout l;
    assert_true(layout_compute(40, 120, &cfg, &l));
    /* Detail on the right of table and tree. */
    assert_int_equal(l.r[L_DETAIL].y, 2);
    assert_true(l.r[L_DETAIL].x > 0);
    assert_int_equal(l.r[L_TABLE].x, 0);
    assert_int_equal(l.r[L_TABLE].w + l.r[L_DETAIL].w, 120);
    assert_int_equal(l.r[L_TIMELINE].w, 120);
    assert_int_equal(l.r[L_TIMELINE].h, 3 + 2);
    assert_int_equal(l.r[L_HEADER].h, 2);
    assert_int_equal(l.r[L_KEYBAR].y, 39);
    assert_int_equal(l.r[L_MESSAGE].y, 38);
    check_tiling(40, 120, &l);
    /* Narrow: detail below the tree, full width. */
    assert_true(layout_compute(30, 100, &cfg, &l));
    assert_int_equal(l.r[L_DETAIL].x, 0);
    assert_int_equal(l.r[L_DETAIL].w, 100);
    assert_true(l.r[L_DETAIL].y > l.r[L_TREE].y);
    check_tiling(30, 100, &l);
    /* Many lanes never take more than a quarter of the body. */
    cfg.timeline_lanes = 50;
    assert_true(layout_compute(40, 120, &cfg, &l));
    assert_true(l.r[L_TIMELINE].h <= (40 - 4) / 4);
    check_tiling(40, 120, &l);
}

static void test_every_size(void **state)
{
    struct layout_cfg cfg = {.timeline_lanes = 2, .maximized = -1};
    struct layout l;
    for (int lines = LAYOUT_MIN_LINES; lines < 120; lines += 7)
        for (int cols = LAYOUT_MIN_COLS; cols < 330; cols += 13) {
            for (int lanes = 1; lanes < 12; lanes += 5) {
                cfg.timeline_lanes = lanes;
                assert_true(layout_compute(lines, cols, &cfg, &l));
                check_tiling(lines, cols, &l);
            }
        }
}

static void test_maximized(void **state)
{
    struct layout_cfg cfg = {.timeline_lanes = 2, .maximized = L_TREE};
    struct layout l;
    assert_true(layout_compute(40, 120, &cfg, &l));
    assert_int_equal(l.r[L_TREE].h, 36);
    assert_int_equal(l.r[L_TREE].w, 120);
    assert_int_equal(l.r[L_TABLE].h, 0);
    assert_int_equal(l.r[L_DETAIL].h, 0);
    assert_int_equal(l.r[L_TIMELINE].h, 0);
    check_tiling(40, 120, &l);
    struct rect r = l.r[L_TREE];
    assert_true(rect_contains(&r, 2, 0));
    assert_false(rect_contains(&r, 1, 0));
    assert_false(rect_contains(&r, 38, 0));
}

/* Short terminals: the focused pane of table, tree and detail takes the
 * height; the others keep a title and a row; every size still tiles. */
static void test_focus_height(void **state)
{
    static const int focus[] = {L_TABLE, L_TREE, L_DETAIL, L_TIMELINE};
    struct layout_cfg cfg = {.timeline_lanes = 2, .maximized = -1};
    struct layout l;
    for (size_t f = 0; f < sizeof(focus) / sizeof(focus[0]); f++) {
        cfg.focus = focus[f];
        for (int lines = LAYOUT_MIN_LINES; lines < 60; lines += 3)
            for (int cols = LAYOUT_MIN_COLS; cols < 200; cols += 17) {
                assert_true(layout_compute(lines, cols, &cfg, &l));
                check_tiling(lines, cols, &l);
                assert_true(l.r[L_TABLE].h >= 3 && l.r[L_TREE].h >= 3 && l.r[L_DETAIL].h >= 3);
            }
    }
    cfg.focus = L_TABLE;
    assert_true(layout_compute(24, 80, &cfg, &l));
    assert_int_equal(l.r[L_TREE].h, 3);
    assert_int_equal(l.r[L_DETAIL].h, 3);
    assert_true(l.r[L_TABLE].h >= 10);
    cfg.focus = L_DETAIL;
    assert_true(layout_compute(24, 80, &cfg, &l));
    assert_true(l.r[L_DETAIL].h > l.r[L_TABLE].h + l.r[L_TREE].h);
    cfg.focus = L_TREE;
    assert_true(layout_compute(24, 140, &cfg, &l));
    assert_true(l.r[L_TREE].h > 2 * l.r[L_TABLE].h);
    /* Tall enough: the focus changes nothing. */
    struct layout tall;
    assert_true(layout_compute(42, 140, &cfg, &l));
    cfg.focus = L_TABLE;
    assert_true(layout_compute(42, 140, &cfg, &tall));
    assert_memory_equal(&l, &tall, sizeof(l));
    /* focus_first: tall screens too give the focused pane the height. */
    cfg.focus_first = true;
    for (int cols = 80; cols <= 140; cols += 60) {
        cfg.focus = L_TREE;
        assert_true(layout_compute(42, cols, &cfg, &l));
        check_tiling(42, cols, &l);
        assert_true(l.r[L_TREE].h > 3 * l.r[L_TABLE].h);
        cfg.focus = L_TABLE;
        assert_true(layout_compute(42, cols, &cfg, &tall));
        assert_true(tall.r[L_TABLE].h > 3 * tall.r[L_TREE].h);
        assert_int_equal(l.r[L_DETAIL].h, tall.r[L_DETAIL].h);
    }
    cfg.focus = L_TREE;
    assert_true(layout_compute(30, 100, &cfg, &l));
    assert_int_equal(l.r[L_TABLE].h, 3);
    assert_int_equal(l.r[L_DETAIL].h, 3);
}

static void test_listview(void **state)
{
    struct listview lv = {.n = 100, .height = 10};
    listview_clamp(&lv);
    assert_int_equal(lv.cur, 0);
    assert_true(listview_move(&lv, 1));
    assert_false(listview_move(&lv, -5) && lv.cur != 0);
    assert_int_equal(lv.cur, 0);
    assert_true(listview_action(&lv, A_PAGE_DOWN));
    assert_int_equal(lv.cur, 9);
    assert_int_equal(lv.top, 0);
    listview_action(&lv, A_PAGE_DOWN);
    assert_int_equal(lv.cur, 18);
    assert_int_equal(lv.top, 9);
    listview_action(&lv, A_MOVE_LAST);
    assert_int_equal(lv.cur, 99);
    assert_int_equal(lv.top, 90);
    listview_action(&lv, A_MOVE_FIRST);
    assert_int_equal(lv.cur, 0);
    assert_int_equal(lv.top, 0);
    assert_false(listview_action(&lv, A_QUIT));
    /* Shrinking the list keeps the cursor inside and no blank tail. */
    listview_set(&lv, 95);
    lv.n = 12;
    listview_clamp(&lv);
    assert_int_equal(lv.cur, 11);
    assert_int_equal(lv.top, 2);
    lv.n = 0;
    listview_clamp(&lv);
    assert_int_equal(lv.cur, 0);
    assert_false(listview_move(&lv, 1));
    /* Jumps off screen put the row mid-pane; on screen they do not scroll. */
    lv.n = 100;
    lv.cur = lv.top = 0;
    listview_jump(&lv, 5);
    assert_int_equal(lv.top, 0);
    listview_jump(&lv, 50);
    assert_int_equal(lv.cur, 50);
    assert_int_equal(lv.top, 45);
    listview_jump(&lv, 99);
    assert_int_equal(lv.top, 90);
    listview_jump(&lv, 1);
    assert_int_equal(lv.top, 0);
    /* Wheel scrolling drags the cursor along. */
    lv.n = 100;
    lv.cur = lv.top = 0;
    listview_scroll(&lv, 30);
    assert_int_equal(lv.top, 30);
    assert_int_equal(lv.cur, 30);
    listview_scroll(&lv, 1000);
    assert_int_equal(lv.top, 90);
    listview_scroll(&lv, -1000);
    assert_int_equal(lv.top, 0);
    assert_int_equal(lv.cur, 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimum),         cmocka_unit_test(test_header_extra),
        cmocka_unit_test(test_wide_and_narrow), cmocka_unit_test(test_every_size),
        cmocka_unit_test(test_maximized),       cmocka_unit_test(test_listview),
        cmocka_unit_test(test_focus_height),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
