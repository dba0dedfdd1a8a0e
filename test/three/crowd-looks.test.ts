/**
 * Per-instance power-up shells and blob shadows on the GPU crowd: each kind is one more draw holding
 * exactly the instances drawn that have it, in the crowd's own order, with their rows copied and their
 * colour or shadow parameters as the CPU path computes them; followers wear their leader's; rays pass
 * through both. (The pictures are compared with the CPU path's in test/browser/crowd.test.tsx.)
 */
import { Color, DoubleSide, Mesh, MeshBasicMaterial, PerspectiveCamera, Raycaster, SRGBColorSpace, Vector3 } from 'three'
import { describe, expect, it } from 'vitest'
import { createPose } from '../../src/core/animation/pose'
import { shadowVector } from '../../src/core/lighting/quake2Light'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { followCrowd } from '../../src/three/crowd/followCrowd'
import type { CrowdLayer } from '../../src/three/crowd/CrowdLayer'
import { INSTANCE_STRIDE, LIGHT, RANGE, ROW_HIDDEN } from '../../src/three/crowd/gpu/instanceRows'
import { createMD2Geometry, getMD2RenderData, writeMD2Pose } from '../../src/three/mesh/MD2Geometry'
import { createMD2ShadowGeometry } from '../../src/three/mesh/shellShadowGeometry'
import { parseAsset } from '../support/assets'

const knight = parseAsset('quake2/pknight/tris.md2')
const knightWeapon = parseAsset('quake2/pknight/weapon.md2')

/** Row `k` of a layer: its matrix and its per-frame data. */
function layerRow(layer: CrowdLayer, k: number): { matrix: number[]; data: number[] } {
  const matrices = layer.instanceMatrix.array as Float32Array
  const data = layer.data!.array as Float32Array
  return {
    matrix: [...matrices.slice(k * 16, k * 16 + 16)],
    data: [...data.slice(k * INSTANCE_STRIDE, (k + 1) * INSTANCE_STRIDE)],
  }
}

function crowdRow(crowd: MD2Crowd, k: number): { matrix: number[]; data: number[] } {
  const data = (crowd.geometry.getAttribute('md2Clock') as unknown as { data: { array: Float32Array } }).data.array
  return {
    matrix: [...(crowd.instanceMatrix.array as Float32Array).slice(k * 16, k * 16 + 16)],
    data: [...data.slice(k * INSTANCE_STRIDE, (k + 1) * INSTANCE_STRIDE)],
  }
}

const light = (row: { data: number[] }) => row.data.slice(LIGHT, LIGHT + 3)
const linear = (r: number, g: number, b: number) => {
  const c = new Color().setRGB(r, g, b, SRGBColorSpace)
  return [c.r, c.g, c.b]
}

/** Five knights in a row, each playing something else, at yaws 0, 0.5, … */
function knights(options: ConstructorParameters<typeof MD2Crowd>[1]): MD2Crowd {
  const crowd = new MD2Crowd(knight, options)
  for (let i = 0; i < 5; i++) {
    crowd.setTransform(i, { position: new Vector3(i * 80 - 160, i * 3, 0), rotation: i * 0.5, scale: 0.5 + i * 0.25 })
    crowd.showFrame(i, i * 7.5)
  }
  return crowd
}

