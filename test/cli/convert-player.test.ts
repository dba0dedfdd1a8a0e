/**
 * `convert --player`: a rigged body and Mixamo-style downloads (one clip each, named after its file: idle, run,
 * jump, death) become `players/hero/`: `tris.md2` on Quake II's 198-frame player table, each animation its
 * clip resampled to the engine's frame count (read back against three's own pose at the sampled times), the
 * animations without a clip taken from their nearest and said, a skin and a HUD icon.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QUAKE2_PLAYER_ANIMATIONS } from '../../src/core/format/animationTable'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { decodePCXIndexed } from '../../src/core/images/pcx'
import { runOnDisk as run } from '../support/cli'
import { drawnFrame, halfStep, loadGLB, threePose, worstNearest } from '../support/skinnedReference'
import { MIXAMO_CLIP } from '../../stories/support/character'
import { buildRig, exportRig } from '../../stories/support/rig'

let dir: string
const SCALE = 32
/** Each download: its file name and the rig's clip it carries. */
const DOWNLOADS = [
  ['idle', 'Idle Breath'],
  ['run', 'Walk'],
  ['jump', 'Wave'],
  ['death', 'Walk'],
] as const

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-player-'))
  for (const [file, clipName] of DOWNLOADS) {
    const { scene, clips } = buildRig()
    const clip = clips.find((c) => c.name === clipName)!.clone()
    clip.name = MIXAMO_CLIP
    writeFileSync(join(dir, `${file}.glb`), await exportRig(scene, [clip]))
  }
  mkdirSync(join(dir, 'players', 'hero'), { recursive: true })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const inputs = () => DOWNLOADS.map(([file]) => join(dir, `${file}.glb`))

