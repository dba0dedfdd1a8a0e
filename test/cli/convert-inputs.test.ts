/**
 * `convert body.glb idle.glb walk.glb … OUT.md2` (issue #41): the same character exported as separate
 * one-clip files, as Mixamo gives them ("with skin" and "without skin", every clip named
 * `Armature|mixamo.com|Layer0`), baked into one model with one animation per file, named after it; a
 * skeleton that does not match named; `--mesh` listing the meshes; `--simplify` fitting a dense character.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AnimationClip, Object3D } from 'three'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { buildCharacter, MIXAMO_CLIP } from '../../stories/support/character'
import { buildRig, exportRig } from '../../stories/support/rig'
import { runOnDisk as run } from '../support/cli'
import { quake2Refusals } from '../support/quake2Rules'

let dir: string
const file = (name: string) => join(dir, name)

/** One clip, renamed as Mixamo names every download's. */
function mixamo(clip: AnimationClip): AnimationClip {
  const copy = clip.clone()
  copy.name = MIXAMO_CLIP
  return copy
}

/** The rig's skeleton alone (no meshes), as Mixamo's "without skin" downloads. */
function skeletonOnly(): { scene: Object3D; clips: AnimationClip[] } {
  const { scene, clips } = buildRig()
  for (const name of ['body', 'club']) scene.getObjectByName(name)!.removeFromParent()
  return { scene, clips }
}

/** Frame `f`'s bytes past its 16-byte name (scale, translate after; the vertices): what two bakes must share. */
function frameBody(bytes: Uint8Array, f: number): Uint8Array {
  const model = parseMD2(bytes)
  const start = model.header.offsetFrames + f * model.header.frameSize
  return Uint8Array.from([...bytes.subarray(start, start + 24), ...bytes.subarray(start + 40, start + model.header.frameSize)])
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'md2-inputs-'))
  const { scene, clips } = buildRig()
  const [walk, , idle] = clips as [AnimationClip, AnimationClip, AnimationClip]
  writeFileSync(file('all.glb'), await exportRig(scene, clips))
  writeFileSync(file('body.glb'), await exportRig(scene, []))
  writeFileSync(file('walk.glb'), await exportRig(scene, [mixamo(walk)]))
  const bare = skeletonOnly()
  writeFileSync(file('wave.glb'), await exportRig(bare.scene, [mixamo(bare.clips[1]!)]))
  // A one-clip file whose clip has a name of its own: with several inputs, the file's name still wins.
  writeFileSync(file('idle.glb'), await exportRig(scene, [idle]))
  writeFileSync(file('the longest walking cycle ever.glb'), await exportRig(scene, [mixamo(walk)]))
  // A skeleton named otherwise: its clip animates bones the body does not have.
  const other = skeletonOnly()
  for (const name of ['hips', 'spine', 'arm']) other.scene.getObjectByName(name)!.name = `mixamorig_${name}`
  const renamed = other.clips[0]!.clone()
  renamed.tracks.forEach((track) => (track.name = `mixamorig_${track.name}`))
  writeFileSync(file('other.glb'), await exportRig(other.scene, [renamed]))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('several inputs, one model', () => {
  it('one animation per file, named after it, every frame as the same clips baked from one file', async () => {
    const result = await run(['convert', file('body.glb'), file('walk.glb'), file('wave.glb'), file('idle.glb'), file('multi.md2')])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^wrote .*multi\.md2: .*, 3 animations \(walk 11, wave 7, idle \d+\) at 10 fps, skin 64×32 written/)
    const multi = new Uint8Array(readFileSync(file('multi.md2')))
    expect(quake2Refusals(multi, (name) => new Uint8Array(readFileSync(file(name))))).toEqual([])
    const model = parseMD2(multi)
    expect(model.warnings).toEqual([])
    expect(model.animations.map((a) => a.name)).toEqual(['walk', 'wave', 'idle'])
    expect(model.frames[0]!.name).toBe('walk01')

    // The reference: the three clips in one file, baked as the rig test checks them against three's skinning.
    const reference = await run(['convert', file('all.glb'), file('all.md2')])
    expect(reference.code).toBe(0)
    const single = new Uint8Array(readFileSync(file('all.md2')))
    const singleModel = parseMD2(single)
    expect(singleModel.animations.map((a) => a.end - a.start)).toEqual(model.animations.map((a) => a.end - a.start))
    expect(model.header.numFrames).toBe(singleModel.header.numFrames)
    for (let f = 0; f < model.header.numFrames; f++) expect(frameBody(multi, f), `frame ${f}`).toEqual(frameBody(single, f))
  })

  it("one input whose one clip has Mixamo's generic name: the file's name", async () => {
    const result = await run(['convert', file('walk.glb'), file('walk.md2')])
    expect(result.stderr).toBe('')
    expect(result.stdout).toMatch(/1 animation \(walk 11\)/)
  })

  it('a long file name fits the 16-byte frame names, the cut said on one line', async () => {
    const result = await run(['convert', file('body.glb'), file('the longest walking cycle ever.glb'), file('long.md2')])
    expect(result.stderr).toMatch(
      /^\S*body\.glb: warning: clip "the_longest_walking_cycle_ever" is named "the_longest_w" in the model \(frames the_longest_w01, …\): MD2's frame names hold 15 bytes with the frame number; the name is cut to fit\n$/,
    )
    expect(result.code).toBe(0)
    const model = parseMD2(new Uint8Array(readFileSync(file('long.md2'))))
    for (const frame of model.frames) expect(new TextEncoder().encode(frame.name).length).toBeLessThanOrEqual(15)
    expect(model.animations).toHaveLength(1)
  })

  it('a skeleton that does not match: the bones missing named, exit 1, nothing written', async () => {
    const result = await run(['convert', file('body.glb'), file('other.glb'), file('other.md2')])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toMatch(/BAD_ARGUMENT: .*"mixamorig_(hips|spine)"/)
    expect(result.stderr).toMatch(/does not have/)
  })

  it('further inputs must be glTF; --mesh with an unknown name lists the meshes', async () => {
    const obj = await run(['convert', file('body.glb'), file('walk.obj'), file('x.md2')])
    expect(obj).toMatchObject({ code: 2, stderr: expect.stringMatching(/walk\.obj: further inputs are \.glb or \.gltf files/) })
    const mesh = await run(['convert', file('all.glb'), file('x.md2'), '--mesh', 'nope'])
    expect(mesh.code).toBe(1)
    expect(mesh.stderr).toMatch(/BAD_ARGUMENT: .*no visible mesh is named "nope" \(the meshes: "club", "body"\)/)
  })
})

