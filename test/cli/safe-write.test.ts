/**
 * One way to write a file (issue #57): `samples`, `pak extract`, `pak add`, `rebuild` and `convert` (its model
 * and side files) write through temporary files renamed into place, never through a link planted where a file
 * or folder goes, and all or none of their files. A link aimed at a victim outside the folder written to
 * (dangling, so a write through it would create the victim) must leave no victim and the link as it was.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeIO } from '../../src/cli/main'
import { ANIMATION_TABLE_HEADER } from '../../src/three/convert/convertToMD2'
import { buildRig, exportRig } from '../../stories/support/rig'
import { makePak } from '../support/archives'
import { readAsset } from '../support/assets'
import { runOnDisk as run, runRecorded } from '../support/cli'
import { expectLinkUntouched, plantLink } from '../support/plantedLinks'

let dir: string
let glb: Uint8Array

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-safe-write-'))
  const { scene, clips } = buildRig()
  glb = await exportRig(scene, clips)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let folders = 0
/** A fresh folder with `out/` (written to) and `victim/` (outside it, where a planted link points). */
function setUp(name: string): { out: string; victim: string } {
  const root = join(dir, `${name}-${folders++}`)
  mkdirSync(join(root, 'out'), { recursive: true })
  mkdirSync(join(root, 'victim'))
  return { out: join(root, 'out'), victim: join(root, 'victim') }
}

/** A dangling link at `at` to `victim/<name>`: a write through it would make that file. */
const plant = (at: string, victim: string, name = 'planted'): string => plantLink(at, join(victim, name))

/** Every entry under `root` (links as links), with no temporary file among them. */
function entries(root: string, prefix = ''): string[] {
  const out: string[] = []
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const name = `${prefix}${entry.name}`
    out.push(name)
    if (entry.isDirectory()) out.push(...entries(join(root, entry.name), `${name}/`))
  }
  expect(out.filter((name) => /partial$/.test(name))).toEqual([])
  return out.sort()
}

describe('samples', () => {
  it.each([[[]], [['--force']]])('a dangling link at DIR/ogro/tris.MD2 %j: refused naming it, nothing written', async (options) => {
    const { out, victim } = setUp('samples-link')
    const link = join(out, 'ogro/tris.MD2')
    const target = plant(link, victim)
    const ran = await run(['samples', out, ...options])
    expect(ran.code).toBe(1)
    expect(ran.stdout).toBe('')
    expect(ran.stderr).toContain(`${link}: UNSAFE_PATH`)
    expect(ran.stderr).toMatch(/is a link/)
    expectLinkUntouched(link, target)
    expect(entries(out)).toEqual(['ogro', 'ogro/tris.MD2'])
  })

  it('a link as a sample folder, even one leading inside DIR: nothing written', async () => {
    const { out, victim } = setUp('samples-folder-link')
    mkdirSync(join(out, 'elsewhere'))
    symlinkSync(join(out, 'elsewhere'), join(out, 'bloodspider'))
    symlinkSync(victim, join(out, 'ogro'))
    const ran = await run(['samples', out, '--force'])
    expect(ran.code).toBe(1)
    expect(ran.stderr).toContain(`${join(out, 'ogro')} is a link`)
    expect(readdirSync(victim)).toEqual([])
    expect(readdirSync(join(out, 'elsewhere'))).toEqual([])
  })

  it('all or none: the second file blocked (a folder, a link, a failed write), the first is not written', async () => {
    // The Ogro's second file is igdosh.pcx.
    const inTheWay = setUp('samples-second-folder')
    mkdirSync(join(inTheWay.out, 'ogro/igdosh.pcx'), { recursive: true })
    const folder = await run(['samples', inTheWay.out, '--force'])
    expect(folder.code).toBe(1)
    expect(folder.stderr).toContain(`${join(inTheWay.out, 'ogro/igdosh.pcx')}: cannot write: is a directory`)
    expect(entries(inTheWay.out)).toEqual(['ogro', 'ogro/igdosh.pcx'])

    const linked = setUp('samples-second-link')
    const link = join(linked.out, 'ogro/igdosh.pcx')
    const target = plant(link, linked.victim)
    expect((await run(['samples', linked.out])).code).toBe(1)
    expectLinkUntouched(link, target)
    expect(entries(linked.out)).toEqual(['ogro', 'ogro/igdosh.pcx'])

    // A write that fails (a full disk, a folder made read-only): the temporary files go, nothing lands.
    const full = setUp('samples-second-fails')
    const failed = await runRecorded(['samples', full.out], {
      writeFile: (path, data) => {
        if (/igdosh\.pcx\.[^/]*partial$/.test(path)) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' })
        nodeIO.writeFile(path, data)
      },
    })
    expect(failed.code).toBe(1)
    expect(failed.stdout).toBe('')
    expect(failed.stderr).toContain(`${join(full.out, 'ogro/igdosh.pcx')}: cannot write: permission denied`)
    expect(entries(full.out).filter((name) => !['ogro', 'bloodspider'].includes(name))).toEqual([])
  })
})

