// Reads a zip archive as it downloads (fflate's streaming Unzip), each file handed over whole.
// Deflated entries are inflated by Node's native zlib (several times faster than a JavaScript
// inflate), one entry at a time, so memory holds one file, not the archive.
import { inflateRawSync } from 'node:zlib';

import { Unzip, UnzipPassThrough, type AsyncFlateStreamHandler, type UnzipDecoder } from 'fflate';

/** Deflate (zip method 8) through node:zlib: the entry's compressed chunks, inflated at its end. */
class NativeInflate implements UnzipDecoder {
  static readonly compression = 8;
  ondata: AsyncFlateStreamHandler = () => undefined;
  private chunks: Uint8Array[] = [];

  push(chunk: Uint8Array, final: boolean): void {
    // fflate may reuse the chunk's buffer: keep a copy
    this.chunks.push(chunk.slice());
    if (!final) return;
    const compressed = Buffer.concat(this.chunks);
    this.chunks = [];
    try {
      this.ondata(null, new Uint8Array(inflateRawSync(compressed)), true);
    } catch (error) {
      this.ondata(
        Object.assign(new Error((error as Error).message), { code: 0 }),
        new Uint8Array(0),
        true,
      );
    }
  }
}

/** A file of the archive: its name as stored and its bytes. */
export type ZipEntryHandler = (name: string, bytes: Uint8Array) => void | Promise<void>;

/**
 * Feeds `chunks` through a streaming unzip and calls `onEntry` for each file (folders skipped) in
 * archive order, awaiting it before reading on (so a slow consumer slows the download instead of
 * piling files up in memory). Entries `wanted` refuses are skipped without being inflated.
 */
export async function readZipStream(
  chunks: AsyncIterable<Uint8Array>,
  onEntry: ZipEntryHandler,
  wanted: (name: string) => boolean = () => true,
): Promise<void> {
  const ready: { name: string; bytes: Uint8Array }[] = [];
  let failure: Error | undefined;
  const unzip = new Unzip((file) => {
    if (file.name.endsWith('/') || !wanted(file.name)) return;
    const parts: Uint8Array[] = [];
    file.ondata = (error, data, final) => {
      if (error) {
        failure ??= new Error(`${file.name}: ${error.message}`);
        return;
      }
      if (data.length > 0) parts.push(data);
      if (final) {
        ready.push({
          name: file.name,
          bytes: parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts),
        });
      }
    };
    file.start();
  });
  unzip.register(UnzipPassThrough);
  unzip.register(NativeInflate);
  const drain = async () => {
    if (failure) throw failure;
    while (ready.length > 0) {
      const entry = ready.shift() as { name: string; bytes: Uint8Array };
      await onEntry(entry.name, entry.bytes);
    }
  };
  for await (const chunk of chunks) {
    unzip.push(chunk, false);
    await drain();
  }
  unzip.push(new Uint8Array(0), true);
  await drain();
}
