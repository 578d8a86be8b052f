/* Unit tests: output files written whole or not at all (core/base/outfile),
 * and the same-file check between an output and an input. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/input_registry.h"
#include "core/base/outfile.h"
#include "core/base/source.h"
#include "core/base/xalloc.h"

struct dir {
    char path[64];
};

static int dir_setup(void **state)
{
    struct dir *d = xcalloc(1, sizeof(*d));
    snprintf(d->path, sizeof(d->path), "/tmp/tt-outfile.XXXXXX");
    if (!mkdtemp(d->path))
        return -1;
    *state = d;
    return 0;
}

static int dir_teardown(void **state)
{
    struct dir *d = *state;
    DIR *dh = opendir(d->path);
    struct dirent *de;
    while (dh && (de = readdir(dh))) {
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            char *p = xasprintf("%s/%s", d->path, de->d_name);
            unlink(p);
            free(p);
        }
    }
    if (dh)
        closedir(dh);
    rmdir(d->path);
    free(d);
    return 0;
}

static char *in_dir(const struct dir *d, const char *name)
{
    return xasprintf("%s/%s", d->path, name);
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *file_text(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = xcalloc(1, 4096);
    size_t n = fread(buf, 1, 4095, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Entries of the folder, "." and ".." aside. */
static int dir_entries(const struct dir *d)
{
    DIR *dh = opendir(d->path);
    assert_non_null(dh);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(dh)))
        n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(dh);
    return n;
}

static void test_same_file(void **state)
{
    struct dir *d = *state;
    char *in = in_dir(d, "in.json"), *other = in_dir(d, "other.json");
    char *sym = in_dir(d, "sym.json"), *hard = in_dir(d, "hard.json");
    char *missing = in_dir(d, "missing.json");
    put_file(in, "{\"traceEvents\": []}");
    put_file(other, "{\"traceEvents\": []}");
    assert_int_equal(symlink(in, sym), 0);
    assert_int_equal(link(in, hard), 0);
    struct errinfo err = {0};

    assert_int_equal(outfile_check_distinct(other, in, &err), ST_OK);
    assert_int_equal(outfile_check_distinct(missing, in, &err), ST_OK);
    assert_int_equal(err.status, ST_OK);
    const char *same[] = {in, sym, hard};
    for (size_t i = 0; i < ARRAY_SIZE(same); i++) {
        assert_int_equal(outfile_check_distinct(same[i], in, &err), ST_IO);
        char *m = errinfo_format(&err);
        /* One line naming both paths. */
        assert_non_null(strstr(m, same[i]));
        assert_non_null(strstr(m, in));
        assert_null(strchr(m, '\n'));
        free(m);
        errinfo_clear(&err);
    }
    /* A symlink given as the input, the file itself as the output. */
    assert_int_equal(outfile_check_distinct(in, sym, &err), ST_IO);
    errinfo_clear(&err);
    free(in);
    free(other);
    free(sym);
    free(hard);
    free(missing);
}

/* An input this process has opened (a source) is never an output's
 * target, whatever name reaches it: the backstop behind the commands'
 * early checks. */
static void test_opened_input_refused(void **state)
{
    struct dir *d = *state;
    char *in = in_dir(d, "cap.json"), *sym = in_dir(d, "cap-link.json");
    char *other = in_dir(d, "free.json");
    put_file(in, "{\"traceEvents\": []}");
    put_file(other, "x");
    assert_int_equal(symlink(in, sym), 0);
    struct errinfo err = {0};
    struct source src;
    assert_int_equal(source_open(&src, in, &err), ST_OK);
    source_close(&src);
    const char *targets[] = {in, sym};
    for (size_t i = 0; i < ARRAY_SIZE(targets); i++) {
        struct outfile o;
        assert_int_equal(outfile_open(&o, targets[i], &err), ST_IO);
        assert_int_equal(errno, EEXIST);
        assert_non_null(strstr(err.msg, "the output is the same file as the input"));
        assert_non_null(strstr(err.msg, in));
        errinfo_clear(&err);
    }
    /* The input is whole, no temporary file is left, others are written. */
    assert_int_equal(dir_entries(d), 3);
    struct outfile o;
    assert_int_equal(outfile_open(&o, other, &err), ST_OK);
    assert_int_equal(outfile_commit(&o, &err), ST_OK);
    input_registry_clear();
    assert_int_equal(outfile_open(&o, in, &err), ST_OK);
    outfile_discard(&o);
    free(in);
    free(sym);
    free(other);
}

