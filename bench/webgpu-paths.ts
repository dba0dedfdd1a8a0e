/**
 * The three ways the WebGPU bench (bench/webgpu-crowd.ts) draws N Ogros, each one object in a scene of
 * its own with the same lights:
 *
 * - floor: the drawing floor. The library's geometry of the Ogro (`createMD2Geometry`: indexed, frame 0
 *   of the model, the same index, UVs and triangle count the crowd draws) as one `InstancedMesh` with a
 *   `MeshLambertMaterial` and the skin; matrices set once, nothing animated, nothing updated per frame.
 *   Its matrices are a `StorageInstancedBufferAttribute`, read from storage as the crowd's are on WebGPU
 *   (three's default, a uniform array up to 1,024 instances, is several times slower on SwiftShader), so
 *   that the two differ by the animation alone.
 * - crowd: `MD2Crowd` with the same skin, every instance playing a looped animation, `update()` each frame.
 * - three: three.js's instanced morph path as its `webgpu_instancing_morph` example does it: the geometry
 *   `MD2Loader` makes (198 frames as morph targets of positions and normals, not indexed), one
 *   `InstancedMesh`, and per frame one `AnimationMixer` set to each instance's time and copied into that
 *   instance's row of the mesh's morph texture (`setMorphAt`). (three's `BatchedMesh` has no morph targets.)
 *   `relative`: the same frames as relative targets (each minus frame 0, as a glTF's and the example's
 *   are), because on r187 WebGPURenderer throws on MD2Loader's absolute targets on an InstancedMesh: its
 *   `morphBase` uniform sums `object.morphTargetInfluences`, which an InstancedMesh does not have
 *   (three/src/nodes/accessors/Morph.js; relative targets skip the sum).
 */
import {
  AmbientLight,
  AnimationMixer,
  type BufferGeometry,
  DirectionalLight,
  InstancedMesh,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  type AnimationClip,
  type PerspectiveCamera,
  Scene,
  type Texture,
  Vector3,
} from 'three'
import { MD2Loader } from 'three/addons/loaders/MD2Loader.js'
import { StorageInstancedBufferAttribute } from 'three/webgpu'
import type { MD2ModelData } from '../src/core/format/types'
import { MD2Crowd } from '../src/three/crowd/MD2Crowd'
import { createMD2Geometry } from '../src/three/mesh/MD2Geometry'

export type PathName = 'floor' | 'crowd' | 'three'

export interface DrawPath {
  name: PathName
  scene: Scene
  /** The path's own JavaScript before a frame is drawn (none for the floor); returns its ms. */
  step(seconds: number, camera: PerspectiveCamera): number
  /** Instances the path sees as in view (the crowd lists them when asked; the others draw all). */
  inView(): number
  dispose(): void
}

/** The Ogros' places: a square grid on the ground, 60 units apart, centred on the origin. */
export function gridPosition(i: number, n: number, target: Vector3): Vector3 {
  const side = Math.ceil(Math.sqrt(n))
  return target.set(((i % side) - (side - 1) / 2) * 60, 0, (Math.floor(i / side) - (side - 1) / 2) * 60)
}

function litScene(): Scene {
  const scene = new Scene()
  scene.add(new AmbientLight(0xffffff, 0.6))
  const sun = new DirectionalLight(0xffffff, 2)
  sun.position.set(200, 400, 300)
  scene.add(sun)
  return scene
}

function placed(mesh: InstancedMesh, n: number): InstancedMesh {
  const position = new Vector3()
  const matrix = new Matrix4()
  for (let i = 0; i < n; i++) mesh.setMatrixAt(i, matrix.makeTranslation(gridPosition(i, n, position)))
  mesh.computeBoundingSphere()
  return mesh
}

export function floorPath(model: MD2ModelData, skin: Texture, n: number): DrawPath {
  const scene = litScene()
  const geometry = createMD2Geometry(model)
  const material = new MeshLambertMaterial({ map: skin })
  const mesh = new InstancedMesh(geometry, material, n)
  mesh.instanceMatrix = new StorageInstancedBufferAttribute(new Float32Array(n * 16), 16)
  scene.add(placed(mesh, n))
  return {
    name: 'floor',
    scene,
    step: () => 0,
    inView: () => n,
    dispose() {
      geometry.dispose()
      material.dispose()
    },
  }
}

/** Looped animations of the Ogro, taken in turn so the crowd is not one animation in step. */
const ANIMATIONS = ['run', 'stand', 'attack', 'wave', 'salute', 'taunt'] as const

export function crowdPath(model: MD2ModelData, skin: Texture, n: number): DrawPath {
  const scene = litScene()
  const crowd = new MD2Crowd(model, { limit: n, map: skin })
  const position = new Vector3()
  for (let i = 0; i < n; i++) {
    crowd.setTransform(i, { position: gridPosition(i, n, position), rotation: i })
    crowd.play(i, ANIMATIONS[i % ANIMATIONS.length]!)
  }
  scene.add(crowd)
  return {
    name: 'crowd',
    scene,
    step(seconds, camera) {
      const start = performance.now()
      crowd.update(seconds, camera)
      return performance.now() - start
    },
    inView: () => crowd.inView,
    dispose: () => crowd.dispose(),
  }
}

/** Makes `geometry`'s absolute morph targets relative to its base attributes (as a glTF's are). */
function makeRelative(geometry: BufferGeometry): void {
  for (const name of ['position', 'normal'] as const) {
    const base = geometry.getAttribute(name).array
    for (const target of geometry.morphAttributes[name] ?? []) {
      const array = target.array as Float32Array
      for (let k = 0; k < array.length; k++) array[k] = array[k]! - base[k]!
    }
  }
  geometry.morphTargetsRelative = true
}

export function threeMorphPath(buffer: ArrayBuffer, skin: Texture, n: number, relative: boolean): DrawPath {
  const scene = litScene()
  const geometry = new MD2Loader().parse(buffer) as BufferGeometry & { animations: AnimationClip[] }
  if (relative) makeRelative(geometry)
  const material = new MeshLambertMaterial({ map: skin })
  const mesh = placed(new InstancedMesh(geometry, material, n), n)
  scene.add(mesh)
  // The example's dummy: a mesh whose influences the mixer sets, copied per instance.
  const dummy = new Mesh(geometry, material)
  const mixer = new AnimationMixer(dummy)
  mixer.clipAction(geometry.animations.find((clip) => clip.name === 'run') ?? geometry.animations[0]!).play()
  let time = 0
  return {
    name: 'three',
    scene,
    step(seconds) {
      const start = performance.now()
      time += seconds
      for (let i = 0; i < n; i++) {
        mixer.setTime(time + i * 0.037)
        mesh.setMorphAt(i, dummy)
      }
      mesh.morphTexture!.needsUpdate = true
      return performance.now() - start
    },
    inView: () => n,
    dispose() {
      mesh.morphTexture?.dispose()
      geometry.dispose()
      material.dispose()
    },
  }
}
