import { zipSync } from 'fflate'
import { MD2Error } from '../MD2Error.js'
import { safeEntryPath } from './safeEntryPath.js'

/** One file to store: its path inside the archive (`players/ogro/tris.md2`) and its bytes. */
export type ArchiveInput = readonly [name: string, bytes: Uint8Array]

const PACK_NAME_SIZE = 56
const PACK_ENTRY_SIZE = 64
const PACK_HEADER_SIZE = 12
/** PACK offsets and sizes are signed 32-bit. */
const PACK_MAX_SIZE = 0x7fffffff

/** Names as stored: safe relative paths with `/`, each once (a later file of the same name, in any case, replaces it). */
function storedNames(files: readonly ArchiveInput[]): ArchiveInput[] {
  const byKey = new Map<string, ArchiveInput>()
  for (const [name, bytes] of files) {
    const clean = safeEntryPath(name)
    byKey.set(clean.toLowerCase(), [clean, bytes])
  }
  return [...byKey.values()]
}

/** id's PACK (`.pak`): the header, the files' bytes in order, then the directory of 64-byte entries. */
export function writePak(files: readonly ArchiveInput[]): Uint8Array {
  const entries = storedNames(files)
  const encoder = new TextEncoder()
  const names = entries.map(([name]) => {
    const bytes = encoder.encode(name)
    if (bytes.length >= PACK_NAME_SIZE)
      throw new MD2Error('UNWRITABLE', `"${name}" is ${bytes.length} bytes: a PACK name holds at most ${PACK_NAME_SIZE - 1}`, {
        section: 'pak',
      })
    return bytes
  })
  const dataSize = entries.reduce((sum, [, bytes]) => sum + bytes.length, 0)
  const directoryOffset = PACK_HEADER_SIZE + dataSize
  const total = directoryOffset + entries.length * PACK_ENTRY_SIZE
  if (total > PACK_MAX_SIZE)
    throw new MD2Error('UNWRITABLE', `${total} bytes: a PACK file holds at most ${PACK_MAX_SIZE}`, { section: 'pak' })
  const out = new Uint8Array(total)
  const view = new DataView(out.buffer)
  out.set([0x50, 0x41, 0x43, 0x4b]) // "PACK"
  view.setInt32(4, directoryOffset, true)
  view.setInt32(8, entries.length * PACK_ENTRY_SIZE, true)
  let at = PACK_HEADER_SIZE
  entries.forEach(([, bytes], i) => {
    out.set(bytes, at)
    const entry = directoryOffset + i * PACK_ENTRY_SIZE
    out.set(names[i]!, entry)
    view.setInt32(entry + PACK_NAME_SIZE, at, true)
    view.setInt32(entry + PACK_NAME_SIZE + 4, bytes.length, true)
    at += bytes.length
  })
  return out
}

/** A zip (`.pk3`, `.zip`): each file deflated, or stored when `compress` is false. */
export function writeZip(files: readonly ArchiveInput[], options: { compress?: boolean } = {}): Uint8Array {
  const level = options.compress === false ? 0 : 6
  const zippable: Record<string, [Uint8Array, { level: 0 | 6 }]> = {}
  for (const [name, bytes] of storedNames(files)) zippable[name] = [bytes, { level }]
  return zipSync(zippable)
}

/** In every runtime the core runs in (Node, browsers, workers), though not in the core's ES-only lib. */
declare const TextEncoder: new () => { encode(text: string): Uint8Array }
