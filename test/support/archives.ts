import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ASSETS_DIR, readAsset } from './assets'

export interface ArchiveFile {
  name: string
  bytes: Uint8Array
}

/** A bundled folder's models and skins as `<prefix><file>` (`players/ogro/tris.MD2`), as Quake II's pak0.pak holds a player. */
export function assetFolderFiles(folder: string, prefix: string): ArchiveFile[] {
  return readdirSync(join(ASSETS_DIR, folder))
    .filter((file) => /\.(md2|pcx|tga|png|anm|tag)$/i.test(file))
    .map((file) => ({ name: `${prefix}${file}`, bytes: readAsset(`${folder}/${file}`) }))
}

/** Writes id's PACK format independently of the reader: header, the files, then the directory. */
export function makePak(files: readonly ArchiveFile[]): Uint8Array {
  const dataSize = files.reduce((sum, f) => sum + f.bytes.length, 0)
  const dirOffset = 12 + dataSize
  const out = new Uint8Array(dirOffset + files.length * 64)
  const view = new DataView(out.buffer)
  out.set([0x50, 0x41, 0x43, 0x4b]) // PACK
  view.setInt32(4, dirOffset, true)
  view.setInt32(8, files.length * 64, true)
  let at = 12
  files.forEach((file, i) => {
    out.set(file.bytes, at)
    const entry = dirOffset + i * 64
    out.set(new TextEncoder().encode(file.name), entry)
    view.setInt32(entry + 56, at, true)
    view.setInt32(entry + 60, file.bytes.length, true)
    at += file.bytes.length
  })
  return out
}

/** Byte-for-byte equality (vitest's deep equality is slow on large typed arrays). */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && Buffer.compare(a, b) === 0
}
