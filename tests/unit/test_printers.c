// SPDX-License-Identifier: GPL-2.0
/* Every event's text and JSON line, against lines written by hand. */
#include <stdlib.h>
#include "ct_test.h"
#include "model/events.h"

struct golden {
	union ct_record rec;
	const char *text;
	const char *json;
};

static struct ct_comm_cache cache;
static struct ct_irq_names irqs;
static struct ct_ksyms ksyms;

static void hdr(union ct_record *rec, enum ct_event_type type)
{
	memset(rec, 0, sizeof(*rec));
	ct_set_ts(rec, 2000003000ull);	/* 2.000003 s */
	rec->hdr.type = type;
	rec->hdr.cpu = 1;
}

static void check(const struct golden *g)
{
	struct ct_print_ctx pctx = {
		.comms = &cache, .ksyms = &ksyms, .irqs = &irqs,
	};
	union ct_record decoded;
	char line[512];
	size_t size = ct_events[g->rec.hdr.type].size;

	/* through the decoder, as the loader does */
	CT_CHECK_INT(ct_decode(&g->rec, size, &decoded), CT_DECODE_OK);
	ct_format(CT_FORMAT_TEXT, &decoded, &pctx, line, sizeof(line));
	CT_CHECK_STR(line, g->text);
	ct_format(CT_FORMAT_JSON, &decoded, &pctx, line, sizeof(line));
	CT_CHECK_STR(line, g->json);
}

#define P "            bash-42      [001]     2.000003: "
#define CPU "                -        [001]     2.000003: "
#define J(ev) "{\"ts\":2000003000,\"cpu\":1,\"event\":\"" ev "\""

