/* Pane lifetime, the kind check and requests. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/xalloc.h"
#include "tui/frame/pane.h"

void pane_kind_fail(const struct pane *p, const struct pane_ops *ops)
{
    fprintf(stderr, "torchtop: the %s pane used as a %s pane\n", p ? p->ops->name : "(no)",
            ops->name);
    abort();
}

struct pane *pane_new(const struct pane_ops *ops, int id, void *priv)
{
    struct pane *p = xcalloc(1, sizeof(*p));
    p->ops = ops;
    p->id = id;
    p->priv = priv;
    return p;
}

void pane_free(struct pane *p)
{
    if (!p)
        return;
    if (p->ops->free)
        p->ops->free(p);
    if (p->win)
        delwin(p->win);
    free(p);
}

void pane_request_done(struct pane_request *req)
{
    free(req->label);
    for (int i = 0; i < req->menu.n && req->menu.items; i++)
        free(req->menu.items[i]);
    free(req->menu.items);
    memset(req, 0, sizeof(*req));
}
