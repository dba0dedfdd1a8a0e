import { Frustum, Matrix4, Sphere, type Camera, type Mesh } from 'three'

/**
 * The view frustum, shared by every instance: rebuilt only when the camera or its matrices change,
 * so N instances pay for one frustum per frame, not N.
 */
const cull = {
  camera: null as Camera | null,
  /** projectionMatrix then matrixWorldInverse elements the frustum was built from. */
  key: new Float64Array(32),
  frustum: new Frustum(),
  matrix: new Matrix4(),
  sphere: new Sphere(),
}

function sharedFrustum(camera: Camera): Frustum {
  const projection = camera.projectionMatrix.elements
  const view = camera.matrixWorldInverse.elements
  const key = cull.key
  let same = cull.camera === camera
  for (let i = 0; same && i < 16; i++) same = key[i] === projection[i] && key[16 + i] === view[i]
  if (!same) {
    cull.camera = camera
    key.set(projection)
    key.set(view, 16)
    cull.frustum.setFromProjectionMatrix(cull.matrix.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse))
  }
  return cull.frustum
}

/**
 * Whether the mesh's all-frames sphere  (with a margin for last frame's transforms) is in view: the per-frame
 * test every animated model makes before writing its vertices, against one frustum shared by all.
 */
export function inView(mesh: Mesh, camera: Camera): boolean {
  if (!mesh.frustumCulled) return true
  const sphere = mesh.geometry.boundingSphere
  if (!sphere) return true
  const frustum = sharedFrustum(camera)
  const bounds = cull.sphere.copy(sphere).applyMatrix4(mesh.matrixWorld)
  bounds.radius *= 1.25
  return frustum.intersectsSphere(bounds)
}
