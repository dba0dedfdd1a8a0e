/**
 * `convert --player` on a character as an asset pack's Blender export comes (Quaternius's and three's
 * RobotExpressive): one file, its clips named `CharacterArmature|Idle`, `…|Idle_Gun_Pointing`, `…|Run`, `…|Punch`,
 * `…|Shoot`, `…|Run_swordAttack`, no death, 1.6 units tall with its feet at 0. Quake II's client
 * (CL_LoadClientinfo) takes the player only with weapon.md2, the skin and its icon beside tris.md2; the game's
 * player box puts its feet at z = -24, about 56 tall.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QUAKE2_PLAYER_ANIMATIONS } from '../../src/core/format/animationTable'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../src/core/format/types'
import { runOnDisk as run } from '../support/cli'
import { drawnFrame } from '../support/skinnedReference'
import { quake2Refusals } from '../support/quake2Rules'
import { buildRig, exportRig } from '../../stories/support/rig'

let dir: string
/** The pack's clips: each name and the rig's clip it carries. */
const PACK = [
  ['CharacterArmature|Idle_Gun_Pointing', 'Wave'],
  ['CharacterArmature|Idle', 'Idle Breath'],
  ['CharacterArmature|Punch', 'Wave'],
  ['CharacterArmature|Run', 'Walk'],
  ['CharacterArmature|Run_swordAttack', 'Walk'],
  ['CharacterArmature|Shoot', 'Wave'],
] as const

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-pack-'))
  const { scene, clips } = buildRig()
  const named = PACK.map(([name, from]) => {
    const clip = clips.find((c) => c.name === from)!.clone()
    clip.name = name
    return clip
  })
  writeFileSync(join(dir, 'robot.glb'), await exportRig(scene, named))
  const walkOnly = buildRig()
  const walk = walkOnly.clips.find((c) => c.name === 'Walk')!.clone()
  walk.name = 'Armature|Walking'
  writeFileSync(join(dir, 'walker.glb'), await exportRig(walkOnly.scene, [walk]))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A frame's bounds in MD2's axes (x forward, y left, z up), as the game places it: [min, max] per axis. */
function bounds(model: MD2ModelData, f: number): [number, number][] {
  const three = drawnFrame(model, f)
  const out: [number, number][] = [0, 1, 2].map(() => [Infinity, -Infinity])
  for (let v = 0; v < three.length; v += 3) {
    // three (X, Y, Z) is MD2 (y, z, x).
    const md2 = [three[v + 2]!, three[v]!, three[v + 1]!]
    md2.forEach((value, axis) => {
      out[axis]![0] = Math.min(out[axis]![0], value)
      out[axis]![1] = Math.max(out[axis]![1], value)
    })
  }
  return out
}

