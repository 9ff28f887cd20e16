// SPDX-License-Identifier: GPL-2.0
/* coretrace serve's HTTP server (see http.h) */
#define _GNU_SOURCE	/* accept4 */
#include <errno.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include "base/clock.h"
#include "views/http.h"

/*
 * Numeric addresses only (and "localhost"): the binary is static, and
 * glibc's name lookup would need its shared NSS modules at run time.
 */
int ct_http_parse_listen(const char *arg, struct sockaddr_storage *addr,
			 socklen_t *len, FILE *err, const char *cmd)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)addr;
	struct sockaddr_in *in = (struct sockaddr_in *)addr;
	const char *colon = strrchr(arg, ':'), *port, *h = arg;
	char host[64];
	size_t hlen;
	char *end;
	long num;

	memset(addr, 0, sizeof(*addr));
	if (!colon || !colon[1])
		goto bad;
	port = colon + 1;
	num = strtol(port, &end, 10);
	if (*end || num < 0 || num > 65535 || !(*port >= '0' && *port <= '9'))
		goto bad;
	hlen = (size_t)(colon - arg);
	if (hlen >= 2 && arg[0] == '[' && arg[hlen - 1] == ']') {
		h = arg + 1;
		hlen -= 2;
		if (hlen >= sizeof(host))
			goto bad;
		memcpy(host, h, hlen);
		host[hlen] = '\0';
		if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1)
			goto bad;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)num);
		*len = sizeof(*in6);
		return 0;
	}
	if (hlen >= sizeof(host))
		goto bad;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	in->sin_family = AF_INET;
	in->sin_port = htons((uint16_t)num);
	*len = sizeof(*in);
	if (!hlen)
		in->sin_addr.s_addr = htonl(INADDR_ANY);
	else if (!strcmp(host, "localhost"))
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
		goto bad;
	return 0;
bad:
	fprintf(err, "coretrace %s: '%s' is not an address to listen on (IP:PORT, :PORT or [IPV6]:PORT, numeric)\n",
		cmd, arg);
	return -1;
}

/* The end of the headers (the blank line) in @buf, or NULL */
static const char *ct_http_headers_end(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return buf + i + 2;
		if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
			return buf + i + 3;
	}
	return NULL;
}

/* The line at @p (before @end) without its CR LF; NULL past the end */
static const char *ct_http_line(const char *p, const char *end, size_t *n)
{
	const char *nl;

	if (p >= end)
		return NULL;
	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl)
		return NULL;
	*n = (size_t)(nl - p);
	if (*n && p[*n - 1] == '\r')
		(*n)--;
	return p;
}

static bool ct_http_printable(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 && p[i] != '\t')
			return false;
	return true;
}

static enum ct_http_parse ct_http_request_line(const char *p, size_t n,
					       struct ct_http_request *req)
{
	const char *sp1 = memchr(p, ' ', n), *sp2, *target;
	size_t mlen, tlen, vlen;

	if (!sp1 || !ct_http_printable(p, n))
		return CT_HTTP_BAD_REQUEST;
	mlen = (size_t)(sp1 - p);
	target = sp1 + 1;
	sp2 = memchr(target, ' ', n - mlen - 1);
	if (!sp2 || !mlen)
		return CT_HTTP_BAD_REQUEST;
	tlen = (size_t)(sp2 - target);
	vlen = n - mlen - tlen - 2;
	if (vlen != 8 || memcmp(sp2 + 1, "HTTP/", 5))
		return CT_HTTP_BAD_REQUEST;
	if (memcmp(sp2 + 1, "HTTP/1.0", 8) && memcmp(sp2 + 1, "HTTP/1.1", 8))
		return CT_HTTP_VERSION;
	/*
	 * the absolute form (RFC 9112 3.2.2: "http://host/metrics"), which a
	 * server must accept: the path is what follows the authority
	 */
	if (tlen > 7 && (!strncasecmp(target, "http://", 7) ||
			 (tlen > 8 && !strncasecmp(target, "https://", 8)))) {
		const char *auth = target + (target[4] == ':' ? 7 : 8);
		const char *slash = memchr(auth, '/', tlen - (size_t)(auth - target));

		if (slash == auth)
			return CT_HTTP_BAD_REQUEST;	/* no host */
		if (!slash)
			target = "/", tlen = 1;
		else
			tlen -= (size_t)(slash - target), target = slash;
	}
	if (!tlen || target[0] != '/' || memchr(target, ' ', tlen))
		return CT_HTTP_BAD_REQUEST;
	/* the path, without a query */
	if (memchr(target, '?', tlen))
		tlen = (size_t)((const char *)memchr(target, '?', tlen) - target);
	if (tlen >= sizeof(req->path))
		return CT_HTTP_BAD_REQUEST;
	memcpy(req->path, target, tlen);
	req->path[tlen] = '\0';
	if (mlen == 3 && !memcmp(p, "GET", 3))
		req->head = false;
	else if (mlen == 4 && !memcmp(p, "HEAD", 4))
		req->head = true;
	else
		return CT_HTTP_NOT_ALLOWED;
	return CT_HTTP_OK;
}

