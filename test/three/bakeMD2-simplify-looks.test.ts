/**
 * bakeMD2's `simplify` keeps what the eye sees (issue #56): a dark body with a small white plate and a small red
 * lens, each its own mesh and colour, brought to a few hundred triangles. Measured without rendering: points
 * spread over the source's surface by area, each compared with the nearest point of the simplified model
 * (its colour read from the baked skin at the triangle's st): the colour difference (CIEDE2000) and whether a
 * surface is still there (coverage, within 2% of the model's size).
 */
import { BoxGeometry, Group, Mesh, MeshStandardMaterial, SphereGeometry, SRGBColorSpace, Vector3, Color, REVISION } from 'three'
import { mergeVertices } from 'three/examples/jsm/utils/BufferGeometryUtils.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeFrame } from '../../src/core/format/decodeFrame'
import { deltaE2000, srgb8ToLab } from '../../src/core/images/colorLab'
import { bakeMD2 } from '../../src/three/convert/bakeMD2'
import { loadSimplifier } from '../../src/three/convert/loadSimplifier'

/**
 * The figure: a body, and two parts the eye picks out. `oneColour` paints them all the body's colour: one look,
 * so bakeMD2 simplifies the mesh as a whole (the same geometry, welding and weights otherwise).
 */
function figure(oneColour = false): Group {
  const scene = new Group()
  const part = (name: string, geometry: SphereGeometry | BoxGeometry, colour: number, at: [number, number, number]) => {
    const mesh = new Mesh(geometry, new MeshStandardMaterial({ color: new Color().setHex(oneColour ? 0x303030 : colour, SRGBColorSpace) }))
    mesh.name = name
    mesh.position.set(...at)
    scene.add(mesh)
  }
  part('body', new SphereGeometry(10, 96, 48), 0x303030, [0, 0, 0])
  // Its seam meridian is an open border of the body's triangles: the two sides' positions differ by sin(2π)'s rounding.
  part('plate', new BoxGeometry(4, 0.4, 4, 6, 1, 6), 0xf0f0f0, [0, 10.1, 0])
  part('lens', new SphereGeometry(0.8, 24, 12), 0xe01010, [0, 0, 10.4])
  return scene
}

interface Sample {
  part: string
  point: Vector3
  lab: Float64Array
}

/** Points over every mesh's surface, spread by area (a fixed sequence), with its colour. */
function samples(scene: Group, count: number): Sample[] {
  const out: Sample[] = []
  scene.updateMatrixWorld(true)
  const a = new Vector3()
  const b = new Vector3()
  const c = new Vector3()
  for (const mesh of scene.children as Mesh[]) {
    const position = mesh.geometry.getAttribute('position')
    const index = mesh.geometry.getIndex()!
    const colour = (mesh.material as MeshStandardMaterial).color.getRGB(new Color(), SRGBColorSpace)
    const lab = new Float64Array(3)
    srgb8ToLab(Math.round(colour.r * 255), Math.round(colour.g * 255), Math.round(colour.b * 255), lab)
    const areas: number[] = []
    for (let t = 0; t < index.count; t += 3) {
      a.fromBufferAttribute(position, index.getX(t))
      b.fromBufferAttribute(position, index.getX(t + 1))
      c.fromBufferAttribute(position, index.getX(t + 2))
      areas.push(b.clone().sub(a).cross(c.clone().sub(a)).length() / 2)
    }
    // Each part as many points as the others: a small part counts as much as the body.
    const total = areas.reduce((sum, area) => sum + area, 0)
    let carried = 0
    areas.forEach((area, k) => {
      carried += (area / total) * count
      for (; carried >= 1; carried--) {
        const u = ((out.length * 0.618034) % 1) * 0.9 + 0.05
        const v = ((out.length * 0.754878) % 1) * (0.95 - u)
        a.fromBufferAttribute(position, index.getX(k * 3))
        b.fromBufferAttribute(position, index.getX(k * 3 + 1))
        c.fromBufferAttribute(position, index.getX(k * 3 + 2))
        const point = a
          .clone()
          .multiplyScalar(1 - u - v)
          .addScaledVector(b, u)
          .addScaledVector(c, v)
          .applyMatrix4(mesh.matrixWorld)
        out.push({ part: mesh.name, point, lab })
      }
    })
  }
  return out
}

