/**
 * The conversion API called carelessly (issue #57): a missing or wrong argument is a coded `MD2Error`
 * (`BAD_ARGUMENT`, saying what the argument takes), never a bare TypeError or RangeError from deep inside, and
 * never a result other than the one asked for (PNG bytes labelled `bmp`).
 */
import { AnimationClip, BoxGeometry, Mesh, MeshStandardMaterial, Object3D, VectorKeyframeTrack } from 'three'
import { describe, expect, it } from 'vitest'
import { MD2Error } from '../../src/core/MD2Error'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MAX_SCENE_DEPTH } from '../../src/three/convert/bakeChecks'
import { bakeMD2 } from '../../src/three/convert/bakeMD2'
import { bakePlayerMD2 } from '../../src/three/convert/bakePlayer'
import { convertToMD2 } from '../../src/three/convert/convertToMD2'
import { exportGLTF } from '../../src/three/convert/exportGLTF'
import { buildRig } from '../../stories/support/rig'
import { readAsset } from '../support/assets'
import { expectMD2Error } from '../support/errors'

const loose = <T>(value: unknown) => value as T

/** A box hung `depth` nodes below the scene: how deep a careless caller's tree may go. */
function deepScene(depth: number): Object3D {
  const scene = new Object3D()
  let at = scene
  for (let i = 0; i < depth; i++) {
    const node = new Object3D()
    node.name = `n${i}`
    at.add(node)
    at = node
  }
  at.add(new Mesh(new BoxGeometry(8, 8, 8), new MeshStandardMaterial()))
  return scene
}

describe('convertToMD2 called carelessly', () => {
  const { scene, clips } = buildRig()

  it('without options, or with options that are not an object, says what it takes', () => {
    expectMD2Error(() => convertToMD2(scene, clips, loose(undefined)), 'BAD_ARGUMENT', {
      text: "options takes an object with at least the skin's name",
    })
    expectMD2Error(() => convertToMD2(scene, clips, loose('fox.pcx')), 'BAD_ARGUMENT', { text: 'got "fox.pcx"' })
    expectMD2Error(() => convertToMD2(scene, clips, loose({})), 'BAD_ARGUMENT', { text: 'skinName takes' })
  })

  it('a skin that is not a decoded image is refused before the bake', () => {
    expectMD2Error(() => convertToMD2(scene, clips, { skinName: 'a.pcx', skin: loose({ data: null }) }), 'BAD_ARGUMENT', {
      text: 'skin takes a decoded image',
    })
    expectMD2Error(
      () => convertToMD2(scene, clips, { skinName: 'a.pcx', skin: loose({ width: 2, height: 2, data: null }) }),
      'BAD_ARGUMENT',
      { text: 'skin.data takes' },
    )
    expectMD2Error(
      () => convertToMD2(scene, clips, { skinName: 'a.pcx', skin: { width: 2, height: 2, data: new Uint8Array(15) } }),
      'BAD_ARGUMENT',
      { text: 'skin.data holds 15 bytes; 2 × 2 RGBA takes 16' },
    )
  })

  it('a skin format it does not write is refused, not written as PNG under its name', () => {
    expectMD2Error(() => convertToMD2(scene, clips, { skinName: 'a.bmp', skinFormat: loose('bmp') }), 'BAD_ARGUMENT', {
      text: `skinFormat takes 'pcx', 'tga', 'png', got "bmp"`,
    })
    // What it does write is what it says.
    const tga = convertToMD2(scene, clips, { skinName: 'a.tga', skinFormat: 'tga' })
    expect(tga.skin?.format).toBe('tga')
    expect([...tga.skin!.data.subarray(1, 3)]).toEqual([0, 2]) // no colour map, uncompressed true-colour
  })

  it('a player and a weapon given as something else are refused', () => {
    expectMD2Error(() => convertToMD2(scene, clips, { skinName: 'a.pcx', player: loose('stand=Idle') }), 'BAD_ARGUMENT', {
      text: 'player takes true',
    })
    expectMD2Error(() => convertToMD2(scene, clips, { skinName: 'a.pcx', player: true, weapon: loose(['club']) }), 'BAD_ARGUMENT', {
      text: 'weapon takes { meshes: [names], skinName }',
    })
  })
})

describe('names a clip brings, quoted in an error', () => {
  it('are printable: control characters escaped, never raw', () => {
    const { scene } = buildRig()
    const clip = new AnimationClip('\x1b]0;pwned\x07\nFORGED', 1, [new VectorKeyframeTrack('no\x1bbone.position', [0], [0, 0, 0])])
    const error = expectMD2Error(() => bakeMD2(scene, [clip]), 'BAD_ARGUMENT', {
      text: 'clip "\\x1b]0;pwned\\x07\\nFORGED" animates 1 node the scene does not have: "no\\x1bbone"',
    })
    expect([...error.message].filter((char) => char < ' ')).toEqual([])
  })
})

