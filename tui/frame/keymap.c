/* The default key tables and key names. Curses is included for the KEY_*
 * codes only; nothing here draws. */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/base/common.h"
#include "core/base/utf8.h"
#include "tui/frame/keymap.h"

/* clang-format off */
static const struct keybind keys_global[] = {
    {'?', A_HELP, "Help"},
    {KEYF(KEY_F(1)), A_HELP, NULL},
    {'\t', A_FOCUS_NEXT, "Pane"},
    {KEYF(KEY_BTAB), A_FOCUS_PREV, NULL},
    {'/', A_SEARCH, "Search"},
    {'n', A_SEARCH_NEXT, NULL},
    {'N', A_SEARCH_PREV, NULL},
    {'f', A_FILTER, "Filter"},
    {'F', A_FILTER_CLEAR, NULL},
    {'M', A_MAXIMIZE, "Max"},
    {'K', A_KERNEL_NAMES, NULL},
    {'E', A_EXPORT, NULL},
    {'C', A_CRITPATH, NULL},
    {'W', A_WHATIF, NULL},
    {'I', A_FINDINGS, NULL},
    {'T', A_STEPS, NULL},
    {'q', A_QUIT, "Quit"},
    {KEY_CTRL('c'), A_QUIT, NULL},
    {KEY_ESC, A_CANCEL, NULL},
    {KEY_CTRL('l'), A_REDRAW, NULL},
    {KEYF(KEY_F(2)), A_FOCUS_TABLE, NULL},
    {KEYF(KEY_F(3)), A_FOCUS_TREE, NULL},
    {KEYF(KEY_F(4)), A_FOCUS_TIMELINE, NULL},
    {KEYF(KEY_F(5)), A_FOCUS_DETAIL, NULL},
    {KEYF(KEY_BACKSPACE), A_BACK, NULL},
    {'j', A_MOVE_DOWN, NULL},
    {KEYF(KEY_DOWN), A_MOVE_DOWN, NULL},
    {'k', A_MOVE_UP, NULL},
    {KEYF(KEY_UP), A_MOVE_UP, NULL},
    {'h', A_MOVE_LEFT, NULL},
    {KEYF(KEY_LEFT), A_MOVE_LEFT, NULL},
    {'l', A_MOVE_RIGHT, NULL},
    {KEYF(KEY_RIGHT), A_MOVE_RIGHT, NULL},
    {KEYF(KEY_PPAGE), A_PAGE_UP, NULL},
    {KEY_CTRL('b'), A_PAGE_UP, NULL},
    {KEYF(KEY_NPAGE), A_PAGE_DOWN, NULL},
    {KEY_CTRL('f'), A_PAGE_DOWN, NULL},
    {' ', A_PAGE_DOWN, NULL},
    {'g', A_MOVE_FIRST, NULL},
    {KEYF(KEY_HOME), A_MOVE_FIRST, NULL},
    {'G', A_MOVE_LAST, NULL},
    {KEYF(KEY_END), A_MOVE_LAST, NULL},
    {'\n', A_ACTIVATE, NULL},
    {'t', A_TRACEBACK, NULL},
    {0, A_NONE, NULL},
};

/* The keys of every table: sort by the next, previous or n-th column,
 * the detail columns, column scrolling. */
#define TABLE_COLUMN_KEYS                                                                          \
    {'>', A_SORT_NEXT, NULL}, {'<', A_SORT_PREV, NULL}, {'1', A_SORT_1, NULL},                     \
        {'2', A_SORT_2, NULL}, {'3', A_SORT_3, NULL}, {'4', A_SORT_4, NULL},                       \
        {'5', A_SORT_5, NULL}, {'6', A_SORT_6, NULL}, {'7', A_SORT_7, NULL},                       \
        {'8', A_SORT_8, NULL}, {'9', A_SORT_9, NULL}, {'w', A_ALL_COLUMNS, "Columns"},             \
        {'[', A_SCROLL_LEFT, NULL}, {']', A_SCROLL_RIGHT, NULL}

/* A trace's table views after Enter: the view cycle, sorting, columns and
 * the roofline of the selected op. */
#define TABLE_VIEW_KEYS                                                                            \
    {'v', A_VIEW_NEXT, "View"}, {'V', A_VIEW_PREV, NULL}, {'s', A_SORT_MENU, "Sort"},              \
        {'S', A_SORT_REVERSE, "Reverse"}, TABLE_COLUMN_KEYS, {'r', A_ROOFLINE, NULL}

static const struct keybind keys_table[] = {
    {'\n', A_ACTIVATE, "Instances"},
    TABLE_VIEW_KEYS,
    {0, A_NONE, NULL},
};

/* A trace's step list (and its iterations): the op table's keys, Enter
 * opening the row's scope. */
