/**
 * Culling has one source of planes (`src/three/mesh/frustum.ts`), serving `<MD2Model>`'s `inView` and the
 * crowd's per-instance test: its planes are three's `Frustum`'s for WebGL's depth, WebGPU's (near plane at
 * depth 0) and reversed depth, in the world or in a crowd's own space, and the crowd draws exactly the
 * instances whose spheres three's `Frustum` finds in view.
 */
import {
  BufferGeometry,
  Frustum,
  Matrix4,
  Mesh,
  PerspectiveCamera,
  Quaternion,
  Sphere,
  Vector3,
  WebGLCoordinateSystem,
  WebGPUCoordinateSystem,
} from 'three'
import { describe, expect, it } from 'vitest'
import { parseMD2 } from '../../src/core/format/parseMD2'
import { MD2Crowd } from '../../src/three/crowd/MD2Crowd'
import { FRUSTUM_FLOATS, inView, writeFrustumPlanes } from '../../src/three/mesh/frustum'
import { createMD2Geometry, getMD2RenderData } from '../../src/three/mesh/MD2Geometry'
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

describe('inView (<MD2Model>: write the pose only when in view)', () => {
  const geometry = createMD2Geometry(ogro)
  // A small sphere far from its mesh's origin, so every term of its placement counts.
  const offCentre = new BufferGeometry()
  offCentre.boundingSphere = new Sphere(new Vector3(40, -30, 25), 6)

  /** Mesh `i` of a grid reaching from behind the camera to past its far plane, turned and scaled unevenly. */
  function meshAt(i: number): Mesh {
    const mesh = new Mesh(i % 2 ? offCentre : geometry)
    mesh.position.set((i % 24) * 50 - 600, (i % 7) * 25 - 75, Math.floor(i / 24) * 60 - 1100)
    mesh.rotation.set(i * 0.1, i * 0.3, i * 0.2)
    // Each axis in turn the most scaled: the radius grows by the largest.
    const scales = [0.5, 0.75, 1.5 + (i % 4) * 0.25]
    mesh.scale.set(scales[i % 3]!, scales[(i + 1) % 3]!, scales[(i + 2) % 3]!)
    mesh.updateMatrixWorld()
    return mesh
  }

  /** Three's answer with inView's margin, or undefined when the sphere is too near a plane to tell in single floats. */
  function threeSays(mesh: Mesh, frustum: Frustum): boolean | undefined {
    const sphere = new Sphere().copy(mesh.geometry.boundingSphere!).applyMatrix4(mesh.matrixWorld)
    sphere.radius *= 1.25
    const nearest = Math.min(...frustum.planes.map((plane) => plane.distanceToPoint(sphere.center) + sphere.radius))
    if (Math.abs(nearest) < 1e-3 * sphere.radius) return undefined
    return frustum.intersectsSphere(sphere)
  }

  it.each(DEPTHS)("agrees with three's Frustum and Sphere for every mesh of a grid (%s depth), and follows the camera", (depth) => {
    const camera = cameraFor(depth)
    const meshes = Array.from({ length: 24 * 20 }, (_, i) => meshAt(i))
    for (const turn of [0, 1]) {
      if (turn) {
        // A moved camera: the shared planes are rebuilt.
        camera.position.set(-200, 10, -300)
        camera.lookAt(0, 0, -900)
        camera.updateMatrixWorld()
      }
      const frustum = threeFrustum(camera)
      let inside = 0
      let outside = 0
      for (const mesh of meshes) {
        const want = threeSays(mesh, frustum)
        if (want === undefined) continue
        expect(inView(mesh, camera), `mesh at ${mesh.position.toArray()}`).toBe(want)
        if (want) inside++
        else outside++
      }
      // The grid puts plenty on each side of every answer.
      expect(inside).toBeGreaterThan(20)
      expect(outside).toBeGreaterThan(20)
    }
  })

  it('is always true for a mesh that is not frustum-culled or has no bounding sphere', () => {
    const camera = cameraFor('webgl')
    const behind = meshAt(0)
    behind.position.set(0, 0, 1000)
    behind.updateMatrixWorld()
    expect(inView(behind, camera)).toBe(false)
    behind.frustumCulled = false
    expect(inView(behind, camera)).toBe(true)
    const unbounded = new Mesh(new BufferGeometry())
    unbounded.position.set(0, 0, 1000)
    unbounded.updateMatrixWorld()
    expect(inView(unbounded, camera)).toBe(true)
  })
})