/** The closest point of triangle abc to p (Ericson, Real-Time Collision Detection 5.1.5). */
function closest(p: Vector3, a: Vector3, b: Vector3, c: Vector3, out: Vector3): Vector3 {
  const ab = b.clone().sub(a)
  const ac = c.clone().sub(a)
  const ap = p.clone().sub(a)
  const d1 = ab.dot(ap)
  const d2 = ac.dot(ap)
  if (d1 <= 0 && d2 <= 0) return out.copy(a)
  const bp = p.clone().sub(b)
  const d3 = ab.dot(bp)
  const d4 = ac.dot(bp)
  if (d3 >= 0 && d4 <= d3) return out.copy(b)
  const vc = d1 * d4 - d3 * d2
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return out.copy(a).addScaledVector(ab, d1 / (d1 - d3))
  const cp = p.clone().sub(c)
  const d5 = ab.dot(cp)
  const d6 = ac.dot(cp)
  if (d6 >= 0 && d5 <= d6) return out.copy(c)
  const vb = d5 * d2 - d1 * d6
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return out.copy(a).addScaledVector(ac, d2 / (d2 - d6))
  const va = d3 * d6 - d5 * d4
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return out.copy(b).addScaledVector(c.clone().sub(b), (d4 - d3) / (d4 - d3 + (d5 - d6)))
  const denom = 1 / (va + vb + vc)
  return out
    .copy(a)
    .addScaledVector(ab, vb * denom)
    .addScaledVector(ac, vc * denom)
}

interface PartFigures {
  /** Mean CIEDE2000 between a source point's colour and its nearest simplified point's. */
  deltaE: number
  /** The share of source points with the simplified surface within 2% of the model's size. */
  coverage: number
}

/** Per part, the source's points against the simplified model's first frame and baked skin. */
function measure(scene: Group, simplify: number): { triangles: number; parts: Record<string, PartFigures> } {
  const baked = bakeMD2(scene, [], { simplify })
  const { model, skinImage } = baked
  const frame = decodeFrame(model, 0)
  // MD2's x, y, z are three's z, x, y.
  const vertex = (v: number) => new Vector3(frame[v * 3 + 1]!, frame[v * 3 + 2]!, frame[v * 3]!)
  const triangles = model.triangles.length / 6
  const corners: Vector3[][] = []
  const labs: Float64Array[] = []
  for (let t = 0; t < triangles; t++) {
    const tri = model.triangles.subarray(t * 6, t * 6 + 6)
    corners.push([vertex(tri[0]!), vertex(tri[1]!), vertex(tri[2]!)])
    let s = 0
    let u = 0
    for (let k = 3; k < 6; k++) {
      s += model.st[tri[k]! * 2]! / 3
      u += model.st[tri[k]! * 2 + 1]! / 3
    }
    const x = Math.min(skinImage!.width - 1, Math.max(0, Math.floor(s)))
    const y = Math.min(skinImage!.height - 1, Math.max(0, Math.floor(u)))
    const at = (y * skinImage!.width + x) * 4
    const lab = new Float64Array(3)
    srgb8ToLab(skinImage!.data[at]!, skinImage!.data[at + 1]!, skinImage!.data[at + 2]!, lab)
    labs.push(lab)
  }
  const size = 20.8
  const near = new Vector3()
  const sums: Record<string, { deltaE: number; covered: number; count: number }> = {}
  for (const { part, point, lab } of samples(scene, 1500)) {
    let best = Infinity
    let bestTriangle = 0
    corners.forEach(([a, b, c], t) => {
      const distance = closest(point, a!, b!, c!, near).distanceToSquared(point)
      if (distance < best) {
        best = distance
        bestTriangle = t
      }
    })
    const found = labs[bestTriangle]!
    const sum = (sums[part] ??= { deltaE: 0, covered: 0, count: 0 })
    sum.deltaE += deltaE2000(lab[0]!, lab[1]!, lab[2]!, found[0]!, found[1]!, found[2]!)
    sum.covered += Math.sqrt(best) <= 0.02 * size ? 1 : 0
    sum.count++
  }
  const parts: Record<string, PartFigures> = {}
  for (const [part, sum] of Object.entries(sums)) parts[part] = { deltaE: sum.deltaE / sum.count, coverage: sum.covered / sum.count }
  return { triangles, parts }
}

