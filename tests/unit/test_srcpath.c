/* Unit tests: the source search path, prefix substitutions (gdb's
 * substitute-path rules), the candidates tried and the first file found,
 * and python3's site-packages read through a stand-in python3 on PATH. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/srcpath.h"

static char tmpdir[256];

static void write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    chmod(path, mode);
}

static int setup(void **state)
{
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof(tmpdir), "%s/srcpath.XXXXXX", t && *t ? t : "/tmp");
    assert_non_null(mkdtemp(tmpdir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[512];
    /* The test's own directory, made above: no trace strings here. */
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *cand_str(struct srcpath *sp, const char *file)
{
    struct srcpath_list c = {0};
    srcpath_candidates(sp, file, &c);
    struct strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < c.n; i++)
        sb_printf(&sb, "%s%s", i ? "|" : "", c.v[i]);
    srcpath_list_free(&c);
    return sb_steal(&sb);
}

static void test_map_rules(void **state)
{
    (void)state;
    struct srcpath sp;
    srcpath_init(&sp);
    char why[128];
    assert_false(srcpath_add_map(&sp, "nothing", why, sizeof(why)));
    assert_non_null(strstr(why, "'='"));
    assert_false(srcpath_add_map(&sp, "=/x", why, sizeof(why)));
    assert_true(srcpath_add_map(&sp, "/build/src/=/home/me/src", why, sizeof(why)));
    assert_true(srcpath_add_map(&sp, "/build=/elsewhere", why, sizeof(why)));
    assert_true(srcpath_add_map(&sp, "torch=/opt/torch", why, sizeof(why)));
    char *m;
    /* The first rule that applies wins; the trailing '/' of OLD is ignored. */
    m = srcpath_apply_map(&sp, "/build/src/a/b.py");
    assert_string_equal(m, "/home/me/src/a/b.py");
    free(m);
    m = srcpath_apply_map(&sp, "/build/other.py");
    assert_string_equal(m, "/elsewhere/other.py");
    free(m);
    /* A prefix only at a component boundary (as gdb: /build is not /buildx). */
    assert_null(srcpath_apply_map(&sp, "/buildx/a.py"));
    assert_null(srcpath_apply_map(&sp, "torchvision/a.py"));
    /* Relative frame paths are substituted too. */
    m = srcpath_apply_map(&sp, "torch/_ops.py");
    assert_string_equal(m, "/opt/torch/_ops.py");
    free(m);
    m = srcpath_apply_map(&sp, "/build");
    assert_string_equal(m, "/elsewhere");
    free(m);
    assert_null(srcpath_apply_map(&sp, "/elsewhere/x.py"));
    srcpath_done(&sp);
}

static void test_candidates(void **state)
{
    (void)state;
    struct srcpath sp;
    srcpath_init(&sp);
    srcpath_set_dirs(&sp, "/src/a/:/src/b::rel");
    assert_int_equal(sp.dirs.n, 4);
    assert_string_equal(sp.dirs.v[0], "/src/a");
    assert_string_equal(sp.dirs.v[2], ".");
    char *s = cand_str(&sp, "torch/_ops.py");
    assert_string_equal(s, "/src/a/torch/_ops.py|/src/b/torch/_ops.py|torch/_ops.py|"
                           "rel/torch/_ops.py");
    free(s);
    /* Absolute: as is, then what follows site-packages along the path. */
    s = cand_str(&sp, "/venv/lib/python3.10/site-packages/torch/nn/linear.py");
    assert_string_equal(s, "/venv/lib/python3.10/site-packages/torch/nn/linear.py|"
                           "/src/a/torch/nn/linear.py|/src/b/torch/nn/linear.py|"
                           "torch/nn/linear.py|rel/torch/nn/linear.py");
    free(s);
    /* A substitution comes first, the path as given after it. */
    char why[64];
    assert_true(srcpath_add_map(&sp, "/venv/lib/python3.10=/usr/lib/python3", why, sizeof(why)));
    s = cand_str(&sp, "/venv/lib/python3.10/x.py");
    assert_string_equal(s, "/usr/lib/python3/x.py|/venv/lib/python3.10/x.py");
    free(s);
    s = cand_str(&sp, "");
    assert_string_equal(s, "");
    free(s);
    srcpath_done(&sp);
}

static void test_find(void **state)
{
    (void)state;
    char a[320], b[320], p[400];
    snprintf(a, sizeof(a), "%s/a", tmpdir);
    snprintf(b, sizeof(b), "%s/b", tmpdir);
    mkdir(a, 0755);
    mkdir(b, 0755);
    snprintf(p, sizeof(p), "%s/torch", b);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/torch/_ops.py", b);
    write_file(p, "x = 1\n", 0644);
    /* A directory where the file is looked for first is skipped. */
    snprintf(p, sizeof(p), "%s/torch", a);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/torch/_ops.py", a);
    mkdir(p, 0755);

    struct srcpath sp;
    srcpath_init(&sp);
    char list[700];
    snprintf(list, sizeof(list), "%s:%s", a, b);
    srcpath_set_dirs(&sp, list);
    struct strbuf looked = STRBUF_INIT;
    char *f = srcpath_find(&sp, "torch/_ops.py", &looked);
    snprintf(p, sizeof(p), "%s/torch/_ops.py", b);
    assert_non_null(f);
    assert_string_equal(f, p);
    free(f);
    snprintf(p, sizeof(p), "%s/torch/_ops.py: not a regular file\n", a);
    assert_string_equal(sb_str(&looked), p);

    /* Not found: every place tried is listed, with why. */
    sb_clear(&looked);
    assert_null(srcpath_find(&sp, "torch/nope.py", &looked));
    char want[900];
    snprintf(want, sizeof(want),
             "%s/torch/nope.py: No such file or directory\n"
             "%s/torch/nope.py: No such file or directory\n",
             a, b);
    assert_string_equal(sb_str(&looked), want);

    /* Recorded on another machine: found through a substitution. */
    char map[400], why[64];
    snprintf(map, sizeof(map), "/home/ci/build=%s", b);
    assert_true(srcpath_add_map(&sp, map, why, sizeof(why)));
    f = srcpath_find(&sp, "/home/ci/build/torch/_ops.py", NULL);
    assert_non_null(f);
    snprintf(p, sizeof(p), "%s/torch/_ops.py", b);
    assert_string_equal(f, p);
    free(f);
    /* ... or through its site-packages tail along the search path. */
    f = srcpath_find(&sp, "/opt/conda/lib/python3.11/site-packages/torch/_ops.py", NULL);
    assert_non_null(f);
    assert_string_equal(f, p);
    free(f);
    sb_free(&looked);
    srcpath_done(&sp);
}

