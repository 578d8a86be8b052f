/* Unit tests: the hash map (core/base/hmap.h), with plain keys and with
 * keys the caller holds, colliding hashes included. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/common.h"
#include "core/base/hash.h"
#include "core/base/hmap.h"

static void test_zeroed_map_is_empty(void **state)
{
    struct hmap m = {0};
    assert_int_equal(hmap_get(&m, 0), IDX_NONE);
    assert_int_equal(hmap_get(&m, 42), IDX_NONE);
    assert_int_equal(hmap_count(&m), 0);
    assert_int_equal(hmap_memory(&m), 0);
    hmap_put(&m, 42, 7);
    assert_int_equal(hmap_get(&m, 42), 7);
    assert_int_equal(hmap_count(&m), 1);
    hmap_free(&m);
    assert_null(m.vals);
    assert_null(m.keys);
    assert_int_equal(hmap_get(&m, 42), IDX_NONE);
    /* Freed, it is an empty map again, usable as such. */
    hmap_put(&m, 1, 2);
    assert_int_equal(hmap_get(&m, 1), 2);
    hmap_free(&m);
}

static void test_plain_keys(void **state)
{
    struct hmap m;
    hmap_init(&m, 0);
    /* Keys that differ only in the high half, zero, all ones. */
    uint64_t keys[] = {0, 1, 1ULL << 32, (1ULL << 32) | 1, UINT64_MAX, 1ULL << 63};
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
        hmap_put(&m, keys[i], (uint32_t)i * 10);
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
        assert_int_equal(hmap_get(&m, keys[i]), i * 10);
    assert_int_equal(hmap_count(&m), ARRAY_SIZE(keys));
    /* put replaces, put_first keeps. */
    hmap_put(&m, 1, 99);
    assert_int_equal(hmap_get(&m, 1), 99);
    assert_int_equal(hmap_put_first(&m, 1, 5), 99);
    assert_int_equal(hmap_get(&m, 1), 99);
    assert_int_equal(hmap_put_first(&m, 2, 5), 5);
    assert_int_equal(hmap_get(&m, 2), 5);
    assert_int_equal(hmap_count(&m), ARRAY_SIZE(keys) + 1);
    /* The largest storable value. */
    hmap_put(&m, 3, IDX_NONE - 1);
    assert_int_equal(hmap_get(&m, 3), IDX_NONE - 1);
    assert_int_equal(hmap_get(&m, 4), IDX_NONE);
    hmap_free(&m);
}

static void test_growth(void **state)
{
    struct hmap m = {0};
    size_t last_memory = 0;
    for (uint32_t k = 0; k < 100000; k++) {
        hmap_put(&m, (uint64_t)k << 20, k);
        /* At most half full: the map doubles as it fills. */
        assert_true(hmap_count(&m) * 2 <= m.mask + 1);
        assert_true(hmap_memory(&m) >= last_memory);
        last_memory = hmap_memory(&m);
    }
    for (uint32_t k = 0; k < 100000; k++)
        assert_int_equal(hmap_get(&m, (uint64_t)k << 20), k);
    assert_int_equal(hmap_get(&m, 1), IDX_NONE);
    assert_int_equal(hmap_count(&m), 100000);
    hmap_free(&m);

    /* Sized in advance: no growth up to the expected count. */
    hmap_init(&m, 1000);
    size_t slots = m.mask + 1;
    assert_true(slots >= 2000);
    for (uint32_t k = 0; k < 1000; k++)
        hmap_put(&m, k, k);
    assert_int_equal(m.mask + 1, slots);
    hmap_free(&m);
}

/* Keys the caller holds: strings in an array, looked up by content. */
struct words {
    const char *v[64];
    uint32_t n;
    uint32_t (*hash)(const char *s);
    unsigned regrown; /* calls of word_hash_of */
};

struct word_probe {
    const struct words *w;
    const char *s;
};

static bool word_eq(const void *probe, uint32_t id)
{
    const struct word_probe *p = probe;
    return strcmp(p->w->v[id], p->s) == 0;
}

static uint32_t word_hash_of(const void *ctx, uint32_t id)
{
    struct words *w = (struct words *)ctx;
    w->regrown++;
    return w->hash(w->v[id]);
}

static uint32_t word_hash(const char *s)
{
    return (uint32_t)hash_bytes(s, strlen(s));
}

/* Every word hashes alike: only the equality callback tells them apart. */
static uint32_t same_hash(const char *s)
{
    return 12345;
}

static uint32_t word_intern(struct hmap *m, struct words *w, const char *s)
{
    struct word_probe p = {w, s};
    uint32_t h = w->hash(s);
    uint32_t id = hmap_find(m, h, word_eq, &p);
    if (id != IDX_NONE)
        return id;
    id = w->n++;
    w->v[id] = s;
    hmap_add(m, h, id, word_hash_of, w);
    return id;
}

static void check_words(uint32_t (*hash)(const char *s))
{
    static const char *const text[] = {"aten::mm", "aten::addmm", "",  "aten::mm ", "a",
                                       "aten::mm", "b",           "a", "",          "c"};
    static const uint32_t want[] = {0, 1, 2, 3, 4, 0, 5, 4, 2, 6};
    struct words w = {.hash = hash};
    struct hmap m = {0};
    for (size_t i = 0; i < ARRAY_SIZE(text); i++)
        assert_int_equal(word_intern(&m, &w, text[i]), want[i]);
    assert_int_equal(hmap_count(&m), 7);
    struct word_probe p = {&w, "d"};
    assert_int_equal(hmap_find(&m, hash("d"), word_eq, &p), IDX_NONE);
    p.s = "b";
    assert_int_equal(hmap_find(&m, hash("b"), word_eq, &p), 5);
    /* Past several doublings, colliding or not. */
    static char more[40][8];
    for (int i = 0; i < 40; i++) {
        snprintf(more[i], sizeof(more[i]), "w%d", i);
        assert_int_equal(word_intern(&m, &w, more[i]), 7 + i);
    }
    for (int i = 0; i < 40; i++)
        assert_int_equal(word_intern(&m, &w, more[i]), 7 + i);
    assert_int_equal(word_intern(&m, &w, "aten::addmm"), 1);
    /* 47 entries: the map grew from 16 slots to 128, asking for the hash of
     * each entry it held: 8 + 16 + 32. */
    assert_int_equal(m.mask + 1, 128);
    assert_int_equal(w.regrown, 8 + 16 + 32);
    hmap_free(&m);
}

static void test_caller_keys(void **state)
{
    check_words(word_hash);
}

static void test_caller_keys_colliding(void **state)
{
    check_words(same_hash);
}

static bool never_eq(const void *probe, uint32_t id)
{
    fail_msg("eq called in an empty map");
    return false;
}

static void test_find_in_empty_map(void **state)
{
    struct hmap m = {0};
    assert_int_equal(hmap_find(&m, 1, never_eq, NULL), IDX_NONE);
    hmap_init(&m, 100);
    assert_int_equal(hmap_find(&m, 1, never_eq, NULL), IDX_NONE);
    assert_int_equal(hmap_memory(&m), 256 * sizeof(uint32_t));
    hmap_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zeroed_map_is_empty),
        cmocka_unit_test(test_plain_keys),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_caller_keys),
        cmocka_unit_test(test_caller_keys_colliding),
        cmocka_unit_test(test_find_in_empty_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
