/* SPDX-License-Identifier: GPL-2.0 */
/* coretrace's version: `version` prints it, captures carry it (env) */
#ifndef CORETRACE_VERSION_H
#define CORETRACE_VERSION_H

#define CT_VERSION_MAJOR	0
#define CT_VERSION_MINOR	4
#define CT_VERSION_PATCH	0

#define CT_STR_(x)		#x
#define CT_STR(x)		CT_STR_(x)
#define CT_VERSION		CT_STR(CT_VERSION_MAJOR) "." CT_STR(CT_VERSION_MINOR) \
				"." CT_STR(CT_VERSION_PATCH)

#endif /* CORETRACE_VERSION_H */
