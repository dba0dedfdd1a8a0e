import { AnimationMixer, Mesh, MeshLambertMaterial, type Texture } from 'three'
import { MD2Loader, createMD2MorphGeometry } from 'react-three-md2/three'

// Code built on three's MD2Loader + AnimationMixer: the geometry three's loader returns, morph targets and clips.
export async function loadForMixer(url: string, skin: Texture) {
  const model = await new MD2Loader().loadAsync(url)
  const geometry = createMD2MorphGeometry(model) // ({ handedness: 'three' }): three's coordinates exactly
  const mesh = new Mesh(geometry, new MeshLambertMaterial({ map: skin }))
  const mixer = new AnimationMixer(mesh)
  mixer.clipAction(geometry.animations.find((clip) => clip.name === 'run')!).play()
  return { mesh, mixer } // mixer.update(delta) each frame
}
