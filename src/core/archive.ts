import { unzipSync, type UnzipFileInfo } from 'fflate'
import { toBytes } from './bytes'
import { MD2Error } from './errors'

/** One file in an archive. */
export interface MD2ArchiveEntry {
  /** The path as stored (`players/ogro/tris.md2`), `/`-separated. */
  name: string
  /** Bytes once read (uncompressed). */
  size: number
}

/**
 * A Quake II `.pak` or a `.pk3`/`.zip`, read lazily: opening reads the directory only, `read` takes out one
 * file. Names are looked up case-insensitively with `\` or `/`, as the engines look them up.
 */
export interface MD2Archive {
  readonly kind: 'pak' | 'zip'
  readonly entries: readonly MD2ArchiveEntry[]
  /** The entry stored under `name` (any case, either slash), or undefined. */
  find(name: string): MD2ArchiveEntry | undefined
  /** The bytes of `name` (any case, either slash), or undefined when the archive has no such file. */
  read(name: string): Uint8Array | undefined
}

const PACK_IDENT = 0x4b434150 // "PACK"
const PACK_HEADER_SIZE = 12
/** Each directory entry: a 56-byte NUL-padded name, then the file's offset and length (int32). */
const PACK_ENTRY_SIZE = 64
const PACK_NAME_SIZE = 56
const ZIP_LOCAL_HEADER = 0x04034b50
const ZIP_END_OF_DIRECTORY = 0x06054b50

/** Opens a `.pak` (id's PACK) or a `.pk3`/`.zip`, told apart by their first bytes. */
export function openArchive(data: ArrayBuffer | Uint8Array, options: { name?: string } = {}): MD2Archive {
  const bytes = toBytes(data, options.name)
  const magic = bytes.length >= 4 ? new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) : 0
  if (magic === PACK_IDENT) return openPak(bytes, options)
  if (magic === ZIP_LOCAL_HEADER || magic === ZIP_END_OF_DIRECTORY) return openZip(bytes, options.name)
  throw new MD2Error('BAD_MAGIC', 'not an archive (neither "PACK" nor a zip file)', { section: 'archive', offset: 0, file: options.name })
}

/**
 * Reads id's PACK directory strictly: the directory and every entry must lie inside the file, names must
 * be NUL-terminated within their 56 bytes; a coded `MD2Error` otherwise. Nothing but the directory is read.
 */
export function openPak(data: ArrayBuffer | Uint8Array, options: { name?: string } = {}): MD2Archive {
  const file = options.name
  const bytes = toBytes(data, file)
  const fail = (code: 'BAD_MAGIC' | 'TRUNCATED' | 'OUT_OF_RANGE', message: string, offset: number): never => {
    throw new MD2Error(code, message, { section: 'pak', offset, file })
  }
  if (bytes.length < PACK_HEADER_SIZE) fail('TRUNCATED', `file is ${bytes.length} bytes, the header alone needs ${PACK_HEADER_SIZE}`, 0)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== PACK_IDENT) fail('BAD_MAGIC', 'not a PACK file (the first four bytes are not "PACK")', 0)
  const dirOffset = view.getInt32(4, true)
  const dirLength = view.getInt32(8, true)
  if (dirOffset < PACK_HEADER_SIZE || dirLength < 0 || dirLength % PACK_ENTRY_SIZE !== 0)
    fail(
      'OUT_OF_RANGE',
      `directory at ${dirOffset}, ${dirLength} bytes, is not a whole number of ${PACK_ENTRY_SIZE}-byte entries after the header`,
      4,
    )
  if (dirOffset + dirLength > bytes.length)
    fail('TRUNCATED', `directory ends at ${dirOffset + dirLength}, past the end of the data (${bytes.length} bytes)`, 4)
  const entries: (MD2ArchiveEntry & { offset: number })[] = []
  for (let at = dirOffset; at < dirOffset + dirLength; at += PACK_ENTRY_SIZE) {
    const end = bytes.indexOf(0, at)
    if (end < 0 || end >= at + PACK_NAME_SIZE) fail('OUT_OF_RANGE', `entry name has no NUL within its ${PACK_NAME_SIZE} bytes`, at)
    const name = String.fromCharCode(...bytes.subarray(at, end))
    const offset = view.getInt32(at + PACK_NAME_SIZE, true)
    const size = view.getInt32(at + PACK_NAME_SIZE + 4, true)
    if (offset < 0 || size < 0 || offset + size > bytes.length)
      fail('OUT_OF_RANGE', `"${name}" at ${offset}, ${size} bytes, lies outside the file (${bytes.length} bytes)`, at + PACK_NAME_SIZE)
    entries.push({ name, size, offset })
  }
  const index = indexByName(entries)
  return {
    kind: 'pak',
    entries: entries.map(({ name, size }) => ({ name, size })),
    find: (name) => publicEntry(index.get(normalise(name))),
    read: (name) => {
      const entry = index.get(normalise(name))
      return entry && bytes.subarray(entry.offset, entry.offset + entry.size)
    },
  }
}

/** A zip's central directory through fflate; one entry inflated per `read`. */
function openZip(bytes: Uint8Array, file: string | undefined): MD2Archive {
  const entries: MD2ArchiveEntry[] = []
  unzipOrFail(bytes, file, (info) => {
    if (!info.name.endsWith('/')) entries.push({ name: info.name, size: info.originalSize })
    return false
  })
  const index = indexByName(entries)
  return {
    kind: 'zip',
    entries,
    find: (name) => index.get(normalise(name)),
    read: (name) => {
      const entry = index.get(normalise(name))
      if (!entry) return undefined
      return unzipOrFail(bytes, file, (info) => info.name === entry.name)[entry.name]
    },
  }
}

function unzipOrFail(bytes: Uint8Array, file: string | undefined, filter: (info: UnzipFileInfo) => boolean): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes, { filter })
  } catch (cause) {
    throw new MD2Error('TRUNCATED', `damaged zip: ${cause instanceof Error ? cause.message : String(cause)}`, {
      section: 'zip',
      file,
      cause,
    })
  }
}

function normalise(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase()
}

function indexByName<T extends MD2ArchiveEntry>(entries: readonly T[]): Map<string, T> {
  const index = new Map<string, T>()
  // The first of two names differing only in case wins, as in a case-insensitive search of the directory.
  for (const entry of entries) if (!index.has(normalise(entry.name))) index.set(normalise(entry.name), entry)
  return index
}

function publicEntry(entry: (MD2ArchiveEntry & { offset: number }) | undefined): MD2ArchiveEntry | undefined {
  return entry && { name: entry.name, size: entry.size }
}