static void test_commit_replaces_whole(void **state)
{
    struct dir *d = *state;
    char *out = in_dir(d, "out.txt");
    put_file(out, "old contents");
    chmod(out, 0640);
    struct outfile o;
    struct errinfo err = {0};
    assert_int_equal(outfile_open(&o, out, &err), ST_OK);
    assert_false(o.stream);
    assert_true(write(o.fd, "new", 3) == 3);
    /* Until the commit the old file is whole and the new one is aside. */
    char *text = file_text(out);
    assert_string_equal(text, "old contents");
    free(text);
    assert_int_equal(dir_entries(d), 2);
    assert_int_equal(outfile_commit(&o, &err), ST_OK);
    text = file_text(out);
    assert_string_equal(text, "new");
    free(text);
    assert_int_equal(dir_entries(d), 1);
    /* The replaced file's mode is kept. */
    struct stat st;
    assert_int_equal(stat(out, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    free(out);
}

static void test_discard_keeps_old(void **state)
{
    struct dir *d = *state;
    char *out = in_dir(d, "out.txt");
    put_file(out, "good");
    struct outfile o;
    struct errinfo err = {0};
    assert_int_equal(outfile_open(&o, out, &err), ST_OK);
    assert_true(write(o.fd, "half", 4) == 4);
    outfile_discard(&o);
    char *text = file_text(out);
    assert_string_equal(text, "good");
    free(text);
    assert_int_equal(dir_entries(d), 1);
    /* Discarding twice, or an outfile that never opened, is harmless. */
    outfile_discard(&o);
    free(out);
}

static void test_signal_cleanup(void **state)
{
    struct dir *d = *state;
    char *out = in_dir(d, "new.txt");
    struct outfile o;
    struct errinfo err = {0};
    assert_int_equal(outfile_open(&o, out, &err), ST_OK);
    assert_int_equal(dir_entries(d), 1);
    outfile_unlink_pending();
    assert_int_equal(dir_entries(d), 0);
    outfile_discard(&o);
    /* Committed files are not pending. */
    assert_int_equal(outfile_open(&o, out, &err), ST_OK);
    assert_int_equal(outfile_commit(&o, &err), ST_OK);
    outfile_unlink_pending();
    assert_int_equal(dir_entries(d), 1);
    free(out);
}

static void test_symlink_target(void **state)
{
    struct dir *d = *state;
    char *real = in_dir(d, "real.txt"), *sym = in_dir(d, "sym.txt");
    put_file(real, "old");
    assert_int_equal(symlink(real, sym), 0);
    struct outfile o;
    struct errinfo err = {0};
    assert_int_equal(outfile_open(&o, sym, &err), ST_OK);
    assert_true(write(o.fd, "new", 3) == 3);
    assert_int_equal(outfile_commit(&o, &err), ST_OK);
    /* The link still links, and the file it names has the new bytes. */
    struct stat st;
    assert_int_equal(lstat(sym, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    char *text = file_text(real);
    assert_string_equal(text, "new");
    free(text);
    free(real);
    free(sym);
}

static void test_streams_and_errors(void **state)
{
    struct dir *d = *state;
    struct outfile o;
    struct errinfo err = {0};
    /* Standard output is written in place and never closed. */
    assert_int_equal(outfile_open(&o, "-", &err), ST_OK);
    assert_true(o.stream);
    assert_int_equal(o.fd, STDOUT_FILENO);
    assert_int_equal(outfile_commit(&o, &err), ST_OK);
    assert_true(fcntl(STDOUT_FILENO, F_GETFD) >= 0);
    /* A FIFO is a stream: no temporary file beside it. */
    char *fifo = in_dir(d, "fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    int rfd = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(rfd >= 0);
    assert_int_equal(outfile_open(&o, fifo, &err), ST_OK);
    assert_true(o.stream);
    assert_int_equal(dir_entries(d), 1);
    assert_true(write(o.fd, "x", 1) == 1);
    assert_int_equal(outfile_commit(&o, &err), ST_OK);
    char c = 0;
    assert_true(read(rfd, &c, 1) == 1);
    assert_int_equal(c, 'x');
    close(rfd);
    /* A directory, and a folder that does not exist. */
    assert_int_equal(outfile_open(&o, d->path, &err), ST_IO);
    assert_non_null(strstr(err.msg, "directory"));
    errinfo_clear(&err);
    char *nodir = in_dir(d, "no/such/file");
    assert_int_equal(outfile_open(&o, nodir, &err), ST_IO);
    assert_string_equal(err.file, nodir);
    errinfo_clear(&err);
    assert_int_equal(dir_entries(d), 1);
    /* A read-only file stays as it is (root may write anything). */
    if (getuid() != 0) {
        char *ro = in_dir(d, "ro.txt");
        put_file(ro, "keep");
        chmod(ro, 0444);
        assert_int_equal(outfile_open(&o, ro, &err), ST_IO);
        errinfo_clear(&err);
        char *text = file_text(ro);
        assert_string_equal(text, "keep");
        free(text);
        free(ro);
    }
    free(fifo);
    free(nodir);
}

static void test_by_path(void **state)
{
    struct dir *d = *state;
    char *out = in_dir(d, "book.bin");
    put_file(out, "old");
    struct outfile o;
    struct errinfo err = {0};
    assert_int_equal(outfile_open_path(&o, out, &err), ST_OK);
    assert_int_equal(o.fd, -1);
    assert_non_null(o.tmp);
    put_file(o.tmp, "by name");
    assert_int_equal(outfile_commit(&o, &err), ST_OK);
    char *text = file_text(out);
    assert_string_equal(text, "by name");
    free(text);
    assert_int_equal(dir_entries(d), 1);
    /* A library that fails: the old file stays. */
    assert_int_equal(outfile_open_path(&o, out, &err), ST_OK);
    outfile_discard(&o);
    text = file_text(out);
    assert_string_equal(text, "by name");
    free(text);
    assert_int_equal(dir_entries(d), 1);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_same_file, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_opened_input_refused, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_commit_replaces_whole, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_discard_keeps_old, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_signal_cleanup, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_symlink_target, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_streams_and_errors, dir_setup, dir_teardown),
        cmocka_unit_test_setup_teardown(test_by_path, dir_setup, dir_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
