import { MD2Loader as ThreeMD2Loader } from 'three/examples/jsm/loaders/MD2Loader.js'
import type { BufferAttribute, BufferGeometry } from 'three'
import { describe, expect, it } from 'vitest'
import { MD2Error, blendFrames, decodeFrame, decodeFrameNormals, frameBounds, parseMD2, quakeToYUp } from '../../../src/core'
// The kernels and tables behind them.
import { ANORMS, ANORMS_256_YUP, blendVerticesYUp, buildVertexLayout } from '../../../src/core/internal'
import { readAsset } from '../../support/assets'

const MODELS = ['quake2/ogro/tris.MD2', 'quake2/ratamahatta/tris.md2', 'quake2/sydney/tris.md2', 'quake2/faerie/tris.md2']

describe('decodeFrame agrees with three.js MD2Loader (which stores (x, z, y))', () => {
  it.each(MODELS)('%s: every vertex of the first, a middle and the last frame', (path) => {
    const bytes = readAsset(path)
    const model = parseMD2(bytes)
    const threeGeometry = new ThreeMD2Loader().parse(bytes.slice().buffer) as BufferGeometry
    const morphs = threeGeometry.morphAttributes.position as BufferAttribute[]
    expect(morphs).toHaveLength(model.frames.length)
    const frames = [0, Math.floor(model.frames.length / 2), model.frames.length - 1]
    for (const f of frames) {
      const ours = decodeFrame(model, f)
      const theirs = morphs[f]!.array as Float32Array
      // three's geometry is non-indexed: corner c of triangle t reads MD2 vertex triangles[t*6 + c].
      for (let corner = 0; corner < model.header.numTris * 3; corner++) {
        const v = model.triangles[Math.floor(corner / 3) * 6 + (corner % 3)]!
        expect(theirs[corner * 3]).toBeCloseTo(ours[v * 3]!, 4)
        expect(theirs[corner * 3 + 1]).toBeCloseTo(ours[v * 3 + 2]!, 4)
        expect(theirs[corner * 3 + 2]).toBeCloseTo(ours[v * 3 + 1]!, 4)
      }
    }
  })
})