describe('--simplify', () => {
  let dense: string
  beforeAll(async () => {
    const { scene, clips } = buildCharacter({ detail: 0.3 })
    dense = file('dense.glb')
    writeFileSync(dense, await exportRig(scene, clips))
  })

  it('refused without it, naming every limit passed and the option', async () => {
    const result = await run(['convert', dense, file('dense.md2')])
    expect(result).toMatchObject({ code: 1, stdout: '' })
    expect(result.stderr).toMatch(/UNWRITABLE: .*vertices.*--simplify/)
  })

  it('fits MD2 with it, or the triangle count given; the file loads in Quake II with no warning', async () => {
    const result = await run(['convert', dense, file('dense.md2'), '--simplify'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/triangles, simplified from \d+ triangles and \d+ vertices, 3 animations/)
    const bytes = new Uint8Array(readFileSync(file('dense.md2')))
    expect(quake2Refusals(bytes, (name) => new Uint8Array(readFileSync(file(name))))).toEqual([])

    const fewer = await run(['convert', dense, file('fewer.md2'), '--simplify', '500', '--force'])
    expect(fewer.code).toBe(0)
    expect(parseMD2(new Uint8Array(readFileSync(file('fewer.md2')))).header.numTris).toBeLessThanOrEqual(500)
    const bad = await run(['convert', dense, file('bad.md2'), '--simplify', '0'])
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/--simplify takes a triangle count from 1 to 4096, got "0"/) })
  })
})
