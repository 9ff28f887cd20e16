/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The little HTTP/1.x server coretrace serve needs: GET (and HEAD) of a
 * few paths, one response per connection. Bounded everywhere, so that a
 * malformed, slow or flooding client cannot stall the others or grow
 * memory: at most CT_HTTP_MAX_CONNS connections, a request of at most
 * CT_HTTP_MAX_REQUEST bytes whose head must have come CT_HTTP_HEAD_MS
 * after accept, CT_HTTP_TIMEOUT_MS from accept to the last byte sent,
 * non-blocking sockets and one poll() for all. The listening socket is
 * always polled: a new connection takes the place of the oldest one that
 * has not finished its request, of its own peer when that peer already
 * holds CT_HTTP_PER_PEER of them, else of anyone when the slots are full;
 * and a request is read as soon as it is accepted. So clients that say
 * nothing, or a byte a second, only ever push each other out, and a
 * scrape that sends its request at once is answered. No libbpf:
 * unit-tested over loopback.
 */
#ifndef CORETRACE_HTTP_H
#define CORETRACE_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include "views/metrics.h"

#define CT_HTTP_MAX_CONNS	64
#define CT_HTTP_PER_PEER	16	/* unfinished requests of one address */
#define CT_HTTP_MAX_REQUEST	8192
#define CT_HTTP_HEAD_MS		2000	/* accept to the request's blank line */
#define CT_HTTP_TIMEOUT_MS	10000	/* accept to the last byte sent */
#define CT_HTTP_ACCEPT_BATCH	64	/* connections taken per step */
#define CT_HTTP_BACKLOG		1024

/*
 * "HOST:PORT", ":PORT" (every address) or "[V6]:PORT" into @addr.
 * 0, or -1 after one sentence on @err naming @cmd.
 */
int ct_http_parse_listen(const char *arg, struct sockaddr_storage *addr,
			 socklen_t *len, FILE *err, const char *cmd);

/* What a request asked for */
struct ct_http_request {
	bool head;			/* HEAD: the headers only */
	char path[256];			/* the target, without a query */
	char accept[512];		/* its Accept header, "" when none */
};

enum ct_http_parse {
	CT_HTTP_INCOMPLETE = 0,		/* the headers have not ended yet */
	CT_HTTP_OK = 200,
	CT_HTTP_BAD_REQUEST = 400,
	CT_HTTP_NOT_ALLOWED = 405,	/* not GET or HEAD */
	CT_HTTP_TOO_LARGE = 431,	/* headers past CT_HTTP_MAX_REQUEST */
	CT_HTTP_VERSION = 505,		/* not HTTP/1.0 or 1.1 */
};

/* Parse the @len bytes received so far of a request */
enum ct_http_parse ct_http_parse_request(const char *buf, size_t len,
					 struct ct_http_request *req);

/*
 * A response to @req: fills @body (cleared first) and returns the status
 * and the Content-Type. Called once per request; @arg is the server's.
 */
typedef int (*ct_http_handler)(const struct ct_http_request *req,
			       struct ct_obuf *body, const char **type,
			       void *arg);

struct ct_http_conn {
	int fd;				/* -1: a free slot */
	uint64_t seq;			/* order of accept: the oldest goes first */
	uint64_t head_deadline_ms;	/* CLOCK_MONOTONIC */
	uint64_t deadline_ms;
	unsigned char peer[16];		/* the client's address */
	uint8_t peer_len;
	size_t got;
	char request[CT_HTTP_MAX_REQUEST];
	struct ct_obuf response;	/* headers and body, once answered */
	size_t sent;
};

struct ct_http_server {
	int listen_fd;
	ct_http_handler handler;
	void *arg;
	size_t max_response;		/* bytes of a response at most */
	int timeout_ms;			/* accept to last byte (CT_HTTP_TIMEOUT_MS) */
	int head_ms;			/* accept to the head (CT_HTTP_HEAD_MS) */
	int per_peer;			/* CT_HTTP_PER_PEER */
	uint64_t seq;
	struct ct_http_conn conns[CT_HTTP_MAX_CONNS];
	unsigned long long requests, rejected, timeouts;
	unsigned long long evicted;	/* given up for a newer connection */
};

/* Listen on @addr; 0 or -errno */
int ct_http_open(struct ct_http_server *s, const struct sockaddr_storage *addr,
		 socklen_t len, ct_http_handler handler, void *arg);
/* The port it listens on (after binding port 0: the one it got) */
int ct_http_port(const struct ct_http_server *s);
/*
 * Wait up to @timeout_ms for sockets and serve what is ready; returns 0,
 * or -errno of poll() (-EINTR when a signal came).
 */
int ct_http_step(struct ct_http_server *s, int timeout_ms);
void ct_http_close(struct ct_http_server *s);

#endif /* CORETRACE_HTTP_H */
