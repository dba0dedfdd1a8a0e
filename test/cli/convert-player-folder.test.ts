/**
 * `convert --player`'s names and its refusals before any work (issue #57): the skin and icon named after OUT's
 * folder as it resolves (`players/hero/./tris.md2` is hero's), OUT with no folder to name a player refused
 * before anything is read, and `--game-path` and `--clips` values that would be silently misread refused.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { buildRig, exportRig } from '../../stories/support/rig'
import { runOnDisk as run, runRecorded } from '../support/cli'

let dir: string
let rig: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-player-folder-'))
  const { scene, clips } = buildRig()
  rig = join(dir, 'rig.glb')
  writeFileSync(rig, await exportRig(scene, clips))
  mkdirSync(join(dir, 'players', 'hero', 'sub'), { recursive: true })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('convert --player names its files after the folder OUT resolves to', () => {
  it.each([
    ['players/hero/./tris.md2', '.'],
    ['players/hero/sub/../tris.md2', '..'],
  ])('%s writes hero.pcx and hero_i.pcx, and names the skin players/hero/hero.pcx', async (relative) => {
    const folder = join(dir, 'players', 'hero')
    for (const file of readdirSync(folder)) if (file !== 'sub') rmSync(join(folder, file))
    const result = await run(['convert', rig, `${dir}/${relative}`, '--player'])
    expect(result.code, result.stderr).toBe(0)
    expect(readdirSync(folder).sort()).toEqual(['hero.pcx', 'hero_i.pcx', 'sub', 'tris.md2', 'weapon.md2'])
    expect(parseMD2(new Uint8Array(readFileSync(join(folder, 'tris.md2')))).skins).toEqual(['players/hero/hero.pcx'])
  })

  it('OUT in no folder, or in one that cannot name a player, is refused in words before anything is read', async () => {
    const root = await runRecorded(['convert', rig, '/tris.md2', '--player'])
    expect(root.code).toBe(2)
    expect(root.stderr).toMatch(/--player: "\/tris\.md2" is in no folder to name the player after; write players\/NAME\/tris\.md2/)
    expect(root.read).toEqual([])

    mkdirSync(join(dir, 'players', 'a;b'), { recursive: true })
    const quoted = await runRecorded(['convert', rig, join(dir, 'players', 'a;b', 'tris.md2'), '--player'])
    expect(quoted.code).toBe(2)
    expect(quoted.stderr).toMatch(/--player: the folder "a;b" .* cannot name a Quake II player/)
    expect(quoted.read).toEqual([])
    expect(readdirSync(join(dir, 'players', 'a;b'))).toEqual([])
  })

  it('--clips naming one animation twice is refused, not the last kept', async () => {
    const out = join(dir, 'players', 'hero', 'tris.md2')
    const result = await runRecorded(['convert', rig, out, '--player', '--force', '--clips', 'stand=Idle Breath,stand=Walk'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--clips gives stand twice \("stand=Idle Breath", "stand=Walk"\): one clip an animation/)
    expect(result.read).toEqual([])
  })
})

describe('--game-path refuses the root and blank folders, as the docs say', () => {
  it.each(['/', '///', '   ', 'models/ /fox', 'models/fox '])('%j is a usage error and nothing is written', async (value) => {
    const out = join(dir, 'fox.md2')
    const result = await run(['convert', rig, out, '--game-path', value])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(`--game-path ${JSON.stringify(value)}: `)
    expect(existsSync(out)).toBe(false)
  })

  it("'' still names the skin bare, and a trailing slash is still a folder", async () => {
    const bare = await run(['convert', rig, join(dir, 'bare.md2'), '--game-path', ''])
    expect(bare.code, bare.stderr).toBe(0)
    expect(parseMD2(new Uint8Array(readFileSync(join(dir, 'bare.md2')))).skins).toEqual(['bare.pcx'])
    const slashed = await run(['convert', rig, join(dir, 'fox2.md2'), '--game-path', 'models/fox/'])
    expect(slashed.code, slashed.stderr).toBe(0)
    expect(parseMD2(new Uint8Array(readFileSync(join(dir, 'fox2.md2')))).skins).toEqual(['models/fox/fox2.pcx'])
  })
})
