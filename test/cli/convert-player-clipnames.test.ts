/**
 * Names from glTF files as exporters write them: a morph-target animation's targets past MD2's 15-byte frame
 * names (cut as clip names are, said), and an animation with no name (named by its index: `--clips run=0`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BoxGeometry, Float32BufferAttribute, Group, Mesh, MeshStandardMaterial } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packGLB, readGLB } from '../../src/core/gltf/glb'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { runOnDisk as run } from '../support/cli'
import { buildRig, exportRig } from '../../stories/support/rig'

let dir: string
/** Blender's shape keys as its exporter names them, one frame each. */
const TARGETS = ['CharacterArmature|Idle_Gun_Pointing_001', 'CharacterArmature|Idle_Gun_Pointing_002', 'Idle_Gun_Pointed_001', 'open']

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-names-'))
  const geometry = new BoxGeometry(10, 10, 10)
  const base = geometry.getAttribute('position')
  geometry.morphAttributes.position = TARGETS.map((_, t) => {
    const moved = new Float32Array(base.count * 3)
    for (let i = 0; i < base.count; i++) moved.set([base.getX(i) * (1 + t / 4), base.getY(i), base.getZ(i)], i * 3)
    return new Float32BufferAttribute(moved, 3)
  })
  const box = new Mesh(geometry, new MeshStandardMaterial())
  box.name = 'box'
  box.morphTargetInfluences = TARGETS.map(() => 0)
  box.morphTargetDictionary = Object.fromEntries(TARGETS.map((name, t) => [name, t]))
  const scene = new Group()
  scene.add(box)
  writeFileSync(join(dir, 'shapes.glb'), await exportRig(scene, []))

  // A walk whose animation has no name (glTF's name is optional; three's loader calls it animation_0).
  const { scene: rig, clips } = buildRig()
  const { json, bin } = readGLB(await exportRig(rig, [clips.find((clip) => clip.name === 'Walk')!]))
  for (const animation of json.animations as { name?: string }[]) delete animation.name
  writeFileSync(join(dir, 'unnamed.glb'), packGLB(json, bin))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('names', () => {
  it('morph target names past 15 bytes are cut to fit, each animation’s prefix its own, and said', async () => {
    const out = join(dir, 'shapes.md2')
    const result = await run(['convert', join(dir, 'shapes.glb'), out])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(
      /3 morph target names cut to fit MD2's 15-byte frame names: "CharacterArmature\|Idle_Gun_Pointing_001" is Idle_Gun_Poi001/,
    )
    const model = parseMD2(new Uint8Array(readFileSync(out)))
    expect(model.frameNames).toEqual(['Idle_Gun_Poi001', 'Idle_Gun_Poi002', 'Idle_Gun_2_001', 'open'])
  })

  it('an unnamed animation is listed by its index and named by it, for a player and a model', async () => {
    mkdirSync(join(dir, 'players', 'walker'), { recursive: true })
    const out = join(dir, 'players', 'walker', 'tris.md2')
    const refused = await run(['convert', join(dir, 'unnamed.glb'), out, '--player'])
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/run=0.*the clips: 0 \(unnamed\)/) })
    const player = await run(['convert', join(dir, 'unnamed.glb'), out, '--player', '--clips', 'run=0'])
    expect(player.code, player.stderr).toBe(0)
    expect(player.stdout).toMatch(/a Quake II player: run 6 from "animation_0"/)
    expect(player.stderr).toMatch(/stand \(run's first pose\)/)

    const model = join(dir, 'walker.md2')
    const renamed = await run(['convert', join(dir, 'unnamed.glb'), model, '--clips', 'walk=0'])
    expect(renamed.code, renamed.stderr).toBe(0)
    expect(parseMD2(new Uint8Array(readFileSync(model))).animations.map((animation) => animation.name)).toEqual(['walk'])
    const missing = await run(['convert', join(dir, 'unnamed.glb'), model, '--force', '--clips', 'walk=3'])
    expect(missing).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--clips walk=3: no clip is named "3" \(the clips: 0 \(unnamed\)\)/),
    })
  })
})
