// SPDX-License-Identifier: GPL-2.0
/*
 * coretrace serve without BPF: the delay buckets, the exposition in both
 * formats (checked line by line against the formats' rules), content
 * negotiation, the HTTP request parser with good and hostile requests,
 * and the server itself over 127.0.0.1 (loopback only, bounded loops).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "commands/list.h"
#include "commands/record.h"
#include "commands/serve.h"
#include "commands/top.h"
#include "commands/check.h"
#include "views/report.h"
#include "views/timechart.h"
#include "views/convert.h"
#include "ct_test.h"
#include "views/http.h"
#include "views/metrics.h"
#include "base/options.h"

/* the smallest b with ns <= 2^b us, by counting */
static unsigned int bucket_by_counting(uint64_t ns)
{
	unsigned int b;

	for (b = 0; b < CT_DELAY_BUCKETS - 1; b++)
		if (ns <= (1000ull << b))
			return b;
	return CT_DELAY_BUCKETS - 1;
}

static void test_buckets(void)
{
	static const uint64_t edges[] = {
		0, 1, 999, 1000, 1001, 1999, 2000, 2001, 3000, 4000, 4001,
		1000000, 1048576000, 1048576001, 33554432000ull,
		33554432001ull, 67108864000ull, ~0ull, 1ull << 62,
	};
	char le[32];
	unsigned int i, b, bad = 0;
	uint64_t ns;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		CT_CHECK_INT(ct_delay_bucket(edges[i]), bucket_by_counting(edges[i]));
	CT_CHECK_INT(ct_delay_bucket(1000), 0);
	CT_CHECK_INT(ct_delay_bucket(1001), 1);
	CT_CHECK_INT(ct_delay_bucket(5000000), 13);	/* 5 ms <= 8.192 ms */
	CT_CHECK_INT(ct_delay_bucket(~0ull), CT_DELAY_BUCKETS - 1);
	/* every edge of every bucket, and a step either side */
	for (b = 0; b < 40; b++) {
		ns = 1000ull << b;
		bad += ct_delay_bucket(ns) != bucket_by_counting(ns);
		bad += ct_delay_bucket(ns + 1) != bucket_by_counting(ns + 1);
		bad += ct_delay_bucket(ns - 1) != bucket_by_counting(ns - 1);
	}
	CT_CHECK_INT(bad, 0);
	ct_delay_bucket_le(0, le, sizeof(le));
	CT_CHECK_STR(le, "0.000001");
	ct_delay_bucket_le(13, le, sizeof(le));
	CT_CHECK_STR(le, "0.008192");
	ct_delay_bucket_le(CT_DELAY_BUCKETS - 2, le, sizeof(le));
	CT_CHECK_STR(le, "33.554432");
}

