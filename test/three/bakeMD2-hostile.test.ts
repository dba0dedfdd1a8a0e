/**
 * bakeMD2 held to the parser's standard (issue 43): careless options and hostile scenes, each refused with
 * an `MD2Error` naming what and where, before any frame is sampled; a file that declares far more vertices
 * than its triangles use costs what is written, not what is declared.
 */
import {
  AnimationClip,
  Bone,
  BufferGeometry,
  Float32BufferAttribute,
  Group,
  Mesh,
  NumberKeyframeTrack,
  QuaternionKeyframeTrack,
  Skeleton,
  SkinnedMesh,
  Uint16BufferAttribute,
  VectorKeyframeTrack,
  type Object3D,
} from 'three'
import { describe, expect, it } from 'vitest'
import { thrown } from '../support/errors'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { packGLB, readGLB } from '../../src/core/gltf/glb'
import { writeMD2 } from '../../src/core/format/writeMD2'
import { bakeMD2, type BakeMD2Options } from '../../src/three/convert/bakeMD2'
import { buildRig, exportRig } from '../../stories/support/rig'
import { loadGLB } from '../support/skinnedReference'

function triangle(name: string, positions = [0, 0, 0, 1, 0, 0, 0, 1, 0]): Mesh {
  const geometry = new BufferGeometry().setAttribute('position', new Float32BufferAttribute(positions, 3))
  geometry.setAttribute('uv', new Float32BufferAttribute(new Float32Array((positions.length / 3) * 2), 2))
  const mesh = new Mesh(geometry)
  mesh.name = name
  return mesh
}

const slide = (name = 'slide', times = [0, 1]) =>
  new AnimationClip(name, -1, [
    new VectorKeyframeTrack(
      'tri.position',
      times,
      times.flatMap((t) => [t, 0, 0]),
    ),
  ])

describe('bakeMD2 options of the wrong type', () => {
  const scene = new Group().add(triangle('tri'))
  it.each<[string, unknown, RegExp]>([
    ['clips', 'run', /^options: clips takes an array of clip names, got "run"$/],
    ['skins', 'abc', /^options: skins takes an array of skin paths, got "abc"$/],
    ['meshes', [3], /^options: meshes takes an array of mesh names, got an array holding 3$/],
    ['fps', '10', /^options: fps takes a rate from above 0 to 1000, got "10"$/],
    ['scale', null, /^options: scale takes a positive number, got null$/],
    ['skinWidth', 1.5, /^options: skinWidth takes a whole number of texels from 1, got 1.5$/],
    ['name', 7, /^options: name takes a string, got 7$/],
    ['onWarning', 'log', /^options: onWarning takes a function, got "log"$/],
    ['simplify', 'yes', /^options: simplify takes true \(fit MD2's limits\) or a triangle count \(a whole number from 1\), got "yes"$/],
    ['simplify', 0.5, /got 0.5$/],
    ['clips', [], /^options: clips is empty: name at least one, or leave clips out to bake every one$/],
  ])('%s: %j', (option, value, message) => {
    expect(thrown(() => bakeMD2(scene, [slide()], { [option]: value } as BakeMD2Options))).toEqual({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(message),
    })
  })

  it('the scene, the clips and the options themselves', () => {
    expect(thrown(() => bakeMD2(null as unknown as Object3D, []))).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /the scene takes a three.js Object3D/,
    })
    expect(thrown(() => bakeMD2(scene, 'walk' as unknown as AnimationClip[]))).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /the clips take an array of three.js AnimationClips \(gltf.animations\), got "walk"/,
    })
    expect(thrown(() => bakeMD2(scene, [], 'fast' as BakeMD2Options))).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /options takes an object, got "fast"/,
    })
  })

  it('an unknown mesh name lists the meshes there are', () => {
    const two = new Group().add(triangle('Body'), triangle('Head'))
    expect(thrown(() => bakeMD2(two, [], { meshes: ['nope'] }))).toEqual({
      code: 'BAD_ARGUMENT',
      message: 'options: no visible mesh is named "nope" (the meshes: "Body", "Head")',
    })
  })
})

