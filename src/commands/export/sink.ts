// Where an export's bytes go: stdout as they come, or a file that appears under its name only
// once complete (written as `<out>.partial`, synced, then renamed).
import { rmSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { stopBeforeExit } from '../../platform/interrupt.js';
import { UsageError } from '../../errors.js';
import { writeOut } from '../../output/write.js';
import { durableRename } from './durable.js';
import { localReason, onFileAsync, type Leftovers } from './failure.js';

export interface Sink {
  write(chunk: string | Uint8Array): Promise<void>;
}

/** Gathered into writes of about this size: one system call per megabyte, not per page. */
const WRITE_BYTES = 1024 * 1024;

export class PartialFile implements Sink {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Ctrl-C or SIGTERM exits without unwinding: the partial file is removed on the way out. */
  private readonly forgetOnExit: () => void;

  private constructor(
    readonly out: string,
    readonly partial: string,
    private readonly handle: FileHandle,
  ) {
    this.forgetOnExit = stopBeforeExit(() => rmSync(partial, { force: true }));
  }

  /** Opens `<out>.partial` afresh (what a stopped run left there is replaced). */
  static async open(out: string): Promise<PartialFile> {
    const partial = `${out}.partial`;
    try {
      const directory = await stat(out).catch(() => undefined);
      if (directory?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      return new PartialFile(out, partial, await open(partial, 'w'));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      if (code === 'EISDIR') throw new UsageError(`--out: cannot write ${out} (it is a directory)`);
      // A full disk, a read-only one, no permission: the file it tried, in the system's words.
      const reason = localReason(err);
      if (reason !== undefined && reason !== code) throw new UsageError(`--out: cannot write ${partial} (${reason}); nothing was read or written`);
      throw new UsageError(`--out: cannot write ${out} (${code})`);
    }
  }

  async write(chunk: string | Uint8Array): Promise<void> {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (bytes.length === 0) return;
    // A Uint8Array may be a view of a buffer its writer reuses: copied when held.
    this.pending.push(typeof chunk === 'string' ? bytes : Buffer.from(bytes));
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= WRITE_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (chunks.length === 0) return;
    const bytes = Buffer.concat(chunks);
    // A write may take less than it was given; what is left is written next.
    await onFileAsync(this.partial, async () => {
      for (let at = 0; at < bytes.length; ) at += (await this.handle.write(bytes, at)).bytesWritten;
    });
  }

  /** Everything written and on the disk; the file's identity, for the state to name it by. */
  async finish(): Promise<{ ino: number; size: number }> {
    await this.flush();
    return onFileAsync(this.partial, async () => {
      await this.handle.sync();
      const { ino, size } = await this.handle.stat();
      await this.handle.close();
      return { ino, size };
    });
  }

  /** The complete file takes its name (a failure is a FileStepError naming the partial file). */
  commit(): void {
    this.forgetOnExit();
    durableRename(this.partial, this.out);
  }

  /**
   * A run that fails removes its partial file, as does Ctrl-C (a run killed outright cannot: it
   * leaves it, and the next run replaces it).
   */
  async abandon(leftovers: Leftovers): Promise<void> {
    this.forgetOnExit();
    await this.handle.close().catch(() => undefined);
    leftovers.remove(this.partial);
  }
}

export function streamSink(out: NodeJS.WritableStream): Sink {
  return { write: (chunk) => writeOut(out, chunk) };
}
