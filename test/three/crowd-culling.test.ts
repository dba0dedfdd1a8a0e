/**
 * Culling has one source of planes (`src/three/mesh/frustum.ts`), serving `<MD2Model>`'s `inView` and the
 * crowd's per-instance test: its planes are three's `Frustum`'s for WebGL's depth, WebGPU's (near plane at
 * depth 0) and reversed depth, in the world or in a crowd's own space, and the crowd draws exactly the
 * instances whose spheres three's `Frustum` finds in view.
 */
import { Frustum, Matrix4, PerspectiveCamera, Quaternion, Sphere, Vector3, WebGLCoordinateSystem, WebGPUCoordinateSystem } from 'three'
import { describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { FRUSTUM_FLOATS, writeFrustumPlanes } from '../../src/three/mesh/frustum'
import { getMD2RenderData } from '../../src/three/mesh/MD2Geometry'
import { readAsset } from '../support/assets'

const ogro = parseMD2(readAsset('quake2/ogro/tris.MD2').slice(), { name: 'ogro/tris.MD2' })

type Depth = 'webgl' | 'webgpu' | 'reversed'

function cameraFor(depth: Depth): PerspectiveCamera {
  const camera = new PerspectiveCamera(50, 4 / 3, 5, 900)
  camera.coordinateSystem = depth === 'webgpu' ? WebGPUCoordinateSystem : WebGLCoordinateSystem
  // What a renderer with a reversed depth buffer sets on the cameras it draws with.
  ;(camera as unknown as { _reversedDepth: boolean })._reversedDepth = depth === 'reversed'
  camera.position.set(30, 40, 200)
  camera.lookAt(-20, 0, 0)
  camera.updateProjectionMatrix()
  camera.updateMatrixWorld()
  return camera
}

/** Three's own frustum of `camera`, in the space `world` maps from. */
function threeFrustum(camera: PerspectiveCamera, world = new Matrix4()): Frustum {
  const m = new Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).multiply(world)
  return new Frustum().setFromProjectionMatrix(m, camera.coordinateSystem, camera.reversedDepth)
}

const DEPTHS: Depth[] = ['webgl', 'webgpu', 'reversed']
const crowdWorld = new Matrix4().compose(
  new Vector3(-15, 3, 20),
  new Quaternion().setFromAxisAngle(new Vector3(0.3, 1, 0).normalize(), 0.8),
  new Vector3(1.5, 1.5, 1.5),
)

describe('writeFrustumPlanes', () => {
  it.each(DEPTHS)("writes three's Frustum's six planes (%s depth), in the world and in a crowd's space", (depth) => {
    const camera = cameraFor(depth)
    for (const world of [undefined, crowdWorld]) {
      const planes = writeFrustumPlanes(new Float32Array(FRUSTUM_FLOATS), camera, world)
      threeFrustum(camera, world).planes.forEach((plane, p) => {
        const want = [plane.normal.x, plane.normal.y, plane.normal.z, plane.constant]
        want.forEach((value, c) => expect(Math.abs(planes[p * 4 + c]! - value), `plane ${p}, ${c}`).toBeLessThan(1e-5))
      })
    }
  })

  it("differs between the depth ranges only in the near and far planes, where three's do", () => {
    const [webgl, webgpu, reversed] = DEPTHS.map((depth) => {
      const camera = cameraFor(depth)
      // The same projection for all three: only the planes' reading of it differs.
      camera.projectionMatrix.copy(cameraFor('webgpu').projectionMatrix)
      return writeFrustumPlanes(new Float32Array(FRUSTUM_FLOATS), camera)
    })
    expect(Array.from(webgl!.subarray(0, 16))).toEqual(Array.from(webgpu!.subarray(0, 16)))
    expect(Array.from(webgl!.subarray(16))).not.toEqual(Array.from(webgpu!.subarray(16)))
    expect(Array.from(reversed!.subarray(16))).not.toEqual(Array.from(webgpu!.subarray(16)))
  })
})

describe('MD2Crowd culling', () => {
  /** Instance `i` of a grid reaching from behind the camera to past its far plane, and off each side. */
  const placeOf = (i: number) => ({
    position: new Vector3((i % 20) * 60 - 600, (i % 7) * 20 - 60, Math.floor(i / 20) * 70 - 1100),
    rotation: i * 0.3,
    scale: 0.5 + (i % 3) * 0.5,
  })
  // The sphere around every frame, which the crowd culls each instance by.
  const allFrames = getMD2RenderData(ogro).boundingSphere

  it.each(DEPTHS)("draws exactly the instances whose spheres three's Frustum finds in view (%s depth)", (depth) => {
    const camera = cameraFor(depth)
    const crowd = new MD2Crowd(ogro, { limit: 400 })
    crowdWorld.decompose(crowd.position, crowd.quaternion, crowd.scale)
    for (let i = 0; i < 400; i++) crowd.setTransform(i, placeOf(i))
    crowd.update(0, camera)
    const drawn = Array.from({ length: crowd.inView }, (_, k) => crowd.instanceAt(k))
    const frustum = threeFrustum(camera)
    const seen: number[] = []
    for (let i = 0; i < 400; i++) {
      const { position, rotation, scale } = placeOf(i)
      const world = new Matrix4()
        .compose(position, new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), rotation), new Vector3().setScalar(scale))
        .premultiply(crowdWorld)
      if (frustum.intersectsSphere(new Sphere().copy(allFrames).applyMatrix4(world))) seen.push(i)
    }
    expect(seen.length).toBeGreaterThan(20)
    expect(seen.length).toBeLessThan(380)
    expect(drawn).toEqual(seen)
    crowd.dispose()
  })
})
