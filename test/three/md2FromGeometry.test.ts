import { BoxGeometry, BufferAttribute, BufferGeometry, Float32BufferAttribute } from 'three'
import { describe, expect, it } from 'vitest'
import { MD2Error } from '../../src/core/MD2Error'
import { decodeFrame } from '../../src/core/format/decodeFrame'
import { ANORMS } from '../../src/core/format/normals'
import { parseMD2 } from '../../src/core/format/parseMD2'
import type { MD2ModelData } from '../../src/core/format/types'
import { writeMD2 } from '../../src/core/format/writeMD2'
import { md2FromGeometry } from '../../src/three/convert/md2FromGeometry'
import { readAsset } from '../support/assets'

/**
 * The loader's conversion, built here from decodeFrame: three (X, Y, Z) = MD2 (y, z, x), three triangle
 * (a, b, c) = MD2 (v0, v2, v1), uv = (s / skinWidth, 1 − t / skinHeight). Every frame a morph target,
 * named after the frame. `indexed`: one three vertex per (xyz, st) pair; else one per triangle corner.
 */
function toThree(model: MD2ModelData, indexed: boolean): BufferGeometry {
  const { triangles, st } = model
  const { skinWidth, skinHeight, numTris } = model.header
  const pairs = new Map<string, number>()
  const vertexOf: number[] = [] // three vertex → MD2 xyz index
  const uv: number[] = []
  const index: number[] = []
  for (let t = 0; t < numTris; t++) {
    for (const k of [0, 2, 1]) {
      const xyz = triangles[t * 6 + k]!
      const s = triangles[t * 6 + 3 + k]!
      const key = indexed ? `${xyz} ${s}` : `${t} ${k}`
      let vertex = pairs.get(key)
      if (vertex === undefined) {
        vertex = vertexOf.length
        pairs.set(key, vertex)
        vertexOf.push(xyz)
        uv.push(st[s * 2]! / skinWidth, 1 - st[s * 2 + 1]! / skinHeight)
      }
      index.push(vertex)
    }
  }
  const frames = model.frames.map((frame, f) => {
    const quake = decodeFrame(model, f)
    const three = new Float32Array(vertexOf.length * 3)
    vertexOf.forEach((xyz, v) => three.set([quake[xyz * 3 + 1]!, quake[xyz * 3 + 2]!, quake[xyz * 3]!], v * 3))
    const attribute = new BufferAttribute(three, 3)
    attribute.name = frame.name
    return attribute
  })
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', frames[0]!)
  geometry.setAttribute('uv', new Float32BufferAttribute(uv, 2))
  geometry.morphAttributes.position = frames
  if (indexed) geometry.setIndex(index)
  return geometry
}

/** Every triangle corner of `copy` decodes within its frame's scale/2 of `original`, with the same st. */
function expectSameModel(original: MD2ModelData, copy: MD2ModelData): void {
  expect(copy.header.numTris).toBe(original.header.numTris)
  expect(copy.frames.map((f) => f.name)).toEqual(original.frames.map((f) => f.name))
  for (let f = 0; f < original.frames.length; f++) {
    const a = decodeFrame(original, f)
    const b = decodeFrame(copy, f)
    const tolerance = copy.frames[f]!.scale.map((s) => s / 2 + 1e-4)
    let worst = 0
    for (let c = 0; c < original.header.numTris * 3; c++) {
      const corner = Math.floor(c / 3) * 6 + (c % 3)
      const va = original.triangles[corner]!
      const vb = copy.triangles[corner]!
      for (let k = 0; k < 3; k++) {
        const excess = Math.abs(a[va * 3 + k]! - b[vb * 3 + k]!) - tolerance[k]!
        if (excess > worst) worst = excess
      }
    }
    expect(worst, `frame ${f}`).toBe(0)
  }
  for (let c = 0; c < original.header.numTris * 3; c++) {
    const corner = Math.floor(c / 3) * 6 + 3 + (c % 3)
    const sa = original.triangles[corner]!
    const sb = copy.triangles[corner]!
    expect([copy.st[sb * 2], copy.st[sb * 2 + 1]]).toEqual([original.st[sa * 2], original.st[sa * 2 + 1]])
  }
}

