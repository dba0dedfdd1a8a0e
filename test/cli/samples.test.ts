/**
 * `react-three-md2 samples DIR` on the real file system: the sample models written as the repository has
 * them, byte for byte, each folder with its credits; nothing overwritten without --force; --only; the
 * Ogro's skins and weapon named inside its files found among the files written.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { skinCandidateRounds } from '../../src/core/images/skinPaths'
import { SAMPLES } from '../../src/cli/samples'
import { readAsset } from '../support/assets'
import { runOnDisk } from '../support/cli'

let root: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'md2-samples-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const read = (path: string) => new Uint8Array(readFileSync(path))
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

describe('react-three-md2 samples DIR', () => {
  it('writes every sample as the repository has it, byte for byte, with a CREDITS.txt in each folder', async () => {
    const dir = join(root, 'public/players')
    const ran = await runOnDisk(['samples', dir])
    expect(ran.stderr).toBe('')
    expect(ran.code).toBe(0)
    expect(readdirSync(dir).sort()).toEqual(['bloodspider', 'ogro'])
    let total = 0
    for (const sample of SAMPLES) {
      expect(readdirSync(join(dir, sample.name)).sort()).toEqual([...sample.files, 'CREDITS.txt'].sort())
      for (const file of sample.files) {
        const written = read(join(dir, sample.name, file))
        expect(sameBytes(written, readAsset(`${sample.from}/${file}`)), `${sample.name}/${file}`).toBe(true)
        expect(ran.stdout).toContain(`wrote ${dir}/${sample.name}/${file} (${written.length} bytes)`)
        total += written.length
      }
      const credits = readFileSync(join(dir, sample.name, 'CREDITS.txt'), 'utf8')
      expect(credits).toBe(sample.credits)
      total += Buffer.byteLength(credits)
    }
    expect(ran.stdout).toContain(`wrote ${SAMPLES.reduce((n, s) => n + s.files.length + 1, 0)} files, ${total} bytes`)
    // The terms each credit states, as its sources give them.
    expect(readFileSync(join(dir, 'ogro/CREDITS.txt'), 'utf8')).toMatch(/Magarnigal[\s\S]*not covered by react-three-md2's MIT licence/)
    expect(readFileSync(join(dir, 'bloodspider/CREDITS.txt'), 'utf8')).toMatch(/Jake Gustafson[\s\S]*CC BY-SA 3\.0/)
  })

  it('writes an Ogro whose skins and weapon the library finds among the files written', async () => {
    const dir = join(root, 'players')
    expect((await runOnDisk(['samples', dir, '--only', 'ogro'])).code).toBe(0)
    const written = new Set(readdirSync(join(dir, 'ogro')))
    const body = parseMD2(read(join(dir, 'ogro/tris.MD2')), { name: 'tris.MD2' })
    expect(body.header.numFrames).toBe(199)
    expect(body.warnings).toEqual([])
    // The first place a skin is looked for: next to the model, as named (players/ogro/igdosh.pcx → igdosh.pcx).
    const found = body.skins.filter((skin) => written.has(skinCandidateRounds('tris.MD2', skin)[0][0]!))
    expect(found).toEqual(['players/ogro/igdosh.pcx', 'players/ogro/khorne.pcx'])
    for (const [weapon, skin] of [
      ['weapon.md2', 'weapon.pcx'],
      ['w_railgun.MD2', 'g_rail.pcx'],
    ] as const) {
      const model = parseMD2(read(join(dir, 'ogro', weapon)), { name: weapon })
      expect(model.header.numFrames, weapon).toBe(body.header.numFrames)
      expect(skinCandidateRounds(weapon, model.skins[0]!)[0], weapon).toEqual([skin])
      expect(written.has(skin)).toBe(true)
    }
  })

  it('writes a blood spider whose open-extension skin name finds its .jpg', async () => {
    const dir = join(root, 'players')
    expect((await runOnDisk(['samples', dir, '--only', 'bloodspider'])).code).toBe(0)
    expect(readdirSync(dir)).toEqual(['bloodspider'])
    const written = new Set(readdirSync(join(dir, 'bloodspider')))
    const model = parseMD2(read(join(dir, 'bloodspider/bloodspider.md2')), { name: 'bloodspider.md2' })
    expect(model.header.numFrames).toBe(96)
    expect(skinCandidateRounds('bloodspider.md2', model.skins[0]!)[0].filter((name) => written.has(name))).toEqual(['bloodspider.jpg'])
  })

  it('writes nothing when a file is already there, and overwrites with --force', async () => {
    const dir = join(root, 'players')
    mkdirSync(join(dir, 'ogro'), { recursive: true })
    writeFileSync(join(dir, 'ogro/igdosh.pcx'), 'mine')
    const refused = await runOnDisk(['samples', dir])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe('')
    expect(refused.stderr).toContain(`${dir}/ogro/igdosh.pcx: exists`)
    expect(refused.stderr).toMatch(/nothing written: 1 of the 14 files are already there \(--force overwrites them\)/)
    expect(readdirSync(dir)).toEqual(['ogro'])
    expect(readdirSync(join(dir, 'ogro'))).toEqual(['igdosh.pcx'])
    expect(readFileSync(join(dir, 'ogro/igdosh.pcx'), 'utf8')).toBe('mine')

    const forced = await runOnDisk(['samples', dir, '--force'])
    expect(forced.code).toBe(0)
    expect(forced.stdout).toContain('(1 overwritten)')
    expect(sameBytes(read(join(dir, 'ogro/igdosh.pcx')), readAsset('quake2/ogro/igdosh.pcx'))).toBe(true)
  })

  it('refuses a DIR that is a file, a sample folder that is a file, an unknown --only and a missing DIR', async () => {
    const file = join(root, 'players')
    writeFileSync(file, 'not a folder')
    const onFile = await runOnDisk(['samples', file])
    expect(onFile.code).toBe(1)
    expect(onFile.stderr).toBe(`${file}: is a file, not a folder; nothing written\n`)

    const dir = join(root, 'public')
    mkdirSync(dir)
    writeFileSync(join(dir, 'bloodspider'), 'in the way')
    const inTheWay = await runOnDisk(['samples', dir])
    expect(inTheWay.code).toBe(1)
    expect(inTheWay.stderr).toBe(`${dir}/bloodspider: is a file, not a folder; nothing written\n`)
    expect(existsSync(join(dir, 'ogro'))).toBe(false)

    const unknown = await runOnDisk(['samples', dir, '--only', 'sydney'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^react-three-md2: --only sydney: no such sample \(ogro, bloodspider\)/)
    const none = await runOnDisk(['samples'])
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/^react-three-md2: samples needs a DIR/)
  })

  it('prints its help, naming every sample and file', async () => {
    const help = await runOnDisk(['samples', '--help'])
    expect(help.code).toBe(0)
    for (const sample of SAMPLES) for (const file of sample.files) expect(help.stdout).toContain(file)
    expect((await runOnDisk(['--help'])).stdout).toMatch(/^ {2}samples DIR {14}/m)
  })
})
