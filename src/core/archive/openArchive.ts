import { inflateSync } from 'fflate'
import { toBytes } from '../bytes.js'
import { MD2Error, type MD2ErrorCode } from '../MD2Error.js'

/** One file in an archive. */
export interface MD2ArchiveEntry {
  /** The path as stored (`players/ogro/tris.md2`), `/`-separated. */
  name: string
  /** Bytes once read (uncompressed). */
  size: number
}

/**
 * A Quake II `.pak`, a `.pk3`/`.zip` or a set of loose files, read lazily: opening reads the directory
 * only, `read` takes out one file. Names are looked up case-insensitively with `\` or `/`, as the engines
 * look them up.
 */
export interface MD2ArchiveFiles {
  readonly kind: 'pak' | 'zip' | 'files'
  readonly entries: readonly MD2ArchiveEntry[]
  /** The entry stored under `name` (any case, either slash), or undefined. */
  find(name: string): MD2ArchiveEntry | undefined
  /** The bytes of `name` (any case, either slash), or undefined when the archive has no such file. */
  read(name: string): Uint8Array | undefined
}

/** An archive read by byte ranges (a server answering HTTP range requests): the same, with reads that wait. */
export interface MD2RangeArchive extends Omit<MD2ArchiveFiles, 'read'> {
  read(name: string): Promise<Uint8Array | undefined>
}

/** Where a range-read archive's bytes come from. */
export interface ArchiveByteSource {
  /** The archive's size in bytes. */
  size: number
  /** `length` bytes at `offset` (inside the archive). */
  read(offset: number, length: number): Promise<Uint8Array>
  /** For messages. */
  name?: string
}

const PACK_IDENT = 0x4b434150 // "PACK"
const PACK_HEADER_SIZE = 12
/** Each directory entry: a 56-byte NUL-padded name, then the file's offset and length (int32). */
const PACK_ENTRY_SIZE = 64
const PACK_NAME_SIZE = 56
const ZIP_LOCAL_HEADER = 0x04034b50
const ZIP_LOCAL_HEADER_SIZE = 30
const ZIP_CENTRAL_HEADER = 0x02014b50
const ZIP_CENTRAL_HEADER_SIZE = 46
const ZIP_END_OF_DIRECTORY = 0x06054b50
const ZIP_END_SIZE = 22
/** The end record sits in the last 22 bytes plus a comment of at most 65,535. */
export const ZIP_TAIL_SIZE = ZIP_END_SIZE + 0xffff
/** Deflate cannot expand data more than about 1032:1, so a larger declared size is a lie. */
const MAX_DEFLATE_RATIO = 1032

/** Where a stored file lies and how it is packed. */
interface StoredEntry extends MD2ArchiveEntry {
  /** PACK: the data. Zip: the local header. */
  offset: number
  compressedSize: number
  /** 0 stored, 8 deflated (zip); PACK stores everything. */
  method: number
  crc: number
  encrypted: boolean
}

/** How many bytes to read at the start of an archive to tell its kind and, for PACK, find the directory. */
export const ARCHIVE_HEAD_SIZE = PACK_HEADER_SIZE

/** In every runtime the core runs in (Node, browsers, workers), though not in the core's ES-only lib. */
declare const TextDecoder: new () => { decode(bytes: Uint8Array): string }

type Fail = (code: MD2ErrorCode, message: string, offset?: number) => never

function failer(section: string, file: string | undefined): Fail {
  return (code, message, offset) => {
    throw new MD2Error(code, message, { section, offset, file })
  }
}

function magicOf(bytes: Uint8Array): number {
  return bytes.length >= 4 ? new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) : 0
}

/** Opens a `.pak` (id's PACK) or a `.pk3`/`.zip`, told apart by their first bytes. */
export function openArchive(data: ArrayBuffer | Uint8Array, options: { name?: string } = {}): MD2ArchiveFiles {
  const bytes = toBytes(data, options.name)
  const magic = magicOf(bytes)
  if (magic === PACK_IDENT) return openPak(bytes, options)
  if (magic === ZIP_LOCAL_HEADER || magic === ZIP_END_OF_DIRECTORY) return openZip(bytes, options.name)
  throw new MD2Error('BAD_MAGIC', 'not an archive (neither "PACK" nor a zip file)', { section: 'archive', offset: 0, file: options.name })
}

/**
 * Reads id's PACK directory strictly: the directory and every entry must lie inside the file, names must
 * be NUL-terminated within their 56 bytes; a coded `MD2Error` otherwise. Nothing but the directory is read.
 */
export function openPak(data: ArrayBuffer | Uint8Array, options: { name?: string } = {}): MD2ArchiveFiles {
  const bytes = toBytes(data, options.name)
  const { offset, length } = pakDirectory(bytes, bytes.length, options.name)
  const entries = pakEntries(bytes.subarray(offset, offset + length), offset, bytes.length, options.name)
  return syncArchive('pak', entries, (entry) => bytes.subarray(entry.offset, entry.offset + entry.size))
}