static void test_negotiate(void)
{
	/* what Prometheus 2.42 sends */
	CT_CHECK_INT(ct_om_negotiate("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
		     CT_OM_OPENMETRICS);
	CT_CHECK_INT(ct_om_negotiate("text/plain;version=0.0.4"), CT_OM_PROMETHEUS);
	CT_CHECK_INT(ct_om_negotiate(NULL), CT_OM_PROMETHEUS);
	CT_CHECK_INT(ct_om_negotiate(""), CT_OM_PROMETHEUS);
	CT_CHECK_INT(ct_om_negotiate("*/*"), CT_OM_PROMETHEUS);
	CT_CHECK_INT(ct_om_negotiate("application/openmetrics-text; q=0"), CT_OM_PROMETHEUS);
	CT_CHECK_INT(ct_om_negotiate("application/openmetrics-text;q=0.0, text/plain"), CT_OM_PROMETHEUS);
	CT_CHECK_INT(ct_om_negotiate("text/plain, application/openmetrics-text; q=0.5"), CT_OM_OPENMETRICS);
	CT_CHECK_STR(ct_om_content_type(CT_OM_OPENMETRICS),
		     "application/openmetrics-text; version=1.0.0; charset=utf-8");
	CT_CHECK_STR(ct_om_content_type(CT_OM_PROMETHEUS),
		     "text/plain; version=0.0.4; charset=utf-8");
}

static void check_label(const char *in, const char *want)
{
	struct ct_obuf b;

	ct_obuf_init(&b, 1 << 16);
	ct_om_label_value(&b, in);
	ct_obuf_put(&b, "", 1);
	CT_CHECK(!b.failed);
	CT_CHECK_STR(b.p, want);
	ct_obuf_free(&b);
}

static void test_labels(void)
{
	struct ct_obuf b;

	check_label("/system.slice/ssh.service", "/system.slice/ssh.service");
	check_label("a\"b\\c\nd", "a\\\"b\\\\c\\nd");
	check_label("caf\xc3\xa9", "caf\xc3\xa9");
	check_label("\xff", "\\\\xff");
	check_label("\xc0\x80", "\\\\xc0\\\\x80");		/* overlong NUL */
	check_label("\xed\xa0\x80", "\\\\xed\\\\xa0\\\\x80");	/* a surrogate */
	check_label("\xe2\x82", "\\\\xe2\\\\x82");		/* cut short */
	check_label("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80");
	check_label("", "");
	/* a buffer at its bound fails and stays failed */
	ct_obuf_init(&b, 8);
	ct_obuf_put(&b, "12345678", 8);
	CT_CHECK(!b.failed);
	ct_obuf_put(&b, "9", 1);
	CT_CHECK(b.failed);
	CT_CHECK_INT(b.len, 8);
	ct_obuf_free(&b);
}

/* a small machine: two groups, two CPUs, an interrupt */
static void sample_metrics(struct ct_metrics *m, struct ct_metrics_group *g,
			   struct ct_agg_cpu *cpus, struct ct_metrics_irq *irq)
{
	memset(m, 0, sizeof(*m));
	memset(g, 0, 2 * sizeof(*g));
	memset(cpus, 0, 2 * sizeof(*cpus));
	g[0].label = "/system.slice/a \"b\".service";
	g[0].sums.oncpu_ns = 1500000000ull;
	g[0].sums.switches = 10;
	g[0].sums.wakeups = 7;
	g[0].sums.migrations = 2;
	g[0].sums.delay[0] = 3;
	g[0].sums.delay[13] = 4;
	g[0].sums.delay_sum_ns = 20000003;
	g[1].label = "(folded)";
	g[1].sums.delay[CT_DELAY_BUCKETS - 1] = 1;
	g[1].sums.delay_sum_ns = 40000000000ull;
	cpus[1].idle_ns[1] = 2000000001;
	cpus[1].idle_entries[1] = 5;
	cpus[0].softirq_ns[1] = 1000;
	cpus[1].softirq_ns[1] = 2000;
	cpus[0].softirq_count[1] = 1;
	cpus[1].softirq_count[1] = 2;
	*irq = (struct ct_metrics_irq){ 24, "virtio0-input.0", 5000, 3 };
	m->version = "0.4.0";
	m->groups = g;
	m->ngroups = 2;
	m->cpus = cpus;
	m->ncpus = 2;
	m->irqs = irq;
	m->nirqs = 1;
	m->events_mask = 1ull << CT_EV_SCHED_SWITCH | 1ull << CT_EV_CPU_IDLE;
	m->events[CT_EV_SCHED_SWITCH] = 100;
	m->lost[CT_EV_CPU_IDLE] = 1;
	m->groups_folded = 3;
	m->groups_max = 256;
}

static bool has_suffix(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

/*
 * The format's rules, line by line: comments before samples of their
 * family, each family once, sample names the family's (with the suffixes
 * its type allows), buckets cumulative and ending in +Inf equal to
 * _count, counters' samples ending in _total; OpenMetrics' # EOF last.
 * Returns the number of samples, or -1 after a failed check.
 */
static int check_exposition(const char *text, enum ct_om_format fmt)
{
	char family[128] = "", type[16] = "", seen[64][128];
	unsigned long long last_bucket = 0, inf = 0;
	int nseen = 0, samples = 0, i;
	const char *p = text, *nl;
	bool eof = false, ok = true;

	while (*p && ok) {
		char line[1024], name[128];
		size_t n;

		nl = strchr(p, '\n');
		if (!nl || eof) {
			ok = false;	/* unterminated, or past # EOF */
			break;
		}
		n = (size_t)(nl - p);
		if (n >= sizeof(line)) {
			ok = false;
			break;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl + 1;
		if (!strcmp(line, "# EOF")) {
			eof = true;
			continue;
		}
		if (!strncmp(line, "# HELP ", 7)) {
			sscanf(line + 7, "%127s", family);
			for (i = 0; i < nseen; i++)
				ok &= strcmp(seen[i], family) != 0;
			if (nseen < 64)
				snprintf(seen[nseen++], sizeof(seen[0]), "%s", family);
			type[0] = '\0';
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			char fam[128];

			ok &= sscanf(line + 7, "%127s %15s", fam, type) == 2 &&
			      !strcmp(fam, family);
			if (!strcmp(type, "counter"))
				ok &= has_suffix(family, strlen(family), "_total") ==
				      (fmt == CT_OM_PROMETHEUS);
			last_bucket = 0;
			continue;
		}
		if (!strncmp(line, "# UNIT ", 7)) {
			ok &= fmt == CT_OM_OPENMETRICS &&
			      !strncmp(line + 7, family, strlen(family));
			continue;
		}
		ok &= line[0] != '#' && type[0] != '\0';
		n = strcspn(line, "{ ");
		memcpy(name, line, n);
		name[n] = '\0';
		samples++;
		if (!strcmp(type, "histogram")) {
			unsigned long long v = strtoull(strrchr(line, ' ') + 1, NULL, 10);
			size_t f = strlen(family);

			ok &= !strncmp(name, family, f);
			if (!strcmp(name + f, "_bucket")) {
				ok &= v >= last_bucket && strstr(line, "le=\"") != NULL;
				last_bucket = v;
				if (strstr(line, "le=\"+Inf\""))
					inf = v, last_bucket = 0;
			} else if (!strcmp(name + f, "_count")) {
				ok &= v == inf;
			} else {
				ok &= !strcmp(name + f, "_sum");
			}
		} else if (!strcmp(type, "counter")) {
			ok &= fmt == CT_OM_PROMETHEUS ? !strcmp(name, family) :
			      (!strncmp(name, family, strlen(family)) &&
			       !strcmp(name + strlen(family), "_total"));
		} else {
			ok &= !strcmp(name, family);
		}
	}
	ok &= eof == (fmt == CT_OM_OPENMETRICS);
	return ok ? samples : -1;
}

static void test_render(void)
{
	struct ct_metrics_group g[2];
	struct ct_agg_cpu cpus[2];
	struct ct_metrics_irq irq;
	struct ct_metrics m;
	struct ct_obuf b;
	int fmt;

	sample_metrics(&m, g, cpus, &irq);
	for (fmt = CT_OM_PROMETHEUS; fmt <= CT_OM_OPENMETRICS; fmt++) {
		bool om = fmt == CT_OM_OPENMETRICS;

		ct_obuf_init(&b, 1 << 20);
		ct_metrics_render(&m, (enum ct_om_format)fmt, &b);
		ct_obuf_put(&b, "", 1);
		CT_CHECK(!b.failed);
		CT_CHECK(check_exposition(b.p, (enum ct_om_format)fmt) > 0);
		/* overall: the two groups added */
		CT_CHECK(strstr(b.p, "coretrace_sched_delay_seconds_bucket{le=\"0.000001\"} 3\n"));
		CT_CHECK(strstr(b.p, "coretrace_sched_delay_seconds_bucket{le=\"0.008192\"} 7\n"));
		CT_CHECK(strstr(b.p, "coretrace_sched_delay_seconds_bucket{le=\"33.554432\"} 7\n"));
		CT_CHECK(strstr(b.p, "coretrace_sched_delay_seconds_bucket{le=\"+Inf\"} 8\n"));
		CT_CHECK(strstr(b.p, "coretrace_sched_delay_seconds_sum 40.020000003\n"));
		CT_CHECK(strstr(b.p, "coretrace_sched_delay_seconds_count 8\n"));
		/* per group, its label escaped */
		CT_CHECK(strstr(b.p, "coretrace_cgroup_sched_delay_seconds_bucket{cgroup=\"/system.slice/a \\\"b\\\".service\",le=\"0.000002\"} 3\n"));
		CT_CHECK(strstr(b.p, "coretrace_cgroup_cpu_seconds_total{cgroup=\"/system.slice/a \\\"b\\\".service\"} 1.500000000\n"));
		CT_CHECK(strstr(b.p, "coretrace_cgroup_context_switches_total{cgroup=\"(folded)\"} 0\n"));
		CT_CHECK(strstr(b.p, "coretrace_cgroups_folded 3\n"));
		CT_CHECK(strstr(b.p, "coretrace_cpu_idle_seconds_total{cpu=\"1\",state=\"1\"} 2.000000001\n"));
		CT_CHECK(strstr(b.p, "coretrace_cpu_idle_entries_total{cpu=\"1\",state=\"1\"} 5\n"));
		CT_CHECK(!strstr(b.p, "cpu=\"0\",state"));	/* never idle */
		CT_CHECK(strstr(b.p, "coretrace_irq_seconds_total{irq=\"24\",name=\"virtio0-input.0\"} 0.000005000\n"));
		CT_CHECK(strstr(b.p, "coretrace_softirq_seconds_total{vector=\"TIMER\"} 0.000003000\n"));
		CT_CHECK(strstr(b.p, "coretrace_softirqs_total{vector=\"TIMER\"} 3\n"));
		CT_CHECK(strstr(b.p, "coretrace_events_total{event=\"sched_switch\"} 100\n"));
		CT_CHECK(strstr(b.p, "coretrace_events_lost_total{event=\"cpu_idle\"} 1\n"));
		CT_CHECK(!strstr(b.p, "event=\"sched_wakeup\""));
		CT_CHECK(strstr(b.p, om ? "# TYPE coretrace_cgroup_cpu_seconds counter\n" :
				 "# TYPE coretrace_cgroup_cpu_seconds_total counter\n"));
		CT_CHECK((strstr(b.p, "# UNIT coretrace_cgroup_cpu_seconds seconds\n") != NULL) == om);
		CT_CHECK((strstr(b.p, "# EOF\n") != NULL) == om);
		ct_obuf_free(&b);
	}
	/* the checker itself fails what breaks the rules */
	CT_CHECK_INT(check_exposition("# HELP x_total h\n# TYPE x_total counter\nx_total 1\n# HELP x_total h\n# TYPE x_total counter\n",
				      CT_OM_PROMETHEUS), -1);
	CT_CHECK_INT(check_exposition("# HELP h h\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 0\nh_count 1\n",
				      CT_OM_PROMETHEUS), -1);
	CT_CHECK_INT(check_exposition("# HELP x h\n# TYPE x counter\nx_total 1\n", CT_OM_OPENMETRICS), -1);
	CT_CHECK_INT(check_exposition("y 1\n", CT_OM_PROMETHEUS), -1);
	/* a response past its bound is a failed buffer, not a cut one */
	sample_metrics(&m, g, cpus, &irq);
	ct_obuf_init(&b, 512);
	ct_metrics_render(&m, CT_OM_PROMETHEUS, &b);
	CT_CHECK(b.failed);
	ct_obuf_free(&b);
}

static enum ct_http_parse parse(const char *text, struct ct_http_request *req)
{
	return ct_http_parse_request(text, strlen(text), req);
}

static void test_parse(void)
{
	struct ct_http_request req;
	static char big[CT_HTTP_MAX_REQUEST + 16];

	CT_CHECK_INT(parse("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/openmetrics-text\r\n\r\n", &req), CT_HTTP_OK);
	CT_CHECK_STR(req.path, "/metrics");
	CT_CHECK_STR(req.accept, "application/openmetrics-text");
	CT_CHECK(!req.head);
	CT_CHECK_INT(parse("HEAD /metrics?x=1 HTTP/1.0\n\n", &req), CT_HTTP_OK);
	CT_CHECK(req.head);
	CT_CHECK_STR(req.path, "/metrics");
	CT_CHECK_STR(req.accept, "");
	CT_CHECK_INT(parse("GET / HTTP/1.1\r\naccept:   text/plain\r\n\r\n", &req), CT_HTTP_OK);
	CT_CHECK_STR(req.accept, "text/plain");
	CT_CHECK_INT(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n", &req), CT_HTTP_INCOMPLETE);
	/* the absolute form (RFC 9112 3.2.2): the path after the authority */
	CT_CHECK_INT(parse("GET http://db1.example.net:9476/metrics?x HTTP/1.1\r\n\r\n", &req), CT_HTTP_OK);
	CT_CHECK_STR(req.path, "/metrics");
	CT_CHECK_INT(parse("GET HTTPS://[::1]:9476/m HTTP/1.1\r\n\r\n", &req), CT_HTTP_OK);
	CT_CHECK_STR(req.path, "/m");
	CT_CHECK_INT(parse("GET http://host HTTP/1.1\r\n\r\n", &req), CT_HTTP_OK);
	CT_CHECK_STR(req.path, "/");
	CT_CHECK_INT(parse("GET http:///metrics HTTP/1.1\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET ftp://host/metrics HTTP/1.1\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET http:// HTTP/1.1\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET /metr", &req), CT_HTTP_INCOMPLETE);
	CT_CHECK_INT(parse("", &req), CT_HTTP_INCOMPLETE);
	CT_CHECK_INT(parse("POST /metrics HTTP/1.1\r\n\r\n", &req), CT_HTTP_NOT_ALLOWED);
	CT_CHECK_INT(parse("GET /metrics HTTP/2.0\r\n\r\n", &req), CT_HTTP_VERSION);
	CT_CHECK_INT(parse("GET /metrics\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET metrics HTTP/1.1\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET  /metrics HTTP/1.1\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET /metrics FTP/1.10\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET /metrics HTTP/1.1\r\nNoColon\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET /metrics HTTP/1.1\r\n: empty\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET /metrics HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET /me\x01trics HTTP/1.1\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	CT_CHECK_INT(parse("GET /metrics HTTP/1.1\r\nX: \x1b[2J\r\n\r\n", &req), CT_HTTP_BAD_REQUEST);
	/* headers that never end, up to the bound */
	memset(big, 'a', sizeof(big) - 1);
	memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
	CT_CHECK_INT(ct_http_parse_request(big, CT_HTTP_MAX_REQUEST - 1, &req), CT_HTTP_INCOMPLETE);
	CT_CHECK_INT(ct_http_parse_request(big, CT_HTTP_MAX_REQUEST, &req), CT_HTTP_TOO_LARGE);
	/* a path too long for the request's room */
	memset(big, 'b', sizeof(big) - 1);
	memcpy(big, "GET /", 5);
	memcpy(big + 400, " HTTP/1.1\r\n\r\n", 14);
	CT_CHECK_INT(ct_http_parse_request(big, 414, &req), CT_HTTP_BAD_REQUEST);
	/* an Accept header longer than kept is cut, not overflowed */
	memset(big, 'c', sizeof(big) - 1);
	memcpy(big, "GET / HTTP/1.1\r\nAccept: ", 24);
	memcpy(big + 2000, "\r\n\r\n", 4);
	CT_CHECK_INT(ct_http_parse_request(big, 2004, &req), CT_HTTP_OK);
	CT_CHECK_INT(strlen(req.accept), sizeof(req.accept) - 1);
}

static void test_listen(void)
{
	struct sockaddr_storage a;
	struct sockaddr_in *in = (struct sockaddr_in *)&a;
	socklen_t len;
	FILE *err = tmpfile();
	static const char *const bad[] = {
		"9476", "1.2.3.4:", "1.2.3.4:99999", "::1:80", "host.example:80",
		"1.2.3.4:12a", "1.2.3.4:-1", "[::1:80", "[nonsense]:80", ":", "",
		"300.1.1.1:80",
	};
	unsigned int i;

	CT_CHECK_INT(ct_http_parse_listen("127.0.0.1:9476", &a, &len, err, "serve"), 0);
	CT_CHECK_INT(a.ss_family, AF_INET);
	CT_CHECK_INT(ntohs(in->sin_port), 9476);
	CT_CHECK_INT(ntohl(in->sin_addr.s_addr), INADDR_LOOPBACK);
	CT_CHECK_INT(ct_http_parse_listen(":80", &a, &len, err, "serve"), 0);
	CT_CHECK_INT(ntohl(in->sin_addr.s_addr), INADDR_ANY);
	CT_CHECK_INT(ct_http_parse_listen("localhost:0", &a, &len, err, "serve"), 0);
	CT_CHECK_INT(ntohl(in->sin_addr.s_addr), INADDR_LOOPBACK);
	CT_CHECK_INT(ct_http_parse_listen("[::1]:9476", &a, &len, err, "serve"), 0);
	CT_CHECK_INT(a.ss_family, AF_INET6);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CT_CHECK_INT(ct_http_parse_listen(bad[i], &a, &len, err, "serve"), -1);
	if (err)
		fclose(err);
}

static int test_handler(const struct ct_http_request *req, struct ct_obuf *body,
			const char **type, void *arg)
{
	(*(int *)arg)++;
	if (!strcmp(req->path, "/big")) {
		/* more than the sockets hold: a client that stops reading stalls */
		for (int i = 0; i < 1 << 16; i++)
			ct_obuf_printf(body, "big_line_%08d 1\n", i);
		return 200;
	}
	if (strcmp(req->path, "/metrics"))
		return 404;
	*type = ct_om_content_type(ct_om_negotiate(req->accept));
	ct_obuf_printf(body, "x_total 1\n");
	return 200;
}

/* a client on 127.0.0.1: connected, non-blocking */
static int client(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

/* Serve until @fd's response has ended (closed), 200 steps at most */
static int exchange(struct ct_http_server *s, int fd, char *out, size_t size)
{
	size_t got = 0;
	int step;
	ssize_t n;

	for (step = 0; step < 200; step++) {
		ct_http_step(s, 10);
		while ((n = read(fd, out + got, size - 1 - got)) > 0)
			got += (size_t)n;
		if (n == 0)
			break;
	}
	out[got] = '\0';
	return step < 200 ? 0 : -1;
}

static void test_server(void)
{
	struct ct_http_server s;
	struct sockaddr_storage a;
	socklen_t len;
	char out[4096];
	int calls = 0, port, fd, fds[CT_HTTP_PER_PEER + 4], i, served, gone;
	FILE *err = tmpfile();

	CT_CHECK_INT(ct_http_parse_listen("127.0.0.1:0", &a, &len, err, "serve"), 0);
	if (err)
		fclose(err);
	if (ct_http_open(&s, &a, len, test_handler, &calls)) {
		CT_CHECK(!"cannot listen on 127.0.0.1");
		return;
	}
	port = ct_http_port(&s);
	CT_CHECK(port > 0);
	s.timeout_ms = 300;

	fd = client(port);
	CT_CHECK(fd >= 0 && write(fd, "GET /metrics HTTP/1.1\r\nAccept: application/openmetrics-text\r\n\r\n", 64) == 64);
	CT_CHECK_INT(exchange(&s, fd, out, sizeof(out)), 0);
	CT_CHECK(!strncmp(out, "HTTP/1.1 200 OK\r\n", 17));
	CT_CHECK(strstr(out, "\r\nContent-Type: application/openmetrics-text; version=1.0.0; charset=utf-8\r\n"));
	CT_CHECK(strstr(out, "\r\nContent-Length: 10\r\n"));
	CT_CHECK(strstr(out, "\r\n\r\nx_total 1\n"));
	close(fd);

	/* HEAD: the headers only */
	fd = client(port);
	CT_CHECK(fd >= 0 && write(fd, "HEAD /metrics HTTP/1.0\r\n\r\n", 26) == 26);
	CT_CHECK_INT(exchange(&s, fd, out, sizeof(out)), 0);
	CT_CHECK(strstr(out, "Content-Length: 10\r\n") && !strstr(out, "x_total"));
	close(fd);

	fd = client(port);
	CT_CHECK(fd >= 0 && write(fd, "GET /nothing HTTP/1.1\r\n\r\n", 25) == 25);
	CT_CHECK_INT(exchange(&s, fd, out, sizeof(out)), 0);
	CT_CHECK(!strncmp(out, "HTTP/1.1 404 Not Found\r\n", 24));
	close(fd);

	fd = client(port);
	CT_CHECK(fd >= 0 && write(fd, "DELETE /metrics HTTP/1.1\r\n\r\n", 28) == 28);
	CT_CHECK_INT(exchange(&s, fd, out, sizeof(out)), 0);
	CT_CHECK(!strncmp(out, "HTTP/1.1 405 ", 13) && strstr(out, "\r\nAllow: GET, HEAD\r\n"));
	close(fd);

	/* a flood of header bytes is cut off at the bound */
	fd = client(port);
	memset(out, 'z', sizeof(out));
	memcpy(out, "GET / HTTP/1.1\r\nX: ", 19);
	for (i = 0; fd >= 0 && i < 3; i++)
		CT_CHECK(write(fd, out, sizeof(out)) == (ssize_t)sizeof(out));
	CT_CHECK_INT(exchange(&s, fd, out, sizeof(out)), 0);
	CT_CHECK(!strncmp(out, "HTTP/1.1 431 ", 13));
	close(fd);

	/* a client that says nothing is dropped at its deadline */
	fd = client(port);
	CT_CHECK_INT(exchange(&s, fd, out, sizeof(out)), 0);
	CT_CHECK_STR(out, "");
	CT_CHECK_INT(s.timeouts, 1);
	close(fd);

	/*
	 * more silent clients of one address than it may hold: each new one
	 * takes the place of its oldest; the newest are served
	 */
	for (i = 0; i < CT_HTTP_PER_PEER + 4; i++)
		fds[i] = client(port);
	for (i = 0; i < 5; i++)
		ct_http_step(&s, 10);
	CT_CHECK_INT(s.evicted, 4);
	for (i = 0; i < CT_HTTP_PER_PEER + 4; i++)
		if (fds[i] >= 0 && write(fds[i], "GET /metrics HTTP/1.1\r\n\r\n", 25) != 25)
			CT_CHECK(i < 4);	/* given up: the write may fail */
	for (i = 0, served = 0, gone = 0; i < CT_HTTP_PER_PEER + 4; i++) {
		if (fds[i] < 0)
			continue;
		if (!exchange(&s, fds[i], out, sizeof(out)) &&
		    !strncmp(out, "HTTP/1.1 200 OK\r\n", 17))
			served++;
		else if (!out[0])
			gone += i < 4;
		close(fds[i]);
	}
	CT_CHECK_INT(served, CT_HTTP_PER_PEER);
	CT_CHECK_INT(gone, 4);
	CT_CHECK_INT(calls, 2 + 1 + CT_HTTP_PER_PEER);

	/*
	 * clients that ask for a large response and stop reading it: they
	 * hold no more than their address's share, oldest given up first,
	 * and a scrape from the same address is answered
	 */
	for (i = 0; i < CT_HTTP_PER_PEER + 4; i++) {
		fds[i] = client(port);
		if (fds[i] >= 0 && write(fds[i], "GET /big HTTP/1.1\r\n\r\n", 21) != 21)
			CT_CHECK(!"could not ask for /big");
		ct_http_step(&s, 10);
	}
	fd = client(port);
	CT_CHECK(fd >= 0 && write(fd, "GET /metrics HTTP/1.1\r\n\r\n", 25) == 25);
	CT_CHECK_INT(exchange(&s, fd, out, sizeof(out)), 0);
	CT_CHECK(!strncmp(out, "HTTP/1.1 200 OK\r\n", 17));
	close(fd);
	for (i = 0; i < CT_HTTP_PER_PEER + 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);

	/* the absolute form of the target */
	fd = client(port);
	CT_CHECK(fd >= 0 && write(fd, "GET http://127.0.0.1/metrics HTTP/1.1\r\n\r\n", 41) == 41);
	CT_CHECK_INT(exchange(&s, fd, out, sizeof(out)), 0);
	CT_CHECK(!strncmp(out, "HTTP/1.1 200 OK\r\n", 17));
	close(fd);
	ct_http_close(&s);
}

#define FLOOD_IDLE	1000	/* connections that say nothing */
#define FLOOD_SLOW	200	/* connections that send a byte a second */
#define FLOOD_SCRAPES	5
#define FLOOD_SECONDS	20	/* every process's bound */

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* The server in a process of its own until @stop is readable (or 20 s) */
static void flood_server(struct ct_http_server *s, int stop, int report)
{
	struct pollfd p = { stop, POLLIN, 0 };
	uint64_t end = now_ms() + FLOOD_SECONDS * 1000;
	unsigned long long counts[3];

	while (now_ms() < end && poll(&p, 1, 0) == 0)
		ct_http_step(s, 20);
	counts[0] = s->evicted;
	counts[1] = s->timeouts;
	counts[2] = s->requests;
	if (write(report, counts, sizeof(counts)) != sizeof(counts))
		_exit(1);
	_exit(0);
}

/* FLOOD_SLOW clients, each a byte of a request a second, until @stop */
static void flood_slow(int port, int stop)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
	struct pollfd p = { stop, POLLIN, 0 };
	uint64_t end = now_ms() + FLOOD_SECONDS * 1000;
	int fds[FLOOD_SLOW], i, tick = 0;

	for (i = 0; i < FLOOD_SLOW; i++)
		fds[i] = client(port);
	while (now_ms() < end && poll(&p, 1, 1000) == 0) {
		for (i = 0; i < FLOOD_SLOW; i++) {
			if (fds[i] >= 0 &&
			    send(fds[i], req + tick % (sizeof(req) - 1), 1,
				 MSG_NOSIGNAL) != 1) {
				close(fds[i]);	/* given up by the server: again */
				fds[i] = client(port);
			}
		}
		tick++;
	}
	_exit(0);
}

/* One scrape, blocking, bounded: its milliseconds, or -1 */
static long scrape_ms(int port, char *out, size_t size)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
	uint64_t start = now_ms();
	size_t got = 0;
	struct pollfd p;
	ssize_t n;
	int fd = client(port);

	out[0] = '\0';
	if (fd < 0 || write(fd, req, sizeof(req) - 1) != (ssize_t)sizeof(req) - 1) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	p = (struct pollfd){ fd, POLLIN, 0 };
	while (now_ms() - start < 5000 && poll(&p, 1, 100) >= 0) {
		n = read(fd, out + got, size - 1 - got);
		if (n == 0)
			break;
		if (n > 0)
			got += (size_t)n;
	}
	out[got] = '\0';
	close(fd);
	return got ? (long)(now_ms() - start) : -1;
}

/*
 * 1,000 idle and 200 slow clients on 127.0.0.1 (RFC "slowloris"), and
 * normal scrapes beside them, each answered within a second.
 */
static void test_slow_clients(void)
{
	struct ct_http_server *s = calloc(1, sizeof(*s));
	struct sockaddr_storage a;
	struct rlimit lim;
	unsigned long long counts[3] = { 0, 0, 0 };
	int stop[2], report[2], idle[FLOOD_IDLE], port, i, opened = 0, ok = 0;
	pid_t server, slow;
	long ms, worst = 0;
	socklen_t len;
	char out[2048];
	FILE *err = tmpfile();

	/* the clients' sockets: the soft limit raised to the hard one */
	if (!getrlimit(RLIMIT_NOFILE, &lim)) {
		lim.rlim_cur = lim.rlim_max;
		setrlimit(RLIMIT_NOFILE, &lim);
	}
	CT_CHECK(!getrlimit(RLIMIT_NOFILE, &lim) && lim.rlim_cur >= FLOOD_IDLE + 100);
	CT_CHECK(s != NULL);
	CT_CHECK_INT(ct_http_parse_listen("127.0.0.1:0", &a, &len, err, "serve"), 0);
	if (err)
		fclose(err);
	if (!s || ct_http_open(s, &a, len, test_handler, &i)) {
		CT_CHECK(!"cannot listen on 127.0.0.1");
		free(s);
		return;
	}
	port = ct_http_port(s);
	CT_CHECK(pipe(stop) == 0 && pipe(report) == 0);
	fflush(NULL);
	server = fork();
	if (server == 0)
		flood_server(s, stop[0], report[1]);
	ct_http_close(s);	/* the child's now */
	slow = fork();
	if (slow == 0)
		flood_slow(port, stop[0]);
	for (i = 0; i < FLOOD_IDLE; i++) {
		idle[i] = client(port);
		opened += idle[i] >= 0;
	}
	CT_CHECK_INT(opened, FLOOD_IDLE);
	usleep(1500 * 1000);	/* a second and a half of slow bytes */
	for (i = 0; i < FLOOD_SCRAPES; i++) {
		ms = scrape_ms(port, out, sizeof(out));
		if (ms >= 0 && ms < 1000 && !strncmp(out, "HTTP/1.1 200 OK\r\n", 17))
			ok++;
		else
			fprintf(stderr, "  scrape %d beside the flood: %ld ms, '%.40s'\n",
				i, ms, out);
		if (ms > worst)
			worst = ms;
		usleep(200 * 1000);
	}
	CT_CHECK_INT(ok, FLOOD_SCRAPES);
	if (write(stop[1], "x", 1) != 1)
		CT_CHECK(!"could not stop the flood");
	for (i = 0; i < FLOOD_IDLE; i++)
		if (idle[i] >= 0)
			close(idle[i]);
	CT_CHECK(read(report[0], counts, sizeof(counts)) == sizeof(counts));
	waitpid(server, NULL, 0);
	waitpid(slow, NULL, 0);
	/* the idle ones were pushed out by those that came after them */
	CT_CHECK(counts[0] >= FLOOD_IDLE - CT_HTTP_MAX_CONNS);
	CT_CHECK(counts[2] >= FLOOD_SCRAPES);
	printf("  serve beside %d idle and %d slow clients: %d scrapes, the slowest %ld ms; %llu connections given up for newer, %llu timed out\n",
	       FLOOD_IDLE, FLOOD_SLOW, FLOOD_SCRAPES, worst, counts[0], counts[1]);
	close(stop[0]);
	close(stop[1]);
	close(report[0]);
	close(report[1]);
	free(s);
}

/* a long option as the manual page writes it: \-\-name, dashes escaped */
static void roff_option(const char *name, char *out, size_t size)
{
	size_t n = 0;

	n += (size_t)snprintf(out + n, size - n, "\\fB\\-\\-");
	for (; *name && n + 3 < size; name++) {
		if (*name == '-') {
			out[n++] = '\\';
			out[n++] = '-';
		} else {
			out[n++] = *name;
		}
	}
	out[n] = '\0';
}

/* every option of every table is in its manual page: they cannot drift */
static void test_man(void)
{
	static const struct ct_command *const cmds[] = {
		&ct_record_command, &ct_list_command, &ct_top_command,
		&ct_serve_command, &ct_report_command, &ct_timechart_command,
		&ct_convert_command, &ct_check_command, &ct_version_command,
	};
	char *page = NULL, want[128];
	size_t len = 0, i, missing = 0, options = 0;
	const struct ct_opt_group *g;
	const struct ct_opt *o;
	FILE *f;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		f = open_memstream(&page, &len);
		if (!f) {
			CT_CHECK(!"open_memstream");
			return;
		}
		ct_command_man(cmds[i], "9.9.9", f);
		fclose(f);
		CT_CHECK(!strncmp(page, ".TH CORETRACE-", 14));
		CT_CHECK(strstr(page, "\n.SH NAME\ncoretrace\\-") != NULL);
		CT_CHECK(strstr(page, "\"coretrace 9.9.9\"") != NULL);
		for (g = cmds[i]->groups; g && g->opts; g++) {
			for (o = g->opts; o->id; o++) {
				options++;
				roff_option(o->name, want, sizeof(want));
				if (!strstr(page, want)) {
					missing++;
					printf("man page of %s lacks %s\n", cmds[i]->name, want);
				}
			}
		}
		/* no line a roff request by accident */
		CT_CHECK(!strstr(page, "\n'"));
		free(page);
		page = NULL;
	}
	CT_CHECK(options > 50);
	CT_CHECK_INT(missing, 0);
	f = open_memstream(&page, &len);
	if (f) {
		ct_commands_man(cmds, sizeof(cmds) / sizeof(cmds[0]), "9.9.9", f);
		fclose(f);
		CT_CHECK(strstr(page, ".BR coretrace\\-serve (1)") != NULL);
		CT_CHECK(strstr(page, ".SH COMMANDS") != NULL);
		free(page);
	}
}

void test_serve(void)
{
	test_man();
	test_buckets();
	test_negotiate();
	test_labels();
	test_render();
	test_parse();
	test_listen();
	test_server();
	test_slow_clients();
}
