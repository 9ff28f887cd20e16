#!/usr/bin/env python3
"""Hostile captures: beyond mutate.py's bit flips, reshape a good capture
the way a damaged disk, a careless copy or an attacker would, then ask
babeltrace2 and coretrace report whether each mutant is a capture they
can read.

  hostile.py [-n N] [-s SEED] [-k] [-i I]... MKCAPTURE CORETRACE WORKDIR

mkcapture writes the good captures: A (20000 records over 4 CPUs, seed
SEED), B (the same with seed SEED+1, so another recording with another
trace UUID) and a small one (1000 records over 2 CPUs). Each mutant is a
copy with one mutation; mutant I is of kind I mod 6, drawn with a random
generator seeded by SEED and I, so -s SEED -i I makes it again:

  truncate  a stream file cut at, just before and just after every packet
            boundary and in the middle of a packet header (or a byte or
            half a header appended at its end); the metadata cut at each of
            its parts
  reorder   two packets of a stream swapped; a packet moved to another
            stream file; a packet duplicated in its stream or in another
  sizes     a packet's packet_size / content_size (bits) made huge (60 MiB,
            2^32-8, 2^63, 2^64-8), zero, smaller than the header, content
            larger than the packet, not whole bytes, inside an event; a
            packet of 60 MiB or 512 MiB whose file holds it (a hole)
  chunks    a rotated recording (chunk-NNNNNN directories, their metadata
            saying they are chunks) made of two recordings whose trace
            UUIDs differ; a good one (one recording split in two) to check
  metadata  valid TSDL that is not coretrace's (a field renamed, an extra
            event class, another tracer, a field's size), and a trace UUID
            that disagrees with the packets'
  streams   2000 stream_N files (copies of one short stream, cpu_id set to
            N; mutant 5 only); a stream file that is one packet declaring a
            huge size over almost no bytes (a short file, or a sparse file
            that holds it), and 24 such sparse files; 64 copies of a stream

Both readers run on every mutant with a time limit of 30 s, coretrace
under prlimit --as=1073741824 (1 GiB of address space). A reader accepts
a mutant when it exits 0.

Exits 1 when coretrace crashes (a signal), hangs (the time limit) or runs
out of memory (says so, or its resident memory reaches 3/4 of the bound); when coretrace accepts a mutant babeltrace2 rejects (a
silent misread), unless the mutation is one listed in LEGIT, where
babeltrace2 refuses something coretrace reads differently on purpose (such
cases are printed, with the reason); when coretrace's stderr for a
rejection holds more than one line of error (notes such as the chunks
read are not errors) or no sentence; or when the good captures are not
accepted by both. A mutant coretrace rejects and babeltrace2 accepts is
printed, not failed: coretrace refuses, for example, a metadata that is
not the one it writes. Prints per kind the mutants, how many each reader
rejected and a sample of coretrace's sentence, then every failure with the
command that reads that mutant again. -k keeps the mutants the readers
disagree on, and the failed ones, in WORKDIR/hostile/kept; -i I (repeated)
runs only mutant I and keeps it.
"""
import argparse
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

TIME_LIMIT = 30
MEMORY_LIMIT = 1 << 30		# bytes of address space for coretrace

# The packet header and context as ct_ctf_seal() (user/capture/ctf.c)
# writes them and the metadata declares them, little endian: magic, the
# trace's uuid, stream_id, then timestamp_begin, timestamp_end,
# content_size and packet_size (in bits), events_discarded, cpu_id.
MAGIC = 0xC1FC1FC1
OFF_UUID = 4
OFF_STREAM_ID = 20
OFF_TS_BEGIN = 24
OFF_TS_END = 32
OFF_CONTENT = 40
OFF_PACKET = 48
OFF_DISCARDED = 56
OFF_CPU = 64
HEAD = 68			# CT_CTF_HEAD: the header and the context
PACKET_MAX = 64 << 10		# CT_CTF_PACKET_MAX: what the writer makes
MIB = 1 << 20
EXTENDED = 255			# CT_CTF_ID_EXTENDED: id, then 64-bit time
NO_EVENT = 0xfe			# an event id no event class has

KINDS = ("truncate", "reorder", "sizes", "chunks", "metadata", "streams")

# Mutations whose rejection by babeltrace2 is about something coretrace
# reads differently on purpose: coretrace accepting them is no misread.
# (variant -> why); empty while no such case was seen.
LEGIT = {}

