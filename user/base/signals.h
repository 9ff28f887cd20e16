/* SPDX-License-Identifier: GPL-2.0 */
/* The one signal set-up of the commands that run until told to stop. */
#ifndef CORETRACE_SIGNALS_H
#define CORETRACE_SIGNALS_H

#include <stdbool.h>

/*
 * SIGINT and SIGTERM (and SIGUSR1 when @usr1) to @handler, without
 * SA_RESTART so that they interrupt a wait; SIGPIPE ignored.
 */
void ct_signals_install(void (*handler)(int), bool usr1);
/* A closed pipe or socket shows up as EPIPE instead of killing us */
void ct_signals_ignore_pipe(void);

#endif /* CORETRACE_SIGNALS_H */