enum ct_http_parse ct_http_parse_request(const char *buf, size_t len,
					 struct ct_http_request *req)
{
	const char *end = ct_http_headers_end(buf, len), *p, *line, *colon;
	enum ct_http_parse rc;
	size_t n, vlen;

	memset(req, 0, sizeof(*req));
	if (!end)
		return len >= CT_HTTP_MAX_REQUEST ? CT_HTTP_TOO_LARGE :
		       CT_HTTP_INCOMPLETE;
	line = ct_http_line(buf, end, &n);
	if (!line || !n)
		return CT_HTTP_BAD_REQUEST;
	rc = ct_http_request_line(line, n, req);
	if (rc != CT_HTTP_OK)
		return rc;
	p = (const char *)memchr(line, '\n', (size_t)(end - line)) + 1;
	while ((line = ct_http_line(p, end, &n)) && n) {
		p = (const char *)memchr(line, '\n', (size_t)(end - line)) + 1;
		colon = memchr(line, ':', n);
		if (!colon || colon == line || !ct_http_printable(line, n) ||
		    line[0] == ' ' || line[0] == '\t')
			return CT_HTTP_BAD_REQUEST;
		if ((size_t)(colon - line) != 6 || strncasecmp(line, "accept", 6))
			continue;
		colon++;
		vlen = n - (size_t)(colon - line);
		while (vlen && (*colon == ' ' || *colon == '\t'))
			colon++, vlen--;
		if (vlen >= sizeof(req->accept))
			vlen = sizeof(req->accept) - 1;
		memcpy(req->accept, colon, vlen);
		req->accept[vlen] = '\0';
	}
	return CT_HTTP_OK;
}

int ct_http_open(struct ct_http_server *s, const struct sockaddr_storage *addr,
		 socklen_t len, ct_http_handler handler, void *arg)
{
	int one = 1, i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < CT_HTTP_MAX_CONNS; i++)
		s->conns[i].fd = -1;
	s->handler = handler;
	s->arg = arg;
	s->max_response = 64u << 20;
	s->timeout_ms = CT_HTTP_TIMEOUT_MS;
	s->head_ms = CT_HTTP_HEAD_MS;
	s->per_peer = CT_HTTP_PER_PEER;
	s->listen_fd = socket(addr->ss_family,
			      SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->listen_fd < 0)
		return -errno;
	setsockopt(s->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s->listen_fd, (const struct sockaddr *)addr, len) ||
	    listen(s->listen_fd, CT_HTTP_BACKLOG)) {
		int err = -errno;

		close(s->listen_fd);
		s->listen_fd = -1;
		return err;
	}
	return 0;
}

int ct_http_port(const struct ct_http_server *s)
{
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);

	if (getsockname(s->listen_fd, (struct sockaddr *)&addr, &len))
		return -errno;
	if (addr.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&addr)->sin6_port);
	return ntohs(((struct sockaddr_in *)&addr)->sin_port);
}

static void ct_http_drop(struct ct_http_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	ct_obuf_free(&c->response);
}

static const char *ct_http_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 431: return "Request Header Fields Too Large";
	case 505: return "HTTP Version Not Supported";
	default: return "Internal Server Error";
	}
}

