import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { archiveOfFiles, openArchive, openArchiveByRanges, openPak } from '../../../src/core/archive/openArchive'
import { parseMD2 } from '../../../src/core/format/parseMD2'
import { readAsset } from '../../support/assets'
import { assetFolderFiles, makePak, sameBytes } from '../../support/archives'
import { expectMD2Error } from '../../support/errors'

const OGRO_FILES = assetFolderFiles('quake2/ogro', 'players/ogro/')

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

describe('openArchive: damage a real engine would stop at', () => {
  const zip = zipSync({ 'models/tris.md2': readAsset('quake2/ogro/tris.MD2'), 'models/skin.pcx': readAsset('quake2/ogro/ogrobase.pcx') })
  const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  /** Offset of the central directory entry of the first file. */
  const central = () => {
    const end = zip.length - 22
    return view(zip).getUint32(end + 16, true)
  }

  it('a flipped byte in a stored file fails its CRC', () => {
    const stored = zipSync(
      { 'models/tris.md2': readAsset('quake2/ogro/tris.MD2'), 'models/skin.pcx': readAsset('quake2/ogro/ogrobase.pcx') },
      { level: 0 },
    )
    const damaged = stored.slice()
    const first = 30 + view(stored).getUint16(26, true) + view(stored).getUint16(28, true)
    damaged[first + 1000] = damaged[first + 1000]! ^ 0x01
    const archive = openArchive(damaged)
    expectMD2Error(() => archive.read('models/tris.md2'), 'BAD_VALUE', { section: 'zip', text: 'CRC mismatch' })
    expect(sameBytes(archive.read('models/skin.pcx'), readAsset('quake2/ogro/ogrobase.pcx'))).toBe(true)
  })

  it('a size deflate cannot reach is refused before anything is allocated', () => {
    const damaged = zip.slice()
    view(damaged).setUint32(central() + 24, 0x7fffffff, true)
    expectMD2Error(() => openArchive(damaged).read('models/tris.md2'), 'OUT_OF_RANGE', { text: 'more than deflate can expand' })
  })

  it('ZIP64 markers, split archives and directories outside the file are named', () => {
    const zip64 = zip.slice()
    view(zip64).setUint16(zip.length - 22 + 10, 0xffff, true)
    expectMD2Error(() => openArchive(zip64), 'OUT_OF_RANGE', { text: 'ZIP64' })
    const split = zip.slice()
    view(split).setUint16(zip.length - 22 + 4, 1, true)
    expectMD2Error(() => openArchive(split), 'OUT_OF_RANGE', { text: 'split' })
    const outside = zip.slice()
    view(outside).setUint32(zip.length - 22 + 16, zip.length, true)
    expectMD2Error(() => openArchive(outside), 'TRUNCATED', { text: 'central directory' })
    const entryOutside = zip.slice()
    view(entryOutside).setUint32(central() + 42, zip.length - 10, true)
    expectMD2Error(() => openArchive(entryOutside), 'OUT_OF_RANGE', { text: 'lies outside the file' })
  })
})

describe('openArchiveByRanges', () => {
  /** A byte source over `bytes` that counts what was read. */
  function source(bytes: Uint8Array) {
    const reads: [number, number][] = []
    return {
      reads,
      read: () => reads.reduce((sum, [, length]) => sum + length, 0),
      source: {
        size: bytes.length,
        read: async (offset: number, length: number) => {
          reads.push([offset, length])
          expect(offset + length).toBeLessThanOrEqual(bytes.length)
          return bytes.slice(offset, offset + length)
        },
      },
    }
  }

  it.each([
    ['pak', makePak(OGRO_FILES)],
    ['zip', zipSync(Object.fromEntries(OGRO_FILES.map((f) => [f.name, f.bytes])), { level: 6 })],
  ] as const)('%s: opening reads the head and directory only; a read fetches one file', async (kind, bytes) => {
    const counted = source(bytes)
    const archive = await openArchiveByRanges(counted.source)
    expect(archive.kind).toBe(kind)
    expect(archive.entries.map((e) => e.name).sort()).toEqual(OGRO_FILES.map((f) => f.name).sort())
    const listed = counted.read()
    // PACK: 12 bytes and the directory; zip: its tail (end record, comment room) and central directory.
    expect(listed).toBeLessThan(kind === 'pak' ? 12 + OGRO_FILES.length * 64 + 1 : 65_557 + OGRO_FILES.length * 120)
    const tris = readAsset('quake2/ogro/tris.MD2')
    expect(sameBytes(await archive.read('PLAYERS/OGRO/TRIS.MD2'), tris)).toBe(true)
    const compressed = kind === 'pak' ? tris.length : bytes.length / 4
    expect(counted.read() - listed).toBeLessThan(compressed + 1024)
    expect(counted.reads.length).toBeLessThanOrEqual(kind === 'pak' ? 3 : 4)
    expect(await archive.read('players/ogro/none.md2')).toBeUndefined()
  })

  it('refuses the same damage as openArchive', async () => {
    const pak = makePak(OGRO_FILES)
    const cut = pak.subarray(0, pak.length - 64)
    await expect(openArchiveByRanges(source(cut).source)).rejects.toMatchObject({ code: 'TRUNCATED', section: 'pak' })
    await expect(openArchiveByRanges(source(new Uint8Array(100)).source)).rejects.toMatchObject({ code: 'BAD_MAGIC' })
  })
})

describe('archiveOfFiles', () => {
  it('looks loose files (a dropped folder) up as an archive does', () => {
    const archive = archiveOfFiles(OGRO_FILES.map((f) => [`\\${f.name}`, f.bytes] as const))
    expect(archive.kind).toBe('files')
    expect(sameBytes(archive.read('players/OGRO/tris.md2'), readAsset('quake2/ogro/tris.MD2'))).toBe(true)
    expect(archive.find('players/ogro/IGDOSH.PCX')?.name).toBe('players/ogro/igdosh.pcx')
  })
})
