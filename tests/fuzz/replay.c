// SPDX-License-Identifier: GPL-2.0
/*
 * Replays fuzzer inputs (the kept corpus and every crasher found so far)
 * through the fuzz target without libFuzzer, under gcc's sanitizers, as
 * part of the unit tests. A crash aborts the run; the closing line is
 * the same "N passed, N failed" as the unit tests'.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return -1;
	do {
		if (len == cap) {
			unsigned char *bigger = realloc(data, cap ? 2 * cap : 4096);

			if (!bigger)
				break;
			data = bigger;
			cap = cap ? 2 * cap : 4096;
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	LLVMFuzzerTestOneInput(data, len);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int i, passed = 0, failed = 0;

	for (i = 1; i < argc; i++) {
		if (replay_file(argv[i])) {
			fprintf(stderr, "replay: cannot read %s\n", argv[i]);
			failed++;
		} else {
			passed++;
		}
	}
	printf("fuzz replay: %d passed, %d failed\n", passed, failed);
	return failed || !passed;
}