describe('convert --player on an asset pack’s character', () => {
  it('a player the client takes: 198 frames, stand01 in the player box, weapon.md2, skin and icon beside it', async () => {
    const folder = join(dir, 'players', 'robot')
    mkdirSync(folder, { recursive: true })
    const out = join(folder, 'tris.md2')
    const result = await run(['convert', join(dir, 'robot.glb'), out, '--player'])
    expect(result.code, result.stderr).toBe(0)
    // The clips a person picks: Idle (not Idle_Gun_Pointing), Run, Shoot (not Punch, not Run_swordAttack).
    expect(result.stdout).toMatch(
      /a Quake II player: stand 40 from "CharacterArmature\|Idle", run 6 from "CharacterArmature\|Run", attack 8 from "CharacterArmature\|Shoot"/,
    )
    expect(result.stdout).toMatch(/point 12 from "CharacterArmature\|Idle_Gun_Pointing"/)
    expect(result.stdout).toMatch(/weapon .*players\/robot\/weapon\.md2 \(a stand-in/)
    // Every stand-in in one line: the deaths fall from the stand, the weapon is a stand-in.
    const warnings = result.stderr.trim().split('\n')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/death1 \(stand's first pose falling to the floor\)/)
    expect(warnings[0]).toMatch(/death3 \(stand's first pose falling to the floor\)/)
    expect(warnings[0]).toMatch(/weapon\.md2 a stand-in/)

    const bytes = new Uint8Array(readFileSync(out))
    const skinFile = (name: string) => (existsSync(join(dir, name)) ? new Uint8Array(readFileSync(join(dir, name))) : undefined)
    expect(quake2Refusals(bytes, skinFile)).toEqual([])
    const model = parseMD2(bytes)
    expect(model.header.numFrames).toBe(198)
    expect(model.frameNames).toEqual(
      QUAKE2_PLAYER_ANIMATIONS.flatMap(({ name, start, end }) => {
        const [base, digits] = (
          {
            stand: ['stand', 2],
            run: ['run', 1],
            attack: ['attack', 1],
            jump: ['jump', 1],
            crouch_stand: ['crstnd', 2],
            crouch_walk: ['crwalk', 1],
            crouch_attack: ['crattak', 1],
            crouch_pain: ['crpain', 1],
            crouch_death: ['crdeath', 1],
          } as Record<string, [string, number]>
        )[name] ?? [name, 2]
        return Array.from({ length: end - start + 1 }, (_, k) => base + String(k + 1).padStart(digits, '0'))
      }),
    )
    expect(model.frameNames.slice(0, 2)).toEqual(['stand01', 'stand02'])
    expect(model.frameNames[197]).toBe('death308')

    // stand01 in the game's player box: feet at z = -24, 56 tall, across the origin.
    const [x, y, z] = bounds(model, 0)
    expect(z![0]).toBeCloseTo(-24, 0)
    expect(Math.abs(z![1] - z![0] - 56)).toBeLessThanOrEqual(4)
    // Across, the rig's root (between its feet) is the origin: the body around it, a held arm making it lopsided.
    for (const axis of [x!, y!]) {
      expect(axis[0]).toBeLessThan(0)
      expect(axis[1]).toBeGreaterThan(0)
      expect(Math.abs((axis[0] + axis[1]) / 2)).toBeLessThan(8)
    }
    // The last death frame lies on the floor: as long as the stand was tall, a fraction as high.
    const [, , lying] = bounds(model, 197)
    expect(lying![0]).toBeCloseTo(-24, 0)
    expect(lying![1] - lying![0]).toBeLessThan(20)

    // weapon.md2: the body's 198 frames and frame names, loaded by the engine's rules, naming the body's skin.
    const weaponBytes = new Uint8Array(readFileSync(join(folder, 'weapon.md2')))
    expect(quake2Refusals(weaponBytes, skinFile)).toEqual([])
    const weapon = parseMD2(weaponBytes)
    expect(weapon.header.numFrames).toBe(198)
    expect(weapon.frameNames).toEqual(model.frameNames)
    expect(weapon.skins).toEqual(['players/robot/robot.pcx'])
    // Hidden inside the body: within stand01's bounds.
    const [wx, wy, wz] = bounds(weapon, 0)
    expect(wz![0]).toBeGreaterThan(z![0])
    expect(wz![1]).toBeLessThan(z![1])
    expect(wx![0]).toBeGreaterThanOrEqual(x![0])
    expect(wy![1]).toBeLessThanOrEqual(y![1])
    expect(existsSync(join(folder, 'robot.pcx'))).toBe(true)
    expect(existsSync(join(folder, 'robot_i.pcx'))).toBe(true)
    expect(existsSync(join(folder, 'weapon.pcx'))).toBe(false)
  })

  it('--height and --origin place it otherwise; --scale keeps its size; --height with --scale is refused', async () => {
    const folder = join(dir, 'players', 'tall')
    mkdirSync(folder, { recursive: true })
    const out = join(folder, 'tris.md2')
    const placed = await run(['convert', join(dir, 'robot.glb'), out, '--player', '--height', '70', '--origin', '0,0,-30'])
    expect(placed.code, placed.stderr).toBe(0)
    const [, , z] = bounds(parseMD2(new Uint8Array(readFileSync(out))), 0)
    expect(z![0]).toBeCloseTo(-30, 0)
    expect(Math.abs(z![1] - z![0] - 70)).toBeLessThanOrEqual(1)

    const scaled = await run(['convert', join(dir, 'robot.glb'), out, '--player', '--force', '--scale', '10'])
    expect(scaled.code, scaled.stderr).toBe(0)
    const [, , small] = bounds(parseMD2(new Uint8Array(readFileSync(out))), 0)
    expect(small![0]).toBeCloseTo(-24, 0)
    expect(Math.abs(small![1] - small![0] - 16)).toBeLessThanOrEqual(1)

    const both = await run(['convert', join(dir, 'robot.glb'), out, '--player', '--force', '--scale', '10', '--height', '56'])
    expect(both).toMatchObject({ code: 2, stderr: expect.stringMatching(/--height and --scale: give one/) })
    const wrong = await run(['convert', join(dir, 'robot.glb'), out, '--player', '--force', '--origin', '0,-24'])
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringMatching(/--origin takes X,Y,Z/) })
  })

  it('a monster gets --height and --origin too; without them it keeps the scene’s size and place', async () => {
    const out = join(dir, 'robot.md2')
    const kept = await run(['convert', join(dir, 'robot.glb'), out])
    expect(kept.code, kept.stderr).toBe(0)
    // Frame names after Blender's |: Idle01, Run01, …, not CharacterArma….
    const model = parseMD2(new Uint8Array(readFileSync(out)))
    expect(model.animations.map((animation) => animation.name)).toEqual(['Idle_Gun_Poin', 'Idle', 'Punch', 'Run', 'Run_swordAtta', 'Shoot'])
    expect(Math.abs(bounds(model, 0)[2]![1] - bounds(model, 0)[2]![0] - 1.6)).toBeLessThan(0.1)
    const placed = await run(['convert', join(dir, 'robot.glb'), out, '--force', '--height', '40', '--origin', '0,0,0'])
    expect(placed.code, placed.stderr).toBe(0)
    const [, , z] = bounds(parseMD2(new Uint8Array(readFileSync(out))), 0)
    expect(z![0]).toBeCloseTo(0, 0)
    expect(Math.abs(z![1] - z![0] - 40)).toBeLessThanOrEqual(1)
  })

  it('a character that only walks is a player standing in its walk’s first pose', async () => {
    const folder = join(dir, 'players', 'walker')
    mkdirSync(folder, { recursive: true })
    const out = join(folder, 'tris.md2')
    const result = await run(['convert', join(dir, 'walker.glb'), out, '--player'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/a Quake II player: run 6 from "Armature\|Walking"\)/)
    expect(result.stderr).toMatch(/stand \(run's first pose\)/)
    const model = parseMD2(new Uint8Array(readFileSync(out)))
    // Every stand frame is the run's first.
    for (const f of [1, 20, 39]) expect(drawnFrame(model, f)).toEqual(drawnFrame(model, 0))
    expect(drawnFrame(model, 40)).toEqual(drawnFrame(model, 0))
  })
})