/** A zip's central directory; one entry inflated (and its CRC checked) per `read`. */
function openZip(bytes: Uint8Array, file: string | undefined): MD2ArchiveFiles {
  const tailStart = Math.max(0, bytes.length - ZIP_TAIL_SIZE)
  const end = zipEnd(bytes.subarray(tailStart), tailStart, bytes.length, file)
  const entries = zipEntries(bytes.subarray(end.offset, end.offset + end.size), end, bytes.length, file)
  return syncArchive('zip', entries, (entry) => {
    const header = bytes.subarray(entry.offset, entry.offset + ZIP_LOCAL_HEADER_SIZE)
    const start = zipDataStart(header, entry, bytes.length, file)
    return zipEntryBytes(bytes.subarray(start, start + entry.compressedSize), entry, file)
  })
}

/**
 * Opens an archive whose bytes are read by ranges: the head, then the directory (PACK) or the end record
 * and central directory (zip); each `read` then fetches one entry. The same checks as `openArchive`.
 */
export async function openArchiveByRanges(source: ArchiveByteSource): Promise<MD2RangeArchive> {
  const { size, name: file } = source
  const head = await source.read(0, Math.min(size, ARCHIVE_HEAD_SIZE))
  const magic = magicOf(head)
  if (magic === PACK_IDENT) {
    const { offset, length } = pakDirectory(head, size, file)
    const entries = pakEntries(await source.read(offset, length), offset, size, file)
    return rangeArchive('pak', entries, (entry) => source.read(entry.offset, entry.size))
  }
  if (magic === ZIP_LOCAL_HEADER || magic === ZIP_END_OF_DIRECTORY) {
    const tailStart = Math.max(0, size - ZIP_TAIL_SIZE)
    const end = zipEnd(await source.read(tailStart, size - tailStart), tailStart, size, file)
    const entries = zipEntries(await source.read(end.offset, end.size), end, size, file)
    return rangeArchive('zip', entries, async (entry) => {
      // One request for the local header, the name and the data; a second only if its extra field is long.
      const guess = Math.min(size - entry.offset, ZIP_LOCAL_HEADER_SIZE + entry.name.length * 4 + 256 + entry.compressedSize)
      const chunk = await source.read(entry.offset, guess)
      const start = zipDataStart(chunk.subarray(0, ZIP_LOCAL_HEADER_SIZE), entry, size, file)
      const within = start - entry.offset
      const data =
        within + entry.compressedSize <= chunk.length
          ? chunk.subarray(within, within + entry.compressedSize)
          : await source.read(start, entry.compressedSize)
      return zipEntryBytes(data, entry, file)
    })
  }
  throw new MD2Error('BAD_MAGIC', 'not an archive (neither "PACK" nor a zip file)', { section: 'archive', offset: 0, file })
}

/** Loose files (a dropped folder) as an archive: the same case-insensitive lookup. */
export function archiveOfFiles(files: Iterable<readonly [string, Uint8Array]>): MD2ArchiveFiles {
  const stored = new Map<string, Uint8Array>()
  const entries: StoredEntry[] = []
  for (const [name, bytes] of files) {
    const clean = slashPath(name)
    stored.set(clean, bytes)
    entries.push({ name: clean, size: bytes.length, offset: 0, compressedSize: bytes.length, method: 0, crc: 0, encrypted: false })
  }
  return { ...syncArchive('pak', entries, (entry) => stored.get(entry.name)!), kind: 'files' }
}

// PACK

function pakDirectory(head: Uint8Array, size: number, file: string | undefined): { offset: number; length: number } {
  const fail = failer('pak', file)
  if (size < PACK_HEADER_SIZE || head.length < PACK_HEADER_SIZE)
    fail('TRUNCATED', `file is ${size} bytes, the header alone needs ${PACK_HEADER_SIZE}`, 0)
  const view = new DataView(head.buffer, head.byteOffset, PACK_HEADER_SIZE)
  if (view.getUint32(0, true) !== PACK_IDENT) fail('BAD_MAGIC', 'not a PACK file (the first four bytes are not "PACK")', 0)
  const offset = view.getInt32(4, true)
  const length = view.getInt32(8, true)
  if (offset < PACK_HEADER_SIZE || length < 0 || length % PACK_ENTRY_SIZE !== 0)
    fail(
      'OUT_OF_RANGE',
      `directory at ${offset}, ${length} bytes, is not a whole number of ${PACK_ENTRY_SIZE}-byte entries after the header`,
      4,
    )
  if (offset + length > size) fail('TRUNCATED', `directory ends at ${offset + length}, past the end of the data (${size} bytes)`, 4)
  return { offset, length }
}