describe('pak extract', () => {
  const entry = { name: 'players/ok/tris.md2', bytes: new Uint8Array([7, 7, 7]) }
  const other = { name: 'players/ok/skin.pcx', bytes: new Uint8Array([8, 8]) }

  it.each([[[]], [['--force']]])('a dangling link where an entry goes %j: that entry refused, no victim', async (options) => {
    const { out, victim } = setUp('pak-link')
    const archive = join(out, '..', 'planted.pak')
    writeFileSync(archive, makePak([entry, other]))
    const link = join(out, 'players/ok/tris.md2')
    const target = plant(link, victim, 'chosen-by-the-archive.md2')
    const ran = await run(['pak', 'extract', archive, out, ...options])
    expect(ran.code).toBe(1)
    expect(ran.stderr).toMatch(new RegExp(`UNSAFE_PATH: archive: ${link.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a link`))
    expect(ran.stdout).toBe(`extracted 1 of 2 files to ${out}, 1 refused\n`)
    expectLinkUntouched(link, target)
    expect([...readFileSync(join(out, 'players/ok/skin.pcx'))]).toEqual([8, 8])
  })

  it('all or none: a write that fails leaves none of the entries written', async () => {
    const { out } = setUp('pak-fails')
    const archive = join(out, '..', 'two.pak')
    writeFileSync(archive, makePak([entry, other]))
    const failed = await runRecorded(['pak', 'extract', archive, out], {
      writeFile: (path, data) => {
        if (/skin\.pcx\.[^/]*partial$/.test(path)) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
        nodeIO.writeFile(path, data)
      },
    })
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain(`${join(out, 'players/ok/skin.pcx')}: cannot write: ENOSPC`)
    expect(failed.stdout).toBe(`extracted 0 of 2 files to ${out}, 2 not written\n`)
    expect(entries(out).filter((name) => !/^players(\/ok)?$/.test(name))).toEqual([])
  })
})

describe('pak add and rebuild', () => {
  it('a dangling link as ARCHIVE or -o OUT: refused naming it, no victim', async () => {
    const { out, victim } = setUp('add-rebuild')
    writeFileSync(join(out, 'tris.md2'), readAsset('quake2/sydney/weapon.md2'))
    const archive = join(out, 'mod.pk3')
    const archiveTarget = plant(archive, victim, 'mod.pk3')
    const cwd = process.cwd()
    process.chdir(out)
    try {
      const added = await run(['pak', 'add', archive, 'tris.md2'])
      expect(added.code).toBe(1)
      expect(added.stderr).toMatch(/mod\.pk3: UNSAFE_PATH: .*mod\.pk3 is a link/)
    } finally {
      process.chdir(cwd)
    }
    expectLinkUntouched(archive, archiveTarget)

    const model = join(out, 'new.md2')
    const modelTarget = plant(model, victim, 'new.md2')
    const rebuilt = await run(['rebuild', join(out, 'tris.md2'), '-o', model])
    expect(rebuilt.code).toBe(1)
    expect(rebuilt.stderr).toMatch(/new\.md2: UNSAFE_PATH: .*new\.md2 is a link/)
    expectLinkUntouched(model, modelTarget)
    expect(entries(out)).toEqual(['mod.pk3', 'new.md2', 'tris.md2'])
  })
})