describe('frame decoding', () => {
  const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'))

  it('reuses the output array it is given and refuses a short one', () => {
    const out = new Float32Array(358 * 3)
    expect(decodeFrame(ogro, 3, out)).toBe(out)
    expect(() => decodeFrame(ogro, 3, new Float32Array(10))).toThrow(MD2Error)
  })

  it('refuses a frame that does not exist with BAD_ARGUMENT', () => {
    for (const bad of [-1, 199, 1.5, Number.NaN]) {
      try {
        decodeFrame(ogro, bad)
        expect.unreachable()
      } catch (error) {
        expect((error as MD2Error).code).toBe('BAD_ARGUMENT')
      }
    }
  })

  it('blendFrames: t = 0 is the first frame, t = 1 the second, t = 0.5 the midpoint', () => {
    const a = decodeFrame(ogro, 40)
    const b = decodeFrame(ogro, 41)
    const start = blendFrames(ogro, 40, 41, 0)
    const end = blendFrames(ogro, 40, 41, 1)
    const mid = blendFrames(ogro, 40, 41, 0.5)
    for (let i = 0; i < a.length; i++) {
      expect(start[i]).toBeCloseTo(a[i]!, 4)
      expect(end[i]).toBeCloseTo(b[i]!, 4)
      expect(mid[i]).toBeCloseTo((a[i]! + b[i]!) / 2, 4)
    }
  })

  it('decodeFrameNormals reads unit vectors from the anorms table', () => {
    const normals = decodeFrameNormals(ogro, 0)
    const vertices = ogro.frames[0]!.vertices
    for (let v = 0; v < 358; v++) {
      const n = vertices[v * 4 + 3]!
      expect(Array.from(normals.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(ANORMS.subarray(n * 3, n * 3 + 3)))
      expect(Math.hypot(normals[v * 3]!, normals[v * 3 + 1]!, normals[v * 3 + 2]!)).toBeCloseTo(1, 4)
    }
  })

  it('frameBounds hold every decoded vertex and touch the extremes', () => {
    const positions = decodeFrame(ogro, 77)
    const { min, max } = frameBounds(ogro, 77)
    for (let k = 0; k < 3; k++) {
      const axis = Array.from({ length: 358 }, (_, v) => positions[v * 3 + k]!)
      expect(Math.min(...axis)).toBeCloseTo(min[k]!, 4)
      expect(Math.max(...axis)).toBeCloseTo(max[k]!, 4)
    }
  })
})

describe('Z-up to Y-up is a rotation, never a mirror', () => {
  const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2'))
  const weapon = parseMD2(readAsset('quake2/ogro/weapon.md2'))

  it('the mapping (x, y, z) → (y, z, x) has determinant +1', () => {
    const columns = [quakeToYUp(1, 0, 0), quakeToYUp(0, 1, 0), quakeToYUp(0, 0, 1)]
    const [a, b, c] = columns as unknown as [number[], number[], number[]]
    const det = a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) - b[0]! * (a[1]! * c[2]! - a[2]! * c[1]!) + c[0]! * (a[1]! * b[2]! - a[2]! * b[1]!)
    expect(det).toBe(1)
  })

  it('the weapon stays in the right hand: facing +Z with +Y up, it lies at −X and in front', () => {
    const layout = buildVertexLayout(weapon)
    const positions = new Float32Array(layout.vertexCount * 3)
    blendVerticesYUp(weapon, { from: 0, to: 0, t: 0 }, { xyzIndex: layout.xyzIndex, positions })
    let x = 0
    let z = 0
    for (let i = 0; i < layout.vertexCount; i++) {
      x += positions[i * 3]!
      z += positions[i * 3 + 2]!
    }
    expect(x / layout.vertexCount).toBeLessThan(-5) // right of the body
    expect(z / layout.vertexCount).toBeGreaterThan(5) // held forward
  })

  it('the kernel writes exactly blendFrames turned to Y-up, for positions and normals', () => {
    const layout = buildVertexLayout(ogro)
    const positions = new Float32Array(layout.vertexCount * 3)
    const normals = new Float32Array(layout.vertexCount * 3)
    blendVerticesYUp(ogro, { from: 10, to: 11, t: 0.25 }, { xyzIndex: layout.xyzIndex, positions, normals })
    const reference = blendFrames(ogro, 10, 11, 0.25)
    const na = decodeFrameNormals(ogro, 10)
    const nb = decodeFrameNormals(ogro, 11)
    for (let i = 0; i < layout.vertexCount; i++) {
      const v = layout.xyzIndex[i]!
      const [X, Y, Z] = quakeToYUp(reference[v * 3]!, reference[v * 3 + 1]!, reference[v * 3 + 2]!)
      expect(positions[i * 3]).toBeCloseTo(X, 4)
      expect(positions[i * 3 + 1]).toBeCloseTo(Y, 4)
      expect(positions[i * 3 + 2]).toBeCloseTo(Z, 4)
      const blended = [0, 1, 2].map((k) => na[v * 3 + k]! * 0.75 + nb[v * 3 + k]! * 0.25)
      const [nx, ny, nz] = quakeToYUp(blended[0]!, blended[1]!, blended[2]!)
      expect(normals[i * 3]).toBeCloseTo(nx, 5)
      expect(normals[i * 3 + 1]).toBeCloseTo(ny, 5)
      expect(normals[i * 3 + 2]).toBeCloseTo(nz, 5)
    }
    expect(ANORMS_256_YUP).toHaveLength(768)
  })

  it('triangles wind counter-clockwise from outside: face normals agree with the stored vertex normals', () => {
    const layout = buildVertexLayout(ogro)
    const positions = new Float32Array(layout.vertexCount * 3)
    const normals = new Float32Array(layout.vertexCount * 3)
    blendVerticesYUp(ogro, { from: 0, to: 0, t: 0 }, { xyzIndex: layout.xyzIndex, positions, normals })
    let agree = 0
    const count = layout.indices.length / 3
    for (let t = 0; t < count; t++) {
      const [a, b, c] = [0, 1, 2].map((k) => layout.indices[t * 3 + k]! * 3) as [number, number, number]
      const e1 = [0, 1, 2].map((k) => positions[b + k]! - positions[a + k]!)
      const e2 = [0, 1, 2].map((k) => positions[c + k]! - positions[a + k]!)
      const face = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!]
      const vertexNormal = [0, 1, 2].map((k) => normals[a + k]! + normals[b + k]! + normals[c + k]!)
      if (face[0]! * vertexNormal[0]! + face[1]! * vertexNormal[1]! + face[2]! * vertexNormal[2]! > 0) agree++
    }
    // Quantized normals are rough; the winding is right when the large majority agree (a flip gives < 10%).
    expect(agree / count).toBeGreaterThan(0.9)
  })

  it('the vertex layout keeps one vertex per (xyz, st) pair and maps uvs with t flipped', () => {
    const layout = buildVertexLayout(ogro)
    const pairs = new Set<string>()
    for (let t = 0; t < ogro.header.numTris; t++)
      for (let k = 0; k < 3; k++) pairs.add(`${ogro.triangles[t * 6 + k]}/${ogro.triangles[t * 6 + 3 + k]}`)
    expect(layout.vertexCount).toBe(pairs.size)
    expect(layout.indices).toHaveLength(ogro.header.numTris * 3)
    for (let i = 0; i < layout.vertexCount; i++) {
      const s = layout.stIndex[i]!
      expect(layout.uvs[i * 2]).toBeCloseTo(ogro.st[s * 2]! / 256, 6)
      expect(layout.uvs[i * 2 + 1]).toBeCloseTo(1 - ogro.st[s * 2 + 1]! / 256, 6)
    }
    // Triangle 0 in MD2 order (v0, v1, v2) becomes (v0, v2, v1).
    const xyzOf = (slot: number) => layout.xyzIndex[slot]
    expect([0, 1, 2].map((k) => xyzOf(layout.indices[k]!))).toEqual([ogro.triangles[0], ogro.triangles[2], ogro.triangles[1]])
  })
})