beforeAll(async () => {
  await loadSimplifier()
})

describe('simplify keeps what the eye sees', () => {
  // The figures are measured on r187's SphereGeometry; older three.js builds its spheres with other vertices.
  it.skipIf(Number(REVISION) < 187)(
    'a small white plate and a small red lens on a dark body survive 9,000 triangles brought to 400, in colour and in place',
    () => {
      const { triangles, parts } = measure(figure(), 400)
      console.log(`simplified to ${triangles} triangles:`, JSON.stringify(parts))
      expect(triangles).toBeLessThanOrEqual(400)
      for (const part of ['body', 'plate', 'lens']) {
        expect(parts[part]!.coverage, part).toBeGreaterThan(0.9)
        expect(parts[part]!.deltaE, part).toBeLessThan(3)
      }
    },
  )

  // At very few triangles, each look apart must not cost the body its shape: only the borders between looks are
  // locked, not the body's own seam (locked, it ate the budget: 0.31 of the body covered at 200, whole-mesh 0.50).
  it.skipIf(Number(REVISION) < 187).each([200, 150])(
    'brought to %i triangles, the body is covered no worse than by simplifying the mesh whole, and plate and lens stay',
    (budget) => {
      const byLook = measure(figure(), budget)
      const whole = measure(figure(true), budget)
      console.log(`${budget}: by look ${JSON.stringify(byLook.parts)}, whole ${JSON.stringify(whole.parts)}`)
      expect(byLook.triangles).toBeLessThanOrEqual(budget)
      expect(byLook.parts.body!.coverage).toBeGreaterThanOrEqual(whole.parts.body!.coverage)
      // Still there and still their colour (whole, the lens is mostly gone: ΔE 7 at 200, 37 at 150).
      for (const part of ['plate', 'lens']) {
        expect(byLook.parts[part]!.coverage, part).toBeGreaterThan(0.9)
        expect(byLook.parts[part]!.deltaE, part).toBeLessThan(5)
      }
    },
  )

  it('keeps two looks that share a border joined: a closed ball of two colours stays closed', () => {
    // A ball welded whole (no seam), its upper half dark and its lower half red: two looks meeting at the equator.
    const sphere = new SphereGeometry(10, 64, 32).deleteAttribute('uv').deleteAttribute('normal')
    const geometry = mergeVertices(sphere)
    geometry.computeVertexNormals()
    const half = geometry.getIndex()!.count / 2
    geometry.addGroup(0, half, 0)
    geometry.addGroup(half, half, 1)
    const materials = [0x303030, 0xe01010].map((colour) => new MeshStandardMaterial({ color: new Color().setHex(colour, SRGBColorSpace) }))
    const scene = new Group().add(new Mesh(geometry, materials))
    const { model } = bakeMD2(scene, [], { simplify: 150 })
    const triangles = model.triangles.length / 6
    expect(triangles).toBeLessThanOrEqual(150)
    // Closed: each edge between two MD2 vertices is shared by exactly two triangles.
    const edges = new Map<string, number>()
    for (let t = 0; t < triangles; t++)
      for (let k = 0; k < 3; k++) {
        const a = model.triangles[t * 6 + k]!
        const b = model.triangles[t * 6 + ((k + 1) % 3)]!
        const key = `${Math.min(a, b)} ${Math.max(a, b)}`
        edges.set(key, (edges.get(key) ?? 0) + 1)
      }
    expect([...edges.values()].filter((uses) => uses !== 2)).toEqual([])
  })
})