describe('convert', () => {
  it.each([
    ['OUT', 'rig.md2', []],
    ['OUT, --force', 'rig.md2', ['--force']],
    ['the skin side file', 'rig.pcx', []],
    ['the skin side file, --force', 'rig.pcx', ['--force']],
    ['the .anm side file, --force', 'rig.anm', ['--fps', '20', '--force']],
  ])('a dangling link as %s: refused before any work, naming it, no victim', async (_, name, options) => {
    const { out, victim } = setUp('convert-link')
    writeFileSync(join(out, 'rig.glb'), glb)
    const link = join(out, name)
    const target = plant(link, victim, name)
    const ran = await run(['convert', join(out, 'rig.glb'), join(out, 'rig.md2'), ...options])
    expect(ran.code).toBe(1)
    expect(ran.stdout).toBe('')
    expect(ran.stderr).toMatch(new RegExp(`^${link.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: UNSAFE_PATH: output: .* is a link`))
    expectLinkUntouched(link, target)
    expect(entries(out)).toEqual([name, 'rig.glb'].sort())
  })

  it('a dangling link as a .glb OUT (.md2 → .glb): no victim', async () => {
    const { out, victim } = setUp('convert-glb-link')
    writeFileSync(join(out, 'tris.md2'), readAsset('quake2/sydney/weapon.md2'))
    const link = join(out, 'weapon.glb')
    const target = plant(link, victim, 'weapon.glb')
    const ran = await run(['convert', join(out, 'tris.md2'), link, '--force'])
    expect(ran.code).toBe(1)
    expectLinkUntouched(link, target)
  })

  it('an animation table an earlier run wrote, edited since, is kept without --force (removed with it)', async () => {
    const { out } = setUp('convert-anm')
    writeFileSync(join(out, 'rig.glb'), glb)
    const argv = ['convert', join(out, 'rig.glb'), join(out, 'rig.md2')]
    expect((await run([...argv, '--fps', '20'])).code).toBe(0)
    const table = join(out, 'rig.anm')
    const edited = `${readFileSync(table, 'utf8')}# my own note\n`
    writeFileSync(table, edited)
    // Another skin format: no side file of this run is there, so only the table is in question.
    const kept = await run([...argv, '--skin-format', 'tga'])
    expect(kept.code).toBe(1)
    expect(kept.stdout).toBe('')
    expect(kept.stderr).toBe(
      `${table}: an animation table an earlier run wrote for this OUT, which this run would remove (it writes none); ` +
        'nothing written (--force removes it)\n',
    )
    expect(readFileSync(table, 'utf8')).toBe(edited)
    expect(entries(out)).toEqual(['rig.anm', 'rig.glb', 'rig.md2', 'rig.pcx'])

    const forced = await run([...argv, '--skin-format', 'tga', '--force'])
    expect(forced.code).toBe(0)
    expect(entries(out)).toEqual(['rig.glb', 'rig.md2', 'rig.pcx', 'rig.tga'])
  })

  it('a link where an earlier run\u2019s animation table would be: neither read through nor removed', async () => {
    const { out, victim } = setUp('convert-anm-link')
    writeFileSync(join(out, 'rig.glb'), glb)
    const target = join(victim, 'table.anm')
    writeFileSync(target, `${ANIMATION_TABLE_HEADER}\nstand 0 3 5\n`)
    symlinkSync(target, join(out, 'rig.anm'))
    const ran = await runRecorded(['convert', join(out, 'rig.glb'), join(out, 'rig.md2'), '--force'])
    expect(ran.code).toBe(0)
    expect(ran.read.filter((path) => !path.startsWith(`${out}/`))).toEqual([])
    expect(readlinkSync(join(out, 'rig.anm'))).toBe(target)
    expect(readFileSync(target, 'utf8')).toBe(`${ANIMATION_TABLE_HEADER}\nstand 0 3 5\n`)
    expect(entries(out)).toEqual(['rig.anm', 'rig.glb', 'rig.md2', 'rig.pcx'])
  })
})
