/**
 * Archives: a .pk3 (deflated) and a .pak built from every bundled file, and a 240 MB .pk3 (the same
 * files and a stored filler, the size of UFO:AI's 0models.pk3): the time to list each, to open every
 * model inside it, the memory that takes beside the archive's size, and, read by ranges from the file
 * on disk (as over HTTP), the bytes read to list it and to open every model.
 */
import { zipSync } from 'fflate'
import { closeSync, openSync, readSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { openArchive, openArchiveByRanges, parseMD2 } from '../src/core/internal'
import { makePak } from '../test/support/archives'
import { ASSETS } from './lib/models'
import { fmt, median, now, retainedBytes, type Table } from './lib/stats'

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry)
    return statSync(full).isDirectory() ? walk(full) : [full]
  })
}

/** Every bundled file as `models/<path>`, as a game archive holds them. */
function bundledFiles(): Record<string, Uint8Array> {
  return Object.fromEntries(
    walk(ASSETS).map((file) => [`models/${relative(ASSETS, file).split('\\').join('/')}`, new Uint8Array(readFileSync(file))]),
  )
}

const MB = 2 ** 20

/** Memory retained by the listing, then by every model open at once (each in its own call, so nothing earlier is still referenced). */
function heldBytes(bytes: Uint8Array, modelNames: readonly string[]): { listedBytes: number; openBytes: number } {
  const before = retainedBytes()
  const archive = openArchive(bytes)
  const listedBytes = retainedBytes() - before
  const models = modelNames.map((name) => parseMD2(archive.read(name)!, { name }))
  const openBytes = retainedBytes() - before
  if (models.length !== modelNames.length) throw new Error('a model did not open')
  return { listedBytes, openBytes }
}

export async function runArchiveBench(options: { rounds: number }): Promise<Table> {
  const files = bundledFiles()
  const filler = new Uint8Array(224 * MB)
  for (let i = 0; i < filler.length; i += 4096) filler[i] = (i * 2654435761) >>> 24
  const archives: [string, () => Uint8Array][] = [
    ['bundled files, .pk3 (deflate)', () => zipSync(files, { level: 6 })],
    ['bundled files, .pak', () => makePak(Object.entries(files).map(([name, bytes]) => ({ name, bytes })))],
    [
      'bundled files + 224 MB stored filler, .pk3',
      () => zipSync({ ...files, 'maps/filler.bsp': [filler, { level: 0 }] } as never, { level: 6 }),
    ],
  ]
  const rows: (string | number)[][] = []
  for (const [label, build] of archives) {
    const bytes = build()
    const path = join(tmpdir(), `md2-bench-${process.pid}.archive`)
    writeFileSync(path, bytes)
    const modelNames = openArchive(bytes)
      .entries.filter((e) => /\.md2$/i.test(e.name))
      .map((e) => e.name)

    const listTimes: number[] = []
    const openTimes: number[] = []
    for (let round = 0; round < options.rounds; round++) {
      const t0 = now()
      const archive = openArchive(bytes)
      listTimes.push(now() - t0)
      const t1 = now()
      for (const name of modelNames) parseMD2(archive.read(name)!, { name })
      openTimes.push(now() - t1)
    }
    const { listedBytes, openBytes } = heldBytes(bytes, modelNames)

    // By ranges from the file on disk: what a browser fetches from a server answering range requests.
    const fd = openSync(path, 'r')
    let read = 0
    const ranged = await openArchiveByRanges({
      size: bytes.length,
      read: async (offset, length) => {
        const out = new Uint8Array(length)
        readSync(fd, out, 0, length, offset)
        read += length
        return out
      },
    })
    const readToList = read
    for (const name of modelNames) parseMD2((await ranged.read(name))!, { name })
    const readToOpen = read - readToList
    closeSync(fd)
    rmSync(path)

    rows.push([
      label,
      fmt(bytes.length / MB, 1),
      String(ranged.entries.length),
      String(modelNames.length),
      fmt(median(listTimes), 2),
      fmt(median(openTimes), 1),
      fmt(listedBytes / MB, 2),
      fmt(openBytes / MB, 1),
      fmt(readToList / 1024, 0),
      fmt(readToOpen / MB, 1),
    ])
  }
  return {
    title: 'Archives: list and open every model (Node)',
    note:
      `Median of ${options.rounds} rounds. list = openArchive(bytes) (reads the directory); open all = read + parseMD2 of every .md2 inside. ` +
      'held = heap + ArrayBuffers retained beyond the archive bytes themselves, after a full GC. ranged = openArchiveByRanges over the file on disk (what MD2ArchiveLoader does over HTTP): bytes read to list, then to open every model. ' +
      'No real game archive ships with the repository (UFO:AI 0models.pk3 is 240 MB and not redistributable here): the third row is its size.',
    head: [
      'archive',
      'MB',
      'files',
      'models',
      'list ms',
      'open all ms',
      'held after list MB',
      'held, all open MB',
      'ranged: KB read to list',
      'ranged: MB read to open all',
    ],
    rows,
  }
}