static void test_each_event(void)
{
	struct golden g;
	FILE *f;

	CT_CHECK_INT(ct_comm_cache_init(&cache, 64), 0);
	ct_comm_cache_set(&cache, 42, "bash");
	ct_comm_cache_set(&cache, 43, "make");
	ct_irq_names_set(&irqs, 4, "ttyS0");
	f = fmemopen((void *)"ffffffff81100000 T run_timer\n"
		     "ffffffff81100400 t hrtimer_wakeup\n"
		     "ffffffff81200000 T vmstat_update\n", 96, "r");
	CT_CHECK(f != NULL);
	CT_CHECK_INT(ct_ksyms_load(&ksyms, f), 0);
	fclose(f);

	hdr(&g.rec, CT_EV_SCHED_WAKEUP);
	g.rec.wakeup.pid = 42;
	g.rec.wakeup.prio = 120;
	g.rec.wakeup.target_cpu = 3;
	g.text = P "sched_wakeup: comm=bash pid=42 prio=120 target_cpu=003";
	g.json = J("sched_wakeup") ",\"comm\":\"bash\",\"pid\":42,\"target_cpu\":3,\"prio\":120}";
	check(&g);
	g.rec.hdr.type = CT_EV_SCHED_WAKING;
	g.text = P "sched_waking: comm=bash pid=42 prio=120 target_cpu=003";
	g.json = J("sched_waking") ",\"comm\":\"bash\",\"pid\":42,\"target_cpu\":3,\"prio\":120}";
	check(&g);
	g.rec.hdr.type = CT_EV_SCHED_WAKEUP_NEW;
	g.text = P "sched_wakeup_new: comm=bash pid=42 prio=120 target_cpu=003";
	g.json = J("sched_wakeup_new") ",\"comm\":\"bash\",\"pid\":42,\"target_cpu\":3,\"prio\":120}";
	check(&g);

	hdr(&g.rec, CT_EV_SCHED_MIGRATE_TASK);
	g.rec.migrate.pid = 42;
	g.rec.migrate.prio = 100;
	g.rec.migrate.orig_cpu = 0;
	g.rec.migrate.dest_cpu = 1;
	g.text = P "sched_migrate_task: comm=bash pid=42 prio=100 orig_cpu=0 dest_cpu=1";
	g.json = J("sched_migrate_task") ",\"comm\":\"bash\",\"pid\":42,\"orig_cpu\":0,\"dest_cpu\":1,\"prio\":100}";
	check(&g);

	hdr(&g.rec, CT_EV_SCHED_PROCESS_FORK);
	g.rec.fork.parent_pid = 42;
	g.rec.fork.child_pid = 44;
	memcpy(g.rec.fork.child_comm, "bash", 5);
	g.text = P "sched_process_fork: comm=bash pid=42 child_comm=bash child_pid=44";
	g.json = J("sched_process_fork") ",\"parent_comm\":\"bash\",\"parent_pid\":42,\"child_pid\":44,\"child_comm\":\"bash\"}";
	check(&g);

	hdr(&g.rec, CT_EV_SCHED_PROCESS_EXEC);
	g.rec.exec.pid = 42;
	g.rec.exec.old_pid = 42;
	strcpy(g.rec.exec.filename, "/usr/bin/make");
	g.text = P "sched_process_exec: filename=/usr/bin/make pid=42 old_pid=42";
	g.json = J("sched_process_exec") ",\"pid\":42,\"old_pid\":42,\"filename\":\"/usr/bin/make\"}";
	check(&g);

	hdr(&g.rec, CT_EV_SCHED_PROCESS_EXIT);
	g.rec.exit.pid = 43;
	g.rec.exit.prio = 120;
	g.text = "            make-43      [001]     2.000003: sched_process_exit: comm=make pid=43 prio=120";
	g.json = J("sched_process_exit") ",\"comm\":\"make\",\"pid\":43,\"prio\":120}";
	check(&g);

	hdr(&g.rec, CT_EV_CPU_IDLE);
	g.rec.cpu_idle.state = 2;
	g.rec.cpu_idle.cpu_id = 1;
	g.text = CPU "cpu_idle: state=2 cpu_id=1";
	g.json = J("cpu_idle") ",\"state\":2,\"cpu_id\":1}";
	check(&g);
	g.rec.cpu_idle.state = CT_IDLE_EXIT;
	g.text = CPU "cpu_idle: state=-1 cpu_id=1 (exit)";
	g.json = J("cpu_idle") ",\"state\":-1,\"cpu_id\":1}";
	check(&g);

	hdr(&g.rec, CT_EV_CPU_FREQUENCY);
	g.rec.cpu_frequency.state = 2400000;
	g.rec.cpu_frequency.cpu_id = 0;
	g.text = CPU "cpu_frequency: state=2400000 cpu_id=0";
	g.json = J("cpu_frequency") ",\"state\":2400000,\"cpu_id\":0}";
	check(&g);

	hdr(&g.rec, CT_EV_IRQ_HANDLER_ENTRY);
	g.rec.irq_entry.irq = 4;
	g.text = CPU "irq_handler_entry: irq=4 name=ttyS0";
	g.json = J("irq_handler_entry") ",\"irq\":4,\"name\":\"ttyS0\"}";
	check(&g);
	g.rec.irq_entry.irq = 9;	/* never announced */
	g.text = CPU "irq_handler_entry: irq=9 name=?";
	g.json = J("irq_handler_entry") ",\"irq\":9,\"name\":\"?\"}";
	check(&g);

	hdr(&g.rec, CT_EV_IRQ_HANDLER_EXIT);
	g.rec.irq_exit.irq = 4;
	g.rec.irq_exit.ret = 1;
	g.text = CPU "irq_handler_exit: irq=4 ret=handled";
	g.json = J("irq_handler_exit") ",\"irq\":4,\"ret\":\"handled\"}";
	check(&g);
	g.rec.irq_exit.ret = 0;
	g.text = CPU "irq_handler_exit: irq=4 ret=unhandled";
	g.json = J("irq_handler_exit") ",\"irq\":4,\"ret\":\"unhandled\"}";
	check(&g);

	hdr(&g.rec, CT_EV_SOFTIRQ_ENTRY);
	g.rec.softirq.vec = 1;
	g.text = CPU "softirq_entry: vec=1 [action=TIMER]";
	g.json = J("softirq_entry") ",\"vec\":1,\"action\":\"TIMER\"}";
	check(&g);
	g.rec.hdr.type = CT_EV_SOFTIRQ_EXIT;
	g.rec.softirq.vec = 99;
	g.text = CPU "softirq_exit: vec=99 [action=?]";
	g.json = J("softirq_exit") ",\"vec\":99,\"action\":\"?\"}";
	check(&g);

	hdr(&g.rec, CT_EV_TIMER_EXPIRE_ENTRY);
	g.rec.timer_entry.function = 0xffffffff81100010ull;
	g.rec.timer_entry.timer = 0xffff888001000000ull;
	g.text = CPU "timer_expire_entry: function=run_timer timer=0xffff888001000000";
	g.json = J("timer_expire_entry") ",\"function\":\"run_timer\",\"address\":\"0xffffffff81100010\",\"timer\":\"0xffff888001000000\"}";
	check(&g);
	g.rec.hdr.type = CT_EV_HRTIMER_EXPIRE_ENTRY;
	g.rec.hrtimer_entry.function = 0xffffffff81100400ull;
	g.text = CPU "hrtimer_expire_entry: function=hrtimer_wakeup hrtimer=0xffff888001000000";
	g.json = J("hrtimer_expire_entry") ",\"function\":\"hrtimer_wakeup\",\"address\":\"0xffffffff81100400\",\"hrtimer\":\"0xffff888001000000\"}";
	check(&g);
	g.rec.hdr.type = CT_EV_WORKQUEUE_EXECUTE_START;
	g.rec.work_start.function = 0x1000;	/* below every symbol */
	g.text = CPU "workqueue_execute_start: function=0x1000 work=0xffff888001000000";
	g.json = J("workqueue_execute_start") ",\"function\":\"0x1000\",\"address\":\"0x1000\",\"work\":\"0xffff888001000000\"}";
	check(&g);

	hdr(&g.rec, CT_EV_TIMER_EXPIRE_EXIT);
	g.rec.timer_exit.timer = 0xffff888001000000ull;
	g.text = CPU "timer_expire_exit: timer=0xffff888001000000";
	g.json = J("timer_expire_exit") ",\"timer\":\"0xffff888001000000\"}";
	check(&g);
	g.rec.hdr.type = CT_EV_HRTIMER_EXPIRE_EXIT;
	g.text = CPU "hrtimer_expire_exit: hrtimer=0xffff888001000000";
	g.json = J("hrtimer_expire_exit") ",\"hrtimer\":\"0xffff888001000000\"}";
	check(&g);
	g.rec.hdr.type = CT_EV_WORKQUEUE_EXECUTE_END;
	g.text = CPU "workqueue_execute_end: work=0xffff888001000000";
	g.json = J("workqueue_execute_end") ",\"work\":\"0xffff888001000000\"}";
	check(&g);

	ct_ksyms_free(&ksyms);
	ct_comm_cache_free(&cache);
}

