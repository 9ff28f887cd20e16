// SPDX-License-Identifier: GPL-2.0
/*
 * ct_freq: a guest-only test module that makes power:cpu_frequency fire.
 * QEMU's CPUs have no cpufreq driver, so the tracepoint never fires on
 * its own; the guest tests write "CPU:KHZ" to
 * /sys/module/ct_freq/parameters/emit and the module calls
 * trace_cpu_frequency(KHZ, CPU), as a cpufreq driver does after a change.
 * Never loaded on the host: tests/guest/t_freq insmods it in the guest.
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <trace/events/power.h>

static int ct_freq_emit(const char *val, const struct kernel_param *kp)
{
	unsigned int cpu, khz;

	if (sscanf(val, "%u:%u", &cpu, &khz) != 2)
		return -EINVAL;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -ENODEV;
	trace_cpu_frequency(khz, cpu);
	return 0;
}

static const struct kernel_param_ops ct_freq_emit_ops = {
	.set = ct_freq_emit,
};

module_param_cb(emit, &ct_freq_emit_ops, NULL, 0200);
MODULE_PARM_DESC(emit, "CPU:KHZ: trace a frequency change of CPU to KHZ");
MODULE_DESCRIPTION("coretrace guest test: fires power:cpu_frequency on request");
MODULE_LICENSE("GPL");
