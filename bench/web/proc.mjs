// What a process tree costs, read from /proc: used by load.mjs (for the service under load) and
// context_cost.mjs (for a bare Chromium).
import fs from 'node:fs';

/// Every pid whose ancestry reaches `root` (root included), read from /proc/<pid>/stat.
export function tree(root) {
  const parent = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces; fields after the last ')' are fixed.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch { /* the process ended meanwhile */ }
  }
  const out = [];
  for (const pid of parent.keys()) {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p), ++hops) {
      if (p === root) { out.push(pid); break; }
    }
  }
  return out;
}

/// Sum of Pss over the tree under `root`, in kB.
export function pssKb(root) {
  let sum = 0;
  for (const pid of tree(root)) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) sum += Number(m[1]);
    } catch { /* ended meanwhile */ }
  }
  return sum;
}

const TICKS_PER_SECOND = 100;  // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

/// The kind of a process for the CPU breakdown: Chromium's --type, else Chromium's browser
/// process or the service itself.
function kindOf(pid) {
  const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  const type = /--type=([\w-]+)/.exec(args);
  if (type) return type[1] === 'gpu-process' ? 'gpu' : type[1];
  return /chrom/.test(args.split(' ')[0]) ? 'browser' : 'service';
}

/// CPU time of a process tree since start(), by kind. Call sample() often (every 200 ms): a
/// process that ends between samples (a renderer of a disposed context) counts up to its last
/// sample, and one that lives less than an interval is missed.
export class CpuMeter {
  constructor(root) { this.root = root; this.seen = new Map(); this.started = false; }
  start() { this.sample(); this.started = true; }
  sample() {
    for (const pid of tree(this.root)) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ticks = Number(fields[11]) + Number(fields[12]);  // utime + stime
        const known = this.seen.get(pid);
        if (known) known.last = ticks;
        // What a process alive at start() had spent before is not the run's.
        else this.seen.set(pid, { kind: kindOf(pid), first: this.started ? 0 : ticks, last: ticks });
      } catch { /* ended meanwhile */ }
    }
  }
  /// Milliseconds by kind, each divided by `per` (e.g. the number of requests), rounded.
  msBy(per = 1) {
    const out = {};
    for (const { kind, first, last } of this.seen.values()) {
      out[kind] = (out[kind] || 0) + ((last - first) * 1000) / TICKS_PER_SECOND / per;
    }
    for (const kind of Object.keys(out)) out[kind] = Math.round(out[kind]);
    return out;
  }
}
