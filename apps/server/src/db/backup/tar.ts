// The backup file is a gzip-compressed tar (POSIX ustar), so that `tar -xzf` opens it without the
// product. Only what backups need: regular files with short relative names, written and read whole.

const BLOCK = 512;

export interface TarEntry {
  /** Relative path with `/` separators, at most 100 bytes. */
  name: string;
  data: Uint8Array;
  /** Modification time; default now. */
  mtime?: Date;
}

export class TarFormatError extends Error {}

function octal(value: number, width: number): string {
  // width - 1 digits and a NUL, as ustar expects.
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(entry: TarEntry): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  if (name.length === 0 || name.length > 100)
    throw new TarFormatError(`file name too long for the archive: ${entry.name}`);
  const block = Buffer.alloc(BLOCK);
  name.copy(block, 0);
  block.write(octal(0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(entry.data.length, 12), 124, 'ascii');
  block.write(octal(Math.floor((entry.mtime ?? new Date()).getTime() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** The archive as a sequence of chunks (header, data, padding …, end marker): nothing is copied twice. */
export function* tarChunks(entries: Iterable<TarEntry>): Generator<Uint8Array> {
  for (const entry of entries) {
    yield header(entry);
    if (entry.data.length > 0) yield entry.data;
    const padding = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (padding > 0) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(BLOCK * 2);
}

function readOctal(block: Buffer, offset: number, width: number): number {
  const text = block
    .subarray(offset, offset + width)
    .toString('ascii')
    .replace(/[\0 ]+$/, '')
    .trim();
  if (!/^[0-7]+$/.test(text)) throw new TarFormatError('damaged archive: a header field is not a number');
  return parseInt(text, 8);
}

/** Every regular file of a ustar archive held in memory. Refuses damaged headers and truncated data. */
export function readTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  for (;;) {
    if (offset + BLOCK > archive.length) throw new TarFormatError('truncated archive: its end marker is missing');
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) return entries;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
    if (sum !== readOctal(block, 148, 8)) throw new TarFormatError('damaged archive: a header checksum does not match');
    const size = readOctal(block, 124, 12);
    const nameEnd = block.indexOf(0, 0);
    const name = block.subarray(0, nameEnd === -1 || nameEnd > 100 ? 100 : nameEnd).toString('utf8');
    const prefixEnd = block.indexOf(0, 345);
    const prefix =
      block.subarray(257, 262).toString('ascii') === 'ustar'
        ? block.subarray(345, prefixEnd === -1 || prefixEnd > 500 ? 500 : prefixEnd).toString('utf8')
        : '';
    const type = String.fromCharCode(block[156] ?? 0);
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new TarFormatError(`truncated archive: ${name} is cut short`);
    if (type === '0' || type === '\0') {
      entries.push({
        name: prefix ? `${prefix}/${name}` : name,
        data: archive.subarray(start, start + size),
        mtime: new Date(readOctal(block, 136, 12) * 1000),
      });
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
}