describe('MD2Crowd shells', () => {
  it("draws the instances drawn that have a shell, in the crowd's order, in each one's colour (sRGB given, linear drawn)", () => {
    const crowd = knights({ limit: 5 })
    // Nothing is held for shells until an instance has one.
    expect(crowd.shell.data).toBeUndefined()
    expect(crowd.shell.visible).toBe(false)
    crowd.setShell(1, 'red')
    crowd.setShell(3, ['green', 'blue'])
    crowd.setShell(4, [0.5, 0.25, 0.75])
    crowd.update(0)
    const shell = crowd.shell!
    expect(shell.count).toBe(3)
    for (const [row, i] of [1, 3, 4].entries()) {
      const copied = layerRow(shell, row)
      const body = crowdRow(crowd, i)
      // The body's row exactly, but for the colour in the light slot.
      expect(copied.matrix).toEqual(body.matrix)
      expect([...copied.data.slice(0, LIGHT), ...copied.data.slice(LIGHT + 3)]).toEqual([
        ...body.data.slice(0, LIGHT),
        ...body.data.slice(LIGHT + 3),
      ])
    }
    expect(light(layerRow(shell, 0))).toEqual([1, 0, 0])
    expect(light(layerRow(shell, 1))).toEqual([0, 1, 1])
    linear(0.5, 0.25, 0.75).forEach((c, n) => expect(light(layerRow(shell, 2))[n]).toBeCloseTo(c, 6))
    // Only the rows of the instances wearing one are uploaded; the crowd stays on its stored rows.
    expect(shell.data!.updateRanges).toEqual([{ start: 0, count: 3 * INSTANCE_STRIDE }])
    expect(crowd.drawnFrom).toBe('stored')
    shell.data!.clearUpdateRanges()
    shell.instanceMatrix.clearUpdateRanges()
    // Nothing told: nothing written.
    crowd.update(0.1)
    expect(shell.data!.updateRanges).toEqual([])
    // A hidden instance keeps its slot, its row hidden as its body's (the shader drops both); one taking its shell
    // off gives its slot up, the last slot's row moved into it: two slots written.
    crowd.hide(3)
    crowd.setShell(1, null)
    crowd.update(0)
    expect(shell.count).toBe(2)
    linear(0.5, 0.25, 0.75).forEach((c, n) => expect(light(layerRow(shell, 0))[n]).toBeCloseTo(c, 6))
    expect(layerRow(shell, 0).matrix).toEqual(crowdRow(crowd, 4).matrix)
    expect(layerRow(shell, 1).data[RANGE + 1]! & ROW_HIDDEN).toBe(ROW_HIDDEN)
    expect(shell.data!.updateRanges.map(({ start }) => start / INSTANCE_STRIDE).sort()).toEqual([0, 1])
    // The view culls in the shader, the shells' as the bodies': the layer draws its slots whatever the camera.
    const camera = new PerspectiveCamera(30, 1, 1, 5000)
    camera.position.set(160, 0, 150)
    camera.updateMatrixWorld()
    crowd.update(0, camera)
    expect(shell.count).toBe(2)
    crowd.dispose()
  })

  it("goes back to the crowd's own shell with `undefined`; `[]` and `null` are none", () => {
    const crowd = knights({ limit: 5, shell: 'blue' })
    crowd.setShell(0, 'red')
    crowd.setShell(2, [])
    crowd.setShell(3, null)
    crowd.update(0)
    expect(crowd.shell!.count).toBe(3)
    expect([0, 1, 2].map((k) => light(layerRow(crowd.shell!, k)))).toEqual([
      [1, 0, 0],
      [0, 0, 1],
      [0, 0, 1],
    ])
    crowd.setShell(0, undefined)
    crowd.update(0)
    expect(light(layerRow(crowd.shell!, 0))).toEqual([0, 0, 1])
    crowd.dispose()
  })
})

