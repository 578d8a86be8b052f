/* Folded stacks: combined tracebacks of host events merged into a trie
 * of frame texts, one output line per stack that holds a value. */
#include "config.h"

#include <string.h>

#include "core/base/display.h"
#include "core/symbols/folded.h"
#include "core/base/strtab.h"
#include "core/base/wide.h"
#include "core/symbols/traceback.h"
#include "core/base/hmap.h"

bool folded_metric_parse(const char *s, enum folded_metric *out)
{
    static const struct {
        const char *name;
        enum folded_metric m;
    } names[] = {
        {"self_cpu", FOLDED_SELF_CPU},
        {"self_cpu_time_total", FOLDED_SELF_CPU},
        {"self_device", FOLDED_SELF_DEVICE},
        {"self_cuda", FOLDED_SELF_DEVICE},
        {"self_cuda_time_total", FOLDED_SELF_DEVICE},
        {"self_gpu", FOLDED_SELF_DEVICE},
    };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].m;
            return true;
        }
    return false;
}

struct node {
    uint32_t parent; /* node index, IDX_NONE at the root */
    uint32_t text;   /* strtab id of the frame text */
    __int128 value;  /* ns ending exactly at this node (durations near int64's
                        limit add up past it: core/base/wide.h) */
    bool listed;     /* already in the output order */
};

struct folder {
    struct strtab texts;     /* frame texts, as written out */
    struct hmap text_of_raw; /* trace strtab id -> texts id */
    struct hmap child;       /* (parent + 1) << 32 | text -> node */
    VEC(struct node) nodes;
    VEC(uint32_t) order; /* nodes holding a value, first-seen order */
    struct strbuf tmp;
};

/* The output text of a frame: sanitized, separators replaced. */
static uint32_t frame_text(struct folder *fo, const struct trace *t, const struct tb_frame *f)
{
    /* Frames borrowed from the trace's strtab are cached by pointer
     * identity through their id when the trace has it interned. */
    uint32_t raw = f->ev != IDX_NONE && f->text == trace_str(t, t->ev.v[f->ev].name)
                       ? t->ev.v[f->ev].name
                       : IDX_NONE;
    if (raw != IDX_NONE) {
        uint32_t id = hmap_get(&fo->text_of_raw, raw);
        if (id != IDX_NONE)
            return id;
    }
    sb_clear(&fo->tmp);
    display_sanitize(&fo->tmp, f->text, strlen(f->text));
    for (size_t i = 0; i < fo->tmp.len; i++) {
        char c = fo->tmp.s[i];
        if (c == ' ' || c == ';' || c == '\t' || c == '\n' || c == '\r')
            fo->tmp.s[i] = '_';
    }
    uint32_t id = strtab_intern(&fo->texts, sb_str(&fo->tmp), fo->tmp.len);
    if (raw != IDX_NONE)
        hmap_put(&fo->text_of_raw, raw, id);
    return id;
}

static uint32_t child_node(struct folder *fo, uint32_t parent, uint32_t text)
{
    uint64_t key = ((uint64_t)(parent + 1) << 32) | text;
    uint32_t n = hmap_get(&fo->child, key);
    if (n != IDX_NONE)
        return n;
    n = (uint32_t)fo->nodes.n;
    VEC_PUSH(&fo->nodes, ((struct node){parent, text, 0, false}));
    hmap_put(&fo->child, key, n);
    return n;
}

static void add_stack(struct folder *fo, const struct trace *t, struct traceback *tb, uint32_t ev,
                      __int128 value)
{
    traceback_of_event(tb, t, ev);
    uint32_t node = IDX_NONE;
    for (size_t k = tb->frames.n; k-- > 0;)
        node = child_node(fo, node, frame_text(fo, t, &tb->frames.v[k]));
    if (node == IDX_NONE)
        return;
    struct node *nd = &fo->nodes.v[node];
    nd->value += value;
    if (!nd->listed) {
        nd->listed = true;
        VEC_PUSH(&fo->order, node);
    }
}

static void write_line(struct strbuf *out, struct folder *fo, uint32_t node, int64_t us)
{
    VEC(uint32_t) path = {0};
    for (uint32_t n = node; n != IDX_NONE; n = fo->nodes.v[n].parent)
        VEC_PUSH(&path, fo->nodes.v[n].text);
    for (size_t k = path.n; k-- > 0;) {
        sb_puts(out, strtab_str(&fo->texts, path.v[k]));
        if (k)
            sb_putc(out, ';');
    }
    sb_printf(out, " %lld\n", (long long)us);
    VEC_FREE(&path);
}

void folded_write(struct strbuf *out, const struct trace *t, enum folded_metric m)
{
    struct folder fo;
    memset(&fo, 0, sizeof(fo));
    strtab_init(&fo.texts);
    hmap_init(&fo.text_of_raw, 1024);
    hmap_init(&fo.child, 4096);
    struct traceback tb;
    traceback_init(&tb);

    __int128 *dev = NULL;
    if (m == FOLDED_SELF_DEVICE) {
        dev = xcalloc(t->ev.n ? t->ev.n : 1, sizeof(*dev));
        for (uint32_t i = 0; i < t->ev.n; i++) {
            const struct event *e = &t->ev.v[i];
            const struct launch_info *li = evk_is_launch(e->kind) ? ev_launch(t, i) : NULL;
            if (!li || !li->gpu_count || !t->launch_gpu)
                continue;
            __int128 sum = 0;
            for (uint32_t k = 0; k < li->gpu_count; k++)
                sum += t->ev.v[t->launch_gpu[li->gpu_first + k]].dur;
            dev[e->parent != IDX_NONE ? e->parent : i] += sum;
        }
    }
    for (uint32_t i = 0; i < t->ev.n; i++) {
        const struct event *e = &t->ev.v[i];
        if (!evk_is_host_span(e->kind) || e->kind == EVK_SPAN || e->ph != 'X')
            continue;
        __int128 v;
        if (m == FOLDED_SELF_CPU) {
            v = e->dur;
            for (uint32_t c = e->first_child; c != IDX_NONE; c = t->ev.v[c].next_sibling)
                v -= t->ev.v[c].dur;
            if (v < 0)
                v = 0;
        } else {
            v = dev[i];
        }
        if (v > 0)
            add_stack(&fo, t, &tb, i, v);
    }
    for (size_t k = 0; k < fo.order.n; k++) {
        int64_t us = wide_clamp(fo.nodes.v[fo.order.v[k]].value / 1000);
        if (us > 0)
            write_line(out, &fo, fo.order.v[k], us);
    }

    free(dev);
    traceback_done(&tb);
    sb_free(&fo.tmp);
    VEC_FREE(&fo.nodes);
    VEC_FREE(&fo.order);
    hmap_free(&fo.child);
    hmap_free(&fo.text_of_raw);
    strtab_free(&fo.texts);
}
