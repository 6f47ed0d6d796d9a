/* A fixed-size byte ring buffer over caller-owned storage. */
#include <stddef.h>
#include <string.h>
#include "ring.h"

#define RING_MAGIC 0x52494e47
#define RING_NEXT(r, i) (((i) + 1) % (r)->cap)

/** Largest accepted capacity in bytes. */
static const size_t RING_MAX = 1u << 20;

/* A byte ring buffer. */
typedef struct ring {
    unsigned char *buf;
    size_t head, tail, cap;
} ring_t;

enum ring_status { RING_OK, RING_FULL, RING_EMPTY };

/* Called for each stored byte; non-zero stops the walk. */
typedef int (*ring_visit_fn)(unsigned char byte, void *ctx);

union ring_word { unsigned int u; unsigned char b[4]; };

static size_t ring_used(const ring_t *r);

/*
 * Initialises a ring over caller-owned storage.
 * Returns 0, or -1 when the capacity is out of range.
 */
int ring_init(ring_t *r, unsigned char *storage, size_t cap)
{
    if (cap == 0 || cap > RING_MAX)
        return -1;
    memset(storage, 0, cap);
    r->buf = storage;
    r->head = r->tail = 0;
    r->cap = cap;
    return 0;
}

// Appends one byte; fails when full.
enum ring_status ring_push(ring_t *r, unsigned char byte)
{
    if (ring_used(r) + 1 == r->cap)
        return RING_FULL;
    r->buf[r->head] = byte;
    r->head = RING_NEXT(r, r->head);
    return RING_OK;
}

static size_t ring_used(const ring_t *r)
{
    return (r->head + r->cap - r->tail) % r->cap;
}

int ring_each(ring_t *r, ring_visit_fn visit, void *ctx)
{
    for (size_t i = r->tail; i != r->head; i = RING_NEXT(r, i)) {
        int rc = visit(r->buf[i], ctx);
        if (rc)
            return rc;
    }
    return 0;
}
