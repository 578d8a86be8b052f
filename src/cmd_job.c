/* torchtop report TRACE...: the cross-rank tables of a multi-rank job. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/display.h"
#include "core/base/outfile.h"
#include "core/job/job.h"
#include "core/job/job_findings.h"
#include "core/job/job_hta.h"
#include "core/job/job_tables.h"
#include "core/report/report.h"
#include "core/report/xlsx.h"
#include "src/cmd_job.h"
#include "src/cliout.h"
#include "src/commands.h"
#include "tui/job/job_doc.h"
#include "tui/trace/tui.h"

bool job_report_wanted(char *const *args, size_t n)
{
    if (n > 1)
        return true;
    if (n == 0 || strcmp(args[0], "-") == 0)
        return false;
    struct stat st;
    if (stat(args[0], &st) != 0)
        return strpbrk(args[0], "*?[") != NULL;
    return S_ISDIR(st.st_mode) || ranksum_is_summary(args[0]);
}

/* The progress line of a job's load: whether to draw it, and whether it
 * is drawn and not yet ended by a newline (a message then starts a line
 * of its own). */
struct job_progress_line {
    bool quiet;
    bool open;
};

static void job_progress(void *ud, size_t i, size_t n, const char *path)
{
    struct job_progress_line *pl = ud;
    if (pl->quiet)
        return;
    struct strbuf sb = STRBUF_INIT;
    display_sanitize(&sb, path, strlen(path));
    fprintf(stderr, "\rtorchtop: rank file %zu of %zu: %s\033[K", i + 1, n, sb_str(&sb));
    pl->open = i + 1 < n;
    if (!pl->open)
        fputc('\n', stderr);
    sb_free(&sb);
}

/* End a progress line left open by a load that stopped part-way. */
static void job_progress_end(struct job_progress_line *pl)
{
    if (pl->open)
        fputc('\n', stderr);
    pl->open = false;
}

/* Split a -t list into the job's own tables and HTA's per-rank tables
 * (job_hta.h); each out is empty when none was named. */
static void split_tables(const char *names, struct strbuf *job, struct strbuf *hta)
{
    if (!names)
        return;
    const char *p = names;
    while (*p) {
        size_t len = strcspn(p, ",");
        char name[64];
        struct strbuf *to = job;
        if (len < sizeof(name)) {
            memcpy(name, p, len);
            name[len] = '\0';
            if (job_hta_is_table(name))
                to = hta;
        }
        if (len) {
            if (to->len)
                sb_putc(to, ',');
            sb_putn(to, p, len);
        }
        p += len + (p[len] == ',');
    }
}

static int print_error(struct errinfo *err)
{
    char *m = errinfo_format(err);
    fprintf(stderr, "torchtop: %s\n", m);
    free(m);
    return EXIT_BAD_INPUT;
}

