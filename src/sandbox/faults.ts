// Failures on purpose, for testing clients and for rehearsing a batch: `sandbox serve --faults`
// makes a share of requests fail the ways real networks and services do, before or after the
// change is applied, so that a client's "did it happen?" logic is exercised for real.
//
//   500-before=0.05,500-after=0.05,reset-before=0.05,reset-after=0.05,429=0.05,slow=0.02,late-apply=0.05
//
// and three settings: retry-after=<seconds> (429's Retry-After, default 1), slow-ms=<ms> (how long
// a slow request waits before it is served, default 35000: beyond the client's 30 s timeout) and
// late-ms=<ms> (default 5000). `late-apply` is the request stuck in a queue: a request that
// changes something (POST, PUT, DELETE) gets no answer, its connection is dropped at once, and it
// is applied late-ms later; reads are answered at once, so a client that looks right after giving
// up sees nothing yet.

const KINDS = ['500-before', '500-after', 'reset-before', 'reset-after', '429', 'slow', 'late-apply'] as const;
type FaultKind = (typeof KINDS)[number];

export interface FaultPlan {
  rates: Array<[FaultKind, number]>;
  retryAfterSeconds: number;
  slowMs: number;
  lateMs: number;
}

export class FaultSpecError extends Error {}

export function parseFaults(spec: string): FaultPlan {
  const plan: FaultPlan = { rates: [], retryAfterSeconds: 1, slowMs: 35_000, lateMs: 5_000 };
  let total = 0;
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, raw] = part.split('=');
    const value = Number(raw);
    if (raw === undefined || raw.trim() === '' || !Number.isFinite(value) || value < 0) throw new FaultSpecError(`"${part}" needs a number: name=value`);
    if (name === 'retry-after') plan.retryAfterSeconds = Math.round(value);
    else if (name === 'slow-ms') plan.slowMs = Math.round(value);
    else if (name === 'late-ms') plan.lateMs = Math.round(value);
    else if ((KINDS as readonly string[]).includes(name ?? '')) {
      if (value > 1) throw new FaultSpecError(`${name}=${raw}: a rate is from 0 to 1`);
      plan.rates.push([name as FaultKind, value]);
      total += value;
    } else throw new FaultSpecError(`unknown fault "${name}"; use ${KINDS.join(', ')}, retry-after, slow-ms or late-ms`);
  }
  if (total > 1) throw new FaultSpecError(`the rates add up to ${total.toFixed(2)}, more than 1`);
  return plan;
}

/** Which fault, if any, this request gets. */
export function drawFault(plan: FaultPlan, random: () => number = Math.random): FaultKind | undefined {
  let roll = random();
  for (const [kind, rate] of plan.rates) {
    if (roll < rate) return kind;
    roll -= rate;
  }
  return undefined;
}
