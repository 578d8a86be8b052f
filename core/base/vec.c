/* Growth of the typed arrays of vec.h. */
#include "config.h"

#include "core/base/vec.h"

void vec_grow(void **v, size_t *cap, size_t want, size_t elsize)
{
    size_t c = *cap ? *cap : 16;
    while (c < want)
        c *= 2;
    *v = xreallocarray(*v, c, elsize);
    *cap = c;
}