/* A trace is untrusted: only files under a search directory or a
 * --source-map target, after resolving "..", "." and symlinks, are found;
 * the others are listed with why. */
static void test_confined(void **state)
{
    (void)state;
    char src[320], out[320], mapped[320], p[400], q[400];
    snprintf(src, sizeof(src), "%s/src", tmpdir);
    snprintf(out, sizeof(out), "%s/secret", tmpdir);
    snprintf(mapped, sizeof(mapped), "%s/mapped", tmpdir);
    mkdir(src, 0755);
    mkdir(out, 0755);
    mkdir(mapped, 0755);
    snprintf(p, sizeof(p), "%s/ok.py", src);
    write_file(p, "x = 1\n", 0644);
    snprintf(p, sizeof(p), "%s/key.txt", out);
    write_file(p, "secret\n", 0644);
    snprintf(p, sizeof(p), "%s/m.py", mapped);
    write_file(p, "y = 2\n", 0644);
    /* A symlink inside the source directory to a file outside it. */
    snprintf(p, sizeof(p), "%s/key.txt", out);
    snprintf(q, sizeof(q), "%s/link.py", src);
    assert_int_equal(symlink(p, q), 0);

    struct srcpath sp;
    srcpath_init(&sp);
    srcpath_set_dirs(&sp, src);
    char map[400], why[64];
    snprintf(map, sizeof(map), "/remote=%s", mapped);
    assert_true(srcpath_add_map(&sp, map, why, sizeof(why)));

    char *f = srcpath_find(&sp, "ok.py", NULL);
    assert_non_null(f);
    free(f);
    f = srcpath_find(&sp, "/remote/m.py", NULL);
    assert_non_null(f);
    free(f);
    struct strbuf looked = STRBUF_INIT;
    const char *const refused[] = {"../secret/key.txt", "link.py", "/remote/../secret/key.txt"};
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        sb_clear(&looked);
        assert_null(srcpath_find(&sp, refused[i], &looked));
        assert_non_null(strstr(sb_str(&looked), "outside every source directory"));
    }
    /* An absolute path from the trace, outside them all. */
    snprintf(p, sizeof(p), "%s/key.txt", out);
    sb_clear(&looked);
    assert_null(srcpath_find(&sp, p, &looked));
    assert_non_null(strstr(sb_str(&looked), "outside every source directory"));
    char why2[PATH_MAX + 200];
    assert_false(srcpath_allowed(&sp, p, why2, sizeof(why2)));
    assert_non_null(strstr(why2, "secret/key.txt"));
    snprintf(p, sizeof(p), "%s/ok.py", src);
    assert_true(srcpath_allowed(&sp, p, why2, sizeof(why2)));
    sb_free(&looked);
    srcpath_done(&sp);
}

/* The default path asks the python3 on PATH once: a stand-in prints two
 * directories (one missing) and logs each run; its arguments are fixed. */
static void test_python_site(void **state)
{
    (void)state;
    char bin[320], site[320], script[400], log[400], body[1600];
    snprintf(bin, sizeof(bin), "%s/bin", tmpdir);
    snprintf(site, sizeof(site), "%s/site", tmpdir);
    snprintf(log, sizeof(log), "%s/runs.log", tmpdir);
    mkdir(bin, 0755);
    mkdir(site, 0755);
    snprintf(script, sizeof(script), "%s/python3", bin);
    snprintf(body, sizeof(body),
             "#!/bin/sh\n"
             "echo \"$1 $2\" >> '%s'\n"
             "echo '%s'\n"
             "echo '%s/missing'\n",
             log, site, tmpdir);
    write_file(script, body, 0755);
    const char *old = getenv("PATH");
    char *saved = old ? strdup(old) : NULL;
    setenv("PATH", bin, 1);

    struct srcpath sp;
    srcpath_init(&sp);
    char *s = cand_str(&sp, "torch/x.py");
    char want[800];
    snprintf(want, sizeof(want), "torch/x.py|%s/torch/x.py", site);
    assert_string_equal(s, want);
    free(s);
    srcpath_done(&sp);
    /* A second search path reuses the answer: python3 ran once. */
    srcpath_init(&sp);
    s = cand_str(&sp, "y.py");
    snprintf(want, sizeof(want), "y.py|%s/y.py", site);
    assert_string_equal(s, want);
    free(s);
    srcpath_done(&sp);
    if (saved) {
        setenv("PATH", saved, 1);
        free(saved);
    }
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    char line[128];
    int runs = 0;
    while (fgets(line, sizeof(line), f)) {
        assert_string_equal(line, "-I -c\n");
        runs++;
    }
    fclose(f);
    assert_int_equal(runs, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_rules),   cmocka_unit_test(test_candidates),
        cmocka_unit_test(test_find),        cmocka_unit_test(test_confined),
        cmocka_unit_test(test_python_site),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