function pakEntries(directory: Uint8Array, directoryOffset: number, size: number, file: string | undefined): StoredEntry[] {
  const fail = failer('pak', file)
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength)
  const entries: StoredEntry[] = []
  for (let at = 0; at + PACK_ENTRY_SIZE <= directory.length; at += PACK_ENTRY_SIZE) {
    const end = directory.indexOf(0, at)
    if (end < 0 || end >= at + PACK_NAME_SIZE)
      fail('OUT_OF_RANGE', `entry name has no NUL within its ${PACK_NAME_SIZE} bytes`, directoryOffset + at)
    const name = String.fromCharCode(...directory.subarray(at, end))
    const offset = view.getInt32(at + PACK_NAME_SIZE, true)
    const length = view.getInt32(at + PACK_NAME_SIZE + 4, true)
    if (offset < 0 || length < 0 || offset + length > size)
      fail(
        'OUT_OF_RANGE',
        `"${name}" at ${offset}, ${length} bytes, lies outside the file (${size} bytes)`,
        directoryOffset + at + PACK_NAME_SIZE,
      )
    entries.push({ name, size: length, offset, compressedSize: length, method: 0, crc: 0, encrypted: false })
  }
  return entries
}

// Zip

interface ZipEnd {
  /** Of the central directory. */
  offset: number
  size: number
  count: number
}

/** The end-of-central-directory record, searched backwards in the archive's tail (which starts at `tailStart`). */
function zipEnd(tail: Uint8Array, tailStart: number, size: number, file: string | undefined): ZipEnd {
  const fail = failer('zip', file)
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength)
  for (let at = tail.length - ZIP_END_SIZE; at >= 0; at--) {
    if (view.getUint32(at, true) !== ZIP_END_OF_DIRECTORY) continue
    const count = view.getUint16(at + 10, true)
    const cdSize = view.getUint32(at + 12, true)
    const cdOffset = view.getUint32(at + 16, true)
    if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff)
      fail('OUT_OF_RANGE', 'a ZIP64 archive (over 65,535 files or 4 GB), which is not supported', tailStart + at)
    if (view.getUint16(at + 4, true) !== 0 || view.getUint16(at + 6, true) !== 0)
      fail('OUT_OF_RANGE', 'a zip split over several disks, which is not supported', tailStart + at)
    if (cdOffset + cdSize > tailStart + at)
      fail(
        'TRUNCATED',
        `central directory at ${cdOffset}, ${cdSize} bytes, runs past its end record (at ${tailStart + at})`,
        tailStart + at + 12,
      )
    if (count * ZIP_CENTRAL_HEADER_SIZE > cdSize)
      fail('OUT_OF_RANGE', `${count} entries cannot fit a ${cdSize}-byte central directory`, tailStart + at + 10)
    return { offset: cdOffset, size: cdSize, count }
  }
  return fail('TRUNCATED', `damaged zip: no end-of-central-directory record in the last ${tail.length} bytes (of ${size})`, tailStart)
}

function zipEntries(directory: Uint8Array, end: ZipEnd, size: number, file: string | undefined): StoredEntry[] {
  const fail = failer('zip', file)
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength)
  const entries: StoredEntry[] = []
  let at = 0
  for (let i = 0; i < end.count; i++) {
    const where = end.offset + at
    if (at + ZIP_CENTRAL_HEADER_SIZE > directory.length) fail('TRUNCATED', `central directory entry ${i} runs past the directory`, where)
    if (view.getUint32(at, true) !== ZIP_CENTRAL_HEADER) fail('BAD_MAGIC', `central directory entry ${i} has no signature`, where)
    const flags = view.getUint16(at + 8, true)
    const method = view.getUint16(at + 10, true)
    const crc = view.getUint32(at + 16, true)
    const compressedSize = view.getUint32(at + 20, true)
    const uncompressed = view.getUint32(at + 24, true)
    const nameLength = view.getUint16(at + 28, true)
    const skip = view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
    const offset = view.getUint32(at + 42, true)
    const next = at + ZIP_CENTRAL_HEADER_SIZE + nameLength + skip
    if (next > directory.length) fail('TRUNCATED', `central directory entry ${i}'s name and fields run past the directory`, where)
    const nameBytes = directory.subarray(at + ZIP_CENTRAL_HEADER_SIZE, at + ZIP_CENTRAL_HEADER_SIZE + nameLength)
    // Bit 11: UTF-8 names; older tools wrote code page 437, whose ASCII part is all game paths use.
    const name = flags & 0x800 ? new TextDecoder().decode(nameBytes) : String.fromCharCode(...nameBytes)
    if (offset + ZIP_LOCAL_HEADER_SIZE + compressedSize > size)
      fail('OUT_OF_RANGE', `"${name}" at ${offset}, ${compressedSize} bytes, lies outside the file (${size} bytes)`, where + 42)
    if (!name.endsWith('/')) entries.push({ name, size: uncompressed, offset, compressedSize, method, crc, encrypted: (flags & 1) !== 0 })
    at = next
  }
  return entries
}