describe('md2FromGeometry: a round trip through three.js keeps the model within quantization error', () => {
  const original = parseMD2(readAsset('quake2/ogro/tris.MD2'))
  const options = { skinWidth: original.header.skinWidth, skinHeight: original.header.skinHeight }

  it('from an indexed geometry with morph targets', () => {
    const copy = md2FromGeometry(toThree(original, true), options)
    expectSameModel(original, copy)
    expect(copy.header.numVertices).toBe(original.header.numVertices)
    expect(copy.animations).toEqual(original.animations)
  })

  it('from a non-indexed geometry, welding the corners back into vertices', () => {
    const copy = md2FromGeometry(toThree(original, false), options)
    expectSameModel(original, copy)
    expect(copy.header.numVertices).toBe(original.header.numVertices)
    // And the result writes and reads back.
    expect(parseMD2(writeMD2(copy)).header.numTris).toBe(original.header.numTris)
  })

  it('without welding keeps one MD2 vertex per three.js vertex', () => {
    const geometry = toThree(original, false)
    const copy = md2FromGeometry(geometry, { ...options, weld: false })
    expect(copy.header.numVertices).toBe(geometry.getAttribute('position').count)
    expectSameModel(original, copy)
  })

  it('from a list of geometries, one frame each', () => {
    const weapon = parseMD2(readAsset('quake2/sydney/weapon.md2'))
    const morphing = toThree(weapon, true)
    const list = morphing.morphAttributes.position!.slice(0, 5).map((frame) => {
      const geometry = new BufferGeometry()
      geometry.setAttribute('position', frame)
      geometry.setAttribute('uv', morphing.getAttribute('uv'))
      geometry.setIndex(morphing.getIndex())
      geometry.name = frame.name
      return geometry
    })
    const copy = md2FromGeometry(list, { skinWidth: weapon.header.skinWidth, skinHeight: weapon.header.skinHeight })
    expectSameModel({ ...weapon, frames: weapon.frames.slice(0, 5) }, copy)
  })
})

describe('md2FromGeometry on built geometry', () => {
  it('turns three.js axes and winding into Quake II ones: normals point out of a box', () => {
    const box = new BoxGeometry(2, 4, 8) // three: 2 wide (X), 4 high (Y), 8 deep (Z)
    const model = md2FromGeometry(box, { skinWidth: 64, skinHeight: 64 })
    expect(model.header.numVertices).toBe(8) // 24 three.js vertices welded at the uv seams
    expect(model.header.numTris).toBe(12)
    expect(model.frames.map((f) => f.name)).toEqual(['frame000'])
    // Quake x = three Z (8 deep), y = three X (2 wide), z = three Y (4 high).
    expect(model.frames[0]!.translate).toEqual([-4, -1, -2])
    const positions = decodeFrame(model, 0)
    for (let v = 0; v < 8; v++) {
      const n = model.frames[0]!.vertices[v * 4 + 3]! * 3
      const dot = ANORMS[n]! * positions[v * 3]! + ANORMS[n + 1]! * positions[v * 3 + 1]! + ANORMS[n + 2]! * positions[v * 3 + 2]!
      expect(dot, `vertex ${v}`).toBeGreaterThan(0)
    }
  })

  it('adds relative morph targets to the base position, and names frames after them', () => {
    const geometry = new BoxGeometry(2, 2, 2)
    const lift = new Float32Array(geometry.getAttribute('position').count * 3).map((_, i) => (i % 3 === 1 ? 10 : 0))
    const up = new Float32BufferAttribute(lift, 3)
    up.name = 'up01'
    const still = new Float32BufferAttribute(new Float32Array(lift.length), 3)
    still.name = 'still'
    geometry.morphAttributes.position = [still, up]
    geometry.morphTargetsRelative = true
    const model = md2FromGeometry(geometry, { skinWidth: 8, skinHeight: 8 })
    expect(model.frames.map((f) => f.name)).toEqual(['still', 'up01'])
    expect(model.frames[0]!.translate[2]).toBe(-1)
    expect(model.frames[1]!.translate[2]).toBe(9) // three Y is Quake z
  })

  it('uses the geometry normals when asked (mapped to Quake axes)', () => {
    const geometry = new BoxGeometry(2, 2, 2)
    const normals = new Float32Array(geometry.getAttribute('normal').count * 3).map((_, i) => (i % 3 === 2 ? 1 : 0))
    geometry.setAttribute('normal', new Float32BufferAttribute(normals, 3)) // all three +Z = Quake +x
    const model = md2FromGeometry(geometry, { skinWidth: 8, skinHeight: 8, useNormals: true })
    const plusX = 52 // ANORMS[52] = (1, 0, 0)
    expect([ANORMS[plusX * 3], ANORMS[plusX * 3 + 1], ANORMS[plusX * 3 + 2]]).toEqual([1, 0, 0])
    for (let v = 0; v < 8; v++) expect(model.frames[0]!.vertices[v * 4 + 3]).toBe(plusX)
  })

  it('refuses geometry it cannot read', () => {
    const noUv = new BufferGeometry()
    noUv.setAttribute('position', new Float32BufferAttribute([0, 0, 0, 1, 0, 0, 0, 1, 0], 3))
    expect(() => md2FromGeometry(noUv, { skinWidth: 8, skinHeight: 8 })).toThrow(/no uv attribute/)
    const lines = new BoxGeometry()
    lines.setIndex([0, 1])
    expect(() => md2FromGeometry(lines, { skinWidth: 8, skinHeight: 8 })).toThrow(MD2Error)
    expect(() => md2FromGeometry([], { skinWidth: 8, skinHeight: 8 })).toThrow(/no geometries/)
  })
})
