/* What-if rules: parsing and matching (cp_whatif.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/critpath/cp_whatif.h"

bool cp_whatif_parse(const char *spec, struct cp_whatif_rule *r, char *err)
{
    memset(r, 0, sizeof(*r));
    r->spec = spec;
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec) {
        snprintf(err, 256, "'%.80s' is not NAME=FACTOR", spec);
        return false;
    }
    char *end = NULL;
    double f = strtod(eq + 1, &end);
    if (!eq[1] || *end || !isfinite(f) || f < 0 || f > CP_WHATIF_MAX_FACTOR) {
        snprintf(err, 256, "'%.80s': the factor must be a number from 0 to %g", spec,
                 CP_WHATIF_MAX_FACTOR);
        return false;
    }
    r->factor = f;
    size_t len = (size_t)(eq - spec);
    r->target = xmalloc(len + 1);
    memcpy(r->target, spec, len);
    r->target[len] = '\0';
    for (int b = CPB_CPU; b < CPB__COUNT; b++)
        if (!strcmp(r->target, critpath_bound_name((enum cp_bound)b))) {
            r->kind = CPW_BOUND;
            r->cls = (uint8_t)b;
            return true;
        }
    for (int t = 0; t < CPE__COUNT; t++)
        if (!strcmp(r->target, critpath_edge_type_name((enum cp_edge_type)t))) {
            r->kind = CPW_EDGE_TYPE;
            r->cls = (uint8_t)t;
            return true;
        }
    if (strncmp(r->target, "re:", 3)) {
        r->kind = CPW_NAME;
        return true;
    }
    memmove(r->target, r->target + 3, len - 2);
    int rc = regcomp(&r->re, r->target, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char msg[120];
        regerror(rc, &r->re, msg, sizeof(msg));
        snprintf(err, 256, "'%.60s': bad regular expression: %.120s", spec, msg);
        free(r->target);
        r->target = NULL;
        return false;
    }
    r->kind = CPW_REGEX;
    return true;
}

void cp_whatif_name_rule(struct cp_whatif_rule *r, const char *name, double factor)
{
    memset(r, 0, sizeof(*r));
    r->spec = name;
    r->target = xstrdup(name);
    r->factor = factor;
    r->kind = CPW_NAME;
}

void cp_whatif_free(struct cp_whatif_rule *r)
{
    if (r->kind == CPW_REGEX && r->target)
        regfree(&r->re);
    free(r->target);
    free(r->memo);
    memset(r, 0, sizeof(*r));
}

/* Whether the name with strtab id `name` of trace t is the rule's. */
static bool name_matches(struct cp_whatif_rule *r, const struct trace *t, uint32_t name)
{
    if (r->memo_for != t) {
        free(r->memo);
        r->nmemo = t->strs.ents.n;
        r->memo = xcalloc(r->nmemo + 1, 1);
        r->memo_for = t;
    }
    if (name >= r->nmemo)
        return false;
    if (!r->memo[name]) {
        const char *s = trace_str(t, name);
        bool yes =
            r->kind == CPW_REGEX ? regexec(&r->re, s, 0, NULL, 0) == 0 : strcmp(s, r->target) == 0;
        r->memo[name] = yes ? 2 : 1;
    }
    return r->memo[name] == 2;
}

bool cp_whatif_matches(struct cp_whatif_rule *r, const struct cp_graph *g, uint32_t e)
{
    const struct cp_edge *ed = &g->edges.v[e];
    switch (r->kind) {
    case CPW_BOUND:
        return critpath_bound_by(g, ed) == r->cls;
    case CPW_EDGE_TYPE:
        return ed->type == r->cls;
    default:
        break;
    }
    /* the events critpath_edge_of_event gives the edge to */
    uint32_t op, ev = critpath_edge_event(g, e, &op);
    if (ev == IDX_NONE)
        return false;
    const struct trace *t = g->f->t;
    if (name_matches(r, t, t->ev.v[ev].name))
        return true;
    for (; op != IDX_NONE; op = t->ev.v[op].parent)
        if (name_matches(r, t, t->ev.v[op].name))
            return true;
    return false;
}

double cp_whatif_factor(const struct cp_graph *g, uint32_t e, void *set)
{
    struct cp_whatif_set *s = set;
    for (size_t i = 0; i < s->n; i++)
        if (cp_whatif_matches(&s->v[i], g, e))
            return s->v[i].factor;
    return -1;
}