/* The whole response to what @c received, into c->response */
static void ct_http_answer(struct ct_http_server *s, struct ct_http_conn *c,
			   enum ct_http_parse parsed,
			   const struct ct_http_request *req)
{
	const char *type = "text/plain; charset=utf-8";
	struct ct_obuf body;
	int status = (int)parsed;

	ct_obuf_init(&body, s->max_response);
	if (parsed == CT_HTTP_OK) {
		s->requests++;
		status = s->handler(req, &body, &type, s->arg);
		if (body.failed) {
			ct_obuf_free(&body);
			ct_obuf_init(&body, s->max_response);
			status = 500;
			type = "text/plain; charset=utf-8";
		}
	} else {
		s->rejected++;
	}
	if (status != 200 && !body.len)
		ct_obuf_printf(&body, "%d %s\n", status, ct_http_reason(status));
	ct_obuf_init(&c->response, s->max_response + 1024);
	ct_obuf_printf(&c->response, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
		       "Content-Length: %zu\r\nConnection: close\r\n%s\r\n",
		       status, ct_http_reason(status), type, body.len,
		       status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (!(parsed == CT_HTTP_OK && req->head))
		ct_obuf_put(&c->response, body.p ? body.p : "", body.len);
	ct_obuf_free(&body);
	c->sent = 0;
	if (c->response.failed)
		ct_http_drop(c);
}

static void ct_http_read(struct ct_http_server *s, struct ct_http_conn *c)
{
	struct ct_http_request req;
	enum ct_http_parse parsed;
	ssize_t n;

	n = read(c->fd, c->request + c->got, sizeof(c->request) - c->got);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		ct_http_drop(c);	/* gone before asking */
		return;
	}
	c->got += (size_t)n;
	parsed = ct_http_parse_request(c->request, c->got, &req);
	if (parsed != CT_HTTP_INCOMPLETE)
		ct_http_answer(s, c, parsed, &req);
}

static void ct_http_write(struct ct_http_conn *c)
{
	ssize_t n = send(c->fd, c->response.p + c->sent,
			 c->response.len - c->sent, MSG_NOSIGNAL);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0) {
		ct_http_drop(c);
		return;
	}
	c->sent += (size_t)n;
	if (c->sent == c->response.len) {
		shutdown(c->fd, SHUT_WR);
		ct_http_drop(c);
	}
}

/* The address of @fd's peer, as bytes: the key of the per-peer limit */
static void ct_http_peer(int fd, struct ct_http_conn *c)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);

	c->peer_len = 0;
	if (getpeername(fd, (struct sockaddr *)&a, &len))
		return;
	if (a.ss_family == AF_INET) {
		memcpy(c->peer, &((struct sockaddr_in *)&a)->sin_addr, 4);
		c->peer_len = 4;
	} else if (a.ss_family == AF_INET6) {
		const struct in6_addr *v6 = &((struct sockaddr_in6 *)&a)->sin6_addr;

		if (IN6_IS_ADDR_V4MAPPED(v6)) {
			memcpy(c->peer, v6->s6_addr + 12, 4);
			c->peer_len = 4;
		} else {
			/* a host holds a /64: its prefix is the peer */
			memcpy(c->peer, v6->s6_addr, 8);
			c->peer_len = 8;
		}
	}
}

/* Still reading its request: the first a newer connection pushes out */
static bool ct_http_unfinished(const struct ct_http_conn *c)
{
	return c->fd >= 0 && !c->response.p;
}

/* @a older than @b for eviction: unfinished ones first, then by age */
static bool ct_http_before(const struct ct_http_conn *a,
			   const struct ct_http_conn *b)
{
	if (!b)
		return true;
	if (ct_http_unfinished(a) != ct_http_unfinished(b))
		return ct_http_unfinished(a);
	return a->seq < b->seq;
}

/*
 * The slot for a connection from @peer: when that peer holds s->per_peer
 * connections, its own oldest (unfinished first); else a free slot; else
 * the oldest of all, unfinished first. A client that stops reading its
 * response holds a slot no longer than one that never asks.
 */