describe('MD2Crowd blob shadows', () => {
  it("gives each shadowed instance drawn the shade vector of its world yaw and its height above the floor, as the CPU path's", () => {
    const crowd = knights({ limit: 5, shadow: 'blob' })
    crowd.setShadow(2, false)
    crowd.position.y = 10
    crowd.update(0)
    const shadow = crowd.shadow!
    expect(shadow.count).toBe(4)
    const lowest = getMD2RenderData(knight).boundingBox.min.y
    for (const [row, i] of [0, 1, 3, 4].entries()) {
      const expected = new Float64Array([0, 0, 0, (i * 0.5 * 180) / Math.PI])
      shadowVector(expected)
      const [sx, sy, height] = light(layerRow(shadow, row))
      expect(sx).toBeCloseTo(expected[0]!, 6)
      expect(sy).toBeCloseTo(expected[1]!, 6)
      // No floor given: under the lowest point of any frame, as <MD2Model shadow="blob">.
      expect(height).toBeCloseTo(-lowest, 5)
    }
    // A floor given in world units: the origin's height above it, in the instance's own units.
    crowd.shadowFloor = -20
    crowd.update(0)
    for (const [row, i] of [0, 1, 3, 4].entries()) {
      const worldY = 10 + i * 3
      const scale = 0.5 + i * 0.25
      expect(light(layerRow(shadow, row))[2]).toBeCloseTo((worldY + 20) / scale, 4)
    }
    crowd.dispose()
  })

  it('is not hit by rays: a ray that meets only the shadow hits nothing, one through the body hits the instance', () => {
    const crowd = new MD2Crowd(knight, { limit: 1, shadow: 'blob', shadowFloor: -40 })
    crowd.setTransform(0, { position: new Vector3(0, 0, 0) })
    crowd.showFrame(0, 0)
    crowd.update(0)
    // Where the shadow lies and the body does not, found with the CPU path's shadow and body for that pose.
    const geometry = createMD2ShadowGeometry(knight)
    const bodyGeometry = createMD2Geometry(knight)
    const parameters = new Float64Array(4)
    shadowVector(parameters)
    parameters[2] = 40
    writeMD2Pose(bodyGeometry, createPose(0), { shadow: { geometry, parameters } })
    geometry.computeBoundingBox()
    // Either face: seen from above, a flattened triangle may face down.
    const material = new MeshBasicMaterial({ side: DoubleSide })
    const cpuShadow = new Mesh(geometry, material)
    const cpuBody = new Mesh(bodyGeometry, material)
    bodyGeometry.computeBoundingSphere()
    const raycaster = new Raycaster()
    const down = new Vector3(0, -1, 0)
    const box = geometry.boundingBox!
    let onlyShadow: Vector3 | undefined
    for (let x = box.min.x; x < box.max.x && !onlyShadow; x += 1) {
      for (let z = box.min.z; z < box.max.z && !onlyShadow; z += 1) {
        raycaster.set(new Vector3(x, 100, z), down)
        if (raycaster.intersectObject(cpuShadow).length > 0 && raycaster.intersectObject(cpuBody).length === 0)
          onlyShadow = new Vector3(x, 100, z)
      }
    }
    expect(onlyShadow, 'a point of the shadow outside the body').toBeDefined()
    raycaster.set(onlyShadow!, new Vector3(0, -1, 0))
    expect(raycaster.intersectObject(crowd, true)).toEqual([])
    raycaster.set(new Vector3(0, 100, 0), new Vector3(0, -1, 0))
    const hits = raycaster.intersectObject(crowd, true)
    expect(hits.length).toBeGreaterThan(0)
    expect(hits.every((hit) => hit.object === crowd && hit.instanceId === 0)).toBe(true)
    geometry.dispose()
    bodyGeometry.dispose()
    crowd.dispose()
  })
})

describe("MD2Crowd followers wear their leader's shells and shadows", () => {
  it("copies the leader's shell (its own first) and casts its shadow on the leader's floor", () => {
    const body = knights({ limit: 5 })
    const weapon = new MD2Crowd(knightWeapon, { limit: 5 })
    followCrowd(weapon, body)
    body.setShell(1, 'red')
    body.setShell(2, 'blue')
    weapon.setShell(2, 'green')
    body.setShadow(3, 'blob')
    body.update(0)
    expect(weapon.shell!.count).toBe(2)
    expect(light(layerRow(weapon.shell!, 0))).toEqual([1, 0, 0])
    expect(light(layerRow(weapon.shell!, 1))).toEqual([0, 1, 0])
    // The weapon's origin is the body's: its shadow lies where the body's does, on the body's lowest point.
    expect(weapon.shadow!.count).toBe(1)
    expect(light(layerRow(weapon.shadow!, 0))[2]).toBeCloseTo(light(layerRow(body.shadow!, 0))[2]!, 4)
    expect(light(layerRow(weapon.shadow!, 0))[2]).not.toBeCloseTo(-getMD2RenderData(knightWeapon).boundingBox.min.y, 1)
    weapon.dispose()
    body.dispose()
  })
})
