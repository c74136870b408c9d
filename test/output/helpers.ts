import { Writable } from 'node:stream';
import type { Column, OutputFormat, RenderOptions } from '../../src/output/render-options.js';

/** A stdout stand-in that keeps everything written to it. */
export class Collector extends Writable {
  chunks: string[] = [];
  constructor(options: { highWaterMark?: number; delayMs?: number } = {}) {
    super({
      highWaterMark: options.highWaterMark ?? 16 * 1024,
      decodeStrings: false,
      write: (chunk: unknown, _encoding, callback) => {
        this.chunks.push(String(chunk));
        if (options.delayMs) setTimeout(callback, options.delayMs);
        else callback();
      },
    });
  }
  get text(): string {
    return this.chunks.join('');
  }
}

export async function* pagesOf(...pages: unknown[][]): AsyncIterable<unknown[]> {
  for (const page of pages) {
    await new Promise((resolve) => setImmediate(resolve));
    yield page;
  }
}

export function options(format: OutputFormat, out: NodeJS.WritableStream, extra: Partial<RenderOptions> = {}): RenderOptions {
  return { format, out, color: false, ...extra };
}

export const TRANSACTION_COLUMNS: Column[] = [
  { key: 'id', header: 'ID' },
  { key: 'status', header: 'STATUS', kind: 'status' },
  { key: 'amount', header: 'AMOUNT', kind: 'money' },
  { key: 'payment_type', header: 'TYPE' },
  { key: 'created_at', header: 'CREATED', kind: 'date' },
];

export function transaction(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: `tx_${n}`,
    status: 'succeeded',
    amount: '1234.56',
    currency: 'BRL',
    payment_type: 'credit',
    description: `Pedido ${n}`,
    created_at: '2026-03-01T12:34:56+00:00',
    payment_method: { card_brand: 'Visa', last4_digits: '1111', holder_name: 'Maria Silva' },
    history: [
      { id: `h${n}a`, amount: '1234.56', status: 'succeeded' },
      { id: `h${n}b`, amount: '10.00', status: 'refunded' },
    ],
    metadata: {},
    ...extra,
  };
}

/** Strips ANSI colour codes. */
export function plain(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, '');
}