describe('bakePlayerMD2 called carelessly', () => {
  const { scene, clips } = buildRig()

  it('null options, null clips or clips that are not an object are coded errors', () => {
    expectMD2Error(() => bakePlayerMD2(scene, clips, loose(null)), 'BAD_ARGUMENT', { text: 'options takes an object, got null' })
    expectMD2Error(() => bakePlayerMD2(scene, loose(null)), 'BAD_ARGUMENT', { text: 'the clips take an array' })
    expectMD2Error(() => bakePlayerMD2(scene, clips, { clips: loose(['Idle Breath']) }), 'BAD_ARGUMENT', {
      text: 'clips takes an object naming a clip for each player animation',
    })
    expectMD2Error(() => bakePlayerMD2(scene, clips, { clips: loose({ stand: 3 }) }), 'BAD_ARGUMENT', {
      text: "clips.stand takes a clip's name, got 3",
    })
  })
})

describe('a scene deeper than three.js can walk', () => {
  it(`a 50,000-deep tree is refused in words (past ${MAX_SCENE_DEPTH} levels), not a stack overflow`, () => {
    const scene = deepScene(50_000)
    const noClips: AnimationClip[] = []
    expectMD2Error(() => bakeMD2(scene, noClips), 'BAD_ARGUMENT', { text: `more than ${MAX_SCENE_DEPTH} nodes deep` })
    expectMD2Error(() => convertToMD2(scene, noClips, { skinName: 'deep.pcx' }), 'BAD_ARGUMENT', { text: 'nodes deep' })
    expectMD2Error(() => bakePlayerMD2(scene, noClips), 'BAD_ARGUMENT', { text: 'nodes deep' })
  })

  it('a tree as deep as the limit still bakes', () => {
    const baked = bakeMD2(deepScene(MAX_SCENE_DEPTH - 1), [])
    expect(baked.model.header.numTris).toBe(12)
  })

  it('a tree edited into a cycle is refused, not walked for ever', () => {
    const scene = deepScene(3)
    const child = scene.children[0]!
    child.children[0]!.children.push(child)
    expectMD2Error(() => bakeMD2(scene, []), 'BAD_ARGUMENT', { text: 'twice: its tree has a cycle' })
  })
})

describe("parseMD2's options, checked as MD2Loader.setAnimationTable checks a table", () => {
  const ogro = () => readAsset('quake2/ogro/tris.MD2')

  it('a table that is a string, a rate of 0 on a range, options that are not an object: BAD_ARGUMENT', () => {
    expectMD2Error(() => parseMD2(ogro(), { animations: loose('stand 0 39') }), 'BAD_ARGUMENT', {
      section: 'animation table',
      text: 'parseMD2: animations takes an array of { name, start, end, fps } entries, got a string',
    })
    expectMD2Error(() => parseMD2(ogro(), { animations: [{ name: 'stand', start: 0, end: 39, fps: 0 }] }), 'BAD_ARGUMENT', {
      text: 'entry 0 ("stand") has the rate 0',
    })
    expectMD2Error(() => parseMD2(ogro(), { animations: [{ name: 'stand', start: 0, end: 39, fps: loose('10') }] }), 'BAD_ARGUMENT', {
      text: 'has the rate the string "10"',
    })
    expectMD2Error(() => parseMD2(ogro(), loose(null)), 'BAD_ARGUMENT', { text: 'options take { name?: string' })
    expectMD2Error(() => parseMD2(ogro(), { name: loose(7) }), 'BAD_ARGUMENT', { text: 'options take { name?: string' })
  })

  it('a rate of 0 on one held frame is kept; an entry that is not an object is left out and said', () => {
    const model = parseMD2(ogro(), { animations: [{ name: 'dead', start: 197, end: 197, fps: 0 }, loose(null)] })
    expect(model.animations).toEqual([{ name: 'dead', start: 197, end: 197, fps: 0, source: 'table' }])
    expect(model.warnings.filter((w) => w.startsWith('parseMD2: animations: entry 1 null is not { name, start, end }'))).toHaveLength(1)
  })
})

describe('exportGLTF called carelessly', () => {
  const model = parseMD2(readAsset('quake2/ogro/weapon.md2'))

  it('rejects with a coded error naming what each argument takes', async () => {
    const refused = async (run: () => Promise<unknown>, text: string) => {
      const error = await run().then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(MD2Error)
      expect((error as MD2Error).code).toBe('BAD_ARGUMENT')
      expect((error as MD2Error).message).toContain(text)
    }
    await refused(() => exportGLTF(loose(null)), 'the model takes a parsed MD2 model')
    await refused(() => exportGLTF(model, loose('glb')), 'options take an object')
    await refused(() => exportGLTF(model, { skin: loose({ image: {} }) }), 'skin takes a three.js texture')
    await refused(() => exportGLTF(model, { animations: loose('yes') }), 'animations takes true or false')
    await refused(() => exportGLTF(model, { frame: loose('3') }), "frame takes a keyframe's number")
    expect((await exportGLTF(model, { animations: false })).byteLength).toBeGreaterThan(0)
  })
})