static const struct keybind keys_scope_table[] = {
    {'\n', A_ACTIVATE, "Scope"},
    TABLE_VIEW_KEYS,
    {0, A_NONE, NULL},
};

/* A job's ranks and collectives: one view each, no roofline; Enter opens
 * the rank's trace. */
static const struct keybind keys_job_table[] = {
    {'\n', A_ACTIVATE, "Open rank"},
    {'s', A_SORT_MENU, "Sort"},
    {'S', A_SORT_REVERSE, "Reverse"},
    TABLE_COLUMN_KEYS,
    {0, A_NONE, NULL},
};

static const struct keybind keys_tree[] = {
    {'\n', A_ACTIVATE, "Open"},
    {' ', A_TOGGLE, NULL},
    {'o', A_TOGGLE, NULL},
    {'x', A_HOT_PATH, "Hot path"},
    {'e', A_EXPAND_ALL, "Expand all"},
    {'*', A_EXPAND_ALL, NULL},
    {'c', A_COLLAPSE_ALL, "Collapse"},
    {'p', A_PARENT, NULL},
    {'P', A_HIDE_PYTHON, "Python"},
    {'a', A_GROUP, "Group"},
    {'O', A_SCOPE_SUBTREE, NULL},
    {'E', A_EXPORT_SUBTREE, NULL},
    {0, A_NONE, NULL},
};

static const struct keybind keys_timeline[] = {
    {'\n', A_SELECT_EVENT, "Select"},
    {'+', A_ZOOM_IN, "Zoom"},
    {'=', A_ZOOM_IN, NULL},
    {'-', A_ZOOM_OUT, NULL},
    {'0', A_ZOOM_FIT, "Fit"},
    {'z', A_ZOOM_SELECTION, "Jump"},
    {'H', A_PAN_LEFT, NULL},
    {'L', A_PAN_RIGHT, NULL},
    {'[', A_EVENT_PREV, NULL},
    {']', A_EVENT_NEXT, NULL},
    {'m', A_MARK, NULL},
    {'E', A_EXPORT_WINDOW, NULL},
    {0, A_NONE, NULL},
};

static const struct keybind keys_detail[] = {
    {'\n', A_ACTIVATE, "Select"},
    {'t', A_TRACEBACK, "Traceback"},
    {0, A_NONE, NULL},
};

static const struct keybind keys_traceback[] = {
    {'\n', A_SOURCE, "Source"},
    {'t', A_TRACEBACK, "Details"},
    {'a', A_ALL_FRAMES, "All frames"},
    {0, A_NONE, NULL},
};

static const struct keybind keys_source[] = {
    {KEYF(KEY_BACKSPACE), A_BACK, "Frames"},
    {'t', A_TRACEBACK, "Details"},
    {0, A_NONE, NULL},
};

/* Memory snapshots: the report tables, the live allocations and segments,
 * the memory chart. */
static const struct keybind keys_snap_table[] = {
    {'\n', A_TRACEBACK, "Traceback"},
    {'v', A_VIEW_NEXT, "View"},
    {'V', A_VIEW_PREV, NULL},
    {'s', A_SORT_MENU, "Sort"},
    {'S', A_SORT_REVERSE, NULL},
    TABLE_COLUMN_KEYS,
    {'D', A_SITE_DEPTH, "Depth"},
    {'d', A_DEVICE_NEXT, NULL},
    {'p', A_PEAK, NULL},
    {'o', A_OOM_NEXT, NULL},
    {0, A_NONE, NULL},
};

static const struct keybind keys_snap_memory[] = {
    {'\n', A_TRACEBACK, "Traceback"},
    {'v', A_VIEW_NEXT, "View"},
    {'V', A_VIEW_PREV, NULL},
    {'p', A_PEAK, "Peak"},
    {'o', A_OOM_NEXT, "OOM"},
    {'d', A_DEVICE_NEXT, "Device"},
    {0, A_NONE, NULL},
};

static const struct keybind keys_snap_chart[] = {
    {'\n', A_TRACEBACK, "Traceback"},
    {'p', A_PEAK, "Peak"},
    {'o', A_OOM_NEXT, "OOM"},
    {'+', A_ZOOM_IN, "Zoom"},
    {'=', A_ZOOM_IN, NULL},
    {'-', A_ZOOM_OUT, NULL},
    {'0', A_ZOOM_FIT, "Fit"},
    {'H', A_PAN_LEFT, NULL},
    {'L', A_PAN_RIGHT, NULL},
    {'[', A_EVENT_PREV, NULL},
    {']', A_EVENT_NEXT, NULL},
    {'d', A_DEVICE_NEXT, "Device"},
    {0, A_NONE, NULL},
};
/* A trace diff: 1-5 and Tab go from one of its views to the next (the
 * tables, the merged tree, the sides), Enter or d shows both sides'
 * detail of the selection on the whole body. */
