import { Matrix4, Mesh, Sphere, Vector3, type Box3, type InstancedMesh, type Intersection, type Raycaster } from 'three'
import { readCrowdPose, type CrowdClock } from '../../core/animation/CrowdClock.js'
import { createPose, type MD2Pose } from '../../core/animation/pose.js'
import type { MD2ModelData } from '../../core/format/types.js'
import { blendPoseYUp, blendVerticesYUp, type BlendTarget } from '../../core/animation/blendVertices.js'
import { createMD2Geometry, getMD2RenderData } from '../mesh/MD2Geometry.js'
import type { CrowdInstances } from './CrowdInstances.js'

/**
 * Questions about a crowd's instances as posed now, answered on the CPU: an instance's pose bounds, and
 * which drawn instances a ray hits (against their animated triangles). Queries, not a per-frame path:
 * each instance asked about is posed into one scratch mesh, made at the first question.
 */
export class CrowdQueries {
  private scratch: { mesh: Mesh; pose: MD2Pose; target: BlendTarget } | undefined

  constructor(
    private readonly crowd: {
      /** The crowd: its world matrix, its material, the instances it draws (`count`). */
      mesh: InstancedMesh
      model: MD2ModelData
      instances: CrowdInstances
      clock: CrowdClock
    },
  ) {}

  /** Instance `i` posed into the scratch mesh (made at the first query): positions only, by the body's kernels. */
  private pose(i: number): Mesh {
    const scratch = (this.scratch ??= this.makeScratch())
    const pose = readCrowdPose(this.crowd.clock.poses, i, scratch.pose)
    // The crowd's poses hold frames of its model (clamped as they are written).
    if (pose.fadeWeight > 0) blendPoseYUp(this.crowd.model, pose, scratch.target)
    else blendVerticesYUp(this.crowd.model, pose, scratch.target)
    scratch.mesh.geometry.getAttribute('position').needsUpdate = true
    return scratch.mesh
  }

  private makeScratch(): { mesh: Mesh; pose: MD2Pose; target: BlendTarget } {
    const geometry = createMD2Geometry(this.crowd.model, { normals: false })
    const target = {
      xyzIndex: getMD2RenderData(this.crowd.model).layout.xyzIndex,
      positions: geometry.getAttribute('position').array as Float32Array,
    }
    return { mesh: new Mesh(geometry, this.crowd.mesh.material), pose: createPose(0), target }
  }

  /** The box of instance `i`'s pose, placed by its transform (in the crowd's space), written into `target`. */
  poseBounds(i: number, target: Box3): Box3 {
    const positions = this.pose(i).geometry.getAttribute('position').array as Float32Array
    const e = instanceWorld.fromArray(this.crowd.instances.transforms, i * 16).elements
    target.makeEmpty()
    for (let o = 0; o < positions.length; o += 3) {
      const x = positions[o]!
      const y = positions[o + 1]!
      const z = positions[o + 2]!
      corner.set(
        e[0]! * x + e[4]! * y + e[8]! * z + e[12]!,
        e[1]! * x + e[5]! * y + e[9]! * z + e[13]!,
        e[2]! * x + e[6]! * y + e[10]! * z + e[14]!,
      )
      target.expandByPoint(corner)
    }
    return target
  }

  /** Hits against each drawn instance's animated triangles, as the crowd's (`instanceId`: the instance). */
  raycast(raycaster: Raycaster, intersects: Intersection[]): void {
    const { instances } = this.crowd
    for (let k = 0; k < this.crowd.mesh.count; k++) {
      const i = instances.ids[k]!
      instanceWorld.fromArray(instances.transforms, i * 16).premultiply(this.crowd.mesh.matrixWorld)
      worldSphere.copy(instances.sphere).applyMatrix4(instanceWorld)
      if (!raycaster.ray.intersectsSphere(worldSphere)) continue
      const posed = this.pose(i)
      posed.geometry.boundingSphere = instances.sphere
      posed.matrixWorld.copy(instanceWorld)
      const before = intersects.length
      posed.raycast(raycaster, intersects)
      for (let h = before; h < intersects.length; h++) {
        intersects[h]!.instanceId = i
        intersects[h]!.object = this.crowd.mesh
      }
    }
  }

  dispose(): void {
    this.scratch?.mesh.geometry.dispose()
  }
}

const instanceWorld = new Matrix4()
const corner = new Vector3()
const worldSphere = new Sphere()
