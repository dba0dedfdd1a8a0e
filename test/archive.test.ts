import { zipSync } from 'fflate'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openArchive, openPak } from '../src/core/archive'
import { parseMD2 } from '../src/core/parse'
import { ASSETS_DIR, readAsset } from './assets'
import { expectMD2Error } from './support/errors'

/** The bundled ogro folder as `players/ogro/<file>`, as Quake II's pak0.pak holds a player. */
const OGRO_FILES = readdirSync(join(ASSETS_DIR, 'quake2/ogro'))
  .filter((file) => /\.(md2|pcx)$/i.test(file))
  .map((file) => ({ name: `players/ogro/${file}`, bytes: readAsset(`quake2/ogro/${file}`) }))

/** Byte-for-byte equality (vitest's deep equality is slow on large typed arrays). */
function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && Buffer.compare(a, b) === 0
}

/** Writes id's PACK format independently of the reader: header, the files, then the directory. */
function makePak(files: { name: string; bytes: Uint8Array }[]): Uint8Array {
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

describe('openArchive: PACK', () => {
  const pak = makePak(OGRO_FILES)

  it('lists every file and reads each back byte for byte; names any case, either slash', () => {
    const archive = openArchive(pak, { name: 'pak0.pak' })
    expect(archive.kind).toBe('pak')
    expect(archive.entries.map((e) => e.name)).toEqual(OGRO_FILES.map((f) => f.name))
    for (const file of OGRO_FILES) expect(sameBytes(archive.read(file.name), file.bytes), file.name).toBe(true)
    const model = parseMD2(archive.read('PLAYERS\\OGRO\\TRIS.md2')!)
    expect(model.header.numFrames).toBe(199)
    expect(archive.find('players/ogro/W_RAILGUN.md2')).toEqual({
      name: 'players/ogro/w_railgun.MD2',
      size: readAsset('quake2/ogro/w_railgun.MD2').length,
    })
    expect(archive.read('players/ogro/nothing.md2')).toBeUndefined()
  })

  it('refuses damaged directories with coded errors naming the part and offset', () => {
    const damaged = (edit: (view: DataView, bytes: Uint8Array) => void) => {
      const copy = pak.slice()
      edit(new DataView(copy.buffer), copy)
      return copy
    }
    const dirOffset = new DataView(pak.buffer).getInt32(4, true)
    expectMD2Error(() => openPak(pak.subarray(0, 8)), 'TRUNCATED', { section: 'pak' })
    expectMD2Error(() => openPak(damaged((_, b) => b.set([0x50, 0x41, 0x43, 0x4a]))), 'BAD_MAGIC', { section: 'pak' })
    expectMD2Error(() => openPak(pak.subarray(0, pak.length - 1)), 'TRUNCATED', { text: 'directory ends at' })
    expectMD2Error(() => openPak(damaged((v) => v.setInt32(8, 100, true))), 'OUT_OF_RANGE', { text: 'whole number of 64-byte entries' })
    expectMD2Error(() => openPak(damaged((v) => v.setInt32(dirOffset + 60, 1 << 30, true))), 'OUT_OF_RANGE', {
      text: 'lies outside the file',
    })
    expectMD2Error(() => openPak(damaged((v) => v.setInt32(dirOffset + 56, -5, true))), 'OUT_OF_RANGE', { text: 'lies outside the file' })
    expectMD2Error(() => openPak(damaged((_, b) => b.fill(0x41, dirOffset, dirOffset + 56))), 'OUT_OF_RANGE', { text: 'no NUL' })
    expectMD2Error(() => openArchive(new Uint8Array(64)), 'BAD_MAGIC', { section: 'archive' })
  })
})

describe('openArchive: zip (.pk3)', () => {
  const zip = zipSync(Object.fromEntries(OGRO_FILES.map((f) => [f.name, f.bytes])), { level: 1 })

  it('lists from the central directory and inflates only the entry asked for', () => {
    const archive = openArchive(zip, { name: 'models.pk3' })
    expect(archive.kind).toBe('zip')
    expect(archive.entries.map((e) => e.name).sort()).toEqual(OGRO_FILES.map((f) => f.name).sort())
    expect(archive.find('players/ogro/tris.md2')!.size).toBe(readAsset('quake2/ogro/tris.MD2').length)
    expect(sameBytes(archive.read('Players/Ogro/Tris.MD2'), readAsset('quake2/ogro/tris.MD2'))).toBe(true)

    // Ruin every other entry's compressed data: listing and reading tris still work, so neither inflated them.
    const ruined = zip.slice()
    let at = 0 // walk the local headers
    const view = new DataView(ruined.buffer)
    while (view.getUint32(at, true) === 0x04034b50) {
      const nameLength = view.getUint16(at + 26, true)
      const extra = view.getUint16(at + 28, true)
      const size = view.getUint32(at + 18, true)
      const name = new TextDecoder().decode(ruined.subarray(at + 30, at + 30 + nameLength))
      const dataStart = at + 30 + nameLength + extra
      if (!/tris\.md2$/i.test(name)) ruined.fill(0xff, dataStart, dataStart + size)
      at = dataStart + size
    }
    const damaged = openArchive(ruined)
    expect(damaged.entries).toHaveLength(OGRO_FILES.length)
    expect(sameBytes(damaged.read('players/ogro/tris.MD2'), readAsset('quake2/ogro/tris.MD2'))).toBe(true)
    expectMD2Error(() => damaged.read('players/ogro/w_railgun.MD2'), 'TRUNCATED', { section: 'zip' })
  })

  it('refuses a zip cut short with a coded error', () => {
    expectMD2Error(() => openArchive(zip.subarray(0, zip.length - 30)), 'TRUNCATED', { section: 'zip' })
  })
})