int job_report(char *const *args, size_t n, const struct job_report_opts *o)
{
    struct job_inputs in;
    struct errinfo err = {0};
    int rc = EXIT_OK;
    if (job_inputs_resolve((const char *const *)args, n, &in, &err) != ST_OK) {
        rc = print_error(&err);
        goto out;
    }
    for (size_t i = 0; i < in.v.n; i++) {
        struct errinfo e2 = {0};
        if ((o->out_path && outfile_check_distinct(o->out_path, in.v.v[i].path, &e2) != ST_OK) ||
            (o->xlsx_path && outfile_check_distinct(o->xlsx_path, in.v.v[i].path, &e2) != ST_OK)) {
            char *m = errinfo_format(&e2);
            fprintf(stderr, "torchtop report: %s\n", m);
            free(m);
            errinfo_clear(&e2);
            rc = EXIT_FAILURE_RUN;
            goto out;
        }
    }
    struct job_progress_line pl = {.quiet = o->quiet};
    struct job_load_opts lo = {
        .load = {.threads = o->threads, .link_require_flow = o->flow_links},
        .progress = job_progress,
        .progress_ud = &pl,
    };
    struct strbuf job_names = STRBUF_INIT, hta_names = STRBUF_INIT;
    split_tables(o->tables, &job_names, &hta_names);
    struct job *j = NULL;
    struct table_list hta_tables = {0};
    bool hta_sorted = false;
    struct job_hta_opts ho = {sb_str(&hta_names), o->ropts, o->sort,
                              o->xlsx_path ? SIZE_MAX : o->fmt->top};
    if (hta_names.len ? job_hta_load(&in, &lo, &ho, &j, &hta_tables, &hta_sorted, &err) != ST_OK
                      : job_load(&in, &lo, &j, &err) != ST_OK) {
        job_progress_end(&pl);
        rc = print_error(&err);
        sb_free(&job_names);
        sb_free(&hta_names);
        goto out;
    }
    struct job_view v;
    job_view_init(&v, j);
    struct table_list tables = {0};
    char msg[256];
    if ((job_names.len || !hta_names.len) &&
        !job_tables_build(&v, job_names.len ? sb_str(&job_names) : o->tables, &tables, msg)) {
        fprintf(stderr, "torchtop report: %s\n", msg);
        rc = EXIT_USAGE;
    }
    /* HTA's tables were sorted per rank before they were merged. */
    bool any = hta_sorted;
    for (size_t i = 0; !rc && o->sort && i < tables.items.n; i++)
        any |= report_sort_table(tables.items.v[i], o->sort);
    for (size_t i = 0; i < hta_tables.items.n; i++)
        table_list_add(&tables, hta_tables.items.v[i]);
    VEC_FREE(&hta_tables.items);
    if (!rc)
        job_findings_straggler(&v, &lo, &tables);
    sb_free(&job_names);
    sb_free(&hta_names);
    if (!rc && o->sort) {
        if (!any) {
            struct strbuf m = STRBUF_INIT;
            display_sanitize(&m, o->sort, strlen(o->sort));
            fprintf(stderr,
                    "torchtop report: no column '%s' to sort by in the job tables asked for\n",
                    sb_str(&m));
            sb_free(&m);
            rc = EXIT_USAGE;
        }
    }
    if (!rc && o->xlsx_path) {
        struct errinfo xerr = {0};
        if (xlsx_write(o->xlsx_path, NULL, &tables, NULL, &xerr) != ST_OK) {
            char *m = errinfo_format(&xerr);
            fprintf(stderr, "torchtop report: %s\n", m);
            free(m);
            rc = EXIT_FAILURE_RUN;
        }
        errinfo_clear(&xerr);
    } else if (!rc) {
        struct strbuf out = STRBUF_INIT, header = STRBUF_INIT;
        if (o->fmt->format == FMT_JSON) {
            job_tables_header_json(&header, &v);
            tabfmt_list(&out, &tables, o->fmt, o->no_header ? NULL : sb_str(&header));
        } else {
            if (!o->no_header && (o->fmt->format == FMT_TEXT || o->fmt->format == FMT_MD)) {
                job_tables_header_text(&out, &v);
                sb_putc(&out, '\n');
            }
            tabfmt_list(&out, &tables, o->fmt, NULL);
        }
        rc = cliout_write("report", o->out_path, &out);
        sb_free(&out);
        sb_free(&header);
    }
    table_list_free(&tables);
    job_view_done(&v);
    job_free(j);
out:
    job_inputs_free(&in);
    errinfo_clear(&err);
    return rc;
}

int job_explore(char *const *args, size_t n, const struct tui_opts *o)
{
    struct job_inputs in;
    struct errinfo err = {0};
    struct job *j = NULL;
    /* A script's screens are its output: no progress line then. */
    struct job_progress_line pl = {.quiet = o->script != NULL};
    struct job_load_opts lo = {
        .load = {.threads = o->threads},
        .progress = job_progress,
        .progress_ud = &pl,
    };
    int rc;
    if (job_inputs_resolve((const char *const *)args, n, &in, &err) != ST_OK ||
        job_load(&in, &lo, &j, &err) != ST_OK) {
        job_progress_end(&pl);
        rc = print_error(&err);
    } else {
        rc = job_doc_run(j, o);
    }
    job_inputs_free(&in);
    errinfo_clear(&err);
    return rc;
}