describe('convert --player', () => {
  it('writes players/NAME/: 198 frames in the engine’s order, each animation its clip resampled, a skin and an icon', async () => {
    const out = join(dir, 'players', 'hero', 'tris.md2')
    const result = await run(['convert', ...inputs(), out, '--player', '--scale', String(SCALE)])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/a Quake II player: stand 40 from "idle", run 6 from "run", jump 6 from "jump", death1 6 from "death"/)
    expect(result.stdout).toMatch(/skin 64×32 written to .*players\/hero\/hero\.pcx .*, icon .*players\/hero\/hero_i\.pcx/)
    // The animations without a clip, each said once, in one line.
    const warnings = result.stderr.trim().split('\n')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/no clip for attack \(taken from stand\), pain1 \(taken from stand\)/)
    expect(warnings[0]).toMatch(/crouch_walk \(taken from run\)/)
    expect(warnings[0]).toMatch(/death2 \(taken from death1\), death3 \(taken from death1\)/)
    expect(warnings[0]).toMatch(/weapon\.md2 a stand-in/)

    const model = parseMD2(new Uint8Array(readFileSync(out)), { name: out })
    expect(model.header.numFrames).toBe(198)
    expect(model.warnings).toEqual([])
    // The engine's frame counts, named as Quake II's own player frames.
    const counts = Object.fromEntries(QUAKE2_PLAYER_ANIMATIONS.map(({ name, start, end }) => [name, end - start + 1]))
    expect(counts).toMatchObject({ stand: 40, run: 6, attack: 8, pain1: 4, jump: 6, crouch_stand: 19, death1: 6, death3: 8 })
    expect(model.frameNames.slice(0, 2)).toEqual(['stand01', 'stand02'])
    expect(model.frameNames.slice(40, 46)).toEqual(['run1', 'run2', 'run3', 'run4', 'run5', 'run6'])
    expect(model.frameNames.slice(54, 56)).toEqual(['pain101', 'pain102'])
    expect(model.frameNames.slice(135, 136)).toEqual(['crstnd01'])
    expect(model.frameNames.slice(190)).toEqual([
      'death301',
      'death302',
      'death303',
      'death304',
      'death305',
      'death306',
      'death307',
      'death308',
    ])

    // run: the walk's whole cycle over 6 frames (it loops); death1: the walk from its first pose to its last over 6.
    const reference = await loadGLB(new Uint8Array(readFileSync(join(dir, 'run.glb'))))
    const walk = reference.animations[0]!
    // Placed in the game's player box: lifted so that stand01 (idle's first pose) has its feet at z = -24.
    const idle = await loadGLB(new Uint8Array(readFileSync(join(dir, 'idle.glb'))))
    const stand01 = threePose(idle.scene, idle.animations[0], 0)
    let feet = Infinity
    for (let v = 1; v < stand01.length; v += 3) feet = Math.min(feet, stand01[v]! * SCALE)
    const lift = -24 - feet
    const check = (first: number, count: number, time: (k: number) => number) => {
      for (let k = 0; k < count; k++) {
        const want = threePose(reference.scene, walk, time(k)).map((v, i) => v * SCALE + (i % 3 === 1 ? lift : 0))
        expect(worstNearest(drawnFrame(model, first + k), want, halfStep(model, first + k)), `frame ${first + k}`).toBeLessThanOrEqual(1)
      }
    }
    check(40, 6, (k) => (k * walk.duration) / 6)
    check(178, 6, (k) => (k * walk.duration) / 5)
    // Filled: death2 is death1's frames.
    for (let k = 0; k < 6; k++) expect(drawnFrame(model, 184 + k)).toEqual(drawnFrame(model, 178 + k))

    // The icon: 32 × 32 in Quake II's palette, the figure drawn on a transparent ground.
    const icon = decodePCXIndexed(new Uint8Array(readFileSync(join(dir, 'players', 'hero', 'hero_i.pcx'))))
    expect([icon.width, icon.height]).toEqual([32, 32])
    const drawn = icon.indices.filter((index) => index !== 255).length
    expect(drawn).toBeGreaterThan(32 * 32 * 0.1)
    expect(drawn).toBeLessThan(32 * 32 * 0.9)
    expect(icon.indices[0]).toBe(255)
    if (process.env.KEEP_ICON) writeFileSync(process.env.KEEP_ICON, readFileSync(join(dir, 'players', 'hero', 'hero_i.pcx')))
  })

  it('--clips names the clips for animations; a name that is not one, or OUT not tris.md2, is refused', async () => {
    const out = join(dir, 'players', 'hero', 'tris.md2')
    const named = await run(['convert', ...inputs(), out, '--player', '--force', '--clips', 'stand=idle,attack=jump,death1=death'])
    expect(named.code, named.stderr).toBe(0)
    expect(named.stdout).toMatch(/a Quake II player: stand 40 from "idle", attack 8 from "jump", death1 6 from "death"/)
    expect(named.stderr).toMatch(/run \(taken from stand\)/)

    const wrong = await run(['convert', ...inputs(), out, '--player', '--force', '--clips', 'walk=run'])
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringMatching(/--player --clips takes animation=clip pairs.*got "walk=run"/) })
    const unknown = await run(['convert', ...inputs(), out, '--player', '--force', '--clips', 'stand=sleep'])
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/no clip is named "sleep"/) })
    const elsewhere = await run(['convert', ...inputs(), join(dir, 'hero.md2'), '--player'])
    expect(elsewhere).toMatchObject({ code: 2, stderr: expect.stringMatching(/--player writes players\/NAME\/tris\.md2/) })
    expect(existsSync(join(dir, 'hero.md2'))).toBe(false)
    const rate = await run(['convert', ...inputs(), out, '--player', '--force', '--fps', '20'])
    expect(rate).toMatchObject({ code: 2, stderr: expect.stringMatching(/--player: the game plays players at 10 frames a second/) })
  })

  it('--weapon bakes those meshes apart on the player’s frames into weapon.md2, the body without them', async () => {
    const folder = join(dir, 'players', 'armed')
    mkdirSync(folder, { recursive: true })
    const out = join(folder, 'tris.md2')
    const result = await run(['convert', ...inputs(), out, '--player', '--weapon', 'club', '--scale', String(SCALE)])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(
      /weapon .*players\/armed\/weapon\.md2 \(8 vertices, 12 triangles, its skin .*players\/armed\/weapon\.pcx\)/,
    )
    const body = parseMD2(new Uint8Array(readFileSync(out)))
    const weapon = parseMD2(new Uint8Array(readFileSync(join(folder, 'weapon.md2'))))
    expect(weapon.header.numFrames).toBe(198)
    expect(weapon.frameNames).toEqual(body.frameNames)
    expect(weapon.skins).toEqual(['players/armed/weapon.pcx'])
    // The whole character baked alone, and the body and its weapon: the same vertices, split between them.
    mkdirSync(join(dir, 'players', 'whole'), { recursive: true })
    const wholeOut = join(dir, 'players', 'whole', 'tris.md2')
    expect((await run(['convert', ...inputs(), wholeOut, '--player', '--scale', String(SCALE)])).code).toBe(0)
    const whole = parseMD2(new Uint8Array(readFileSync(wholeOut)))
    expect(body.header.numVertices + weapon.header.numVertices).toBe(whole.header.numVertices)
    expect(body.header.numTris + weapon.header.numTris).toBe(whole.header.numTris)
    // In every frame the weapon is where the whole character's club is: each of its vertices on one of the whole's.
    for (const f of [0, 42, 180]) {
      const all = drawnFrame(whole, f)
      const held = drawnFrame(weapon, f)
      for (let v = 0; v < held.length; v += 3) {
        let best = Infinity
        for (let w = 0; w < all.length; w += 3)
          best = Math.min(best, Math.hypot(held[v]! - all[w]!, held[v + 1]! - all[w + 1]!, held[v + 2]! - all[w + 2]!))
        expect(best, `frame ${f} vertex ${v / 3}`).toBeLessThan(Math.max(...halfStep(weapon, f)) * 4 + Math.max(...halfStep(whole, f)) * 4)
      }
    }
    const unknown = await run(['convert', ...inputs(), out, '--player', '--force', '--weapon', 'sword'])
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/no visible mesh is named "sword"/) })
    const alone = await run(['convert', ...inputs(), join(dir, 'x.md2'), '--weapon', 'club'])
    expect(alone).toMatchObject({ code: 2, stderr: expect.stringMatching(/--weapon: a weapon is baked with a player/) })
  })
})