#define DIFF_VIEW_KEYS                                                                             \
    {'\n', A_DIFF_DETAIL, "Detail"}, {'d', A_DIFF_DETAIL, NULL}, {'1', A_DIFF_OPS, "Ops"},           \
        {'2', A_DIFF_TREE, "Tree"}, {'3', A_DIFF_LCA, "LCA"}, {'4', A_DIFF_ARGS, NULL},            \
        {'5', A_DIFF_ROOFLINE, NULL}, {'\t', A_DIFF_NEXT, "Next"},                                 \
        {KEYF(KEY_BTAB), A_DIFF_PREV, NULL}

static const struct keybind keys_diff_table[] = {
    DIFF_VIEW_KEYS,
    {'s', A_SORT_MENU, "Sort"},
    {'S', A_SORT_REVERSE, NULL},
    {'>', A_SORT_NEXT, NULL},
    {'<', A_SORT_PREV, NULL},
    {'v', A_VIEW_NEXT, NULL},
    {'V', A_VIEW_PREV, NULL},
    {'w', A_ALL_COLUMNS, NULL},
    {'[', A_SCROLL_LEFT, NULL},
    {']', A_SCROLL_RIGHT, "Columns"},
    {'h', A_SCROLL_LEFT, NULL},
    {'l', A_SCROLL_RIGHT, NULL},
    {KEYF(KEY_LEFT), A_SCROLL_LEFT, NULL},
    {KEYF(KEY_RIGHT), A_SCROLL_RIGHT, NULL},
    {0, A_NONE, NULL},
};

static const struct keybind keys_diff_tree[] = {
    DIFF_VIEW_KEYS,
    {' ', A_TOGGLE, NULL},
    {'o', A_TOGGLE, NULL},
    {'e', A_EXPAND_ALL, "Expand all"},
    {'*', A_EXPAND_ALL, NULL},
    {'c', A_COLLAPSE_ALL, "Collapse"},
    {'s', A_SORT_MENU, "Sort"},
    {'S', A_SORT_REVERSE, NULL},
    {'>', A_SORT_NEXT, NULL},
    {'<', A_SORT_PREV, NULL},
    {0, A_NONE, NULL},
};

static const struct keybind keys_diff_sides[] = {
    {'\n', A_ACTIVATE, "Open trace"},
    {'1', A_DIFF_OPS, "Ops"},
    {'2', A_DIFF_TREE, "Tree"},
    {'3', A_DIFF_LCA, NULL},
    {'4', A_DIFF_ARGS, NULL},
    {'5', A_DIFF_ROOFLINE, NULL},
    {'\t', A_DIFF_NEXT, "Next"},
    {KEYF(KEY_BTAB), A_DIFF_PREV, NULL},
    {0, A_NONE, NULL},
};
/* clang-format on */

const struct keybind *keymap_table(int pane)
{
    switch (pane) {
    case PANE_TABLE:
        return keys_table;
    case PANE_TREE:
        return keys_tree;
    case PANE_TIMELINE:
        return keys_timeline;
    case PANE_DETAIL:
        return keys_detail;
    case KEYS_TRACEBACK:
        return keys_traceback;
    case KEYS_SOURCE:
        return keys_source;
    case KEYS_SNAP_TABLE:
        return keys_snap_table;
    case KEYS_SNAP_MEMORY:
        return keys_snap_memory;
    case KEYS_SNAP_CHART:
        return keys_snap_chart;
    case KEYS_DIFF_TABLE:
        return keys_diff_table;
    case KEYS_DIFF_TREE:
        return keys_diff_tree;
    case KEYS_DIFF_SIDES:
        return keys_diff_sides;
    case KEYS_JOB_TABLE:
        return keys_job_table;
    case KEYS_SCOPE_TABLE:
        return keys_scope_table;
    default:
        return keys_global;
    }
}

static enum action find_in(const struct keybind *kb, int key)
{
    for (; kb->key; kb++)
        if (kb->key == key)
            return kb->action;
    return A_NONE;
}

enum action keymap_lookup(int pane, int key)
{
    enum action a = pane != PANE__COUNT ? find_in(keymap_table(pane), key) : A_NONE;
    return a != A_NONE ? a : find_in(keys_global, key);
}

int keymap_normalize(int code, bool is_fn)
{
    if (is_fn) {
        if (code == KEY_ENTER)
            return '\n';
        return KEYF(code);
    }
    if (code == '\r')
        return '\n';
    if (code == 127 || code == 8)
        return KEYF(KEY_BACKSPACE);
    return code;
}

