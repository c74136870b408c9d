// Bounds on what payctl takes from the service: an answer's size (read as a stream, stopped once it
// passes the limit), its nesting depth (scanned before JSON.parse), and how many items one command
// reads from lists (the first part of the bound in read-bound.ts). Unbounded, a hostile or
// broken service took payctl to 2 GB with a 500 MB answer, and to 577 MB with an array nested
// 5 million deep (10 MB of text, which JSON.parse turns into 5 million arrays).
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';

const MB = 1024 * 1024;

/** The largest answer read, unless PAYCTL_MAX_ANSWER_MB says otherwise: real pages are well under 1 MB. */
export const DEFAULT_MAX_ANSWER_MB = 32;
/** The most PAYCTL_MAX_ANSWER_MB may say: an answer is held as one string, which V8 caps at about 512 MB. */
const MAX_ANSWER_MB_CAP = 500;
/** The deepest an answer may nest (arrays and objects): real answers nest a handful of levels. */
export const MAX_ANSWER_DEPTH = 256;

/** The answer size limit in bytes, from PAYCTL_MAX_ANSWER_MB (megabytes; unset or empty: 32). */
export function maxAnswerBytesFrom(env: NodeJS.ProcessEnv): number {
  const value = env.PAYCTL_MAX_ANSWER_MB;
  if (!value) return DEFAULT_MAX_ANSWER_MB * MB;
  const mb = Number(value);
  if (value.trim() === '' || !Number.isFinite(mb) || mb <= 0 || mb > MAX_ANSWER_MB_CAP) {
    throw new UsageError(
      `PAYCTL_MAX_ANSWER_MB: give megabytes, more than 0 and at most ${MAX_ANSWER_MB_CAP} (the largest answer payctl reads from the service; default ${DEFAULT_MAX_ANSWER_MB})`,
    );
  }
  return Math.max(1, Math.floor(mb * MB));
}

/**
 * The most items one command reads, unless PAYCTL_MAX_LIST_ITEMS says otherwise. Ten million: a
 * month at a million sales is about four million reads for `reconcile`, which reads each receivable
 * paid out twice (in its transfer and in its seller's list); a first export of a longer history
 * takes the variable.
 */
export const DEFAULT_MAX_LIST_ITEMS = 10_000_000;

/** The item bound of one command's reads, from PAYCTL_MAX_LIST_ITEMS (a whole number; unset or empty: ten million). */
export function maxListItemsFrom(env: NodeJS.ProcessEnv): number {
  const value = env.PAYCTL_MAX_LIST_ITEMS;
  if (!value) return DEFAULT_MAX_LIST_ITEMS;
  const items = Number(value.trim());
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(items) || items < 1) {
    throw new UsageError(
      `PAYCTL_MAX_LIST_ITEMS: give a whole number of items, at least 1 (the most items one command reads from the service's lists; default ${DEFAULT_MAX_LIST_ITEMS})`,
    );
  }
  return items;
}

/** "32", "1.5", "0.25": a size in megabytes as a person would write it. */
export function formatMb(bytes: number): string {
  const mb = bytes / MB;
  return String(mb >= 1 ? Math.round(mb * 100) / 100 : Number(mb.toPrecision(2)));
}

/** An answer past the size limit; its message completes "the service's answer to GET … ". */
export class AnswerTooLargeError extends Error {
  readonly code = 'PAYCTL_ANSWER_TOO_LARGE';
}

/**
 * An answer's body as text (UTF-8, a leading BOM skipped, as undici's body.text() does), read as
 * it arrives. Past `maxBytes` the body is destroyed (which closes the connection) and
 * AnswerTooLargeError thrown: no more than the limit is ever held. A Content-Length above the
 * limit is refused before anything is read.
 */
export function readBoundedText(body: Readable, contentLength: string | undefined, maxBytes: number): Promise<string> {
  const limit = `larger than ${formatMb(maxBytes)} MB (PAYCTL_MAX_ANSWER_MB)`;
  const declared = contentLength !== undefined && /^\s*\d+\s*$/.test(contentLength) ? Number(contentLength) : undefined;
  if (declared !== undefined && declared > maxBytes) {
    body.destroy();
    return Promise.reject(new AnswerTooLargeError(`is ${limit}: its Content-Length says ${formatMb(declared)} MB; not read`));
  }
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      body.off('data', onData);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > maxBytes) {
        chunks.length = 0;
        settle(() => reject(new AnswerTooLargeError(`is ${limit}; stopped reading it`)));
        body.destroy();
        return;
      }
      chunks.push(chunk);
    };
    body.on('data', onData);
    body.once('error', (err) => settle(() => reject(err)));
    body.once('end', () => settle(() => resolve(decode(chunks, length))));
    // Closed with neither an end nor an error: destroyed from outside, so the answer is incomplete.
    body.once('close', () => settle(() => reject(Object.assign(new Error('the answer was cut off'), { code: 'UND_ERR_ABORTED' }))));
  });
}

function decode(chunks: Buffer[], length: number): string {
  if (length === 0) return '';
  const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
  const start = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  return buffer.toString('utf8', start);
}

/**
 * Whether JSON text nests deeper than `limit`: `[` and `{` outside strings (escapes honoured), a
 * scan without allocation that stops at the first level past the limit. Strings are skipped with
 * indexOf, so a page of long values costs little more than finding its quotes. Text that is not
 * JSON gets an answer too, which does not matter: JSON.parse refuses it anyway.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // The closing quote: the next one preceded by an even number of backslashes.
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end === -1) return false; // an unterminated string: not JSON
        let slash = end - 1;
        while (text.charCodeAt(slash) === 0x5c) slash--;
        if ((end - 1 - slash) % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) {
      depth--;
    }
  }
  return false;
}