/** Where a zip entry's data starts, from its local header (whose name and extra field may differ in length). */
function zipDataStart(header: Uint8Array, entry: StoredEntry, size: number, file: string | undefined): number {
  const fail = failer('zip', file)
  if (header.length < ZIP_LOCAL_HEADER_SIZE) fail('TRUNCATED', `"${entry.name}": local header runs past the file`, entry.offset)
  const view = new DataView(header.buffer, header.byteOffset, ZIP_LOCAL_HEADER_SIZE)
  if (view.getUint32(0, true) !== ZIP_LOCAL_HEADER)
    fail('BAD_MAGIC', `"${entry.name}": no local header where the directory says`, entry.offset)
  const start = entry.offset + ZIP_LOCAL_HEADER_SIZE + view.getUint16(26, true) + view.getUint16(28, true)
  if (start + entry.compressedSize > size) fail('TRUNCATED', `"${entry.name}": data runs past the end of the file`, entry.offset)
  return start
}

function zipEntryBytes(data: Uint8Array, entry: StoredEntry, file: string | undefined): Uint8Array {
  const fail = failer('zip', file)
  if (entry.encrypted) fail('BAD_VALUE', `"${entry.name}" is encrypted`, entry.offset)
  let out: Uint8Array
  if (entry.method === 0) {
    if (entry.size !== entry.compressedSize) fail('OUT_OF_RANGE', `"${entry.name}" is stored but its sizes differ`, entry.offset)
    out = data
  } else if (entry.method === 8) {
    if (entry.size > entry.compressedSize * MAX_DEFLATE_RATIO + 64)
      fail(
        'OUT_OF_RANGE',
        `"${entry.name}" claims ${entry.size} bytes from ${entry.compressedSize}: more than deflate can expand`,
        entry.offset,
      )
    try {
      out = inflateSync(data, { out: new Uint8Array(entry.size) })
    } catch (cause) {
      throw new MD2Error('TRUNCATED', `"${entry.name}": damaged deflate data (${cause instanceof Error ? cause.message : String(cause)})`, {
        section: 'zip',
        offset: entry.offset,
        file,
        cause,
      })
    }
    if (out.length !== entry.size) fail('TRUNCATED', `"${entry.name}" inflates to ${out.length} bytes, not ${entry.size}`, entry.offset)
  } else {
    return fail(
      'BAD_VALUE',
      `"${entry.name}" uses compression method ${entry.method}; only stored (0) and deflate (8) are read`,
      entry.offset,
    )
  }
  if (crc32(out) !== entry.crc) fail('BAD_VALUE', `"${entry.name}": CRC mismatch, the data is damaged`, entry.offset)
  return out
}

let crcTable: Uint32Array | undefined
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c >>> 0
    }
  }
  let crc = 0xffffffff
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

// Lookup

/** A path as archives store it: `/`-separated, no leading slash. */
function slashPath(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\/+/, '')
}

/** The key a name is looked up by: its path in any case. */
function normalise(name: string): string {
  return slashPath(name).toLowerCase()
}

function indexByName(entries: readonly StoredEntry[]): Map<string, StoredEntry> {
  const index = new Map<string, StoredEntry>()
  // The first of two names differing only in case wins, as in a case-insensitive search of the directory.
  for (const entry of entries) if (!index.has(normalise(entry.name))) index.set(normalise(entry.name), entry)
  return index
}

function listing(kind: 'pak' | 'zip', entries: readonly StoredEntry[]) {
  const index = indexByName(entries)
  const publicEntry = (entry: StoredEntry | undefined): MD2ArchiveEntry | undefined => entry && { name: entry.name, size: entry.size }
  return {
    index,
    kind,
    entries: entries.map(({ name, size }) => ({ name, size })),
    find: (name: string) => publicEntry(index.get(normalise(name))),
  }
}

function syncArchive(kind: 'pak' | 'zip', entries: readonly StoredEntry[], take: (entry: StoredEntry) => Uint8Array): MD2ArchiveFiles {
  const { index, ...rest } = listing(kind, entries)
  return {
    ...rest,
    read: (name) => {
      const entry = index.get(normalise(name))
      return entry && take(entry)
    },
  }
}

function rangeArchive(
  kind: 'pak' | 'zip',
  entries: readonly StoredEntry[],
  take: (entry: StoredEntry) => Promise<Uint8Array>,
): MD2RangeArchive {
  const { index, ...rest } = listing(kind, entries)
  return {
    ...rest,
    read: async (name) => {
      const entry = index.get(normalise(name))
      return entry && take(entry)
    },
  }
}