# Lines of coretrace's stderr that are notes, not errors
NOTE = re.compile(r": a rotated recording: |: CPU \d+ lost \d+ record|records lost in all")


def run(cmd, memory=False):
    """(status, stderr lines, max RSS in KiB) of @cmd: status is the exit
    code, 'crash' for a signal or 'hang' when it gave no answer in
    TIME_LIMIT s (it is then killed). @memory: under MEMORY_LIMIT bytes of
    address space (prlimit execs the command in its own process, so the
    RSS is the command's)."""
    if memory:
        cmd = ["prlimit", f"--as={MEMORY_LIMIT}", "--"] + cmd
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err,
                             start_new_session=True)
        deadline = time.monotonic() + TIME_LIMIT
        nap, hung = 0.001, False
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(p.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(p.pid, 0)
                hung = True
                break
            time.sleep(nap)
            nap = min(nap * 2, 0.02)
        p.returncode = 0	# reaped here: Popen must not wait again
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").strip().splitlines()
    if hung:
        return "hang", [f"no answer in {TIME_LIMIT} s"], usage.ru_maxrss
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return "crash", [f"signal {sig} ({signal.Signals(sig).name})"] + lines, usage.ru_maxrss
    return os.WEXITSTATUS(status), lines, usage.ru_maxrss


# --- the capture's packets and events, read as the writer writes them ---

def u32(data, off):
    return struct.unpack_from("<I", data, off)[0]


def u64(data, off):
    return struct.unpack_from("<Q", data, off)[0]


def packets(data):
    """The packets of a good stream file, as bytes each (packet_size)."""
    out, off = [], 0
    while off < len(data):
        size = u64(data, off + OFF_PACKET) // 8
        if u32(data, off) != MAGIC or size < HEAD or off + size > len(data):
            raise ValueError(f"not a good stream file at offset {off}")
        out.append(bytes(data[off:off + size]))
        off += size
    return out


def event_fields(meta):
    """{event id: [bytes of each field, 0 for a string]} from the
    metadata's event classes (every field is byte aligned)."""
    sizes = {"uint8_t": 1, "uint32_t": 4, "uint64_t": 8}
    classes = {}
    for block in re.finditer(r"\nevent \{\n(.*?)\n\};", meta, re.S):
        body = block.group(1)
        eid = int(re.search(r"\tid = (\d+);", body).group(1))
        fields = []
        for line in body.split("fields := struct {", 1)[1].splitlines():
            line = line.strip()
            m = re.match(r"integer \{ size = (\d+);", line)
            if m:
                fields.append(int(m.group(1)) // 8)
            elif line.startswith("string "):
                fields.append(0)
            elif line.split(" ")[0] in sizes:
                fields.append(sizes[line.split(" ")[0]])
        classes[eid] = fields
    return classes


def event_offsets(packet, classes):
    """Where each event of @packet's content starts (offsets in the packet)."""
    content = u64(packet, OFF_CONTENT) // 8
    pos, out = HEAD, []
    while pos < content:
        out.append(pos)
        eid = packet[pos]
        if eid == EXTENDED:
            eid, pos = packet[pos + 1], pos + 10
        else:
            pos += 5
        for size in classes[eid]:
            pos = packet.index(b"\0", pos) + 1 if size == 0 else pos + size
    return out


def with_u64(packet, off, value):
    b = bytearray(packet)
    struct.pack_into("<Q", b, off, value)
    return bytes(b)


def with_u32(packet, off, value):
    b = bytearray(packet)
    struct.pack_into("<I", b, off, value)
    return bytes(b)


def with_cpu(stream, cpu):
    """A copy of stream file bytes @stream whose packets say CPU @cpu."""
    return b"".join(with_u32(p, OFF_CPU, cpu) for p in packets(stream))


def write_parts(path, parts):
    """@parts to @path: bytes, or an int for a hole of that many bytes."""
    with open(path, "wb") as f:
        for part in parts:
            if isinstance(part, int):
                f.seek(part, os.SEEK_CUR)
            else:
                f.write(part)
        f.truncate()


def as_chunk(meta, index):
    """The metadata of chunk @index of a rotated recording: the env lines
    ct_tsdl_part() writes for a chunk (no reason, no span), after the
    hostname."""
    at = meta.index("\n", meta.index("\thostname = ")) + 1
    return (meta[:at] + f'\tcoretrace_part = "chunk";\n\tcoretrace_part_index = {index};\n'
            "\tcoretrace_overwritten_packets = 0;\n\tcoretrace_overwritten_records = 0;\n"
            + meta[at:])


class Good:
    """A good capture: its metadata and stream files' bytes."""

    def __init__(self, path):
        self.path = path
        with open(os.path.join(path, "metadata")) as f:
            self.meta = f.read()
        self.streams = {}
        for name in sorted(os.listdir(path)):
            if name.startswith("stream_"):
                with open(os.path.join(path, name), "rb") as f:
                    self.streams[name] = f.read()
        self.packets = {name: packets(data) for name, data in self.streams.items()}
        self.uuid = self.packets["stream_0"][0][OFF_UUID:OFF_UUID + 16]

    def copy(self, out, meta=None, streams=None):
        os.makedirs(out)
        with open(os.path.join(out, "metadata"), "w") as f:
            f.write(self.meta if meta is None else meta)
        for name, data in (self.streams if streams is None else streams).items():
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)


# --- the mutations: each makes @out and says what it did ---
# Each returns (variant, what): the variant groups mutants in the table.

def truncations(a):
    """Every cut of kind truncate, in a fixed order."""
    cuts = []
    for name, data in a.streams.items():
        starts = [0]
        for p in a.packets[name]:
            starts.append(starts[-1] + len(p))
        for k, b in enumerate(starts):
            where = f"packet {k} boundary" if k < len(starts) - 1 else "end"
            for delta in (-1, 0, 1, HEAD // 2):
                at = b + delta
                if at < 0 or at == len(data):
                    continue
                cuts.append((name, at, f"{where} {delta:+d}"))
    meta = a.meta
    cuts.append(("metadata", 5, "inside '/* CTF 1.8'"))
    for part in ("env {", "clock {", "stream {", "\nevent {"):
        at = meta.index(part)
        cuts.append(("metadata", at, f"start of {part.strip()!r}"))
    for part in ("stream {", "\nevent {"):
        at = meta.index(part) + 20
        cuts.append(("metadata", at, f"inside {part.strip()!r}"))
    last = meta.rindex("\nevent {")
    cuts.append(("metadata", last, "before the last event class"))
    cuts.append(("metadata", len(meta) - 1, "last byte"))
    cuts.append(("metadata", 0, "empty"))
    return sorted(set(cuts))


def mut_truncate(rng, j, ctx, out):
    name, at, where = ctx.cuts[j % len(ctx.cuts)]
    a = ctx.a
    if name == "metadata":
        a.copy(out, meta=a.meta[:at])
        return f"metadata {where}", f"metadata cut at byte {at} ({where})"
    data = a.streams[name]
    if at > len(data):	# a byte, or half a header, after the last packet
        new = data + data[:at - len(data)]
    else:
        new = data[:at]
    a.copy(out, streams=dict(a.streams, **{name: new}))
    variant = "stream " + re.sub(r"packet \d+ boundary", "boundary", where)
    return variant, f"{name} cut to {at} bytes ({where})"


def mut_reorder(rng, j, ctx, out):
    a = ctx.a
    names = list(a.packets)
    multi = [n for n in names if len(a.packets[n]) >= 2]
    kind = ("swap", "move", "dup-same", "dup-other")[j % 4]
    src = rng.choice(multi)
    plist = {n: list(a.packets[n]) for n in names}
    i = rng.randrange(len(plist[src]))
    if kind == "swap":
        k = rng.choice([x for x in range(len(plist[src])) if x != i])
        plist[src][i], plist[src][k] = plist[src][k], plist[src][i]
        what = f"{src}: packets {i} and {k} swapped"
    else:
        dst = src if kind == "dup-same" else rng.choice([n for n in names if n != src])
        packet = plist[src][i]
        if kind == "move":
            del plist[src][i]
        at = rng.randrange(len(plist[dst]) + 1)
        plist[dst].insert(at, packet)
        what = (f"{src} packet {i} {'moved' if kind == 'move' else 'duplicated'}"
                f" to {dst} as its packet {at}")
    a.copy(out, streams={n: b"".join(p) for n, p in plist.items()})
    return kind, what


SIZES = [  # (field, value name)
    ("packet", "60MiB"), ("packet", "2^32-8"), ("packet", "2^63"), ("packet", "2^64-8"),
    ("packet", "0"), ("packet", "<header"), ("packet", "content-8"),
    ("content", "60MiB"), ("content", "2^32-8"), ("content", "2^63"), ("content", "0"),
    ("content", "<header"), ("content", "packet+8"), ("content", "-4 bits"),
    ("content", "mid-event"), ("content", "event boundary"),
    ("both", "60MiB"), ("both", "2^32-8"), ("both", "2^63"), ("both", "0"), ("both", "<header"),
    ("packet", "60MiB, file holds it"), ("packet", "2^32-8, file holds it"),
    ("both", "60MiB, file holds it"),
]


def mut_sizes(rng, j, ctx, out):
    a = ctx.a
    field, value = SIZES[j % len(SIZES)]
    name = rng.choice(list(a.packets))
    plist = list(a.packets[name])
    i = rng.randrange(len(plist))
    p = plist[i]
    bits = len(p) * 8
    events = event_offsets(p, ctx.classes)
    fixed = {"60MiB": 60 * MIB * 8, "2^32-8": 2**32 - 8, "2^63": 2**63,
             "2^64-8": 2**64 - 8, "0": 0, "<header": (HEAD - 4) * 8}
    base = value.split(",")[0]
    if base in fixed:
        v = fixed[base]
    elif value == "content-8":
        v = bits - 8
    elif value == "packet+8":
        v = bits + 8
    elif value == "-4 bits":
        v = bits - 4
    elif value == "mid-event":
        e = rng.randrange(1, len(events))
        v = (events[e] - 2) * 8
    else:		# an event boundary: the events after it are padding
        v = events[rng.randrange(1, len(events))] * 8
    if field in ("packet", "both"):
        p = with_u64(p, OFF_PACKET, v)
    if field in ("content", "both"):
        p = with_u64(p, OFF_CONTENT, v)
    parts = [b"".join(plist[:i])]
    if value.endswith("holds it"):	# a hole up to the declared size
        if field == "both":	# and an event no class has after the real ones
            parts += [p, bytes([NO_EVENT]), v // 8 - len(p) - 1]
        else:
            parts += [p, v // 8 - len(p)]
    else:
        parts.append(p)
    parts.append(b"".join(plist[i + 1:]))
    a.copy(out, streams={n: d for n, d in a.streams.items() if n != name})
    write_parts(os.path.join(out, name), parts)
    return f"{field} {value}", f"{name} packet {i}: {field}_size(s) := {v} bits ({value})"


def mut_chunks(rng, j, ctx, out):
    a, b = ctx.a, ctx.b
    kind = ("two recordings, stream files apart", "two recordings, all stream files",
            "two recordings, metadata not a chunk's", "chunk 2's metadata uuid not its packets'",
            "one recording split (good)")[j % 5]
    os.makedirs(out)
    one, two = os.path.join(out, "chunk-000001"), os.path.join(out, "chunk-000002")
    names = list(a.streams)
    if kind == "two recordings, stream files apart":
        first = set(rng.sample(names, rng.randrange(1, len(names))))
        a.copy(one, meta=as_chunk(a.meta, 1),
               streams={n: d for n, d in a.streams.items() if n in first})
        b.copy(two, meta=as_chunk(b.meta, 2),
               streams={n: d for n, d in b.streams.items() if n not in first})
        what = f"chunk 1: {', '.join(sorted(first))} of A; chunk 2: the others of B"
    elif kind == "two recordings, all stream files":
        a.copy(one, meta=as_chunk(a.meta, 1))
        b.copy(two, meta=as_chunk(b.meta, 2))
        what = "chunk 1: A, chunk 2: B"
    elif kind == "two recordings, metadata not a chunk's":
        a.copy(one)
        b.copy(two)
        what = "chunk 1: A, chunk 2: B, their metadata as mkcapture wrote it"
    elif kind == "chunk 2's metadata uuid not its packets'":
        a.copy(one, meta=as_chunk(a.meta, 1))
        b.copy(two, meta=as_chunk(b.meta.replace(uuid_text(b.uuid), uuid_text(a.uuid)), 2))
        what = "chunk 1: A, chunk 2: B with A's uuid in its metadata"
    else:
        firsts, rests = {}, {}
        for n, plist in a.packets.items():
            k = rng.randrange(1, len(plist)) if len(plist) > 1 else rng.randrange(2)
            if k:
                firsts[n] = b"".join(plist[:k])
            if k < len(plist):
                rests[n] = b"".join(plist[k:])
        a.copy(one, meta=as_chunk(a.meta, 1), streams=firsts)
        a.copy(two, meta=as_chunk(a.meta, 2), streams=rests)
        what = "A split: the first packets of each stream in chunk 1, the rest in chunk 2"
    return kind, what


def uuid_text(u):
    h = u.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


OTHER_UUID = bytes(range(0x10, 0x20))


def mut_metadata(rng, j, ctx, out):
    a = ctx.a
    meta, streams = a.meta, None
    kind = ("field renamed", "extra event class", "another tracer", "no coretrace_abi",
            "field size changed", "trace uuid not the packets'", "clock uuid changed",
            "uuid changed everywhere (good)", "packet header without uuid",
            "packet header uuid renamed", "byte_order be")[j % 11]
    mine = uuid_text(a.uuid)
    blocks = [m.start() for m in re.finditer(r"\nevent \{\n", meta)]
    if kind in ("field renamed", "field size changed"):
        at = rng.choice(blocks)
        end = meta.index("\n};", at)
        fields = [m for m in re.finditer(r"integer \{ size = (\d+);[^}]*\} (\w+);",
                                         meta[at:end])]
        f = rng.choice(fields)
        if kind == "field renamed":
            s, e = at + f.start(2), at + f.end(2)
            meta = meta[:s] + f.group(2) + "_renamed" + meta[e:]
            what = f"field {f.group(2)} renamed {f.group(2)}_renamed"
        else:
            s, e = at + f.start(1), at + f.end(1)
            size = {8: 16, 16: 32, 32: 64, 64: 32}[int(f.group(1))]
            meta = meta[:s] + str(size) + meta[e:]
            what = f"field {f.group(2)}: size {f.group(1)} -> {size} bits"
    elif kind == "extra event class":
        meta += ('\nevent {\n\tname = "foreign_event";\n\tid = 200;\n\tstream_id = 0;\n'
                 "\tfields := struct {\n\t\tuint32_t _x;\n\t\tstring _s;\n\t};\n};\n")
        what = "event class foreign_event (id 200) added"
    elif kind == "another tracer":
        meta = meta.replace('tracer_name = "coretrace"', 'tracer_name = "lttng-modules"')
        what = 'tracer_name = "lttng-modules"'
    elif kind == "no coretrace_abi":
        meta = re.sub(r"\tcoretrace_abi = \d+;\n", "", meta)
        what = "env line coretrace_abi removed"
    elif kind == "trace uuid not the packets'":
        meta = meta.replace(mine, uuid_text(OTHER_UUID))
        what = "the metadata's trace (and clock) uuid replaced; packets keep theirs"
    elif kind == "clock uuid changed":
        at = meta.index("clock {")
        meta = meta[:at] + meta[at:].replace(mine, uuid_text(OTHER_UUID), 1)
        what = "the clock's uuid replaced"
    elif kind == "uuid changed everywhere (good)":
        meta = meta.replace(mine, uuid_text(OTHER_UUID))
        streams = {n: b"".join(p[:OFF_UUID] + OTHER_UUID + p[OFF_UUID + 16:]
                               for p in pl) for n, pl in a.packets.items()}
        what = "trace uuid replaced in the metadata and in every packet"
    elif kind == "packet header without uuid":
        meta = meta.replace("\t\tuint8_t uuid[16];\n", "")
        what = "packet.header declared without its uuid field"
    elif kind == "packet header uuid renamed":
        meta = meta.replace("\t\tuint8_t uuid[16];\n", "\t\tuint8_t tag[16];\n")
        what = "packet.header's uuid field named tag"
    else:
        meta = meta.replace("byte_order = le;", "byte_order = be;")
        what = "trace byte_order = be"
    a.copy(out, meta=meta, streams=streams)
    return kind, what


def short_stream(small, classes, events=8):
    """small's stream_0 as one packet of its first @events events."""
    p = small.packets["stream_0"][0]
    offs = event_offsets(p, classes)
    end = offs[events] if len(offs) > events else u64(p, OFF_CONTENT) // 8
    p = with_u64(with_u64(p[:end], OFF_CONTENT, end * 8), OFF_PACKET, end * 8)
    return p


def huge_packet(a, cpu, declared_bits):
    """A packet header of A's for @cpu declaring @declared_bits, and an
    event byte no class has."""
    first = a.packets["stream_0"][0]
    p = bytearray(first[:HEAD])
    struct.pack_into("<QQ", p, OFF_CONTENT, declared_bits, declared_bits)
    struct.pack_into("<Q", p, OFF_DISCARDED, 0)
    struct.pack_into("<I", p, OFF_CPU, cpu)
    return bytes(p) + bytes([NO_EVENT])


def mut_streams(rng, j, ctx, out):
    a, small = ctx.a, ctx.small
    if j == 0:
        base = short_stream(small, ctx.classes)
        small.copy(out, streams={f"stream_{n}": with_cpu(base, n) for n in range(2000)})
        return "2000 stream files", "2000 copies of a stream of 8 events, each with its CPU"
    kind = ("one packet declaring a huge size, short file",
            "one packet declaring 60 MiB, sparse file",
            "24 sparse stream files of one 60 MiB packet",
            "64 stream files")[(j - 1) % 4]
    if kind.endswith("short file"):
        name, bits = rng.choice([("60 MiB", 60 * MIB * 8), ("2^32-8", 2**32 - 8),
                                 ("2^63", 2**63), ("2^64-8", 2**64 - 8)])
        streams = dict(a.streams, stream_4=huge_packet(a, 4, bits) + bytes(7))
        a.copy(out, streams=streams)
        return kind, f"stream_4: one packet declaring {name} (bits {bits}) in a file of {HEAD + 8} bytes"
    if kind == "64 stream files":
        base = short_stream(small, ctx.classes)
        small.copy(out, streams={f"stream_{n}": with_cpu(base, n) for n in range(64)})
        return kind, "64 copies of a stream of 8 events, each with its CPU"
    count = 1 if kind.startswith("one") else 24
    a.copy(out)
    for cpu in range(4, 4 + count):
        p = huge_packet(a, cpu, 60 * MIB * 8)
        write_parts(os.path.join(out, f"stream_{cpu}"), [p, 60 * MIB - len(p)])
    return kind, (f"stream_4..stream_{3 + count}: " if count > 1 else "stream_4: ") + \
        "one packet declaring 60 MiB in a sparse file of 60 MiB (a hole after its header)"


MUTATIONS = {"truncate": mut_truncate, "reorder": mut_reorder, "sizes": mut_sizes,
             "chunks": mut_chunks, "metadata": mut_metadata, "streams": mut_streams}


# --- judging what the readers did ---

def accepted(res):
    return res[0] == 0


def rejected(res):
    return isinstance(res[0], int) and res[0] != 0


def out_of_memory(res):
    """It said it ran out of memory, or it filled 3/4 of its bound: then
    an allocation failed, and it may have said something else first (the
    first stream's problem)."""
    if res[2] * 1024 >= MEMORY_LIMIT * 3 // 4:
        return True
    return res[0] != 0 and any(re.search(r"out of memory|cannot allocate memory|bad_alloc",
                                         line, re.I) for line in res[1])


def error_lines(res):
    return [line for line in res[1] if not NOTE.search(line)]


def has_sentence(line):
    """Three words or more once the program, path and offset are taken off."""
    text = re.sub(r"^coretrace[\w ]*: ", "", line)
    text = re.sub(r"^\S+: offset \d+: ", "", text)
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text)]
    return len(words) >= 3


VERB = {"crash": "crashes", "hang": "hangs"}


def judge(variant, bt, ct):
    """(failures, notes) for one mutant."""
    fails, notes = [], []
    if ct[0] in ("crash", "hang"):
        fails.append(f"coretrace {VERB[ct[0]]}: {ct[1][0]}")
    elif out_of_memory(ct):
        fails.append(f"coretrace runs out of memory: {ct[2] >> 10} MiB resident under a "
                     f"bound of {MEMORY_LIMIT >> 20} MiB of address space")
    elif accepted(ct) and rejected(bt):
        if variant in LEGIT:
            notes.append(f"coretrace accepts, babeltrace2 rejects, not failed: {LEGIT[variant]}")
        else:
            fails.append("coretrace accepts what babeltrace2 rejects (a silent misread)")
    if rejected(ct) and not out_of_memory(ct):
        errs = error_lines(ct)
        if len(errs) > 1:
            fails.append(f"coretrace says {len(errs)} lines of error: {' | '.join(errs[:3])}")
        elif not errs or not has_sentence(errs[0]):
            fails.append(f"coretrace's rejection has no sentence: {errs[0] if errs else '(nothing)'}")
    if bt[0] in ("crash", "hang"):
        notes.append(f"babeltrace2 {VERB[bt[0]]}: {bt[1][0]}")
    if rejected(ct) and accepted(bt):
        notes.append("coretrace rejects, babeltrace2 accepts")
    return fails, notes


def bt2_reason(bt):
    """babeltrace2's first logged error, or its innermost cause, in one line."""
    for line in bt[1]:
        m = re.match(r"\d\d-\d\d [\d:.]+ +\d+ +\d+ E \S+ \S+ (?:\[[^]]*\] )?(.*)", line)
        if m:
            return m.group(1)[:160]
    lines = [line.strip() for line in bt[1]]
    for k in range(len(lines) - 1, -1, -1):
        if lines[k].startswith("CAUSED BY"):
            return " ".join(lines[k + 1:k + 3])[:160]
    return (lines[-1] if lines else "")[:160]


def make(ctx, i):
    """Mutant @i in WORKDIR/hostile/m-I: (kind, variant, what, path)."""
    kind = KINDS[i % len(KINDS)]
    rng = random.Random(f"{ctx.seed}/{i}")
    path = os.path.join(ctx.work, f"m-{i}")
    shutil.rmtree(path, ignore_errors=True)
    variant, what = MUTATIONS[kind](rng, i // len(KINDS), ctx, path)
    return kind, variant, what, path


def one(ctx, i):
    kind, variant, what, path = make(ctx, i)
    bt = run(["babeltrace2", path])
    ct = run([ctx.ct, "report", "--top", "-n", "0", path], memory=True)
    fails, notes = judge(variant, bt, ct)
    kept = None
    if ctx.keep_all or (ctx.keep and (fails or accepted(bt) != accepted(ct))):
        kept = os.path.join(ctx.work, "kept", f"{i}-{kind}")
        shutil.rmtree(kept, ignore_errors=True)
        os.rename(path, kept)	# not copied: a copy fills the holes
    else:
        shutil.rmtree(path, ignore_errors=True)
    return dict(i=i, kind=kind, variant=variant, what=what, bt=bt, ct=ct,
                fails=fails, notes=notes, kept=kept)


def status(res):
    if res[0] == 0:
        return "accepts"
    if res[0] in ("crash", "hang"):
        return VERB[res[0]]
    return "OOM" if out_of_memory(res) else "rejects"


def main():
    ap = argparse.ArgumentParser(
        description="hostile captures, babeltrace2 against coretrace",
        usage="hostile.py [-n N] [-s SEED] [-k] [-i I]... MKCAPTURE CORETRACE WORKDIR")
    ap.add_argument("-n", type=int, default=300, help="mutants (default 300)")
    ap.add_argument("-s", type=int, default=29, help="seed (default 29)")
    ap.add_argument("-k", action="store_true", help="keep the mutants that disagree or fail")
    ap.add_argument("-i", type=int, action="append", help="only mutant I (kept); repeatable")
    ap.add_argument("mkcapture")
    ap.add_argument("coretrace")
    ap.add_argument("workdir")
    a = ap.parse_args()
    for tool in ("babeltrace2", "prlimit"):
        if shutil.which(tool) is None:
            print(f"hostile: {tool} is missing (tests/deps.sh installs babeltrace2;"
                  " prlimit is util-linux's)")
            return 1
    started = time.monotonic()

    class Ctx:
        pass
    ctx = Ctx()
    ctx.seed, ctx.ct = a.s, a.coretrace
    ctx.keep, ctx.keep_all = a.k, bool(a.i)
    ctx.work = os.path.join(a.workdir, "hostile")
    shutil.rmtree(ctx.work, ignore_errors=True)
    os.makedirs(os.path.join(ctx.work, "kept"))
    goods = {}
    for name, args in (("A", ["-n", "20000", "-c", "4", "-s", str(a.s)]),
                       ("B", ["-n", "20000", "-c", "4", "-s", str(a.s + 1)]),
                       ("small", ["-n", "1000", "-c", "2", "-s", str(a.s)])):
        path = os.path.join(ctx.work, "good-" + name)
        subprocess.run([a.mkcapture] + args + [path], check=True, stdout=subprocess.DEVNULL)
        bt = run(["babeltrace2", path])
        ct = run([a.coretrace, "report", "--top", "-n", "0", path], memory=True)
        if bt[0] != 0 or ct[0] != 0:
            print(f"hostile: FAIL: the good capture {name}: babeltrace2 {bt[0]} {bt2_reason(bt)}, "
                  f"coretrace {ct[0]} {' '.join(ct[1][:1])}")
            return 1
        goods[name] = Good(path)
    ctx.a, ctx.b, ctx.small = goods["A"], goods["B"], goods["small"]
    ctx.classes = event_fields(ctx.a.meta)
    ctx.cuts = truncations(ctx.a)
    random.Random(a.s).shuffle(ctx.cuts)

    which = a.i if a.i else range(a.n)
    with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        results = list(pool.map(lambda i: one(ctx, i), which))

    again = (f"tests/host/hostile.py -s {a.s} -i {{i}} {a.mkcapture} {a.coretrace} "
             f"{os.path.join(a.workdir, 'again')}")
    bad = 0
    for r in results:
        if not r["fails"]:
            continue
        bad += 1
        for f in r["fails"]:
            print(f"hostile: FAIL: mutant {r['i']} ({r['kind']}: {r['variant']}): {f}")
        print(f"  what: {r['what']}")
        print(f"  babeltrace2 {status(r['bt'])}: {bt2_reason(r['bt'])}")
        print(f"  coretrace {status(r['ct'])}, max RSS {r['ct'][2] >> 10} MiB: "
              f"{' | '.join(r['ct'][1][:2])}")
        print(f"  again: {again.format(i=r['i'])}")
        if r["kept"]:
            print(f"         prlimit --as={MEMORY_LIMIT} {a.coretrace} report --top -n 0 {r['kept']}")

    # the readers' disagreements that are not failures, once per variant
    seen = {}
    for r in results:
        for n in r["notes"]:
            seen.setdefault((r["kind"], r["variant"], n), []).append(r)
    if seen:
        print("hostile: disagreements and notes (not failed), per mutation:")
    for (kind, variant, note), rs in sorted(seen.items()):
        r = rs[0]
        print(f"  {kind}: {variant}: {note}: {len(rs)} mutant(s), e.g. {r['i']}")
        if note.startswith("coretrace rejects"):
            print(f"    coretrace: {error_lines(r['ct'])[0] if error_lines(r['ct']) else ''}")
        elif note.startswith("coretrace accepts"):
            print(f"    babeltrace2: {bt2_reason(r['bt'])}")
    shown = set()
    for r in results:	# notes coretrace adds to a rejection
        extra = [line for line in r["ct"][1] if NOTE.search(line)]
        if rejected(r["ct"]) and extra and r["variant"] not in shown:
            shown.add(r["variant"])
            print(f"  {r['kind']}: {r['variant']}: coretrace's rejection also says: {extra[0]}")

    excused = sorted({r["variant"] for r in results if accepted(r["ct"]) and rejected(r["bt"])
                      and r["variant"] in LEGIT})
    print("hostile: babeltrace2 rejections excused (coretrace reads them differently on "
          f"purpose): {', '.join(f'{v} ({LEGIT[v]})' for v in excused) or 'none'}")
    print(f"hostile: {len(results)} mutants, seed {a.s}; per kind and mutation: "
          "mutants, rejected by babeltrace2, by coretrace, failed, coretrace's max RSS")
    for kind in KINDS:
        rs = [r for r in results if r["kind"] == kind]
        if not rs:
            continue
        row = lambda rs: (f"{len(rs):4} {sum(not accepted(r['bt']) for r in rs):5} "
                          f"{sum(not accepted(r['ct']) for r in rs):5} "
                          f"{sum(bool(r['fails']) for r in rs):4} "
                          f"{max(r['ct'][2] for r in rs) >> 10:5} MiB")
        print(f"  {kind:9} {'(all)':48} {row(rs)}")
        for variant in sorted({r["variant"] for r in rs}):
            print(f"    {variant[:55]:55} {row([r for r in rs if r['variant'] == variant])}")
        sample = next((r for r in rs if rejected(r["ct"]) and error_lines(r["ct"])), None)
        if sample:
            print(f"    e.g. mutant {sample['i']}: {error_lines(sample['ct'])[0][:150]}")
    print(f"hostile: {time.monotonic() - started:.0f} s")
    print(f"hostile: {len(results) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
