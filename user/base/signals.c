// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include <string.h>
#include "base/signals.h"

void ct_signals_ignore_pipe(void)
{
	signal(SIGPIPE, SIG_IGN);
}

void ct_signals_install(void (*handler)(int), bool usr1)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a signal must interrupt the wait it arrives in */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (usr1)
		sigaction(SIGUSR1, &sa, NULL);
	ct_signals_ignore_pipe();
}
