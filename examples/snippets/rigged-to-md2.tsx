import { useLoader } from '@react-three/fiber'
import { use, useMemo } from 'react'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { bakeMD2, createSkinTexture, decodePCX, encodePCX, loadSimplifier, MD2Model, skinImageOf, writeMD2 } from 'react-three-md2'

// meshoptimizer's simplifier (WebAssembly), loaded once, on demand: only a page that simplifies ships it.
const simplifierReady = loadSimplifier()

/**
 * Mixamo's downloads baked into one MD2 in the page: the first file gives the character (its mesh, skin and
 * skeleton), every file one animation, named after the file (Mixamo names each download's one clip
 * "Armature|mixamo.com|Layer0"). Simplified to Quake II's limits, playing as an <MD2Model> in its PCX skin.
 */
export function BakedCharacter({ files, animation }: { files: { name: string; url: string }[]; animation: string }) {
  use(simplifierReady)
  const downloads = useLoader(
    GLTFLoader,
    files.map((file) => file.url),
  )
  const baked = useMemo(() => {
    const clips = downloads.map((gltf, i) => {
      const clip = gltf.animations[0]!.clone()
      clip.name = files[i]!.name
      return clip
    })
    // Bone names match across downloads: every clip plays on the first file's skeleton (a clip naming a
    // bone it lacks is refused, the bones named). 32 makes a 1.75 m character 56 units tall, as Quake II's.
    const { model, skinImage, skinTexture } = bakeMD2(downloads[0]!.scene, clips, {
      fps: 10,
      scale: 32,
      simplify: true,
      skins: ['character.pcx'],
    })
    // The skin as the engine would get it: every material baked into one image (or the one map as it is), as
    // 8-bit PCX in Quake II's palette.
    const image = skinImage ?? (skinTexture ? skinImageOf(skinTexture) : undefined)
    const pcx = image ? encodePCX(image) : undefined
    return { model, pcx, skin: pcx ? createSkinTexture(decodePCX(pcx)) : null }
  }, [downloads, files])
  const save = () => {
    for (const [bytes, name] of [
      [writeMD2(baked.model), 'character.md2'],
      [baked.pcx, 'character.pcx'],
    ] as const) {
      if (!bytes) continue
      const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(new Blob([bytes.slice()])), download: name })
      link.click()
    }
  }
  return <MD2Model model={baked.model} skin={baked.skin} animation={animation} onClick={save} />
}