describe('bakeMD2 on hostile scenes', () => {
  it('a non-finite key time or value, or keys out of order: BAD_VALUE naming the clip, track and key', () => {
    const scene = new Group().add(triangle('tri'))
    expect(thrown(() => bakeMD2(scene, [slide('run', [0, Number.NaN, 1])]))).toEqual({
      code: 'BAD_VALUE',
      message: `clips: clip "run", track "tri.position": key 1's time is NaN`,
    })
    const late = new AnimationClip('run', 1, [new VectorKeyframeTrack('tri.position', [0, Number.POSITIVE_INFINITY], [0, 0, 0, 1, 0, 0])])
    expect(thrown(() => bakeMD2(scene, [late]))).toMatchObject({
      code: 'BAD_VALUE',
      message: /clip "run", track "tri.position": key 1's time is Infinity/,
    })
    const backwards = new AnimationClip('run', 1, [new VectorKeyframeTrack('tri.position', [0.5, 0.2], [0, 0, 0, 1, 0, 0])])
    expect(thrown(() => bakeMD2(scene, [backwards]))).toMatchObject({
      code: 'BAD_VALUE',
      message: /key 1's time 0.2 comes before key 0's 0.5/,
    })
    const nan = new AnimationClip('run', 1, [new VectorKeyframeTrack('tri.position', [0, 1], [0, 0, 0, Number.NaN, 0, 0])])
    expect(thrown(() => bakeMD2(scene, [nan]))).toMatchObject({
      code: 'BAD_VALUE',
      message: /clip "run", track "tri.position": value 3 is NaN/,
    })
  })

  it('keys without values, or too few values per key: BAD_VALUE, not a hang in three’s mixer', () => {
    const scene = new Group().add(triangle('tri'))
    // Found by the fuzz test: a quaternion of 2 values per key kept three's mixer looping for ever.
    const short = new AnimationClip('wave', 1, [new QuaternionKeyframeTrack('tri.quaternion', [0, 0.5, 1], [0, 0, 0, 1, 0, 0])])
    expect(thrown(() => bakeMD2(scene, [short]))).toEqual({
      code: 'BAD_VALUE',
      message: 'clips: clip "wave", track "tri.quaternion": 2 values per key, quaternion takes 4',
    })
    // Found by the CLI fuzz test: a glTF cubic-spline quaternion track with one value per key, not three (in-tangent,
    // value, out-tangent), made GLTFLoader's interpolant step by 4/3 values and loop for ever.
    const spline = new QuaternionKeyframeTrack('tri.quaternion', [0, 0.5, 1], [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
    const factory = (): never => {
      throw new Error('not sampled')
    }
    Object.assign(spline, { createInterpolant: Object.assign(factory, { isInterpolantFactoryMethodGLTFCubicSpline: true }) })
    expect(thrown(() => bakeMD2(scene, [new AnimationClip('wave', 1, [spline])]))).toEqual({
      code: 'BAD_VALUE',
      message: 'clips: clip "wave", track "tri.quaternion": 3 key times for 12 values (cubic spline: three values a key)',
    })
    // three refuses an empty track when made; a loader's accessor of count 0 leaves one after.
    const keyless = new VectorKeyframeTrack('tri.position', [0], [0, 0, 0])
    keyless.times = new Float32Array(0)
    keyless.values = new Float32Array(0)
    const empty = new AnimationClip('wave', 1, [keyless])
    expect(thrown(() => bakeMD2(scene, [empty]))).toMatchObject({
      code: 'BAD_VALUE',
      message: /track "tri.position": 0 key times for 0 values/,
    })
  })

  it('a NaN key time in a .glb: refused, not baked to zero frames', async () => {
    const { scene, clips } = buildRig()
    const { json, bin } = readGLB(await exportRig(scene, clips))
    const accessors = json.accessors as { bufferView: number; byteOffset?: number }[]
    const views = json.bufferViews as { byteOffset?: number }[]
    const sampler = (json.animations as { samplers: { input: number }[] }[])[0]!.samplers[0]!
    const times = accessors[sampler.input]!
    const at = (views[times.bufferView]!.byteOffset ?? 0) + (times.byteOffset ?? 0)
    new DataView(bin.buffer, bin.byteOffset + at).setFloat32(4, Number.NaN, true)
    const gltf = await loadGLB(packGLB(json, bin))
    expect(thrown(() => bakeMD2(gltf.scene, gltf.animations))).toMatchObject({
      code: 'BAD_VALUE',
      message: /^clips: clip "Walk", track "[^"]+": key 1's time is NaN$/,
    })
  })

  it('a track for a node the scene does not have: the nodes named', () => {
    const scene = new Group().add(triangle('tri'))
    const clip = new AnimationClip('wave', 1, [
      new VectorKeyframeTrack('tri.position', [0, 1], [0, 0, 0, 1, 0, 0]),
      new NumberKeyframeTrack('arm.morphTargetInfluences[0]', [0, 1], [0, 1]),
      new VectorKeyframeTrack('hand.scale', [0, 1], [1, 1, 1, 2, 2, 2]),
    ])
    expect(thrown(() => bakeMD2(scene, [clip]))).toEqual({
      code: 'BAD_ARGUMENT',
      message: `clips: clip "wave" animates 2 nodes the scene does not have: "arm", "hand" (its skeleton's bone names are not the scene's)`,
    })
  })

  it('an index past its own mesh in a scene of two: BAD_INDEX naming the mesh, not the next mesh’s vertex taken', () => {
    const a = triangle('a')
    a.geometry.setIndex([0, 1, 4])
    const scene = new Group().add(a, triangle('b', [5, 0, 0, 6, 0, 0, 5, 1, 0]))
    expect(thrown(() => bakeMD2(scene, []))).toEqual({
      code: 'BAD_INDEX',
      message: 'geometry: mesh "a" triangle 0 uses vertex 4, the mesh has 3',
    })
  })

  it('a joint past the skeleton: BAD_INDEX naming the mesh, vertex and joint', () => {
    const geometry = triangle('skin').geometry
    geometry.setAttribute('skinIndex', new Uint16BufferAttribute([0, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0], 4))
    geometry.setAttribute('skinWeight', new Float32BufferAttribute([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], 4))
    const mesh = new SkinnedMesh(geometry)
    mesh.name = 'skin'
    const root = new Bone()
    root.add(new Bone())
    const scene = new Group().add(mesh, root)
    scene.updateMatrixWorld(true)
    mesh.bind(new Skeleton([root, root.children[0] as Bone]))
    expect(thrown(() => bakeMD2(scene, []))).toEqual({
      code: 'BAD_INDEX',
      message: 'skin: mesh "skin" vertex 2 is bound to joint 7, its skeleton has 2 bones',
    })
    // Weighted nothing, a wild joint is not read (three skips it too).
    geometry.getAttribute('skinWeight').setX(2, 0)
    geometry.getAttribute('skinWeight').setY(2, 1)
    expect(bakeMD2(scene, []).model.header.numVertices).toBe(3)
  })

  it('scales that collapse the model or leave float32: BAD_ARGUMENT naming the scale', () => {
    const scene = new Group().add(triangle('tri'))
    expect(thrown(() => bakeMD2(scene, [], { scale: 5e-324 }))).toEqual({
      code: 'BAD_ARGUMENT',
      message: expect.stringMatching(
        /^options: scale 5e-324 collapses the model: its extent of 1 becomes 5e-324, below what MD2's float32 frames resolve$/,
      ),
    })
    expect(thrown(() => bakeMD2(scene, [], { scale: 1e300 }))).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /scale 1e\+300 puts the model .* past MD2's float32 range/,
    })
    expect(thrown(() => bakeMD2(scene, [], { scale: Number.POSITIVE_INFINITY }))).toMatchObject({
      code: 'BAD_ARGUMENT',
      message: /scale Infinity is not a positive number/,
    })
    // Small but resolvable is kept.
    expect(bakeMD2(scene, [], { scale: 1e-30 }).model.header.numVertices).toBe(3)
  })

  it('a non-finite position: BAD_VALUE naming the mesh and vertex', () => {
    const scene = new Group().add(triangle('tri', [0, 0, 0, 1, Number.NaN, 0, 0, 1, 0]))
    expect(thrown(() => bakeMD2(scene, []))).toEqual({ code: 'BAD_VALUE', message: 'geometry: mesh "tri" vertex 1: position (1, NaN, 0)' })
  })

  it('past every limit at once: each named, with what fits', () => {
    const { scene, clips } = buildRig({ segments: [64, 40] })
    const error = thrown(() => bakeMD2(scene, clips, { fps: 300 }))
    expect(error).toEqual({
      code: 'UNWRITABLE',
      message:
        "triangles, vertices, frames: 5260 triangles, 1164 past MD2's 4096; 2634 vertices, 586 past MD2's 2048; 588 frames, 76 past MD2's 512 (Quake II's limits): " +
        "simplify the mesh (bakeMD2's simplify option, convert's --simplify), or bake fewer meshes; a rate of 261 fps fits them, or bake fewer clips (3 clips at 300 fps)",
    })
  })

  it('one clip baked alone: no warning, one animation read back', async () => {
    const { scene, clips } = buildRig()
    const gltf = await loadGLB(await exportRig(scene, clips))
    const warnings: string[] = []
    const { model } = bakeMD2(gltf.scene, gltf.animations, { clips: ['Walk'], onWarning: (message) => warnings.push(message) })
    expect(warnings).toEqual([])
    expect(model.warnings).toEqual([])
    expect(model.animations.map((a) => [a.name, a.start, a.end])).toEqual([['Walk', 0, 10]])
    expect(parseMD2(writeMD2(model)).animations.map((a) => [a.name, a.start, a.end])).toEqual([['Walk', 0, 10]])
  })
})

