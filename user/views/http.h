/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The little HTTP/1.x server coretrace serve needs: GET (and HEAD) of a
 * few paths, one response per connection. Bounded everywhere, so that a
 * malformed, slow or flooding client cannot stall the others or grow
 * memory: at most CT_HTTP_MAX_CONNS connections (further ones wait in
 * the kernel's backlog), a request of at most CT_HTTP_MAX_REQUEST bytes,
 * CT_HTTP_TIMEOUT_MS from accept to the last byte sent, non-blocking
 * sockets and one poll() for all. No libbpf: unit-tested over loopback.
 */
#ifndef CORETRACE_HTTP_H
#define CORETRACE_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include "views/metrics.h"

#define CT_HTTP_MAX_CONNS	16
#define CT_HTTP_MAX_REQUEST	8192
#define CT_HTTP_TIMEOUT_MS	10000

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
	uint64_t deadline_ms;		/* CLOCK_MONOTONIC */
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
	struct ct_http_conn conns[CT_HTTP_MAX_CONNS];
	unsigned long long requests, rejected, timeouts;
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
