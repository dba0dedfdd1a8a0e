import {
  AnimationMixer,
  LoopOnce,
  Matrix4,
  Vector3,
  type AnimationClip,
  type Group,
  type Mesh,
  type Object3D,
  type SkinnedMesh,
} from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { dropImages } from '../../src/cli/readInputs'
import type { MD2ModelData } from '../../src/core/format/types'
import { packGLB, readGLB } from '../../src/core/gltf/glb'
import { createMD2Geometry, writeMD2Frame } from '../../src/three/mesh/MD2Geometry'

/**
 * Where three draws every visible mesh's vertices at `time` into `clip`, in world space, worked out here
 * as three's vertex shader does it (relative morph targets, then the bone matrices `skeleton.update()`
 * hands the GPU, then the model matrix) rather than through `getVertexPosition`, which the bake uses.
 * The clip is played once and held at its end, as a one-shot action shows it.
 */
export function threePose(scene: Object3D, clip: AnimationClip | undefined, time: number): Float32Array {
  const mixer = new AnimationMixer(scene)
  const action = clip ? mixer.clipAction(clip).setLoop(LoopOnce, 1) : undefined
  if (action) {
    action.clampWhenFinished = true
    action.play()
    mixer.setTime(time)
  }
  scene.updateMatrixWorld(true)
  const out: number[] = []
  const p = new Vector3()
  const skinned = new Vector3()
  const bone = new Matrix4()
  scene.traverseVisible((object) => {
    const mesh = object as Mesh
    if (!mesh.isMesh) return
    const geometry = mesh.geometry
    const position = geometry.getAttribute('position')
    const morphs = geometry.morphAttributes.position ?? []
    const influences = mesh.morphTargetInfluences ?? []
    const skin = (mesh as SkinnedMesh).isSkinnedMesh ? (mesh as SkinnedMesh) : undefined
    skin?.skeleton.update()
    for (let i = 0; i < position.count; i++) {
      p.fromBufferAttribute(position, i)
      morphs.forEach((target, t) => {
        const w = influences[t] ?? 0
        if (w !== 0) p.add(new Vector3().fromBufferAttribute(target, i).multiplyScalar(w))
      })
      if (skin) {
        p.applyMatrix4(skin.bindMatrix)
        skinned.set(0, 0, 0)
        const indices = geometry.getAttribute('skinIndex')
        const weights = geometry.getAttribute('skinWeight')
        for (let k = 0; k < 4; k++) {
          const w = weights.getComponent(i, k)
          if (w === 0) continue
          bone.fromArray(skin.skeleton.boneMatrices!, indices.getComponent(i, k) * 16)
          skinned.add(p.clone().applyMatrix4(bone).multiplyScalar(w))
        }
        p.copy(skinned).applyMatrix4(skin.bindMatrixInverse)
      }
      p.applyMatrix4(mesh.matrixWorld)
      out.push(p.x, p.y, p.z)
    }
  })
  action?.stop()
  mixer.uncacheRoot(scene)
  scene.updateMatrixWorld(true)
  return Float32Array.from(out)
}

/**
 * The largest distance, per axis divided by that axis' tolerance, from each point of `a` to the nearest of
 * `b` and back: at most 1 when every point has a partner within tolerance on every axis.
 */
export function worstNearest(a: ArrayLike<number>, b: ArrayLike<number>, tolerance: readonly [number, number, number]): number {
  const one = (from: ArrayLike<number>, to: ArrayLike<number>) => {
    let worst = 0
    for (let i = 0; i < from.length; i += 3) {
      let best = Infinity
      for (let j = 0; j < to.length && best > 0; j += 3) {
        const d = Math.max(
          Math.abs(from[i]! - to[j]!) / tolerance[0],
          Math.abs(from[i + 1]! - to[j + 1]!) / tolerance[1],
          Math.abs(from[i + 2]! - to[j + 2]!) / tolerance[2],
        )
        if (d < best) best = d
      }
      worst = Math.max(worst, best)
    }
    return worst
  }
  return Math.max(one(a, b), one(b, a))
}

/** A .glb through three's GLTFLoader in Node (its texture left out: Node cannot draw images). */
export async function loadGLB(glb: Uint8Array): Promise<{ scene: Group; animations: AnimationClip[] }> {
  const { json, bin } = readGLB(glb)
  dropImages(json)
  return new GLTFLoader().parseAsync(packGLB(json, bin).slice().buffer, '')
}

/** Frame `f` as the library draws it (createMD2Geometry + writeMD2Frame), three.js coordinates. */
export function drawnFrame(model: MD2ModelData, f: number): Float32Array {
  const geometry = createMD2Geometry(model)
  writeMD2Frame(geometry, model, f, f, 0)
  return Float32Array.from(geometry.getAttribute('position').array)
}

/** Half the frame's quantum per three.js axis (MD2 x, y, z are three's Z, X, Y), and float slack. */
export function halfStep(model: MD2ModelData, f: number): [number, number, number] {
  const s = model.frameTransforms
  return [s[f * 6 + 1]! / 2 + 1e-5, s[f * 6 + 2]! / 2 + 1e-5, s[f * 6]! / 2 + 1e-5]
}