/* clang-format off */
static const struct {
    const char *name;
    int key;
} named[] = {
    {"Enter", '\n'},
    {"CR", '\n'},
    {"Tab", '\t'},
    {"S-Tab", KEYF(KEY_BTAB)},
    {"Esc", KEY_ESC},
    {"Space", ' '},
    {"lt", '<'},
    {"gt", '>'},
    {"Up", KEYF(KEY_UP)},
    {"Down", KEYF(KEY_DOWN)},
    {"Left", KEYF(KEY_LEFT)},
    {"Right", KEYF(KEY_RIGHT)},
    {"PgUp", KEYF(KEY_PPAGE)},
    {"PageUp", KEYF(KEY_PPAGE)},
    {"PgDn", KEYF(KEY_NPAGE)},
    {"PageDown", KEYF(KEY_NPAGE)},
    {"Home", KEYF(KEY_HOME)},
    {"End", KEYF(KEY_END)},
    {"BS", KEYF(KEY_BACKSPACE)},
    {"Backspace", KEYF(KEY_BACKSPACE)},
    {"Del", KEYF(KEY_DC)},
    {"Ins", KEYF(KEY_IC)},
    {"Mouse", KEYF(KEY_MOUSE)},
    {"Resize", KEYF(KEY_RESIZE)},
};
/* clang-format on */

size_t keymap_key_parse(const char *s, int *key)
{
    if (!*s)
        return 0;
    if (*s == '<') {
        const char *close = strchr(s, '>');
        if (close && close > s + 1) {
            size_t len = (size_t)(close - s - 1);
            const char *in = s + 1;
            char name[32];
            if (len < sizeof(name)) {
                memcpy(name, in, len);
                name[len] = '\0';
                for (size_t i = 0; i < ARRAY_SIZE(named); i++)
                    if (strcasecmp(name, named[i].name) == 0) {
                        *key = named[i].key;
                        return len + 2;
                    }
                if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && name[2] && !name[3]) {
                    *key = KEY_CTRL(name[2]);
                    return len + 2;
                }
                if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
                    int f = name[1] - '0';
                    if (name[2] >= '0' && name[2] <= '9' && !name[3])
                        f = f * 10 + (name[2] - '0');
                    else if (name[2])
                        f = -1;
                    if (f >= 1 && f <= 12) {
                        *key = KEYF(KEY_F(f));
                        return len + 2;
                    }
                }
            }
        }
        *key = '<';
        return 1;
    }
    uint32_t cp;
    size_t len = (unsigned char)*s < 0x80 ? 1 : utf8_decode(s, strlen(s), &cp);
    if (len == 1) {
        *key = (unsigned char)*s;
        return 1;
    }
    if (!len)
        return 0;
    *key = (int)cp;
    return len;
}

void keymap_key_name(int key, char *buf, size_t n)
{
    for (size_t i = 0; i < ARRAY_SIZE(named); i++)
        if (named[i].key == key && strcmp(named[i].name, "CR") != 0 &&
            strcmp(named[i].name, "PageUp") != 0 && strcmp(named[i].name, "PageDown") != 0 &&
            strcmp(named[i].name, "Backspace") != 0 && strcmp(named[i].name, "gt") != 0 &&
            strcmp(named[i].name, "lt") != 0) {
            snprintf(buf, n, "<%s>", named[i].name);
            return;
        }
    if (KEY_IS_FN(key)) {
        int code = key & ~KEYF_BIT;
        if (code >= KEY_F(1) && code <= KEY_F(12))
            snprintf(buf, n, "<F%d>", code - KEY_F0);
        else
            snprintf(buf, n, "<key-%d>", code);
        return;
    }
    if (key > 0 && key < 32) {
        snprintf(buf, n, "<C-%c>", key + 'a' - 1);
        return;
    }
    if (key < 0x80) {
        snprintf(buf, n, "%c", key);
        return;
    }
    /* UTF-8 of the code point. */
    unsigned cp = (unsigned)key;
    char u[5] = {0};
    if (cp < 0x800) {
        u[0] = (char)(0xc0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
    } else {
        u[0] = (char)(0xf0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
    }
    snprintf(buf, n, "%s", u);
}

static void append_keys(const struct keybind *kb, enum action a, char *buf, size_t n, bool *any,
                        const struct keybind *shadow)
{
    for (; kb->key; kb++) {
        if (kb->action != a)
            continue;
        /* A global key the pane rebinds does not run this action there. */
        if (shadow && find_in(shadow, kb->key) != A_NONE)
            continue;
        char name[32];
        keymap_key_name(kb->key, name, sizeof(name));
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", *any ? " " : "", name);
        *any = true;
    }
}

bool keymap_keys_for(int pane, enum action a, char *buf, size_t n)
{
    bool any = false;
    buf[0] = '\0';
    const struct keybind *own = pane != PANE__COUNT ? keymap_table(pane) : NULL;
    if (own)
        append_keys(own, a, buf, n, &any, NULL);
    append_keys(keys_global, a, buf, n, &any, own);
    return any;
}
