import { useFrame } from '@react-three/fiber'
import { useEffect, useMemo } from 'react'
import { AnimationMixer, Box3, Vector3, type AnimationClip, type Group } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { archiveOfFiles } from '../../src/core/internal'
import { convertToMD2, loadSimplifier, type BakedMD2, type MD2ArchiveFiles } from '../../src/index'

/** Quake II's players stand about 56 units tall: a dropped character is baked at that size. */
const TARGET_HEIGHT = 56

/** A dropped glTF, as shown beside its bake: the scene (a copy of its own), its clips, the bake's scale. */
export interface GLTFShown {
  scene: Group
  animations: AnimationClip[]
  scale: number
  clips: BakedMD2['clips']
  fps: number
  /** What `simplify` did, when the bake was asked to fit MD2's limits. */
  simplified?: BakedMD2['simplified']
}

/**
 * A dropped `.glb` (or `.gltf` with its buffers embedded) converted in the page with `convertToMD2`: the MD2 and its
 * skin as a PCX in Quake II's palette, as `react-three-md2 convert` writes them, in a one-folder archive the
 * viewer opens like any other; the source parsed a second time to play beside it. With `simplify`, a mesh past
 * MD2's limits is simplified to fit (meshoptimizer, loaded then).
 */
export async function bakedSource(
  name: string,
  bytes: Uint8Array,
  options: { simplify?: boolean } = {},
): Promise<{ archive: MD2ArchiveFiles; gltf: GLTFShown }> {
  if (options.simplify) await loadSimplifier()
  const parse = () => new GLTFLoader().parseAsync(bytes.slice().buffer, '')
  const [baking, shown] = await Promise.all([parse(), parse()])
  const size = new Box3().setFromObject(baking.scene, true).getSize(new Vector3())
  const scale = size.y > 0 ? TARGET_HEIGHT / size.y : 1
  const base = name.replace(/^.*\//, '').replace(/\.(glb|gltf)$/i, '')
  // The conversion `react-three-md2 convert` runs: every material in one skin fitted to Quake II, as a PCX.
  const converted = convertToMD2(baking.scene, baking.animations, {
    scale,
    skinName: `${base}.pcx`,
    name: `${base}.md2`,
    ...(options.simplify ? { simplify: true } : {}),
  })
  const baked = converted.baked
  const files: [string, Uint8Array][] = [[`${base}.md2`, converted.data]]
  if (converted.skin) files.push([`${base}.pcx`, converted.skin.data])
  return {
    archive: archiveOfFiles(files),
    gltf: {
      scene: shown.scene,
      animations: shown.animations,
      scale,
      clips: baked.clips,
      fps: baked.model.animations[0]?.fps ?? 10,
      simplified: baked.simplified,
    },
  }
}

/** The source scene, playing the clip the viewer's animation was baked from (or held at a scrubbed frame). */
export function GLTFPreview({ gltf, animation, frame }: { gltf: GLTFShown; animation: string; frame: number | undefined }) {
  const mixer = useMemo(() => new AnimationMixer(gltf.scene), [gltf])
  const baked = gltf.clips.find((clip) => clip.animation === animation)
  const clip = gltf.animations.find((c) => c.name === baked?.clip)
  useEffect(() => {
    if (!clip) return
    const action = mixer.clipAction(clip).play()
    return () => void action.stop()
  }, [mixer, clip])
  useFrame((_, delta) => {
    if (frame !== undefined && baked) {
      const time = (frame - baked.start) / gltf.fps
      mixer.setTime(Math.min(Math.max(time, 0), clip?.duration ?? 0))
    } else mixer.update(delta)
  })
  return <primitive object={gltf.scene} scale={gltf.scale} />
}