/* Name records feed the tables; a fork names its child. */
static void test_learn_names(void)
{
	struct ct_comm_cache comms;
	struct ct_irq_names names;
	union ct_record rec;
	int i;

	memset(&names, 0, sizeof(names));
	CT_CHECK_INT(ct_comm_cache_init(&comms, 64), 0);
	hdr(&rec, CT_EV_SCHED_PROCESS_FORK);
	rec.fork.child_pid = 7;
	memcpy(rec.fork.child_comm, "kid", 4);
	ct_learn_names(&rec, &comms, &names);
	CT_CHECK_STR(ct_comm_cache_get(&comms, 7), "kid");
	hdr(&rec, CT_EV_IRQ_NAME);
	rec.irq_name.irq = 11;
	memset(rec.irq_name.name, 'n', sizeof(rec.irq_name.name));	/* no NUL */
	ct_learn_names(&rec, &comms, &names);
	CT_CHECK_INT(strlen(ct_irq_names_get(&names, 11)), CT_IRQ_NAME_LEN - 1);
	CT_CHECK(ct_irq_names_get(&names, 12) == NULL);
	/* more irqs than slots: stays bounded, the latest is found */
	for (i = 0; i < 3 * CT_IRQ_SLOTS; i++) {
		ct_irq_names_set(&names, (uint32_t)i, "x");
		if (!ct_irq_names_get(&names, (uint32_t)i))
			break;
	}
	CT_CHECK_INT(i, 3 * CT_IRQ_SLOTS);
	CT_CHECK_STR(ct_softirq_name(9), "RCU");
	CT_CHECK_STR(ct_softirq_name(10), "?");
	ct_comm_cache_free(&comms);
}

void test_printers(void)
{
	test_each_event();
	test_learn_names();
}