static struct ct_http_conn *ct_http_slot(struct ct_http_server *s,
					 const struct ct_http_conn *peer)
{
	struct ct_http_conn *free_slot = NULL, *oldest = NULL, *own = NULL, *c;
	int i, mine = 0;

	for (i = 0; i < CT_HTTP_MAX_CONNS; i++) {
		c = &s->conns[i];
		if (c->fd < 0) {
			if (!free_slot)
				free_slot = c;
			continue;
		}
		if (ct_http_before(c, oldest))
			oldest = c;
		if (c->peer_len != peer->peer_len ||
		    memcmp(c->peer, peer->peer, peer->peer_len))
			continue;
		mine++;
		if (ct_http_before(c, own))
			own = c;
	}
	if (own && mine >= s->per_peer)
		return own;
	return free_slot ? free_slot : oldest;
}

static void ct_http_serve_conn(struct ct_http_server *s, struct ct_http_conn *c)
{
	if (!c->response.p)
		ct_http_read(s, c);
	if (c->fd >= 0 && c->response.p)
		ct_http_write(c);
}

/* Take what waits in the backlog, each read at once */
static void ct_http_accept(struct ct_http_server *s, uint64_t now)
{
	struct ct_http_conn probe, *c;
	int n, fd;

	for (n = 0; n < CT_HTTP_ACCEPT_BATCH; n++) {
		fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		ct_http_peer(fd, &probe);
		c = ct_http_slot(s, &probe);
		if (!c) {
			s->rejected++;	/* no slot at all (never: one is evicted) */
			close(fd);
			continue;
		}
		if (c->fd >= 0) {
			s->evicted++;
			ct_http_drop(c);
		}
		c->fd = fd;
		c->seq = ++s->seq;
		c->got = 0;
		c->sent = 0;
		c->head_deadline_ms = now + (uint64_t)s->head_ms;
		c->deadline_ms = now + (uint64_t)s->timeout_ms;
		memcpy(c->peer, probe.peer, sizeof(c->peer));
		c->peer_len = probe.peer_len;
		memset(&c->response, 0, sizeof(c->response));
		/* a scrape sends its request with the connection: answer it now */
		ct_http_serve_conn(s, c);
	}
}

/* When @c must be done by: its head's deadline while it reads one */
static uint64_t ct_http_deadline(const struct ct_http_conn *c)
{
	return ct_http_unfinished(c) && c->head_deadline_ms < c->deadline_ms ?
	       c->head_deadline_ms : c->deadline_ms;
}

int ct_http_step(struct ct_http_server *s, int timeout_ms)
{
	struct pollfd pfd[CT_HTTP_MAX_CONNS + 1];
	int slot[CT_HTTP_MAX_CONNS + 1];
	uint64_t now = ct_mono_ns() / 1000000, deadline;
	int n = 0, i, rc;

	for (i = 0; i < CT_HTTP_MAX_CONNS; i++) {
		struct ct_http_conn *c = &s->conns[i];

		if (c->fd < 0)
			continue;
		deadline = ct_http_deadline(c);
		if (now >= deadline) {
			s->timeouts++;
			ct_http_drop(c);
			continue;
		}
		if ((int)(deadline - now) < timeout_ms)
			timeout_ms = (int)(deadline - now);
		pfd[n] = (struct pollfd){ c->fd, c->response.p ? POLLOUT : POLLIN, 0 };
		slot[n++] = i;
	}
	/* always: a new connection may take an unfinished one's place */
	pfd[n] = (struct pollfd){ s->listen_fd, POLLIN, 0 };
	slot[n++] = -1;
	rc = poll(pfd, (nfds_t)n, timeout_ms);
	if (rc < 0)
		return -errno;
	now = ct_mono_ns() / 1000000;
	/* the connections first: a request read now is not pushed out */
	for (i = 0; i < n; i++) {
		if (!pfd[i].revents || slot[i] < 0)
			continue;
		ct_http_serve_conn(s, &s->conns[slot[i]]);
	}
	if (pfd[n - 1].revents)
		ct_http_accept(s, now);
	return 0;
}

void ct_http_close(struct ct_http_server *s)
{
	int i;

	for (i = 0; i < CT_HTTP_MAX_CONNS; i++)
		ct_http_drop(&s->conns[i]);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	s->listen_fd = -1;
}
