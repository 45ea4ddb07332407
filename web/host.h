/*
    host.h -- what a browser sample gives the page (web/host.c does the
    rest: the scheduler, the frame, the inspector).

    A sample draws by adding shapes (host_circle, host_rect, host_text)
    when the host asks it to draw, and logs lines the page shows and the
    browser test reads (host_log). It reads the scheduler through the
    public API only, like any game.
*/
#ifndef CORRAL_WEB_HOST_H
#define CORRAL_WEB_HOST_H

#include <corral/corral.h>

/* the sample */
const char *sample_title(void);
void sample_desc(corral_sched_desc *d);   /* sizes its scheduler */
void sample_init(corral_sched *s);        /* starts its coroutines */
void sample_frame(corral_sched *s);       /* before each tick: input */
void sample_draw(corral_sched *s);        /* host_* shapes for this frame */
void sample_action(corral_sched *s, int what); /* the page's button */

/* the host, for the sample */
void host_log(const char *fmt, ...);
void host_circle(float x, float y, float r, const char *color);
void host_rect(float x, float y, float w, float h, const char *color);
void host_text(float x, float y, const char *color, const char *fmt, ...);

#endif
