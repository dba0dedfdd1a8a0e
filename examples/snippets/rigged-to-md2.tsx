import { useLoader } from '@react-three/fiber'
import { useMemo } from 'react'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { bakeMD2, createSkinTexture, decodePCX, encodePCX, MD2Model, skinImageOf, writeMD2 } from 'react-three-md2'

/** A rigged glTF character baked to MD2 in the page, playing as an <MD2Model> in its Quake II palette skin. */
export function BakedCharacter({ url, animation }: { url: string; animation: string }) {
  const gltf = useLoader(GLTFLoader, url)
  const baked = useMemo(() => {
    // 10 keyframes a second, as Quake II plays them; 32 makes a 1.75 m character 56 units tall.
    const { model, skinTexture } = bakeMD2(gltf.scene, gltf.animations, { fps: 10, scale: 32, skins: ['character.pcx'] })
    // The skin as the engine would get it: 8-bit PCX in Quake II's palette.
    const pcx = skinTexture ? encodePCX(skinImageOf(skinTexture)) : undefined
    return { model, pcx, skin: pcx ? createSkinTexture(decodePCX(pcx)) : null }
  }, [gltf])
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