describe('bounded by what is written', () => {
  it('a 2 MB .glb with one triangle and 100,000 unused vertices bakes in well under a second', async () => {
    const unused = 100_000
    const positions = new Float32Array((unused + 3) * 3)
    for (let i = 0; i < positions.length; i++) positions[i] = (i % 7) * 0.25 + i * 1e-6
    const mesh = triangle('tri', Array.from(positions))
    mesh.geometry.setIndex([0, 1, 2])
    const scene = new Group().add(mesh)
    const clip = new AnimationClip('spin', 4, [new VectorKeyframeTrack('tri.position', [0, 4], [0, 0, 0, 4, 0, 0])])
    const glb = await exportRig(scene, [clip])
    expect(glb.byteLength).toBeGreaterThan(2_000_000)
    const gltf = await loadGLB(glb)

    const heapBefore = process.memoryUsage().heapUsed
    const rssBefore = process.memoryUsage().rss
    const started = performance.now()
    const { model } = bakeMD2(gltf.scene, gltf.animations, { fps: 10 })
    const seconds = (performance.now() - started) / 1000
    const heap = process.memoryUsage().heapUsed - heapBefore
    const rss = process.memoryUsage().rss - rssBefore
    console.log(
      `1 triangle + ${unused} unused vertices, ${model.header.numFrames} frames: ${seconds.toFixed(3)} s, heap +${(heap / 2 ** 20).toFixed(1)} MB, rss +${(rss / 2 ** 20).toFixed(1)} MB`,
    )
    expect(model.header.numVertices).toBe(3)
    expect(model.header.numFrames).toBe(41)
    // Bounds, not timing goals: before, this took 33–80 s and 2.4 GB.
    expect(seconds).toBeLessThan(1)
    expect(Math.max(heap, rss)).toBeLessThan(256 * 2 ** 20)
  })
})
